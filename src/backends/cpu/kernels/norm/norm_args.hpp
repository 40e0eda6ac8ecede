// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/norm_args.hpp — the call side of the row-wise JIT
// families (softmax, layernorm/groupnorm): the argument block their
// generated functions take, its field offsets, the element types they load
// and store, and host-side reads/writes of those types. asmjit-free, so
// callers and tests that only call the functions do not see the assembler
// (the emitting side is softmax_norm_io.hpp).
#pragma once

#include <cstdint>

#include "base/c_types.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace norm {

enum class dt_t : int32_t { f32 = 0, bf16 = 1, f16 = 2 };

// false for any type the row families do not load or store.
bool dt_of(data_type_t t, dt_t *out);
inline int dt_shift(dt_t t) { return t == dt_t::f32 ? 2 : 1; } // log2 size
const char *dt_name(dt_t t);

// The single argument of every generated row function (pointer in rdi).
// Field meaning depends on the function; see softmax.cpp / layernorm.cpp.
struct args_t {
    const void *src;
    void *dst;
    int64_t len;   // elements along the reduced (or normalized) axis
    int64_t inner; // element stride between rows of a column block
    int64_t lanes; // columns of a column block (<= vector width); softmax
                   // row_block: rows
    float *stats;
    const float *params;
    const void *gamma; // f32, or the norm family's parameter type
    const void *beta;
    float *tmp; // softmax: f32 e^(x-m) kept between reduce and apply
};

// Element i of a host array of type t, as f32 / stored as t (rounded to
// nearest even) — for the per-slice scalars C++ reads and writes.
inline float read_f32(const void *p, dt_t t, int64_t i) {
    if (t == dt_t::f32) return static_cast<const float *>(p)[i];
    const uint16_t h = static_cast<const uint16_t *>(p)[i];
    return t == dt_t::bf16 ? ir::bf16_to_f32(h) : ir::f16_to_f32(h);
}
inline void write_f32(void *p, dt_t t, int64_t i, float v) {
    if (t == dt_t::f32) {
        static_cast<float *>(p)[i] = v;
        return;
    }
    static_cast<uint16_t *>(p)[i]
            = t == dt_t::bf16 ? ir::f32_to_bf16(v) : ir::f32_to_f16(v);
}

// Byte offsets of args_t fields for the generated code.
constexpr int k_arg_src = 0, k_arg_dst = 8, k_arg_len = 16, k_arg_inner = 24,
              k_arg_lanes = 32, k_arg_stats = 40, k_arg_params = 48,
              k_arg_gamma = 56, k_arg_beta = 64, k_arg_tmp = 72;

using fn_t = void (*)(const args_t *);

} // namespace norm
} // namespace cpu
} // namespace llga
