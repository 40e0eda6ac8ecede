// SPDX-License-Identifier: Apache-2.0
// backends/cpu/cpu_backend.hpp — the "cpu" backend: JIT kernels for the
// partitions some candidate of kernels.def accepts on this host. The C API
// lists it before "ref", which runs everything else.
#pragma once

#include <vector>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {

const compiler::backend_t &cpu_backend();

// Number of distinct JIT kernels generated so far in this process (the
// descriptor-keyed cache of jit_runtime; tests check that it deduplicates).
size_t jit_cache_size();

// The rows of kernels.def in table order: candidate name and the ISA level
// it needs (for the table-walk test and tools).
struct candidate_row_t {
    const char *name;
    isa_t isa;
};
std::vector<candidate_row_t> candidate_rows();

// Name of the row compile() would take for `plan` under the current ISA
// limit, or nullptr when no candidate accepts it.
const char *picked_candidate(const compiler::plan_t &plan);

} // namespace cpu
} // namespace llga
