# syntax=docker/dockerfile:1
# The vc-webhook-manager image: built on Debian 12 with exactly the Debian packages the
# Makefile's DEB_PACKAGES lists (the toolchain developers and CI use), run on
# debian:bookworm-slim with only the shared libraries the binary links, as user 65532.
#
#   docker build -f docker/webhook.Dockerfile -t vc-cpp/vc-webhook-manager:0.1.0 .
#
# Run from the repository root; BuildKit (the default builder) is needed for the cache mounts
# and for docker/webhook.Dockerfile.dockerignore, which keeps build trees and cluster state out
# of the context.

FROM debian:bookworm AS build
ENV DEBIAN_FRONTEND=noninteractive
WORKDIR /src
# `make deps` installs the Makefile's DEB_PACKAGES, so the image cannot drift from the list
# the project is built and tested with. This layer is cached until the Makefile changes.
COPY Makefile ./
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends make \
 && make deps \
 && rm -rf /var/lib/apt/lists/*
COPY . .
# RelWithDebInfo is the configuration the tests run; the debug info is stripped on install.
# ccache (found by CMakeLists.txt) keeps its cache in a BuildKit cache mount between builds.
ENV CCACHE_DIR=/ccache
RUN --mount=type=cache,target=/ccache \
    cmake -S . -B /build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVC_BUILD_BENCH=OFF \
 && cmake --build /build -j"$(nproc)" --target vc-webhook-manager \
 && install -D -s -m 0755 /build/webhook/vc-webhook-manager /out/vc-webhook-manager

FROM debian:bookworm-slim
# The runtime halves of the -dev packages the binary links: OpenSSL, yaml-cpp, spdlog, fmt and
# prometheus-cpp core, jemalloc (Boost.Beast/Asio, nlohmann-json and CLI11 are header-only).
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      libssl3 libyaml-cpp0.7 libspdlog1.10 libfmt9 libprometheus-cpp-core1.0 libjemalloc2 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/vc-webhook-manager /usr/local/bin/vc-webhook-manager
# Fail the build, not the pod, if the list above misses a library the binary needs.
RUN if ldd /usr/local/bin/vc-webhook-manager | grep 'not found'; then exit 1; fi
LABEL org.opencontainers.image.title="vc-webhook-manager" \
      org.opencontainers.image.description="C++ drop-in for Volcano's admission webhook"
# The same UID/GID the Deployment's securityContext asks for; no shell login, no home needed.
USER 65532:65532
# 8443: HTTPS admission (--port); 11251: /healthz, /readyz, /metrics (--healthz-address).
EXPOSE 8443 11251
ENTRYPOINT ["/usr/local/bin/vc-webhook-manager"]
