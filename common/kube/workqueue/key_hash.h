#pragma once
// hash_combine: builds the Hash of a struct used as a work-queue key from its fields' hashes.
// The usual golden-ratio mix: cheap, and equal field values in different positions spread.

#include <cstddef>
#include <functional>

namespace vc::kube::workqueue {

template <class T>
void hash_combine(std::size_t& seed, const T& value) {
  seed ^= std::hash<T>{}(value) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

}  // namespace vc::kube::workqueue
