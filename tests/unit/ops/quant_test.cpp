// SPDX-License-Identifier: Apache-2.0
// tests/unit/ops/quant_test.cpp — Quantize, Dequantize, DynamicQuantize,
// DynamicDequantize: rounding ties, saturation, NaN/inf, f8 boundaries,
// per_channel and per_group parameters, s4/u4 nibble packing, strides, and
// schema violations.
#include <cmath>
#include <limits>

#include "ir/logical_tensor.hpp"
#include "ops/op_test_util.hpp"

namespace llga {
namespace test {

namespace {
using vec = std::vector<double>;
const double k_inf = std::numeric_limits<double>::infinity();
const double k_nan = std::numeric_limits<double>::quiet_NaN();

void expect_same(const vec &got, const vec &want) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(want[i]))
            EXPECT_TRUE(std::isnan(got[i])) << "element " << i << " = " << got[i];
        else
            EXPECT_EQ(got[i], want[i]) << "element " << i;
    }
}

vec quantize(data_type_t dt, const vec &x, float scale, int64_t zp = 0,
        bool with_zp = false) {
    op_runner_t r(dnnl_graph_op_quantize);
    r.input(dnnl_f32, {static_cast<dim_t>(x.size())}, x).output(dt)
            .f32s(dnnl_graph_op_attr_scales, {scale});
    if (with_zp) r.s64s(dnnl_graph_op_attr_zps, {zp});
    EXPECT_EQ(r.run(), dnnl_success);
    return r.out_values();
}

// Replaces input k's descriptor by a packed sub-byte tensor over the same
// bytes, so tests can state the exact nibble layout.
void retype(op_runner_t &r, size_t k, data_type_t dt, const dims_t &dims,
        const dims_t &strides = {}) {
    logical_tensor_t lt = ir::make_lt(r.op().inputs[k].id, dt, dims);
    for (size_t d = 0; d < strides.size(); ++d)
        lt.layout.strides[d] = strides[d];
    r.op().inputs[k] = lt;
}
} // namespace

// ---- Quantize ----------------------------------------------------------------

TEST(Quantize, S8TiesSaturationNaN) {
    expect_same(quantize(dnnl_s8,
                        {2.5, 3.5, -2.5, -3.5, 0.5, 1.5, 127.5, 200, -200, k_nan,
                                k_inf, -k_inf},
                        1.f),
            {2, 4, -2, -4, 0, 2, 127, 127, -128, 0, 127, -128});
}

TEST(Quantize, U8ScaleAndZeroPoint) {
    // q = x / 0.5 + 128.
    expect_same(quantize(dnnl_u8, {-64, 0, 63.5, 64, -0.25, -0.75, -100}, 0.5f, 128, true),
            {0, 128, 255, 255, 128, 126, 0});
}

TEST(Quantize, PerChannelNegativeAxisStrided) {
    // [2, 2] column-major; axis -1 -> scales per column.
    op_runner_t r(dnnl_graph_op_quantize);
    r.input_strided(dnnl_f32, {2, 2}, {1, 2}, {1, 2, 3, 4})
            .output(dnnl_s8)
            .str(dnnl_graph_op_attr_qtype, "per_channel")
            .s64(dnnl_graph_op_attr_axis, -1)
            .f32s(dnnl_graph_op_attr_scales, {1, 0.5})
            .s64s(dnnl_graph_op_attr_zps, {0, -1});
    ASSERT_EQ(r.run(), dnnl_success);
    expect_same(r.out_values(), {1, 3, 3, 7});
}

TEST(Quantize, F8E4M3Boundaries) {
    const double m = std::ldexp(1.0, -9); // smallest e4m3 subnormal
    expect_same(quantize(dnnl_f8_e4m3,
                        {448, 464, 465, 480, -500, k_nan, k_inf, 1.0625,
                                1.1875, m, m / 2, 1.5 * m, -0.0},
                        1.f),
            {448, 448, k_nan, k_nan, k_nan, k_nan, k_nan, 1, 1.25, m, 0,
                    2 * m, 0});
    // Scale divides first: 896 / 2 = 448.
    expect_same(quantize(dnnl_f8_e4m3, {896}, 2.f), {448});
}

TEST(Quantize, F8E5M2Boundaries) {
    const double m = std::ldexp(1.0, -16); // smallest e5m2 subnormal
    expect_same(quantize(dnnl_f8_e5m2,
                        {57344, 61440, 1e6, -k_inf, k_nan, 1.125, 1.375, m,
                                m / 2, 1.5 * m},
                        1.f),
            {57344, k_inf, k_inf, -k_inf, k_nan, 1, 1.5, m, 0, 2 * m});
}

TEST(Quantize, SchemaViolations) {
    op_runner_t no_scales(dnnl_graph_op_quantize);
    no_scales.input(dnnl_f32, {2}).output(dnnl_s8);
    EXPECT_EQ(no_scales.verify(), dnnl_invalid_graph_op);

    op_runner_t two(dnnl_graph_op_quantize);
    two.input(dnnl_f32, {2}).output(dnnl_s8).f32s(dnnl_graph_op_attr_scales, {1, 2});
    EXPECT_EQ(two.verify(), dnnl_invalid_graph_op);

    op_runner_t zps(dnnl_graph_op_quantize);
    zps.input(dnnl_f32, {2}).output(dnnl_s8).f32s(dnnl_graph_op_attr_scales, {1})
            .s64s(dnnl_graph_op_attr_zps, {1, 2});
    EXPECT_EQ(zps.verify(), dnnl_invalid_graph_op);

    op_runner_t f8zp(dnnl_graph_op_quantize);
    f8zp.input(dnnl_f32, {2}).output(dnnl_f8_e4m3).f32s(dnnl_graph_op_attr_scales, {1})
            .s64s(dnnl_graph_op_attr_zps, {0});
    EXPECT_EQ(f8zp.verify(), dnnl_invalid_graph_op);

    op_runner_t dt(dnnl_graph_op_quantize);
    dt.input(dnnl_bf16, {2}).output(dnnl_s8).f32s(dnnl_graph_op_attr_scales, {1});
    EXPECT_EQ(dt.verify(), dnnl_invalid_graph_op);

    // Too few scales for axis 1 (size 3): accepted when the op is added
    // (oneDNN's schema does not compare them; fused onto convolution
    // weights they follow the output channels), refused at shape inference.
    op_runner_t chan(dnnl_graph_op_quantize);
    chan.input(dnnl_f32, {2, 3}).output(dnnl_s8).str(dnnl_graph_op_attr_qtype, "per_channel")
            .f32s(dnnl_graph_op_attr_scales, {1, 2});
    EXPECT_EQ(chan.verify(), dnnl_success);
    EXPECT_EQ(chan.infer(), dnnl_invalid_shape);

    op_runner_t axis(dnnl_graph_op_quantize);
    axis.input(dnnl_f32, {2, 3}).output(dnnl_s8).str(dnnl_graph_op_attr_qtype, "per_channel")
            .s64(dnnl_graph_op_attr_axis, 2).f32s(dnnl_graph_op_attr_scales, {1, 2});
    EXPECT_EQ(axis.verify(), dnnl_invalid_graph_op);

    op_runner_t qtype(dnnl_graph_op_quantize);
    qtype.input(dnnl_f32, {2}).output(dnnl_s8).str(dnnl_graph_op_attr_qtype, "per_group")
            .f32s(dnnl_graph_op_attr_scales, {1});
    EXPECT_EQ(qtype.verify(), dnnl_invalid_graph_op);
}

// ---- Dequantize --------------------------------------------------------------

TEST(Dequantize, S8AndU8) {
    op_runner_t r(dnnl_graph_op_dequantize);
    r.input(dnnl_s8, {3}, {-128, 0, 127}).output(dnnl_f32)
            .f32s(dnnl_graph_op_attr_scales, {0.5}).s64s(dnnl_graph_op_attr_zps, {1});
    ASSERT_EQ(r.run(), dnnl_success);
    expect_same(r.out_values(), {-64.5, -0.5, 63});

    // per_channel on axis 0 of a strided [2, 2] u8 tensor.
    op_runner_t c(dnnl_graph_op_dequantize);
    c.input_strided(dnnl_u8, {2, 2}, {1, 2}, {0, 255, 10, 20}).output(dnnl_f32)
            .str(dnnl_graph_op_attr_qtype, "per_channel").s64(dnnl_graph_op_attr_axis, 0)
            .f32s(dnnl_graph_op_attr_scales, {2, 0.25}).s64s(dnnl_graph_op_attr_zps, {0, 10});
    ASSERT_EQ(c.run(), dnnl_success);
    expect_same(c.out_values(), {0, 510, 0, 2.5});
}

TEST(Dequantize, F8Sources) {
    op_runner_t e4(dnnl_graph_op_dequantize);
    e4.input(dnnl_f8_e4m3, {4}, {448, -1.25, k_nan, std::ldexp(1.0, -9)}).output(dnnl_f32)
            .f32s(dnnl_graph_op_attr_scales, {2});
    ASSERT_EQ(e4.run(), dnnl_success);
    expect_same(e4.out_values(), {896, -2.5, k_nan, std::ldexp(1.0, -8)});

    op_runner_t e5(dnnl_graph_op_dequantize);
    e5.input(dnnl_f8_e5m2, {3}, {57344, -k_inf, 1.5}).output(dnnl_f32)
            .f32s(dnnl_graph_op_attr_scales, {0.5});
    ASSERT_EQ(e5.run(), dnnl_success);
    expect_same(e5.out_values(), {28672, -k_inf, 0.75});
}

TEST(Dequantize, SchemaViolations) {
    op_runner_t f8zp(dnnl_graph_op_dequantize);
    f8zp.input(dnnl_f8_e5m2, {2}).output(dnnl_f32).f32s(dnnl_graph_op_attr_scales, {1})
            .s64s(dnnl_graph_op_attr_zps, {0});
    EXPECT_EQ(f8zp.verify(), dnnl_invalid_graph_op);
    op_runner_t dst(dnnl_graph_op_dequantize);
    dst.input(dnnl_u8, {2}).output(dnnl_bf16).f32s(dnnl_graph_op_attr_scales, {1});
    EXPECT_EQ(dst.verify(), dnnl_invalid_graph_op);
    op_runner_t src(dnnl_graph_op_dequantize);
    src.input(dnnl_s4, {2}).output(dnnl_f32).f32s(dnnl_graph_op_attr_scales, {1});
    EXPECT_EQ(src.verify(), dnnl_invalid_graph_op);
    op_runner_t chan(dnnl_graph_op_dequantize);
    chan.input(dnnl_u8, {2, 3}).output(dnnl_f32).str(dnnl_graph_op_attr_qtype, "per_channel")
            .f32s(dnnl_graph_op_attr_scales, {1, 2, 3, 4});
    EXPECT_EQ(chan.verify(), dnnl_success); // count checked at compile
    EXPECT_EQ(chan.infer(), dnnl_invalid_shape);
}

// ---- DynamicQuantize ---------------------------------------------------------

TEST(DynamicQuantize, PerTensorWithZeroPoint) {
    op_runner_t r(dnnl_graph_op_dynamic_quantize);
    r.input(dnnl_f32, {5}, {0, 1.25, -2, 200, 0.75})
            .input(dnnl_f32, {1}, {0.5})
            .input(dnnl_s32, {1}, {3})
            .output(dnnl_u8);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_same(r.out_values(), {3, 6, 0, 255, 4}); // 1.25/0.5+3 = 5.5 -> 6; 0.75 -> 4.5 -> 4
}

TEST(DynamicQuantize, PerChannelSingleZeroPoint) {
    op_runner_t r(dnnl_graph_op_dynamic_quantize);
    r.input(dnnl_f32, {2, 2}, {1, 1, 1, 1})
            .input(dnnl_f32, {2}, {1, 0.25})
            .input(dnnl_s8, {1}, {-2})
            .output(dnnl_s8)
            .str(dnnl_graph_op_attr_qtype, "per_channel");
    ASSERT_EQ(r.run(), dnnl_success);
    expect_same(r.out_values(), {-1, 2, -1, 2});
}

TEST(DynamicQuantize, SchemaViolations) {
    op_runner_t scales(dnnl_graph_op_dynamic_quantize);
    scales.input(dnnl_f32, {4}).input(dnnl_f32, {2}).output(dnnl_u8);
    EXPECT_EQ(scales.verify(), dnnl_invalid_graph_op);
    op_runner_t zps(dnnl_graph_op_dynamic_quantize);
    zps.input(dnnl_f32, {2, 4}).input(dnnl_f32, {4}).input(dnnl_s32, {3}).output(dnnl_u8)
            .str(dnnl_graph_op_attr_qtype, "per_channel");
    EXPECT_EQ(zps.verify(), dnnl_invalid_graph_op);
    op_runner_t f8(dnnl_graph_op_dynamic_quantize);
    f8.input(dnnl_f32, {4}).input(dnnl_f32, {1}).output(dnnl_f8_e4m3);
    EXPECT_EQ(f8.verify(), dnnl_invalid_graph_op);
    op_runner_t bf(dnnl_graph_op_dynamic_quantize);
    bf.input(dnnl_f32, {4}).input(dnnl_bf16, {1}).output(dnnl_u8);
    EXPECT_EQ(bf.verify(), dnnl_invalid_graph_op);
    op_runner_t chan(dnnl_graph_op_dynamic_quantize);
    chan.input(dnnl_f32, {2, 4}).input(dnnl_f32, {2}).output(dnnl_u8)
            .str(dnnl_graph_op_attr_qtype, "per_channel");
    EXPECT_EQ(chan.infer(), dnnl_invalid_shape);
}

// ---- DynamicDequantize -------------------------------------------------------

TEST(DynamicDequantize, S4PackingPerTensor) {
    // Bytes 0x21, 0xF8, 0x7A: elements (low nibble first) 1, 2, -8, -1, -6, 7.
    op_runner_t r(dnnl_graph_op_dynamic_dequantize);
    r.input(dnnl_u8, {3}, {0x21, 0xF8, 0x7A})
            .input(dnnl_f32, {1}, {0.5})
            .input(dnnl_u8, {1}, {1})
            .output(dnnl_f32);
    retype(r, 0, dnnl_s4, {6});
    ASSERT_EQ(r.run(), dnnl_success);
    expect_same(r.out_values(), {0, 0.5, -4.5, -1, -3.5, 3});
}

TEST(DynamicDequantize, U4PerChannelStridedF16) {
    // u4 [2, 3] column-major (strides 1, 2): element (i, j) is nibble i + 2j.
    // Bytes 0x10, 0x32, 0xF4: nibbles 0, 1, 2, 3, 4, 15.
    op_runner_t r(dnnl_graph_op_dynamic_dequantize);
    r.input(dnnl_u8, {3}, {0x10, 0x32, 0xF4})
            .input(dnnl_f16, {2}, {1, 0.5})
            .input(dnnl_u8, {1}, {0x21})
            .output(dnnl_f16)
            .str(dnnl_graph_op_attr_qtype, "per_channel")
            .s64(dnnl_graph_op_attr_axis, 0);
    retype(r, 0, dnnl_u4, {2, 3}, {1, 2});
    retype(r, 2, dnnl_u4, {2}); // zps 1 (row 0) and 2 (row 1)
    ASSERT_EQ(r.run(), dnnl_success);
    // row 0: nibbles 0, 2, 4 minus 1, times 1; row 1: 1, 3, 15 minus 2, times 0.5.
    expect_same(r.out_values(), {-1, 1, 3, -0.5, 0.5, 6.5});
}

TEST(DynamicDequantize, PerGroupS4ScalesAndZps) {
    // src s4 [2, 4], groups of [1, 2] -> scales/zps [2, 2].
    op_runner_t r(dnnl_graph_op_dynamic_dequantize);
    r.input(dnnl_s4, {2, 4}, {-8, -1, 0, 7, 1, 2, 3, 4})
            .input(dnnl_bf16, {2, 2}, {1, 2, 0.5, 0.25})
            .input(dnnl_s4, {2, 2}, {0, -1, 1, 4})
            .output(dnnl_bf16)
            .str(dnnl_graph_op_attr_qtype, "per_group")
            .s64s(dnnl_graph_op_attr_group_shape, {1, 2});
    ASSERT_EQ(r.run(), dnnl_success);
    expect_same(r.out_values(), {-8, -1, 2, 16, 0, 0.5, -0.25, 0});
}

TEST(DynamicDequantize, PerGroupNoZpsS8) {
    op_runner_t r(dnnl_graph_op_dynamic_dequantize);
    r.input(dnnl_s8, {4, 2}, {1, 1, 1, 1, 1, 1, 1, 1})
            .input(dnnl_f32, {2, 1}, {3, 5})
            .output(dnnl_f32)
            .str(dnnl_graph_op_attr_qtype, "per_group")
            .s64s(dnnl_graph_op_attr_group_shape, {2, 2});
    ASSERT_EQ(r.run(), dnnl_success);
    expect_same(r.out_values(), {3, 3, 3, 3, 5, 5, 5, 5});
}

TEST(DynamicDequantize, SchemaViolations) {
    op_runner_t dst(dnnl_graph_op_dynamic_dequantize);
    dst.input(dnnl_s4, {4}).input(dnnl_f16, {1}).output(dnnl_f32);
    EXPECT_EQ(dst.verify(), dnnl_invalid_graph_op);
    op_runner_t scales(dnnl_graph_op_dynamic_dequantize);
    scales.input(dnnl_u8, {4}).input(dnnl_s8, {1}).output(dnnl_s8);
    EXPECT_EQ(scales.verify(), dnnl_invalid_graph_op);
    op_runner_t zps(dnnl_graph_op_dynamic_dequantize);
    zps.input(dnnl_u4, {2, 4}).input(dnnl_f32, {2, 2}).input(dnnl_u8, {2, 1}).output(dnnl_f32)
            .str(dnnl_graph_op_attr_qtype, "per_group").s64s(dnnl_graph_op_attr_group_shape, {1, 2});
    EXPECT_EQ(zps.verify(), dnnl_invalid_graph_op);
    op_runner_t nogroup(dnnl_graph_op_dynamic_dequantize);
    nogroup.input(dnnl_u4, {2, 4}).input(dnnl_f32, {2, 2}).output(dnnl_f32)
            .str(dnnl_graph_op_attr_qtype, "per_group");
    EXPECT_EQ(nogroup.verify(), dnnl_invalid_graph_op);
    op_runner_t qtype(dnnl_graph_op_dynamic_dequantize);
    qtype.input(dnnl_u4, {2, 4}).input(dnnl_f32, {1}).output(dnnl_f32)
            .str(dnnl_graph_op_attr_qtype, "per_block");
    EXPECT_EQ(qtype.verify(), dnnl_invalid_graph_op);
    op_runner_t gshape(dnnl_graph_op_dynamic_dequantize);
    gshape.input(dnnl_u4, {2, 4}).input(dnnl_f32, {2, 3}).output(dnnl_f32)
            .str(dnnl_graph_op_attr_qtype, "per_group").s64s(dnnl_graph_op_attr_group_shape, {1, 2});
    EXPECT_EQ(gshape.infer(), dnnl_invalid_shape);
}

} // namespace test
} // namespace llga
