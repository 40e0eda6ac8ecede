// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/quant/quant.hpp — the quantization JIT family: static
// Quantize (f32 -> u8/s8/f8), Dequantize (u8/s8/f8 -> f32), per tensor or
// per channel, and TypeCast among f32, bf16 and f16, on dense tensors, with AVX-512
// (k-mask tails) and AVX2 (tails through a stack scratch) variants. All are
// bit-exact against the reference ops. This header is asmjit-free so tests
// can drive the raw generated functions too.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "base/c_types.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace quant {

// What one generated function converts.
enum class conv_t : int {
    quantize,    // q = sat_round(x * mul + zp), f32 -> u8/s8
    dequantize,  // y = (q - zp) * mul,          u8/s8 -> f32
    f32_to_bf16, // round to nearest even, NaN stays (quiet) NaN
    bf16_to_f32,
    // Casts with an f16 side: C++ only (quant_scalar.cpp).
    f32_to_f16,
    f16_to_f32,
    bf16_to_f16,
    f16_to_bf16,
};

// A TypeCast (no scale or zero point)?
inline bool is_cast(conv_t c) {
    return c != conv_t::quantize && c != conv_t::dequantize;
}

// Where mul/zp come from: one value for the whole call (broadcast), or one
// per element, read alongside the data (mul[i], zp[i]). Casts ignore both.
enum class params_t : int { scalar, vector };

// dst[i] = convert(src[i]) for i < n. mul and zp point at one float each
// (scalar) or at n floats each (vector); for Quantize mul is 1/scale.
using convert_fn_t = void (*)(const void *src, void *dst, size_t n,
        const float *mul, const float *zp);

// The generated function (cached by descriptor). `qdt` is the integer type
// of (de)quantize (u8 or s8; ignored for casts). `isa` must be avx2 or
// avx512_core and available.
status_t get_convert(conv_t conv, data_type_t qdt, params_t params, isa_t isa,
        convert_fn_t *fn);

// The conversions done in C++ rather than generated code, exact against
// the reference for any ISA (quant_scalar.cpp): (de)quantization with an
// f8_e4m3 / f8_e5m2 `qdt` (table-driven), and the casts with an f16 side
// (qdt ignored).
status_t get_convert_scalar(conv_t conv, data_type_t qdt, params_t params,
        convert_fn_t *fn);

// The kernel-table hooks: can this family run `plan` with `isa`? (If not,
// *why says so.) And build the executable kernel.
bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace quant
} // namespace cpu
} // namespace llga
