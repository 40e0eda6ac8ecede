// SPDX-License-Identifier: Apache-2.0
// backends/cpu/jit_runtime.hpp — the asmjit glue shared by every generator:
// one process-wide JitRuntime (code memory), and a kernel cache keyed by the
// kernel descriptor so identical kernels are generated once. Only files of
// backends/cpu include this header (it pulls in asmjit).
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include <asmjit/x86.h>

#include "base/status.hpp"

namespace llga {
namespace cpu {

// Emits exactly one function into `a` (prologue to ret, then any constant
// data). Returns a status; asmjit errors are collected by the runtime.
using jit_emit_fn_t = std::function<status_t(asmjit::x86::Assembler &a)>;

// Returns in *entry the code for descriptor `key` (raw bytes of the family's
// descriptor, which includes the ISA, dtype, algorithm and tail strategy),
// running `emit` only the first time that key is seen. `name` is the
// kernel's display name for verbose output. Thread-safe. Code lives until
// the process exits (kernels are small and shared by compiled partitions).
status_t jit_get_or_generate(const std::string &key, const char *name,
        const jit_emit_fn_t &emit, const void **entry);

// The cache key of a plain descriptor struct: its raw bytes (families
// zero-fill their descriptors so padding is part of the key too).
template <typename Desc>
std::string jit_key(const Desc &d) {
    return std::string(reinterpret_cast<const char *>(&d), sizeof(d));
}

// jit_get_or_generate for a kernel called through function pointer type
// `Fn`: the entry comes back as that pointer.
template <typename Fn>
status_t jit_get_fn(const std::string &key, const std::string &name,
        const jit_emit_fn_t &emit, Fn *fn) {
    const void *entry = nullptr;
    LLGA_RETURN_IF_ERROR(jit_get_or_generate(key, name.c_str(), emit, &entry));
    *fn = reinterpret_cast<Fn>(const_cast<void *>(entry));
    return dnnl_success;
}

} // namespace cpu
} // namespace llga
