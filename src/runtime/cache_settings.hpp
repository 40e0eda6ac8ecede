// SPDX-License-Identifier: Apache-2.0
// runtime/cache_settings.hpp — global capacities of the compiled-partition
// cache (entries) and of the constant tensor cache (MB per engine kind, plus
// the eviction policy), with their environment defaults:
//   DNNL_GRAPH_COMPILED_PARTITION_CACHE_CAPACITY=<entries>   (default 1024)
//   ONEDNN_GRAPH_CONSTANT_TENSOR_CACHE_CAPACITY="cpu:MB[:policy];gpu:MB[:policy]"
//     (default 0 = disabled; policy no_evict (default) or lru — an llga
//     extension following the seed's `engine_kind:size:policy` form)
// Environment values are read once, on first use; API calls override them.
// Setting a constant cache capacity flushes that kind's caches.
#pragma once

#include <cstddef>
#include <string>

#include "base/c_types.hpp"
#include "runtime/constant_cache.hpp"

namespace llga {
namespace rt {

int compiled_partition_cache_capacity();
status_t set_compiled_partition_cache_capacity(int capacity);

// The capacity in MB as oneDNN reads it back: at most SIZE_MAX / 2^20.
size_t constant_cache_capacity_mb(engine_kind_t kind);
// MB saturated to bytes (SIZE_MAX MB, the "enabled" value, stays SIZE_MAX).
size_t constant_cache_capacity_bytes(engine_kind_t kind);
status_t set_constant_cache_capacity_mb(engine_kind_t kind, size_t mb);
constant_cache_policy_t constant_cache_policy(engine_kind_t kind);
// Applies to the kind's existing and future caches; keeps their entries.
status_t set_constant_cache_policy(
        engine_kind_t kind, constant_cache_policy_t policy);

struct constant_cache_env_t {
    bool has_cpu = false, has_gpu = false;
    size_t cpu_mb = 0, gpu_mb = 0;
    constant_cache_policy_t cpu_policy = constant_cache_policy_t::no_evict;
    constant_cache_policy_t gpu_policy = constant_cache_policy_t::no_evict;
};
// Parses "cpu:MB[:policy];gpu:MB[:policy]" (either part optional). False if
// malformed (then the defaults stay).
bool parse_constant_cache_env(const std::string &text, constant_cache_env_t &out);
// Short form kept for existing callers: capacities only.
bool parse_constant_cache_env(const std::string &text, size_t *cpu_mb,
        size_t *gpu_mb, bool *has_cpu, bool *has_gpu);

} // namespace rt
} // namespace llga
