// SPDX-License-Identifier: Apache-2.0
// tests/unit/ops/softmax_test.cpp — SoftMax, SoftMaxBackward, LogSoftmax,
// LogSoftmaxBackward: known answers, stats, inf_as_zero, strides, schema
// violations and finite-difference checks of the backward ops.
#include <cmath>
#include <functional>
#include <limits>

#include "ops/op_test_util.hpp"

namespace llga {
namespace test {

namespace {
const double k_inf = std::numeric_limits<double>::infinity();

// Independent softmax of one row.
std::vector<double> softmax_row(const std::vector<double> &x) {
    double m = x[0];
    for (double v : x)
        m = std::max(m, v);
    double s = 0;
    for (double v : x)
        s += std::exp(v - m);
    std::vector<double> r;
    for (double v : x)
        r.push_back(std::exp(v - m) / s);
    return r;
}

std::vector<double> run_fwd(op_kind_t kind, const dims_t &dims, int64_t axis,
        const std::vector<double> &x) {
    op_runner_t r(kind);
    r.input(dnnl_f32, dims, x).output(dnnl_f32).s64(dnnl_graph_op_attr_axis, axis);
    EXPECT_EQ(r.run(), dnnl_success);
    return r.out_values();
}

// Checks backward(dy, y) against central differences of L(x) = sum(dy * f(x)).
void check_gradient(op_kind_t fwd, op_kind_t bwd, const dims_t &dims,
        int64_t axis, const std::vector<double> &x,
        const std::vector<double> &dy) {
    const std::vector<double> y = run_fwd(fwd, dims, axis, x);
    op_runner_t b(bwd);
    b.input(dnnl_f32, dims, dy).input(dnnl_f32, dims, y).output(dnnl_f32)
            .s64(dnnl_graph_op_attr_axis, axis);
    ASSERT_EQ(b.run(), dnnl_success);
    const std::vector<double> got = b.out_values();
    const double h = 1e-3;
    for (size_t i = 0; i < x.size(); ++i) {
        std::vector<double> xp = x, xm = x;
        xp[i] += h;
        xm[i] -= h;
        const std::vector<double> yp = run_fwd(fwd, dims, axis, xp);
        const std::vector<double> ym = run_fwd(fwd, dims, axis, xm);
        double lp = 0, lm = 0;
        for (size_t j = 0; j < y.size(); ++j) {
            lp += dy[j] * yp[j];
            lm += dy[j] * ym[j];
        }
        EXPECT_NEAR(got[i], (lp - lm) / (2 * h), 2e-3) << "element " << i;
    }
}
} // namespace

TEST(SoftMax, KnownAnswerDefaultAxis) {
    // Default axis is 1: rows of a 2x3 tensor.
    op_runner_t r(dnnl_graph_op_softmax);
    r.input(dnnl_f32, {2, 3}, {1, 2, 3, 0, 0, 0}).output(dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    const double e1 = std::exp(-1.0), e2 = std::exp(-2.0), s = 1 + e1 + e2;
    expect_near_all(r.out_values(),
            {e2 / s, e1 / s, 1 / s, 1.0 / 3, 1.0 / 3, 1.0 / 3});
}

TEST(SoftMax, LargeInputsAreStable) {
    op_runner_t r(dnnl_graph_op_softmax);
    r.input(dnnl_f32, {1, 2}, {1000, 1000}).output(dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {0.5, 0.5});
}

TEST(SoftMax, StatsAndNegativeAxis) {
    // axis -2 of a 2x2: columns. stats = max + log(sum exp(x - max)).
    op_runner_t r(dnnl_graph_op_softmax);
    r.input(dnnl_f32, {2, 2}, {0, 1, 2, 1})
            .output(dnnl_f32)
            .output(dnnl_f32)
            .s64(dnnl_graph_op_attr_axis, -2);
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(1), (dims_t {1, 2}));
    const double a = 1 / (1 + std::exp(2.0));
    expect_near_all(r.out_values(), {a, 0.5, 1 - a, 0.5});
    expect_near_all(r.out_values(1), {std::log(1 + std::exp(2.0)), 1 + std::log(2.0)});
}

TEST(SoftMax, InfAsZero) {
    const std::vector<double> x {-k_inf, -k_inf, 0, 0};
    op_runner_t none(dnnl_graph_op_softmax);
    none.input(dnnl_f32, {2, 2}, x).output(dnnl_f32);
    ASSERT_EQ(none.run(), dnnl_success);
    EXPECT_TRUE(std::isnan(none.out_values()[0]));
    EXPECT_NEAR(none.out_values()[2], 0.5, 1e-6);

    op_runner_t z(dnnl_graph_op_softmax);
    z.input(dnnl_f32, {2, 2}, x).output(dnnl_f32).str(
            dnnl_graph_op_attr_mode, "inf_as_zero");
    ASSERT_EQ(z.run(), dnnl_success);
    expect_near_all(z.out_values(), {0, 0, 0.5, 0.5});

    // One -inf among finite values is just a zero probability.
    op_runner_t p(dnnl_graph_op_softmax);
    p.input(dnnl_f32, {1, 2}, {-k_inf, 3}).output(dnnl_f32).str(
            dnnl_graph_op_attr_mode, "inf_as_zero");
    ASSERT_EQ(p.run(), dnnl_success);
    expect_near_all(p.out_values(), {0, 1});
}

TEST(SoftMax, StridedInputAndBf16Dst) {
    // Column-major 2x3 input; f32 -> bf16 dst is allowed.
    const std::vector<double> x {1, 2, 3, 3, 1, 2};
    op_runner_t r(dnnl_graph_op_softmax);
    r.input_strided(dnnl_f32, {2, 3}, {1, 2}, x).output(dnnl_bf16);
    ASSERT_EQ(r.run(), dnnl_success);
    std::vector<double> want = softmax_row({1, 2, 3});
    const std::vector<double> row2 = softmax_row({3, 1, 2});
    want.insert(want.end(), row2.begin(), row2.end());
    expect_near_all(r.out_values(), want, 0, 1e-2);
}

TEST(SoftMax, Bf16RoundTrip) {
    op_runner_t r(dnnl_graph_op_softmax);
    r.input(dnnl_bf16, {1, 4}, {0, 0, 0, 0}).output(dnnl_bf16);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {0.25, 0.25, 0.25, 0.25}, 0, 0);
}

TEST(SoftMax, SchemaViolations) {
    op_runner_t bad_dt(dnnl_graph_op_softmax);
    bad_dt.input(dnnl_bf16, {2, 3}).output(dnnl_f32);
    EXPECT_EQ(bad_dt.verify(), dnnl_invalid_graph_op);

    op_runner_t bad_stats(dnnl_graph_op_softmax);
    bad_stats.input(dnnl_f32, {2, 3}).output(dnnl_f32).output(dnnl_bf16);
    EXPECT_EQ(bad_stats.verify(), dnnl_invalid_graph_op);

    op_runner_t bad_axis(dnnl_graph_op_softmax);
    bad_axis.input(dnnl_f32, {2, 3}).output(dnnl_f32).s64(dnnl_graph_op_attr_axis, 2);
    EXPECT_EQ(bad_axis.verify(), dnnl_invalid_graph_op);

    op_runner_t bad_mode(dnnl_graph_op_softmax);
    bad_mode.input(dnnl_f32, {2, 3}).output(dnnl_f32).str(
            dnnl_graph_op_attr_mode, "zero");
    EXPECT_EQ(bad_mode.verify(), dnnl_invalid_graph_op);

    op_runner_t bad_int(dnnl_graph_op_softmax);
    bad_int.input(dnnl_s8, {2, 3}).output(dnnl_s8);
    EXPECT_EQ(bad_int.verify(), dnnl_invalid_graph_op);

    op_runner_t bad_decl(dnnl_graph_op_softmax);
    bad_decl.input(dnnl_f32, {2, 3}).output(dnnl_f32, {3, 2});
    EXPECT_EQ(bad_decl.infer(), dnnl_invalid_shape);
}

TEST(LogSoftmax, KnownAnswer) {
    // Default axis -1.
    op_runner_t r(dnnl_graph_op_log_softmax);
    r.input(dnnl_f32, {2, 2}, {0, 0, 1, 3}).output(dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    const double l = std::log(1 + std::exp(-2.0));
    expect_near_all(r.out_values(), {-std::log(2.0), -std::log(2.0), -2 - l, -l});
}

TEST(LogSoftmax, StridedAxis0) {
    op_runner_t r(dnnl_graph_op_log_softmax);
    r.input_strided(dnnl_f32, {2, 2}, {1, 4}, {0, 5, 0, 5})
            .output(dnnl_f32)
            .s64(dnnl_graph_op_attr_axis, 0);
    ASSERT_EQ(r.run(), dnnl_success);
    const double l = -std::log(2.0);
    expect_near_all(r.out_values(), {l, l, l, l});
}

TEST(LogSoftmax, SchemaViolations) {
    op_runner_t mixed(dnnl_graph_op_log_softmax);
    mixed.input(dnnl_f32, {2}).output(dnnl_bf16);
    EXPECT_EQ(mixed.verify(), dnnl_invalid_graph_op);
    op_runner_t mode(dnnl_graph_op_log_softmax);
    mode.input(dnnl_f32, {2}).output(dnnl_f32).str(dnnl_graph_op_attr_mode, "none");
    EXPECT_EQ(mode.verify(), dnnl_invalid_graph_op);
    op_runner_t axis(dnnl_graph_op_log_softmax);
    axis.input(dnnl_f32, {2}).output(dnnl_f32).s64(dnnl_graph_op_attr_axis, -2);
    EXPECT_EQ(axis.verify(), dnnl_invalid_graph_op);
}

TEST(SoftMaxBackward, KnownAnswer) {
    // y = [0.25, 0.75], dy = [1, 3]: sum(dy y) = 2.5, dx = y (dy - 2.5).
    op_runner_t r(dnnl_graph_op_softmax_backward);
    r.input(dnnl_f32, {1, 2}, {1, 3}).input(dnnl_f32, {1, 2}, {0.25, 0.75}).output(dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {0.25 * -1.5, 0.75 * 0.5});
}

TEST(SoftMaxBackward, FiniteDifference) {
    check_gradient(dnnl_graph_op_softmax, dnnl_graph_op_softmax_backward,
            {2, 3, 2}, 1, {0.1, -0.3, 0.7, 0.2, -1, 0.5, 0.3, 0.9, -0.2, 0.4, 1.1, -0.6},
            {1, -2, 0.5, 0.3, -0.7, 1.5, 2, 0.1, -1, 0.4, 0.25, -0.5});
}

TEST(SoftMaxBackward, F32DiffSrcAndSchema) {
    op_runner_t ok(dnnl_graph_op_softmax_backward);
    ok.input(dnnl_bf16, {1, 2}, {1, 3}).input(dnnl_bf16, {1, 2}, {0.25, 0.75}).output(dnnl_f32);
    ASSERT_EQ(ok.run(), dnnl_success);
    expect_near_all(ok.out_values(), {-0.375, 0.375});

    op_runner_t bad(dnnl_graph_op_softmax_backward);
    bad.input(dnnl_f32, {1, 2}).input(dnnl_f32, {1, 2}).output(dnnl_bf16);
    EXPECT_EQ(bad.verify(), dnnl_invalid_graph_op);
    op_runner_t mixed(dnnl_graph_op_softmax_backward);
    mixed.input(dnnl_f32, {1, 2}).input(dnnl_bf16, {1, 2}).output(dnnl_f32);
    EXPECT_EQ(mixed.verify(), dnnl_invalid_graph_op);
    op_runner_t shapes(dnnl_graph_op_softmax_backward);
    shapes.input(dnnl_f32, {1, 2}).input(dnnl_f32, {2, 2}).output(dnnl_f32);
    EXPECT_EQ(shapes.infer(), dnnl_invalid_shape);
}

TEST(LogSoftmaxBackward, KnownAnswer) {
    // dx = dy - exp(y) * sum(dy); y = log([0.25, 0.75]), dy = [1, 3].
    op_runner_t r(dnnl_graph_op_log_softmax_backward);
    r.input(dnnl_f32, {2}, {1, 3})
            .input(dnnl_f32, {2}, {std::log(0.25), std::log(0.75)})
            .output(dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {1 - 0.25 * 4, 3 - 0.75 * 4});
}

TEST(LogSoftmaxBackward, FiniteDifference) {
    check_gradient(dnnl_graph_op_log_softmax, dnnl_graph_op_log_softmax_backward,
            {3, 2}, 0, {0.1, -0.3, 0.7, 0.2, -1, 0.5}, {1, -2, 0.5, 0.3, -0.7, 1.5});
}

TEST(LogSoftmaxBackward, SchemaViolations) {
    op_runner_t one(dnnl_graph_op_log_softmax_backward);
    one.input(dnnl_f32, {2}).output(dnnl_f32);
    EXPECT_EQ(one.verify(), dnnl_invalid_graph_op);
    op_runner_t f32out(dnnl_graph_op_log_softmax_backward);
    f32out.input(dnnl_bf16, {2}).input(dnnl_bf16, {2}).output(dnnl_f32);
    EXPECT_EQ(f32out.verify(), dnnl_invalid_graph_op);
}

} // namespace test
} // namespace llga
