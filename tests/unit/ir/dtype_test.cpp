// SPDX-License-Identifier: Apache-2.0
// tests/unit/ir/dtype_test.cpp — conversions, with expected bit patterns
// derived by hand from the IEEE/bfloat16/f8 encodings.
#include <cmath>
#include <cstring>
#include <limits>

#include <gtest/gtest.h>

#include "ir/dtype.hpp"

namespace llga {
namespace ir {
namespace {

float from_bits(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

TEST(Dtype, SizesAndNames) {
    EXPECT_EQ(dtype_bits(dnnl_f32), 32);
    EXPECT_EQ(dtype_bits(dnnl_bf16), 16);
    EXPECT_EQ(dtype_bits(dnnl_u4), 4);
    EXPECT_EQ(dtype_storage_bytes(dnnl_s4, 3), 2u);
    EXPECT_STREQ(dtype_name(dnnl_boolean), "boolean");
    data_type_t dt;
    EXPECT_TRUE(dtype_from_name("f8_e4m3", &dt));
    EXPECT_EQ(dt, dnnl_f8_e4m3);
    EXPECT_FALSE(dtype_from_name("float", &dt));
}

TEST(Dtype, Bf16RoundsHalfToEven) {
    // 1 + 2^-8 lies exactly between bf16 1.0 (0x3F80) and 1+2^-7 (0x3F81):
    // the tie goes to the even mantissa, 0x3F80.
    EXPECT_EQ(f32_to_bf16(from_bits(0x3F808000u)), 0x3F80);
    // 1 + 3*2^-8 is the tie between 0x3F81 and 0x3F82: goes to 0x3F82.
    EXPECT_EQ(f32_to_bf16(from_bits(0x3F818000u)), 0x3F82);
    // Just above a tie rounds up.
    EXPECT_EQ(f32_to_bf16(from_bits(0x3F808001u)), 0x3F81);
    EXPECT_TRUE(std::isnan(bf16_to_f32(f32_to_bf16(NAN))));
    EXPECT_EQ(f32_to_bf16(INFINITY), 0x7F80);
    EXPECT_EQ(bf16_to_f32(0xC000), -2.0f);
}

TEST(Dtype, F16NormalSubnormalOverflow) {
    EXPECT_EQ(f32_to_f16(1.0f), 0x3C00);
    EXPECT_EQ(f32_to_f16(-2.0f), 0xC000);
    EXPECT_EQ(f32_to_f16(65504.0f), 0x7BFF);     // max finite
    EXPECT_EQ(f32_to_f16(65520.0f), 0x7C00);     // rounds to inf
    EXPECT_EQ(f32_to_f16(65519.0f), 0x7BFF);     // below the tie
    EXPECT_EQ(f32_to_f16(std::ldexp(1.0f, -24)), 0x0001); // smallest subnormal
    EXPECT_EQ(f32_to_f16(std::ldexp(1.0f, -25)), 0x0000); // tie -> even (0)
    EXPECT_EQ(f32_to_f16(std::ldexp(3.0f, -25)), 0x0002); // tie -> even (2)
    EXPECT_EQ(f16_to_f32(0x0001), std::ldexp(1.0f, -24));
    EXPECT_EQ(f16_to_f32(0x3555), 0.333251953125f);
    EXPECT_TRUE(std::isnan(f16_to_f32(f32_to_f16(NAN))));
    EXPECT_EQ(f32_to_f16(-INFINITY), 0xFC00);
}

TEST(Dtype, F8E4M3) {
    EXPECT_EQ(f32_to_f8_e4m3(1.0f), 0x38);    // exp 7 (bias 7), mantissa 0
    EXPECT_EQ(f32_to_f8_e4m3(448.0f), 0x7E);  // max finite
    EXPECT_EQ(f32_to_f8_e4m3(460.0f), 0x7E);  // within rounding range of 448
    EXPECT_EQ(f32_to_f8_e4m3(500.0f), 0x7F);  // beyond: NaN (no infinity)
    EXPECT_EQ(f32_to_f8_e4m3(-1.5f), 0xBC);
    EXPECT_EQ(f8_e4m3_to_f32(0x01), std::ldexp(1.0f, -9)); // smallest subnormal
    EXPECT_TRUE(std::isnan(f8_e4m3_to_f32(0x7F)));
    EXPECT_EQ(f8_e4m3_to_f32(0x7E), 448.0f);
}

TEST(Dtype, F8E5M2) {
    EXPECT_EQ(f32_to_f8_e5m2(1.0f), 0x3C);    // top byte of f16 0x3C00
    EXPECT_EQ(f32_to_f8_e5m2(57344.0f), 0x7B); // max finite
    EXPECT_EQ(f32_to_f8_e5m2(INFINITY), 0x7C);
    EXPECT_EQ(f8_e5m2_to_f32(0xC0), -2.0f);
    EXPECT_TRUE(std::isnan(f8_e5m2_to_f32(f32_to_f8_e5m2(NAN))));
}

TEST(Dtype, IntegerSaturateThenRoundHalfEven) {
    EXPECT_EQ(saturate_round(dnnl_s8, 2.5), 2);
    EXPECT_EQ(saturate_round(dnnl_s8, 3.5), 4);
    EXPECT_EQ(saturate_round(dnnl_s8, -2.5), -2);
    EXPECT_EQ(saturate_round(dnnl_s8, 1000), 127);
    EXPECT_EQ(saturate_round(dnnl_s8, -1000), -128);
    EXPECT_EQ(saturate_round(dnnl_u8, -3), 0);
    EXPECT_EQ(saturate_round(dnnl_u8, 255.7), 255);
    EXPECT_EQ(saturate_round(dnnl_s4, 9), 7);
    EXPECT_EQ(saturate_round(dnnl_u4, 20), 15);
    EXPECT_EQ(saturate_round(dnnl_s32, 3e10), 2147483647.0);
}

TEST(Dtype, LoadStoreRoundTripIncludingNibbles) {
    uint8_t buf[4] = {0};
    store_value(dnnl_s4, buf, 0, -3); // low nibble of byte 0
    store_value(dnnl_s4, buf, 1, 5);  // high nibble of byte 0
    store_value(dnnl_s4, buf, 2, 7);
    EXPECT_EQ(buf[0], 0x5D); // 5 << 4 | (-3 & 0xF)
    EXPECT_EQ(load_value(dnnl_s4, buf, 0), -3);
    EXPECT_EQ(load_value(dnnl_s4, buf, 1), 5);
    EXPECT_EQ(load_value(dnnl_u4, buf, 0), 13);
    int32_t s32[2];
    store_value(dnnl_s32, s32, 1, 16777217.0); // exact beyond f32 precision
    EXPECT_EQ(s32[1], 16777217);
    EXPECT_EQ(load_value(dnnl_s32, s32, 1), 16777217.0);
    uint8_t b[2];
    store_value(dnnl_boolean, b, 0, -0.5);
    EXPECT_EQ(b[0], 1);
}

} // namespace
} // namespace ir
} // namespace llga
