// SPDX-License-Identifier: Apache-2.0
// tests/unit/ops/reduce_test.cpp — ReduceL1/L2/Max/Mean/Min/Prod/Sum: known
// answers per op, axes and keep_dims shape rules, strides, NaN and schema
// violations.
#include <cmath>
#include <limits>

#include "ops/op_test_util.hpp"

namespace llga {
namespace test {

namespace {
using vec = std::vector<double>;
const vec k_x {1, -2, 3, -4, 5, -6}; // [[1, -2, 3], [-4, 5, -6]]

op_runner_t reduce(op_kind_t kind, std::vector<int64_t> axes, bool keep = false,
        const dims_t &dims = {2, 3}, const vec &x = k_x,
        data_type_t dt = dnnl_f32) {
    op_runner_t r(kind);
    r.input(dt, dims, x).output(dt).s64s(dnnl_graph_op_attr_axes, axes);
    if (keep) r.boolean(dnnl_graph_op_attr_keep_dims, true);
    return r;
}

vec run_values(op_runner_t r) {
    EXPECT_EQ(r.run(), dnnl_success);
    return r.out_values();
}
} // namespace

TEST(ReduceSum, AxesAndKeepDims) {
    op_runner_t r = reduce(dnnl_graph_op_reduce_sum, {1});
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {2}));
    expect_near_all(r.out_values(), {2, -5});

    op_runner_t k = reduce(dnnl_graph_op_reduce_sum, {0}, true);
    ASSERT_EQ(k.run(), dnnl_success);
    EXPECT_EQ(k.out_dims(), (dims_t {1, 3}));
    expect_near_all(k.out_values(), {-3, 3, -3});

    op_runner_t all = reduce(dnnl_graph_op_reduce_sum, {-1, 0});
    ASSERT_EQ(all.run(), dnnl_success);
    EXPECT_EQ(all.op().outputs[0].ndims, 0);
    expect_near_all(all.out_values(), {-3});
}

TEST(ReduceSum, ThreeDimsOuterAxesStrided) {
    // [2, 3, 2] column-major, x[i][j][k] = i + 10 j + 100 k; reduce axes 0, 2.
    vec x;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 2; ++k)
                x.push_back(i + 10 * j + 100 * k);
    op_runner_t r(dnnl_graph_op_reduce_sum);
    r.input_strided(dnnl_f32, {2, 3, 2}, {1, 2, 6}, x).output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_axes, {0, 2}).boolean(dnnl_graph_op_attr_keep_dims, true);
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {1, 3, 1}));
    // Sum over i, k in {0, 1} of (i + 10 j + 100 k) = 2 + 40 j + 200.
    expect_near_all(r.out_values(), {202, 242, 282});
}

TEST(ReduceL1, KnownAnswer) {
    expect_near_all(run_values(reduce(dnnl_graph_op_reduce_l1, {1})), {6, 15});
}

TEST(ReduceL2, KnownAnswer) {
    expect_near_all(run_values(reduce(dnnl_graph_op_reduce_l2, {1})),
            {std::sqrt(14.0), std::sqrt(77.0)});
}

TEST(ReduceMax, KnownAnswerAndNaN) {
    expect_near_all(run_values(reduce(dnnl_graph_op_reduce_max, {1})), {3, 5});
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const vec got = run_values(reduce(dnnl_graph_op_reduce_max, {1}, false,
            {2, 2}, {1, nan, nan, 1}));
    EXPECT_TRUE(std::isnan(got[0]));
    EXPECT_TRUE(std::isnan(got[1]));
}

TEST(ReduceMean, KnownAnswer) {
    expect_near_all(run_values(reduce(dnnl_graph_op_reduce_mean, {-1})),
            {2.0 / 3, -5.0 / 3});
    expect_near_all(run_values(reduce(dnnl_graph_op_reduce_mean, {0, 1}, true)), {-0.5});
}

TEST(ReduceMin, KnownAnswerBf16) {
    expect_near_all(run_values(reduce(dnnl_graph_op_reduce_min, {0}, false,
                            {2, 3}, k_x, dnnl_bf16)),
            {-4, -2, -6}, 0, 0);
}

TEST(ReduceProd, KnownAnswerF16) {
    expect_near_all(run_values(reduce(dnnl_graph_op_reduce_prod, {1}, false,
                            {2, 3}, k_x, dnnl_f16)),
            {-6, 120}, 0, 0);
}

TEST(Reduce, SchemaAndShapeViolations) {
    for (op_kind_t kind : {dnnl_graph_op_reduce_l1, dnnl_graph_op_reduce_l2,
                 dnnl_graph_op_reduce_max, dnnl_graph_op_reduce_mean,
                 dnnl_graph_op_reduce_min, dnnl_graph_op_reduce_prod,
                 dnnl_graph_op_reduce_sum}) {
        EXPECT_EQ(reduce(kind, {2}).verify(), dnnl_invalid_graph_op);
        EXPECT_EQ(reduce(kind, {1, -1}).verify(), dnnl_invalid_graph_op);
        EXPECT_EQ(reduce(kind, {}).verify(), dnnl_success);
        EXPECT_EQ(reduce(kind, {}).infer(), dnnl_unimplemented);

        op_runner_t two(kind);
        two.input(dnnl_f32, {2, 3}).input(dnnl_s32, {1}, {1}).output(dnnl_f32);
        EXPECT_EQ(two.verify(), dnnl_invalid_graph_op);

        op_runner_t s8(kind);
        s8.input(dnnl_s8, {2, 3}).output(dnnl_s8).s64s(dnnl_graph_op_attr_axes, {0});
        EXPECT_EQ(s8.verify(), dnnl_invalid_graph_op);

        op_runner_t decl(kind);
        decl.input(dnnl_f32, {2, 3}).output(dnnl_f32, {2, 1}).s64s(dnnl_graph_op_attr_axes, {1});
        EXPECT_EQ(decl.infer(), dnnl_invalid_shape); // keep_dims is false
    }
}

} // namespace test
} // namespace llga
