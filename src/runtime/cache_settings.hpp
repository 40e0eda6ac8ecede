// runtime/cache_settings.hpp — global capacities of the compiled-partition
// cache (entries) and of the constant tensor cache (MB per engine kind), with
// their environment defaults:
//   DNNL_GRAPH_COMPILED_PARTITION_CACHE_CAPACITY=<entries>   (default 1024)
//   ONEDNN_GRAPH_CONSTANT_TENSOR_CACHE_CAPACITY="cpu:MB;gpu:MB" (default 0)
// Environment values are read once; API calls override them.
#pragma once

#include <cstddef>
#include <string>

#include "base/c_types.hpp"

namespace llga {
namespace rt {

int compiled_partition_cache_capacity();
status_t set_compiled_partition_cache_capacity(int capacity);

size_t constant_cache_capacity_mb(engine_kind_t kind);
status_t set_constant_cache_capacity_mb(engine_kind_t kind, size_t mb);

// Parses "cpu:MB;gpu:MB" (either part optional). False if malformed.
bool parse_constant_cache_env(const std::string &text, size_t *cpu_mb,
        size_t *gpu_mb, bool *has_cpu, bool *has_gpu);

} // namespace rt
} // namespace llga
