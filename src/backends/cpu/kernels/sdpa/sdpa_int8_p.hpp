// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/sdpa/sdpa_int8_p.hpp — the SDPA kernel for quantized
// attention blocks (corpus MHA-*-int8: u8/s8 Q, K, V through Dequantize,
// probabilities through a Quantize → Dequantize round trip): both MatMuls
// run on the integers with the int8 GEMM driver (VNNI, AMX-INT8 or the
// AVX2 word path), zero points and scales folded into its epilogues.
// asmjit-free.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/sdpa/sdpa_desc_p.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace sdpa {

// How the integer path reads the probabilities and writes the output,
// beyond desc_t: the Quantize the probabilities go through (u8/s8, scale,
// zero point) and the roundings before it; the output's Quantize if any.
struct int8_plan_t {
    std::vector<value_op_t> p_before; // roundings between SoftMax and it
    value_op_t p_quant;
    bool o_round_bf16 = false; // P·V output or a TypeCast rounds to bf16
    bool o_quant = false;
    value_op_t o_quant_op;
};

// Whether `d` is a quantized block the integer path computes: every head
// a per-tensor Dequantize of u8/s8 (then at most a TypeCast to bf16), the
// probabilities quantized to u8/s8 and dequantized with the same values
// on their way to P·V, an f32/bf16/u8/s8 output, no statistics output.
// The reference rounds each dequantized value to bf16 before its MatMul;
// the integer path multiplies the integers exactly, so its results may
// differ from the reference's by about one step of the output type
// (docs/compatibility.md).
bool int8_eligible(const desc_t &d, int8_plan_t *p, std::string *why);

status_t create_int8(const desc_t &d, const int8_plan_t &p, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace sdpa
} // namespace cpu
} // namespace llga
