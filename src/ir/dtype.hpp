// SPDX-License-Identifier: Apache-2.0
// ir/dtype.hpp — data type facts (size, name) and scalar conversions with the
// rounding and saturation rules of the opset: round-half-to-even everywhere,
// integer targets saturate before rounding, bf16/f16/f8 keep NaN, f8_e4m3 has
// no infinity (overflow beyond its rounding range becomes NaN).
#pragma once

#include <cstdint>
#include <string>

#include "base/c_types.hpp"

namespace llga {
namespace ir {

// Bits per element (4 for s4/u4/f4, 0 for undef/unknown).
int dtype_bits(data_type_t dt);
// Storage bytes for n elements (sub-byte types round up).
size_t dtype_storage_bytes(data_type_t dt, int64_t n);
const char *dtype_name(data_type_t dt); // JSON spelling: "f32", "boolean", ...
bool dtype_from_name(const std::string &name, data_type_t *dt);
bool dtype_is_float(data_type_t dt); // f32, bf16, f16, f64, f8
bool dtype_is_int(data_type_t dt);   // s32, s8, u8, s4, u4, boolean

uint16_t f32_to_bf16(float v);
float bf16_to_f32(uint16_t v);
uint16_t f32_to_f16(float v);
float f16_to_f32(uint16_t v);
uint8_t f32_to_f8_e5m2(float v);
float f8_e5m2_to_f32(uint8_t v);
uint8_t f32_to_f8_e4m3(float v);
float f8_e4m3_to_f32(uint8_t v);

// Rounds an f32 value to tf32 (f32 range, 10 mantissa bits), half to even.
float round_to_tf32(float v);
// Rounds f32 math operands as `mode` permits (bf16, f16, tf32); strict and
// any leave them unchanged (any permits but does not require rounding).
float round_for_fpmath(fpmath_mode_t mode, float v);

// Element access by element offset (strides already applied; for s4/u4 the
// offset selects a nibble: even = low, odd = high). Values travel as double so
// that s32 stays exact.
double load_value(data_type_t dt, const void *base, int64_t off);
// Stores with the target's conversion rules (rounding, saturation).
void store_value(data_type_t dt, void *base, int64_t off, double v);

// Integer conversion used by quantization: saturate, then round half-even.
double saturate_round(data_type_t dt, double v);

} // namespace ir
} // namespace llga
