// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/common/int8_quant_params.hpp — reading the quantized
// head and tail of an x8x8x partition for the kernels that run it on gemm_int8
// (matmul_int8.cpp, conv_int8.cpp): the static scales and zero points of a
// Dequantize/Quantize, the Dequantize feeding an input of the compute op, and
// the tail [BiasAdd] -> ReLU/Clamp... -> [Quantize], with the clamps folded
// into the Quantize's integer bounds, or [BiasAdd] -> post-op chain ->
// [Quantize]. asmjit-free.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/cpu/kernels/gemm/int8/gemm_int8_ukr.hpp"
#include "backends/cpu/kernels/matmul/matmul_chain.hpp"
#include "compiler/plan.hpp"

namespace llga {
namespace cpu {
namespace common {

// Static quantization attributes reduced to what gemm_int8 takes: one
// scale and zero point, or one scale per element of `axis`.
struct qparams_t {
    std::vector<float> scales; // 1, or one per channel
    int32_t zp = 0;
    int64_t axis = -1; // normalized channel axis; -1: per tensor
};

// Per-channel values that are all equal are per-tensor values. Zero points
// must be one value (gemm_int8 subtracts them through per-tensor sums).
// |zp| <= 255 keeps the s32 compensation K * zp_a * zp_b far from overflow.
bool read_qparams(const ir::op_t &op, qparams_t &q, std::string *why);

// The Dequantize op producing input `slot` (0 src, 1 weights) of `anchor`,
// directly or through a TypeCast f32 -> bf16, checked to read an int8
// partition port into f32; marks it (and the cast) in `used`. nullptr with
// the reason otherwise. The int8 GEMM multiplies the integers, so a
// cast's rounding of the dequantized values is skipped (docs/cpu-int8.md,
// "bf16 models").

const ir::op_t *dequant_of(const compiler::plan_t &plan,
        const ir::op_t &anchor, int slot, std::vector<bool> &used,
        std::string *why);

// The chain after the anchor, split as [BiasAdd] -> middle -> [Quantize].
// A middle of ReLU/Clamp ops before a Quantize is steps [clamps_begin,
// clamps_end), folded into the Quantize's bounds. Any other middle is
// declined, unless `allow_chain` (the caller maps it onto a gemm_int8
// post-op chain): it is then steps [chain_begin, chain_end).
struct tail_t {
    const ir::op_t *bias_add = nullptr;
    const ir::op_t *quant = nullptr;
    size_t clamps_begin = 0, clamps_end = 0;
    size_t chain_begin = 0, chain_end = 0;
    bool has_chain() const { return chain_end > chain_begin; }
};
bool read_tail(const std::vector<matmul::chain_step_t> &steps,
        const ir::op_t &anchor, tail_t &t, std::string *why,
        bool allow_chain = false);

// What the gemm_int8 epilogue writes: f32 or bf16 (no Quantize: `dst`'s
// type) or the Quantize's u8/s8 with its scale, zero point and the clamps as
// bounds on q (see gemm_int8_params_t::q_lo).
struct out_quant_t {
    gemm_int8::i8_dst_t dst = gemm_int8::i8_dst_t::f32;
    float dst_scale = 1.f;
    int32_t dst_zp = 0;
    float q_lo = -1e30f, q_hi = 1e30f;
};
bool read_out_quant(const std::vector<matmul::chain_step_t> &steps,
        const tail_t &t, const logical_tensor_t &dst, out_quant_t &o,
        std::string *why);

// With a post-op chain the chain kernels store the output: `o`'s type,
// scale and zero point become `post`'s destination.
void set_chain_dst(const out_quant_t &o, gemm::postops_t &post);

} // namespace common
} // namespace cpu
} // namespace llga
