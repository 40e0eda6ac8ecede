// backends/cpu/cpu_backend.hpp — the "cpu" backend: JIT kernels for the
// partitions some candidate of kernels.def accepts on this host. The C API
// lists it before "ref", which runs everything else.
#pragma once

#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {

const compiler::backend_t &cpu_backend();

// Number of distinct JIT kernels generated so far in this process (the
// descriptor-keyed cache of jit_runtime; tests check that it deduplicates).
size_t jit_cache_size();

} // namespace cpu
} // namespace llga
