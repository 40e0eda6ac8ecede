// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/pool/pool_int8_tail_p.hpp — the per-element tail of the
// quantized max pooling (pool_int8.cpp): the ops after an operand that
// varies by pixel (a residual), computed in f32 on a row of values exactly
// as the reference computes them. The reference forms one +, -, x or / of
// two floats in double and rounds it to float, which is the float
// operation's own result (double has more than twice float's precision);
// Maximum/Minimum, ReLU and Clamp compare; the Quantize multiplies by
// 1/scale, adds the zero point, maps NaN to 0, saturates and rounds half
// to even. asmjit-free.
#pragma once

#include <cstdint>
#include <string>

#include "ir/op.hpp"

namespace llga {
namespace cpu {
namespace pool_int8 {

enum class tail_kind_t { add, sub, mul, div, max, min, relu, clamp, quantize };

struct tail_op_t {
    tail_kind_t kind = tail_kind_t::add;
    bool binary = false;
    int slot = 0; // the op input carrying the pooled value
    data_type_t operand_dt = dnnl_f32; // f32, or u8/s8 dequantized
    // The operand's Dequantize (scale, zero point), or the Quantize's
    // 1/scale and zero point; the Clamp's bounds.
    float q_scale = 1.f, q_zp = 0.f, lo = 0.f, hi = 0.f;
};

// `op` (its pooled value on input `slot`; `operand`, the partition input
// a binary op reads, through the per-tensor Dequantize `dq` if not null)
// as a tail op. False with the reason when the tail cannot compute it.
bool read_tail_op(const ir::op_t &op, int slot,
        const logical_tensor_t *operand, const ir::op_t *dq, tail_op_t &t,
        std::string *why);

// The W operand values of a row, `ys` elements apart (0: one value), at y,
// as f32.
void operand_row(const tail_op_t &t, const char *y, int64_t W, int64_t ys,
        float *v);

// f = op(f) over a row of W values; a binary op's operand values in v.
void tail_step(const tail_op_t &t, float *f, const float *v, int64_t W);

// The Quantize of a row into u8/s8 bytes `ys` apart.
void quantize_row(const tail_op_t &t, const float *f, int64_t W, bool s8,
        uint8_t *y, int64_t ys);

} // namespace pool_int8
} // namespace cpu
} // namespace llga
