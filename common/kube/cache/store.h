#pragma once
// Store: the thread-safe map of cached objects by key ("ns/name" or "name"), with indexes.
// An index is a named function from an object to the values it is filed under (the built-in
// "namespace" index files an object under its namespace); by_index(index, value) returns the
// objects filed under value. Controllers use indexes to find, say, the pods of one job without
// scanning every pod.
//
// Thread-safety: every method may be called from any thread. Readers share a lock; writers (the
// informer's reflector thread) take it exclusively. Objects are immutable and handed out as
// shared pointers, so a reader keeps its snapshot however the store changes afterwards.

#include <cstddef>
#include <functional>
#include <map>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/kube/cache/object.h"

namespace vc::kube::cache {

using IndexFunc = std::function<std::vector<std::string>(const Object&)>;

// The built-in index: an object's namespace ("" for cluster-scoped objects).
inline constexpr const char* kNamespaceIndex = "namespace";

// What replace() changed. old_obj null: added; new_obj null: deleted; both set: updated.
struct StoreChange {
  ObjectPtr old_obj;
  ObjectPtr new_obj;
};

class Store {
 public:
  Store();  // with the namespace index

  // Registers an index. Must be called before the first object is stored (throws
  // std::logic_error after): existing objects would be missing from it. Returns false, keeping
  // the first function, when an index of this name exists: shared informers let several
  // controllers ask for the same index, and a name means one function.
  bool add_indexer(const std::string& name, IndexFunc fn);

  // Inserts obj, replacing the object with its key; returns the replaced object or null.
  ObjectPtr upsert(ObjectPtr obj);
  // Removes the object with this key; returns it, or null when absent.
  ObjectPtr remove(const std::string& key);
  // Makes the store hold exactly objects (for the same key, the last wins) and returns what
  // changed: additions, deletions, and updates of objects whose resourceVersion differs. An
  // object with an unchanged resourceVersion keeps its cached instance and yields no change.
  std::vector<StoreChange> replace(std::vector<ObjectPtr> objects);

  ObjectPtr get(const std::string& key) const;
  std::vector<ObjectPtr> list() const;
  std::vector<std::string> keys() const;
  size_t size() const;
  // Objects filed under value in the named index. Throws std::invalid_argument for an unknown
  // index (a programming error).
  std::vector<ObjectPtr> by_index(const std::string& index, const std::string& value) const;
  // Calls visit on each object by_index would return, without copying them out: for hot loops
  // that only read (a queue counting its podgroups on every change). visit runs under the
  // store's read lock, so it must not call back into this store or block.
  void for_each_in_index(const std::string& index, const std::string& value,
                         const std::function<void(const Object&)>& visit) const;
  // The values of an index that currently have objects.
  std::vector<std::string> index_values(const std::string& index) const;

 private:
  using Bucket = std::unordered_set<ObjectPtr>;
  struct Index {
    IndexFunc fn;
    std::unordered_map<std::string, Bucket> buckets;
  };

  void file_locked(const ObjectPtr& obj);
  void unfile_locked(const ObjectPtr& obj);
  ObjectPtr upsert_locked(std::string key, ObjectPtr obj);
  const Index& index_locked(const std::string& name) const;
  // The objects filed under value in the named index; null when there are none.
  const Bucket* bucket_locked(const std::string& index, const std::string& value) const;

  mutable std::shared_mutex mu_;
  // Invariant: every object in items_ is filed in every index under exactly the values its index
  // function returns, and no other object is filed anywhere.
  std::unordered_map<std::string, ObjectPtr> items_;
  std::map<std::string, Index, std::less<>> indexes_;
};

}  // namespace vc::kube::cache
