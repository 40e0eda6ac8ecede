// SPDX-License-Identifier: Apache-2.0
// tests/unit/ops/data_movement_test.cpp — Concat, StaticReshape,
// StaticTranspose, Reorder, TypeCast: values, shape inference (reshape 0/-1,
// negative transpose order), strided layouts, schema violations and the
// rounding edges of f32 <-> bf16/f16 conversion.
#include <cfloat>
#include <cmath>
#include <limits>

#include "ops/op_test_util.hpp"

namespace llga {
namespace test {

namespace {
const double k_inf = std::numeric_limits<double>::infinity();
const double k_nan = std::numeric_limits<double>::quiet_NaN();

std::vector<double> iota(int n) {
    std::vector<double> v;
    for (int i = 0; i < n; ++i)
        v.push_back(i);
    return v;
}
} // namespace

// ---- Concat ----------------------------------------------------------------

TEST(Concat, TwoInputsEachAxis) {
    op_runner_t r0(dnnl_graph_op_concat);
    r0.input(dnnl_f32, {1, 2}, {1, 2}).input(dnnl_f32, {2, 2}, {3, 4, 5, 6})
            .output(dnnl_f32).s64(dnnl_graph_op_attr_axis, 0);
    ASSERT_EQ(r0.run(), dnnl_success);
    EXPECT_EQ(r0.out_dims(), (dims_t {3, 2}));
    expect_near_all(r0.out_values(), {1, 2, 3, 4, 5, 6});

    op_runner_t r1(dnnl_graph_op_concat);
    r1.input(dnnl_f32, {2, 1}, {1, 2}).input(dnnl_f32, {2, 2}, {3, 4, 5, 6})
            .input(dnnl_f32, {2, 1}, {7, 8})
            .output(dnnl_f32).s64(dnnl_graph_op_attr_axis, -1);
    ASSERT_EQ(r1.run(), dnnl_success);
    EXPECT_EQ(r1.out_dims(), (dims_t {2, 4}));
    expect_near_all(r1.out_values(), {1, 3, 4, 7, 2, 5, 6, 8});
}

TEST(Concat, SingleInputStridedBf16) {
    op_runner_t r(dnnl_graph_op_concat);
    r.input_strided(dnnl_bf16, {2, 2}, {1, 2}, {1, 2, 3, 4})
            .output(dnnl_bf16).s64(dnnl_graph_op_attr_axis, 1);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {1, 2, 3, 4}, 0, 0);
}

TEST(Concat, SchemaAndShapeViolations) {
    op_runner_t no_axis(dnnl_graph_op_concat);
    no_axis.input(dnnl_f32, {2}).output(dnnl_f32);
    EXPECT_EQ(no_axis.verify(), dnnl_invalid_graph_op);

    op_runner_t mixed(dnnl_graph_op_concat);
    mixed.input(dnnl_f32, {2}).input(dnnl_bf16, {2}).output(dnnl_f32)
            .s64(dnnl_graph_op_attr_axis, 0);
    EXPECT_EQ(mixed.verify(), dnnl_invalid_graph_op);

    op_runner_t rank(dnnl_graph_op_concat);
    rank.input(dnnl_f32, {2}).input(dnnl_f32, {2, 1}).output(dnnl_f32)
            .s64(dnnl_graph_op_attr_axis, 0);
    EXPECT_EQ(rank.verify(), dnnl_invalid_graph_op);

    op_runner_t axis(dnnl_graph_op_concat);
    axis.input(dnnl_f32, {2}).output(dnnl_f32).s64(dnnl_graph_op_attr_axis, 1);
    EXPECT_EQ(axis.verify(), dnnl_invalid_graph_op);

    op_runner_t many(dnnl_graph_op_concat);
    for (int k = 0; k < 65; ++k)
        many.input(dnnl_f32, {1});
    many.output(dnnl_f32).s64(dnnl_graph_op_attr_axis, 0);
    EXPECT_EQ(many.verify(), dnnl_invalid_graph_op);

    op_runner_t dims(dnnl_graph_op_concat);
    dims.input(dnnl_f32, {2, 3}).input(dnnl_f32, {2, 4}).output(dnnl_f32)
            .s64(dnnl_graph_op_attr_axis, 0);
    EXPECT_EQ(dims.infer(), dnnl_invalid_shape);
}

// ---- StaticReshape ---------------------------------------------------------

TEST(StaticReshape, SpecialZeroAndMinusOne) {
    op_runner_t r(dnnl_graph_op_static_reshape);
    r.input(dnnl_f32, {2, 3, 4}, iota(24)).output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_shape, {0, -1})
            .boolean(dnnl_graph_op_attr_special_zero, true);
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {2, 12}));
    expect_near_all(r.out_values(), iota(24));

    op_runner_t m(dnnl_graph_op_static_reshape);
    m.input(dnnl_f32, {2, 3, 4}).output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_shape, {4, -1, 2})
            .boolean(dnnl_graph_op_attr_special_zero, false);
    ASSERT_EQ(m.infer(), dnnl_success);
    EXPECT_EQ(m.out_dims(), (dims_t {4, 3, 2}));

    // Literal zero with special_zero false: a zero-volume reshape.
    op_runner_t z(dnnl_graph_op_static_reshape);
    z.input(dnnl_f32, {0, 3}).output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_shape, {3, 0})
            .boolean(dnnl_graph_op_attr_special_zero, false);
    ASSERT_EQ(z.infer(), dnnl_success);
    EXPECT_EQ(z.out_dims(), (dims_t {3, 0}));
}

TEST(StaticReshape, StridedInputCopiesLogicalOrder) {
    // Column-major 2x3 holding logical [[0,1,2],[3,4,5]] -> [3, 2].
    op_runner_t r(dnnl_graph_op_static_reshape);
    r.input_strided(dnnl_f16, {2, 3}, {1, 2}, iota(6)).output(dnnl_f16)
            .s64s(dnnl_graph_op_attr_shape, {3, 2})
            .boolean(dnnl_graph_op_attr_special_zero, false);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), iota(6), 0, 0);
}

TEST(StaticReshape, SchemaAndShapeViolations) {
    auto make = [](std::vector<int64_t> shape, bool sz, dims_t in = {2, 3}) {
        op_runner_t r(dnnl_graph_op_static_reshape);
        r.input(dnnl_f32, in).output(dnnl_f32)
                .s64s(dnnl_graph_op_attr_shape, shape)
                .boolean(dnnl_graph_op_attr_special_zero, sz);
        return r;
    };
    EXPECT_EQ(make({-1, -1}, false).verify(), dnnl_invalid_graph_op);
    EXPECT_EQ(make({-2, 3}, false).verify(), dnnl_invalid_graph_op);
    EXPECT_EQ(make({4, 2}, false).infer(), dnnl_invalid_shape);
    EXPECT_EQ(make({0, -1}, false).infer(), dnnl_invalid_shape);
    EXPECT_EQ(make({1, 1, 0}, true).infer(), dnnl_invalid_shape);
    op_runner_t no_sz(dnnl_graph_op_static_reshape);
    no_sz.input(dnnl_f32, {2}).output(dnnl_f32).s64s(dnnl_graph_op_attr_shape, {2});
    EXPECT_EQ(no_sz.verify(), dnnl_invalid_graph_op);
    op_runner_t s8(dnnl_graph_op_static_reshape);
    s8.input(dnnl_s8, {2}).output(dnnl_s8).s64s(dnnl_graph_op_attr_shape, {2})
            .boolean(dnnl_graph_op_attr_special_zero, false);
    EXPECT_EQ(s8.verify(), dnnl_invalid_graph_op);
}

// ---- StaticTranspose -------------------------------------------------------

TEST(StaticTranspose, TwoDims) {
    op_runner_t r(dnnl_graph_op_static_transpose);
    r.input(dnnl_f32, {2, 3}, iota(6)).output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_order, {1, 0});
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {3, 2}));
    expect_near_all(r.out_values(), {0, 3, 1, 4, 2, 5});
}

TEST(StaticTranspose, NegativeOrderAndStrides) {
    // order [-1, 0, -2] = [2, 0, 1]: dst[a][b][c] = src[b][c][a].
    const dims_t d {2, 3, 4};
    for (bool strided : {false, true}) {
        op_runner_t r(dnnl_graph_op_static_transpose);
        if (strided)
            r.input_strided(dnnl_f32, d, {1, 2, 6}, iota(24)); // column-major
        else
            r.input(dnnl_f32, d, iota(24));
        r.output(dnnl_f32).s64s(dnnl_graph_op_attr_order, {-1, 0, -2});
        ASSERT_EQ(r.run(), dnnl_success);
        EXPECT_EQ(r.out_dims(), (dims_t {4, 2, 3}));
        std::vector<double> want;
        for (int a = 0; a < 4; ++a)
            for (int b = 0; b < 2; ++b)
                for (int c = 0; c < 3; ++c)
                    want.push_back(b * 12 + c * 4 + a);
        expect_near_all(r.out_values(), want);
    }
}

TEST(StaticTranspose, EmptyOrderReverses) {
    op_runner_t r(dnnl_graph_op_static_transpose);
    r.input(dnnl_f32, {2, 1, 3}).output(dnnl_f32).s64s(dnnl_graph_op_attr_order, {});
    ASSERT_EQ(r.infer(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {3, 1, 2}));
}

TEST(StaticTranspose, SchemaViolations) {
    op_runner_t dup(dnnl_graph_op_static_transpose);
    dup.input(dnnl_f32, {2, 3}).output(dnnl_f32).s64s(dnnl_graph_op_attr_order, {0, -2});
    EXPECT_EQ(dup.verify(), dnnl_invalid_graph_op);
    op_runner_t len(dnnl_graph_op_static_transpose);
    len.input(dnnl_f32, {2, 3}).output(dnnl_f32).s64s(dnnl_graph_op_attr_order, {0});
    EXPECT_EQ(len.verify(), dnnl_invalid_graph_op);
    op_runner_t range(dnnl_graph_op_static_transpose);
    range.input(dnnl_f32, {2, 3}).output(dnnl_f32).s64s(dnnl_graph_op_attr_order, {0, 2});
    EXPECT_EQ(range.verify(), dnnl_invalid_graph_op);
    op_runner_t missing(dnnl_graph_op_static_transpose);
    missing.input(dnnl_f32, {2, 3}).output(dnnl_f32);
    EXPECT_EQ(missing.verify(), dnnl_invalid_graph_op);
    op_runner_t decl(dnnl_graph_op_static_transpose);
    decl.input(dnnl_f32, {2, 3}).output(dnnl_f32, {2, 3}).s64s(dnnl_graph_op_attr_order, {1, 0});
    EXPECT_EQ(decl.infer(), dnnl_invalid_shape);
}

// ---- Reorder ---------------------------------------------------------------

TEST(Reorder, StridedToDenseAndBack) {
    op_runner_t r(dnnl_graph_op_reorder);
    r.input_strided(dnnl_f32, {2, 3}, {1, 2}, iota(6)).output(dnnl_f32, {2, 3});
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), iota(6));

    op_runner_t w(dnnl_graph_op_reorder);
    w.input(dnnl_bf16, {2, 3}, iota(6)).output(dnnl_bf16, {2, 3});
    w.op().outputs[0].layout.strides[0] = 1;
    w.op().outputs[0].layout.strides[1] = 2;
    ASSERT_EQ(w.run(), dnnl_success);
    expect_near_all(w.out_values(), iota(6), 0, 0);
    EXPECT_EQ(ops::find_op_def(dnnl_graph_op_reorder)->traits.inplace_input, 0);
}

TEST(Reorder, SchemaViolations) {
    op_runner_t dt(dnnl_graph_op_reorder);
    dt.input(dnnl_f32, {2}).output(dnnl_bf16);
    EXPECT_EQ(dt.verify(), dnnl_invalid_graph_op);
    op_runner_t attr(dnnl_graph_op_reorder);
    attr.input(dnnl_f32, {2}).output(dnnl_f32).s64(dnnl_graph_op_attr_axis, 0);
    EXPECT_EQ(attr.verify(), dnnl_invalid_graph_op);
    op_runner_t shape(dnnl_graph_op_reorder);
    shape.input(dnnl_f32, {2}).output(dnnl_f32, {3});
    EXPECT_EQ(shape.infer(), dnnl_invalid_shape);
}

// ---- TypeCast --------------------------------------------------------------

namespace {
std::vector<double> cast(data_type_t from, data_type_t to, const std::vector<double> &v) {
    op_runner_t r(dnnl_graph_op_type_cast);
    r.input(from, {static_cast<dim_t>(v.size())}, v).output(to);
    EXPECT_EQ(r.run(), dnnl_success);
    return r.out_values();
}
void expect_same(const std::vector<double> &got, const std::vector<double> &want) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(want[i]))
            EXPECT_TRUE(std::isnan(got[i])) << "element " << i;
        else
            EXPECT_EQ(got[i], want[i]) << "element " << i;
    }
}
} // namespace

TEST(TypeCast, F32ToBf16Rounding) {
    const double u = std::ldexp(1.0, -8); // half an ulp of bf16 at 1
    const double big = FLT_MAX;
    expect_same(cast(dnnl_f32, dnnl_bf16,
                        {1 + u, 1 + 3 * u, -(1 + u), 1 + 1.5 * u, k_nan, k_inf,
                                -k_inf, big, std::ldexp(1.5, -133),
                                std::ldexp(1.0, -134), -0.0}),
            {1, 1 + 4 * u, -1, 1 + 2 * u, k_nan, k_inf, -k_inf, k_inf,
                    std::ldexp(1.0, -132), 0, 0});
}

TEST(TypeCast, F32ToF16Rounding) {
    const double u = std::ldexp(1.0, -11); // half an ulp of f16 at 1
    const double sub = std::ldexp(1.0, -24); // smallest f16 subnormal
    expect_same(cast(dnnl_f32, dnnl_f16,
                        {1 + u, 1 + 3 * u, 65504, 65519, 65520, 1e6, -1e6,
                                sub, sub / 2, 1.5 * sub, 2.5 * sub, k_nan,
                                -k_inf}),
            {1, 1 + 4 * u, 65504, 65504, k_inf, k_inf, -k_inf, sub, 0,
                    2 * sub, 2 * sub, k_nan, -k_inf});
}

TEST(TypeCast, WideningIsExact) {
    const double sub = std::ldexp(1.0, -24);
    expect_same(cast(dnnl_f16, dnnl_f32, {sub, 65504, -0.5, k_inf, k_nan}),
            {sub, 65504, -0.5, k_inf, k_nan});
    expect_same(cast(dnnl_bf16, dnnl_f32,
                        {std::ldexp(1.0, -133), 1.5, -k_inf, k_nan}),
            {std::ldexp(1.0, -133), 1.5, -k_inf, k_nan});
}

TEST(TypeCast, StridedInput) {
    op_runner_t r(dnnl_graph_op_type_cast);
    r.input_strided(dnnl_f32, {2, 2}, {1, 2}, {1, 2, 3, 4.25}).output(dnnl_bf16);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_same(r.out_values(), {1, 2, 3, 4.25});
}

TEST(TypeCast, SchemaViolations) {
    for (auto p : std::vector<std::pair<data_type_t, data_type_t>> {
                 {dnnl_f32, dnnl_f32}, {dnnl_bf16, dnnl_f16}, {dnnl_f16, dnnl_bf16},
                 {dnnl_f32, dnnl_s8}, {dnnl_u8, dnnl_f32}}) {
        op_runner_t r(dnnl_graph_op_type_cast);
        r.input(p.first, {2}).output(p.second);
        EXPECT_EQ(r.verify(), dnnl_invalid_graph_op);
    }
}

} // namespace test
} // namespace llga
