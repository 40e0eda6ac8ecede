// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/int8/gemm_int8_jit_p.hpp — what the int8 kernel
// generators (gemm_int8_ukr.cpp: VNNI tiles; gemm_int8_amx.cpp: AMX blocks and
// panels) share: the kernel-cache key, argument-field operands and the ISA
// check. Internal to those two files (it pulls in asmjit).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "backends/cpu/jit_runtime.hpp"
#include "backends/cpu/kernels/gemm/int8/gemm_int8_ukr.hpp"

namespace llga {
namespace cpu {
namespace gemm_int8 {

// Kernel-cache key of one generated variant (jit_key of it: all fields,
// zero-padded).
struct i8_key_t {
    char family[8];
    int32_t kind, m, nv, dt;
    int32_t variant; // family-specific: s8s8, row term, ...
};

inline i8_key_t i8_key(const char *family) {
    i8_key_t k;
    std::memset(&k, 0, sizeof(k));
    const size_t n = std::strlen(family);
    std::memcpy(k.family, family, n < sizeof(k.family) ? n : sizeof(k.family) - 1);
    return k;
}

// An 8-byte / 4-byte field of the i8_args_t at rdi.
inline asmjit::x86::Mem field(size_t off) {
    return asmjit::x86::qword_ptr(asmjit::x86::rdi, static_cast<int32_t>(off));
}
inline asmjit::x86::Mem dfield(size_t off) {
    return asmjit::x86::dword_ptr(asmjit::x86::rdi, static_cast<int32_t>(off));
}

// dnnl_unimplemented (with the host's level) unless `kind`'s ISA is there.
status_t check_i8_isa(i8_kind_t kind);

} // namespace gemm_int8
} // namespace cpu
} // namespace llga
