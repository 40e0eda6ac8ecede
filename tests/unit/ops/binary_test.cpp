// SPDX-License-Identifier: Apache-2.0
// tests/unit/ops/binary_test.cpp — Add, Subtract, Multiply, Divide, Maximum,
// Minimum, SquaredDifference, GreaterEqual, Select: known answers, dtype
// rules, broadcasting shape inference, strided and in-place execution.
#include <cmath>
#include <cstring>
#include <limits>

#include "ops/op_test_util.hpp"

namespace llga {
namespace test {

namespace {

// Marks dim `d` of input `k` unknown after the runner built it (its buffer
// sizing needs known dims).
void forget_dim(op_runner_t &r, size_t k, int d) {
    r.op().inputs[k].dims[d] = unknown_dim;
}

// Round-to-nearest-even of an f32 value to bf16, written out independently.
double to_bf16(double v) {
    float f = static_cast<float>(v);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u += 0x7FFFu + ((u >> 16) & 1u);
    u &= 0xFFFF0000u;
    std::memcpy(&f, &u, 4);
    return f;
}

op_runner_t bin(op_kind_t kind, data_type_t dt, const dims_t &a_dims,
        const std::vector<double> &a, const dims_t &b_dims,
        const std::vector<double> &b, data_type_t out_dt) {
    op_runner_t r(kind);
    r.input(dt, a_dims, a).input(dt, b_dims, b).output(out_dt);
    return r;
}

} // namespace

// ---- known answers ---------------------------------------------------------

TEST(Add, BroadcastRowVector) {
    op_runner_t r = bin(dnnl_graph_op_add, dnnl_f32, {2, 3}, {1, 2, 3, 4, 5, 6},
            {3}, {10, 20, 30}, dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {2, 3}));
    expect_near_all(r.out_values(), {11, 22, 33, 14, 25, 36});
}

TEST(Add, S32IsExact) {
    // 2^30 + 7 and 2^30 - 3: beyond f32's 24-bit mantissa, exact in s32.
    op_runner_t r = bin(dnnl_graph_op_add, dnnl_s32, {2},
            {1073741824.0 + 7, -5}, {2}, {1073741824.0 - 3, 2}, dnnl_s32);
    ASSERT_EQ(r.run(), dnnl_success);
    const auto v = r.out_values();
    EXPECT_EQ(v[0], 2147483647.0) << "2^31 + 4 saturates to the s32 maximum";
    EXPECT_EQ(v[1], -3.0);

    op_runner_t exact = bin(dnnl_graph_op_add, dnnl_s32, {1}, {16777217},
            {1}, {2}, dnnl_s32);
    ASSERT_EQ(exact.run(), dnnl_success);
    EXPECT_EQ(exact.out_values()[0], 16777219.0);
}

TEST(Add, MixedF32AndBf16ToF32) {
    op_runner_t r(dnnl_graph_op_add);
    r.input(dnnl_f32, {2}, {0.001, 1.0}).input(dnnl_bf16, {2}, {1.0, 0.5})
            .output(dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {1.001, 1.5}, 1e-7, 1e-7);
}

TEST(Add, Bf16RoundsResult) {
    // 1 + 1/256 is not representable in bf16 (8 bits of mantissa): ties to 1.
    const std::vector<double> a {1.0, 3.0, 100.0}, b {1.0 / 256, 1.0 / 64, 0.75};
    op_runner_t r = bin(dnnl_graph_op_add, dnnl_bf16, {3}, a, {3}, b, dnnl_bf16);
    ASSERT_EQ(r.run(), dnnl_success);
    std::vector<double> want;
    for (size_t i = 0; i < a.size(); ++i)
        want.push_back(to_bf16(to_bf16(a[i]) + to_bf16(b[i])));
    expect_near_all(r.out_values(), want, 0, 0);
    EXPECT_EQ(r.out_values()[0], 1.0);
    // bf16 spacing at 64..128 is 0.5: 100.75 is a tie, the even neighbour is 101.
    EXPECT_EQ(r.out_values()[2], 101.0);
}

TEST(Subtract, F32AndS32) {
    op_runner_t f = bin(dnnl_graph_op_subtract, dnnl_f32, {2, 2}, {5, 6, 7, 8},
            {2, 1}, {1, 2}, dnnl_f32);
    ASSERT_EQ(f.run(), dnnl_success);
    expect_near_all(f.out_values(), {4, 5, 5, 6});

    op_runner_t s = bin(dnnl_graph_op_subtract, dnnl_s32, {2}, {-2147483647.0, 100},
            {2}, {1, 2147483647.0}, dnnl_s32);
    ASSERT_EQ(s.run(), dnnl_success);
    expect_near_all(s.out_values(), {-2147483648.0, -2147483547.0}, 0, 0);
}

TEST(Multiply, TwoWayBroadcast) {
    // [2,1,3] * [4,1] -> [2,4,3]; value = a[i,0,k] * b[j,0].
    std::vector<double> a {1, 2, 3, 4, 5, 6}, b {1, 10, 100, 1000};
    op_runner_t r = bin(dnnl_graph_op_multiply, dnnl_f32, {2, 1, 3}, a, {4, 1},
            b, dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {2, 4, 3}));
    std::vector<double> want;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 4; ++j)
            for (int k = 0; k < 3; ++k)
                want.push_back(a[i * 3 + k] * b[j]);
    expect_near_all(r.out_values(), want);
}

TEST(Multiply, RankZeroScalar) {
    op_runner_t r = bin(dnnl_graph_op_multiply, dnnl_f32, {}, {-2}, {2, 2},
            {1, 2, 3, 4}, dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {2, 2}));
    expect_near_all(r.out_values(), {-2, -4, -6, -8});
}

TEST(Divide, ValuesAndDivisionByZero) {
    op_runner_t r = bin(dnnl_graph_op_divide, dnnl_f32, {4}, {1, -3, 1, 0},
            {4}, {4, 2, 0, 0}, dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    const auto v = r.out_values();
    EXPECT_EQ(v[0], 0.25);
    EXPECT_EQ(v[1], -1.5);
    EXPECT_TRUE(std::isinf(v[2]) && v[2] > 0);
    EXPECT_TRUE(std::isnan(v[3]));
}

TEST(Maximum, Values) {
    op_runner_t r = bin(dnnl_graph_op_maximum, dnnl_f32, {2, 2}, {1, -5, 3, 0},
            {2}, {2, -6}, dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {2, -5, 3, 0});
}

TEST(Minimum, Values) {
    op_runner_t r = bin(dnnl_graph_op_minimum, dnnl_f32, {2, 2}, {1, -5, 3, 0},
            {2}, {2, -6}, dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {1, -6, 2, -6});
}

TEST(SquaredDifference, Values) {
    op_runner_t r = bin(dnnl_graph_op_squared_difference, dnnl_f32, {3},
            {1, -2, 0.5}, {3}, {4, 2, 0.5}, dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {9, 16, 0});
}

TEST(GreaterEqual, F32AndS32GiveBoolean) {
    op_runner_t f = bin(dnnl_graph_op_greater_equal, dnnl_f32, {4},
            {1, 2, 3, -1}, {1}, {2}, dnnl_boolean);
    ASSERT_EQ(f.run(), dnnl_success);
    expect_near_all(f.out_values(), {0, 1, 1, 0}, 0, 0);

    // 2^24 + 1 vs 2^24: equal after f32 rounding, not in s32.
    op_runner_t s = bin(dnnl_graph_op_greater_equal, dnnl_s32, {2},
            {16777216, 16777217}, {2}, {16777217, 16777217}, dnnl_boolean);
    ASSERT_EQ(s.run(), dnnl_success);
    expect_near_all(s.out_values(), {0, 1}, 0, 0);
}

TEST(Select, OneWayCondBroadcast) {
    // cond [3,1] picks rows of src_0 [3,2] vs the broadcast src_1 [2].
    op_runner_t r(dnnl_graph_op_select);
    r.input(dnnl_boolean, {3, 1}, {1, 0, 1})
            .input(dnnl_f32, {3, 2}, {1, 2, 3, 4, 5, 6})
            .input(dnnl_f32, {2}, {-1, -2})
            .output(dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {3, 2}));
    expect_near_all(r.out_values(), {1, 2, -1, -2, 5, 6});
}

// ---- schemas -----------------------------------------------------------------

TEST(BinarySchema, DtypeRules) {
    // Add/Subtract: each of the three dtypes free in {f32,bf16,f16,s32}.
    for (op_kind_t k : {dnnl_graph_op_add, dnnl_graph_op_subtract}) {
        op_runner_t ok(k);
        ok.input(dnnl_s32, {2}).input(dnnl_f16, {2}).output(dnnl_f32);
        EXPECT_EQ(ok.verify(), dnnl_success);
        op_runner_t bad(k);
        bad.input(dnnl_s8, {2}).input(dnnl_f32, {2}).output(dnnl_f32);
        EXPECT_EQ(bad.verify(), dnnl_invalid_graph_op);
    }
    // Multiply/Divide: independent but float only.
    for (op_kind_t k : {dnnl_graph_op_multiply, dnnl_graph_op_divide}) {
        op_runner_t ok(k);
        ok.input(dnnl_bf16, {2}).input(dnnl_f32, {2}).output(dnnl_f32);
        EXPECT_EQ(ok.verify(), dnnl_success);
        op_runner_t bad(k);
        bad.input(dnnl_s32, {2}).input(dnnl_s32, {2}).output(dnnl_s32);
        EXPECT_EQ(bad.verify(), dnnl_invalid_graph_op);
    }
    // Maximum/Minimum/SquaredDifference: one type for all three.
    for (op_kind_t k : {dnnl_graph_op_maximum, dnnl_graph_op_minimum,
                 dnnl_graph_op_squared_difference}) {
        op_runner_t ok(k);
        ok.input(dnnl_f16, {2}).input(dnnl_f16, {2}).output(dnnl_f16);
        EXPECT_EQ(ok.verify(), dnnl_success);
        op_runner_t mixed(k);
        mixed.input(dnnl_f32, {2}).input(dnnl_bf16, {2}).output(dnnl_f32);
        EXPECT_EQ(mixed.verify(), dnnl_invalid_graph_op);
        op_runner_t s32(k);
        s32.input(dnnl_s32, {2}).input(dnnl_s32, {2}).output(dnnl_s32);
        EXPECT_EQ(s32.verify(), dnnl_invalid_graph_op);
    }
    // GreaterEqual: equal input types, boolean output.
    op_runner_t ge_out(dnnl_graph_op_greater_equal);
    ge_out.input(dnnl_f32, {2}).input(dnnl_f32, {2}).output(dnnl_f32);
    EXPECT_EQ(ge_out.verify(), dnnl_invalid_graph_op);
    op_runner_t ge_mixed(dnnl_graph_op_greater_equal);
    ge_mixed.input(dnnl_f32, {2}).input(dnnl_s32, {2}).output(dnnl_boolean);
    EXPECT_EQ(ge_mixed.verify(), dnnl_invalid_graph_op);
    // Select: boolean cond, float data.
    op_runner_t sel_cond(dnnl_graph_op_select);
    sel_cond.input(dnnl_f32, {2}).input(dnnl_f32, {2}).input(dnnl_f32, {2})
            .output(dnnl_f32);
    EXPECT_EQ(sel_cond.verify(), dnnl_invalid_graph_op);
    op_runner_t sel_s32(dnnl_graph_op_select);
    sel_s32.input(dnnl_boolean, {2}).input(dnnl_s32, {2}).input(dnnl_s32, {2})
            .output(dnnl_s32);
    EXPECT_EQ(sel_s32.verify(), dnnl_invalid_graph_op);
}

TEST(BinarySchema, CountsAndAttributes) {
    for (op_kind_t k : {dnnl_graph_op_add, dnnl_graph_op_subtract,
                 dnnl_graph_op_multiply, dnnl_graph_op_divide,
                 dnnl_graph_op_maximum, dnnl_graph_op_minimum,
                 dnnl_graph_op_squared_difference}) {
        SCOPED_TRACE(ops::op_kind_name(k));
        EXPECT_TRUE(ops::has_reference(k));
        op_runner_t one(k);
        one.input(dnnl_f32, {2}).output(dnnl_f32);
        EXPECT_EQ(one.verify(), dnnl_invalid_graph_op);
        op_runner_t bad_mode(k);
        bad_mode.input(dnnl_f32, {2}).input(dnnl_f32, {2}).output(dnnl_f32)
                .str(dnnl_graph_op_attr_auto_broadcast, "bidirectional");
        EXPECT_EQ(bad_mode.verify(), dnnl_invalid_graph_op);
        op_runner_t foreign(k);
        foreign.input(dnnl_f32, {2}).input(dnnl_f32, {2}).output(dnnl_f32)
                .f32(dnnl_graph_op_attr_alpha, 1.f);
        EXPECT_EQ(foreign.verify(), dnnl_invalid_graph_op);
        // The default is injected.
        op_runner_t def(k);
        def.input(dnnl_f32, {2}).input(dnnl_f32, {2}).output(dnnl_f32);
        ASSERT_EQ(def.verify(), dnnl_success);
        EXPECT_EQ(def.op().get_str(dnnl_graph_op_attr_auto_broadcast), "numpy");
    }
    op_runner_t ge_three(dnnl_graph_op_greater_equal);
    ge_three.input(dnnl_f32, {2}).input(dnnl_f32, {2}).input(dnnl_f32, {2})
            .output(dnnl_boolean);
    EXPECT_EQ(ge_three.verify(), dnnl_invalid_graph_op);
    op_runner_t sel_two(dnnl_graph_op_select);
    sel_two.input(dnnl_boolean, {2}).input(dnnl_f32, {2}).output(dnnl_f32);
    EXPECT_EQ(sel_two.verify(), dnnl_invalid_graph_op);
    op_runner_t sel_mode(dnnl_graph_op_select);
    sel_mode.input(dnnl_boolean, {2}).input(dnnl_f32, {2}).input(dnnl_f32, {2})
            .output(dnnl_f32).str(dnnl_graph_op_attr_auto_broadcast, "full");
    EXPECT_EQ(sel_mode.verify(), dnnl_invalid_graph_op);
}

// ---- shape inference -----------------------------------------------------------

TEST(BinaryShape, NumpyBroadcasting) {
    struct case_t {
        dims_t a, b, want;
    };
    for (const case_t &c : std::vector<case_t> {{{2, 3}, {3}, {2, 3}},
                 {{}, {}, {}}, {{}, {4, 1}, {4, 1}}, {{5, 1, 3}, {4, 1}, {5, 4, 3}},
                 {{1}, {0, 2}, {0, 2}}}) {
        op_runner_t r(dnnl_graph_op_add);
        r.input(dnnl_f32, c.a).input(dnnl_f32, c.b).output(dnnl_f32);
        ASSERT_EQ(r.infer(), dnnl_success);
        EXPECT_EQ(r.out_dims(), c.want);
        EXPECT_EQ(r.op().outputs[0].ndims, static_cast<int>(c.want.size()));
    }
}

TEST(BinaryShape, Errors) {
    op_runner_t incompatible = bin(dnnl_graph_op_multiply, dnnl_f32, {2, 3}, {},
            {4}, {}, dnnl_f32);
    EXPECT_EQ(incompatible.infer(), dnnl_invalid_shape);

    op_runner_t unknown(dnnl_graph_op_add);
    unknown.input(dnnl_f32, {2, 3}).input(dnnl_f32, {2, 3}).output(dnnl_f32);
    forget_dim(unknown, 0, 1);
    EXPECT_EQ(unknown.infer(), dnnl_invalid_shape);

    op_runner_t declared(dnnl_graph_op_add);
    declared.input(dnnl_f32, {2, 3}).input(dnnl_f32, {3}).output(dnnl_f32, {3, 2});
    EXPECT_EQ(declared.infer(), dnnl_invalid_shape);
    op_runner_t declared_rank(dnnl_graph_op_add);
    declared_rank.input(dnnl_f32, {2, 3}).input(dnnl_f32, {3})
            .output(dnnl_f32, {6});
    EXPECT_EQ(declared_rank.infer(), dnnl_invalid_shape);
    op_runner_t declared_ok(dnnl_graph_op_add);
    declared_ok.input(dnnl_f32, {2, 3}).input(dnnl_f32, {3})
            .output(dnnl_f32, {2, unknown_dim});
    EXPECT_EQ(declared_ok.infer(), dnnl_success);
    EXPECT_EQ(declared_ok.out_dims(), (dims_t {2, 3}));

    op_runner_t none(dnnl_graph_op_subtract);
    none.input(dnnl_f32, {2, 3}).input(dnnl_f32, {3}).output(dnnl_f32)
            .str(dnnl_graph_op_attr_auto_broadcast, "none");
    EXPECT_EQ(none.infer(), dnnl_invalid_shape);
    op_runner_t none_ok(dnnl_graph_op_subtract);
    none_ok.input(dnnl_f32, {2, 3}).input(dnnl_f32, {2, 3}).output(dnnl_f32)
            .str(dnnl_graph_op_attr_auto_broadcast, "none");
    EXPECT_EQ(none_ok.infer(), dnnl_success);
}

TEST(BinaryShape, SelectCondIsOneWay) {
    auto sel = [](const dims_t &c, const dims_t &a, const dims_t &b,
                       const char *mode = "numpy") {
        op_runner_t r(dnnl_graph_op_select);
        r.input(dnnl_boolean, c).input(dnnl_f32, a).input(dnnl_f32, b)
                .output(dnnl_f32)
                .str(dnnl_graph_op_attr_auto_broadcast, mode);
        return r;
    };
    for (const dims_t &c : {dims_t {4, 5}, dims_t {3, 1, 5}, dims_t {},
                 dims_t {2, 3, 4, 5}}) {
        op_runner_t r = sel(c, {2, 3, 4, 5}, {5});
        ASSERT_EQ(r.infer(), dnnl_success);
        EXPECT_EQ(r.out_dims(), (dims_t {2, 3, 4, 5}));
    }
    // cond [3,5] does not align; cond may not enlarge the output. Both are
    // caught at add time because all shapes are known.
    EXPECT_EQ(sel({3, 5}, {2, 3, 4, 5}, {5}).verify(), dnnl_invalid_graph_op);
    EXPECT_EQ(sel({2, 4}, {4}, {1}).verify(), dnnl_invalid_graph_op);
    // With an unknown dim the check waits for shape inference.
    op_runner_t late = sel({3, 4}, {2, 3, 4, 5}, {5});
    forget_dim(late, 0, 1);
    EXPECT_EQ(late.verify(), dnnl_success);
    EXPECT_EQ(late.infer(), dnnl_invalid_shape);
    op_runner_t none = sel({2, 3}, {2, 3}, {2, 3}, "none");
    EXPECT_EQ(none.infer(), dnnl_success);
    EXPECT_EQ(sel({1, 3}, {2, 3}, {2, 3}, "none").verify(),
            dnnl_invalid_graph_op);
}

// ---- layouts -------------------------------------------------------------------

TEST(BinaryLayout, StridedInputs) {
    // src_0 logical [2,3] stored transposed (strides {1,2}); src_1 [3] with
    // stride 2 (every other element of a buffer).
    op_runner_t r(dnnl_graph_op_subtract);
    r.input_strided(dnnl_f32, {2, 3}, {1, 2}, {1, 2, 3, 4, 5, 6})
            .input_strided(dnnl_f32, {3}, {2}, {10, 20, 30})
            .output(dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {-9, -18, -27, -6, -15, -24});

    op_runner_t s(dnnl_graph_op_select);
    s.input_strided(dnnl_boolean, {2, 2}, {1, 2}, {1, 0, 0, 1})
            .input_strided(dnnl_f32, {2, 2}, {1, 2}, {1, 2, 3, 4})
            .input(dnnl_f32, {}, {-7})
            .output(dnnl_f32);
    ASSERT_EQ(s.run(), dnnl_success);
    expect_near_all(s.out_values(), {1, -7, -7, 4});
}

TEST(BinaryLayout, InPlaceOnSrc0) {
    const ops::op_def_t *def = ops::find_op_def(dnnl_graph_op_add);
    ASSERT_NE(def, nullptr);
    EXPECT_EQ(def->traits.inplace_input, 0);
    op_runner_t r(dnnl_graph_op_multiply);
    r.input(dnnl_f32, {2, 3}).input(dnnl_f32, {3}).output(dnnl_f32);
    ASSERT_EQ(r.infer(), dnnl_success);
    std::vector<float> a {1, 2, 3, 4, 5, 6}, b {2, -1, 0.5f};
    const ops::op_def_t *mul = ops::find_op_def(dnnl_graph_op_multiply);
    ASSERT_EQ(mul->ref(r.op(), {a.data(), b.data()}, {a.data()}), dnnl_success);
    EXPECT_EQ(a, (std::vector<float> {2, -2, 1.5f, 8, -5, 3}));
}

} // namespace test
} // namespace llga
