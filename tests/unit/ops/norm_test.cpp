// SPDX-License-Identifier: Apache-2.0
// tests/unit/ops/norm_test.cpp — BatchNormInference, BatchNormForwardTraining,
// BatchNormTrainingBackward, LayerNorm, LayerNormBackward, GroupNorm: known
// answers, shape inference, schema violations, and finite-difference checks
// of the backward ops against their forward ops.
#include <cmath>
#include <functional>
#include <thread>

#include "base/parallel.hpp"

#include "ops/op_test_util.hpp"

namespace llga {
namespace test {

namespace {
using vec = std::vector<double>;
using fwd_fn = std::function<vec(const std::vector<vec> &)>;

// Central-difference gradient of L = sum(w * f(inputs)) w.r.t. inputs[k].
vec numeric_grad(const fwd_fn &f, std::vector<vec> inputs, size_t k,
        const vec &w, double h = 1e-3) {
    vec g(inputs[k].size());
    for (size_t i = 0; i < g.size(); ++i) {
        const double x0 = inputs[k][i];
        inputs[k][i] = x0 + h;
        const vec yp = f(inputs);
        inputs[k][i] = x0 - h;
        const vec ym = f(inputs);
        inputs[k][i] = x0;
        double l = 0;
        for (size_t j = 0; j < w.size(); ++j)
            l += w[j] * (yp[j] - ym[j]);
        g[i] = l / (2 * h);
    }
    return g;
}

// (x - mean) / sqrt(var + eps) of one group, independently.
vec normalize(const vec &x, double eps) {
    double m = 0, v = 0;
    for (double a : x)
        m += a;
    m /= x.size();
    for (double a : x)
        v += (a - m) * (a - m);
    v /= x.size();
    vec r;
    for (double a : x)
        r.push_back((a - m) / std::sqrt(v + eps));
    return r;
}
} // namespace

// ---- LayerNorm -------------------------------------------------------------

TEST(LayerNorm, KnownAnswerWithStats) {
    const double eps = 1e-5;
    op_runner_t r(dnnl_graph_op_layer_norm);
    r.input(dnnl_f32, {2, 2}, {1, 3, 2, 2})
            .input(dnnl_f32, {2}, {2, 1})
            .input(dnnl_f32, {2}, {0, 1})
            .output(dnnl_f32)
            .output(dnnl_f32)
            .output(dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    const double s = 1 / std::sqrt(1 + eps);
    expect_near_all(r.out_values(), {-2 * s, s + 1, 0, 1});
    expect_near_all(r.out_values(1), {2, 2});
    expect_near_all(r.out_values(2), {1, 0});
    EXPECT_EQ(r.out_dims(1), (dims_t {2}));
}

TEST(LayerNorm, BeginNormAxisAndNoStats) {
    // Normalize the last two dims of 2x2x2; gamma shaped [2, 2].
    const vec x {1, 2, 3, 4, 0, 0, 4, 4};
    for (int64_t axis : {1, -2}) {
        op_runner_t r(dnnl_graph_op_layer_norm);
        r.input(dnnl_f32, {2, 2, 2}, x)
                .input(dnnl_f32, {2, 2}, {1, 2, 3, 4})
                .input(dnnl_f32, {2, 2}, {0, 0, 0, 1})
                .output(dnnl_f32)
                .boolean(dnnl_graph_op_attr_keep_stats, false)
                .s64(dnnl_graph_op_attr_begin_norm_axis, axis)
                .f32(dnnl_graph_op_attr_epsilon, 0.f);
        ASSERT_EQ(r.run(), dnnl_success);
        vec want;
        for (int n = 0; n < 2; ++n) {
            const vec h = normalize(vec(x.begin() + 4 * n, x.begin() + 4 * n + 4), 0);
            want.insert(want.end(), {h[0], 2 * h[1], 3 * h[2], 4 * h[3] + 1});
        }
        expect_near_all(r.out_values(), want);
    }
}

TEST(LayerNorm, NoAffineStridedBf16) {
    // Column-major input, no gamma/beta, bf16 data and stats.
    op_runner_t r(dnnl_graph_op_layer_norm);
    r.input_strided(dnnl_bf16, {2, 2}, {1, 2}, {1, 3, 5, 7})
            .output(dnnl_bf16)
            .output(dnnl_bf16)
            .output(dnnl_bf16)
            .boolean(dnnl_graph_op_attr_use_affine, false)
            .f32(dnnl_graph_op_attr_epsilon, 0.f);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {-1, 1, -1, 1});
    expect_near_all(r.out_values(1), {2, 6});
}

TEST(LayerNorm, StatsShapeForAxisZero) {
    op_runner_t r(dnnl_graph_op_layer_norm);
    r.input(dnnl_f32, {2, 3}).output(dnnl_f32).output(dnnl_f32).output(dnnl_f32)
            .s64(dnnl_graph_op_attr_begin_norm_axis, 0)
            .boolean(dnnl_graph_op_attr_use_affine, false);
    ASSERT_EQ(r.infer(), dnnl_success);
    EXPECT_EQ(r.op().outputs[1].ndims, 0);
}

TEST(LayerNorm, SchemaAndShapeViolations) {
    op_runner_t one_out(dnnl_graph_op_layer_norm);
    one_out.input(dnnl_f32, {2, 2}).output(dnnl_f32);
    EXPECT_EQ(one_out.verify(), dnnl_invalid_graph_op); // keep_stats defaults true

    op_runner_t bf16_stats(dnnl_graph_op_layer_norm);
    bf16_stats.input(dnnl_f32, {2, 2}).output(dnnl_f32).output(dnnl_bf16).output(dnnl_bf16);
    EXPECT_EQ(bf16_stats.verify(), dnnl_invalid_graph_op);

    op_runner_t two_in(dnnl_graph_op_layer_norm);
    two_in.input(dnnl_f32, {2, 2}).input(dnnl_f32, {2}).output(dnnl_f32)
            .boolean(dnnl_graph_op_attr_keep_stats, false);
    EXPECT_EQ(two_in.verify(), dnnl_invalid_graph_op);

    op_runner_t axis(dnnl_graph_op_layer_norm);
    axis.input(dnnl_f32, {2, 2}).output(dnnl_f32).boolean(dnnl_graph_op_attr_keep_stats, false)
            .s64(dnnl_graph_op_attr_begin_norm_axis, 2);
    EXPECT_EQ(axis.verify(), dnnl_invalid_graph_op);

    op_runner_t gamma(dnnl_graph_op_layer_norm);
    gamma.input(dnnl_f32, {2, 4}).input(dnnl_f32, {3}).input(dnnl_f32, {3})
            .output(dnnl_f32).boolean(dnnl_graph_op_attr_keep_stats, false);
    EXPECT_EQ(gamma.infer(), dnnl_invalid_shape);
}

TEST(LayerNormBackward, FiniteDifference) {
    const dims_t d {2, 3};
    const vec x {0.3, -1.2, 0.8, 2.0, 0.5, -0.4}, gm {1.5, -0.5, 0.7},
            bt {0.1, 0.2, -0.3}, w {1, -2, 0.5, 0.3, 1.1, -0.7};
    const double eps = 0.01;
    auto fwd = [&](const std::vector<vec> &in) {
        op_runner_t r(dnnl_graph_op_layer_norm);
        r.input(dnnl_f32, d, in[0]).input(dnnl_f32, {3}, in[1]).input(dnnl_f32, {3}, in[2])
                .output(dnnl_f32).output(dnnl_f32).output(dnnl_f32)
                .f32(dnnl_graph_op_attr_epsilon, static_cast<float>(eps));
        EXPECT_EQ(r.run(), dnnl_success);
        return r.out_values();
    };
    op_runner_t f(dnnl_graph_op_layer_norm);
    f.input(dnnl_f32, d, x).input(dnnl_f32, {3}, gm).input(dnnl_f32, {3}, bt)
            .output(dnnl_f32).output(dnnl_f32).output(dnnl_f32)
            .f32(dnnl_graph_op_attr_epsilon, static_cast<float>(eps));
    ASSERT_EQ(f.run(), dnnl_success);

    op_runner_t b(dnnl_graph_op_layer_norm_backward);
    b.input(dnnl_f32, d, x).input(dnnl_f32, d, w)
            .input(dnnl_f32, {2}, f.out_values(1)).input(dnnl_f32, {2}, f.out_values(2))
            .input(dnnl_f32, {3}, gm)
            .output(dnnl_f32).output(dnnl_f32).output(dnnl_f32)
            .f32(dnnl_graph_op_attr_epsilon, static_cast<float>(eps));
    ASSERT_EQ(b.run(), dnnl_success);
    EXPECT_EQ(b.out_dims(1), (dims_t {3}));
    const std::vector<vec> in {x, gm, bt};
    expect_near_all(b.out_values(0), numeric_grad(fwd, in, 0, w), 2e-3, 1e-3);
    expect_near_all(b.out_values(1), numeric_grad(fwd, in, 1, w), 2e-3, 1e-3);
    expect_near_all(b.out_values(2), numeric_grad(fwd, in, 2, w), 2e-3, 1e-3);
}

TEST(LayerNormBackward, NoAffineAxis0FiniteDifference) {
    const dims_t d {2, 2};
    const vec x {0.3, -1.2, 0.8, 2.0}, w {1, -2, 0.5, 0.3};
    auto fwd = [&](const std::vector<vec> &in) {
        op_runner_t r(dnnl_graph_op_layer_norm);
        r.input(dnnl_f32, d, in[0]).output(dnnl_f32)
                .boolean(dnnl_graph_op_attr_keep_stats, false)
                .boolean(dnnl_graph_op_attr_use_affine, false)
                .s64(dnnl_graph_op_attr_begin_norm_axis, 0);
        EXPECT_EQ(r.run(), dnnl_success);
        return r.out_values();
    };
    // Stats of all four elements, computed here.
    const double m = (0.3 - 1.2 + 0.8 + 2.0) / 4;
    double v = 0;
    for (double a : x)
        v += (a - m) * (a - m) / 4;
    op_runner_t b(dnnl_graph_op_layer_norm_backward);
    b.input(dnnl_f32, d, x).input(dnnl_f32, d, w)
            .input(dnnl_f32, {}, {m}).input(dnnl_f32, {}, {v})
            .output(dnnl_f32)
            .boolean(dnnl_graph_op_attr_use_affine, false)
            .s64(dnnl_graph_op_attr_begin_norm_axis, 0);
    ASSERT_EQ(b.run(), dnnl_success);
    expect_near_all(b.out_values(0), numeric_grad(fwd, {x}, 0, w), 2e-3, 1e-3);
}

TEST(LayerNormBackward, SchemaViolations) {
    op_runner_t one_out(dnnl_graph_op_layer_norm_backward);
    one_out.input(dnnl_f32, {2, 2}).input(dnnl_f32, {2, 2}).input(dnnl_f32, {2})
            .input(dnnl_f32, {2}).output(dnnl_f32);
    EXPECT_EQ(one_out.verify(), dnnl_invalid_graph_op); // use_affine defaults true
    op_runner_t three_in(dnnl_graph_op_layer_norm_backward);
    three_in.input(dnnl_f32, {2, 2}).input(dnnl_f32, {2, 2}).input(dnnl_f32, {2})
            .output(dnnl_f32).boolean(dnnl_graph_op_attr_use_affine, false);
    EXPECT_EQ(three_in.verify(), dnnl_invalid_graph_op);
    op_runner_t stats(dnnl_graph_op_layer_norm_backward);
    stats.input(dnnl_f32, {2, 2}).input(dnnl_f32, {2, 2}).input(dnnl_f32, {3})
            .input(dnnl_f32, {3}).output(dnnl_f32)
            .boolean(dnnl_graph_op_attr_use_affine, false);
    EXPECT_EQ(stats.infer(), dnnl_invalid_shape);
}

// ---- BatchNorm -------------------------------------------------------------

TEST(BatchNormInference, KnownAnswerNCX) {
    // C = 2 on dim 1; eps 0 keeps the arithmetic exact.
    op_runner_t r(dnnl_graph_op_batch_norm_inference);
    r.input(dnnl_f32, {1, 2, 1, 2}, {3, 5, 1, 2})
            .input(dnnl_f32, {2}, {1, 2})
            .input(dnnl_f32, {2}, {0, 1})
            .input(dnnl_f32, {2}, {1, 0})
            .input(dnnl_f32, {2}, {4, 1})
            .output(dnnl_f32)
            .f32(dnnl_graph_op_attr_epsilon, 0.f)
            .str(dnnl_graph_op_attr_data_format, "NCX");
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {1, 2, 3, 5});
}

TEST(BatchNormInference, ChannelLastDefaultStrided) {
    // NXC: C is the last dim. Input is column-major [2, 2].
    op_runner_t r(dnnl_graph_op_batch_norm_inference);
    r.input_strided(dnnl_f32, {2, 2}, {1, 2}, {1, 10, 3, 20})
            .input(dnnl_f32, {2}, {1, 1})
            .input(dnnl_f32, {2}, {0, 0})
            .input(dnnl_f32, {2}, {2, 15})
            .input(dnnl_f32, {2}, {1, 25})
            .output(dnnl_f32)
            .f32(dnnl_graph_op_attr_epsilon, 0.f);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {-1, -1, 1, 1});
}

TEST(BatchNormInference, SchemaViolations) {
    op_runner_t no_eps(dnnl_graph_op_batch_norm_inference);
    no_eps.input(dnnl_f32, {1, 2}).input(dnnl_f32, {2}).input(dnnl_f32, {2})
            .input(dnnl_f32, {2}).input(dnnl_f32, {2}).output(dnnl_f32);
    EXPECT_EQ(no_eps.verify(), dnnl_invalid_graph_op);
    op_runner_t bf16(dnnl_graph_op_batch_norm_inference);
    bf16.input(dnnl_f16, {1, 2}).input(dnnl_bf16, {2}).input(dnnl_bf16, {2})
            .input(dnnl_bf16, {2}).input(dnnl_bf16, {2}).output(dnnl_f16)
            .f32(dnnl_graph_op_attr_epsilon, 0.f);
    EXPECT_EQ(bf16.verify(), dnnl_invalid_graph_op);
    op_runner_t fmt(dnnl_graph_op_batch_norm_inference);
    fmt.input(dnnl_f32, {1, 2}).input(dnnl_f32, {2}).input(dnnl_f32, {2})
            .input(dnnl_f32, {2}).input(dnnl_f32, {2}).output(dnnl_f32)
            .f32(dnnl_graph_op_attr_epsilon, 0.f).str(dnnl_graph_op_attr_data_format, "NHWC");
    EXPECT_EQ(fmt.verify(), dnnl_invalid_graph_op);
    op_runner_t shape(dnnl_graph_op_batch_norm_inference);
    shape.input(dnnl_f32, {1, 2}).input(dnnl_f32, {3}).input(dnnl_f32, {2})
            .input(dnnl_f32, {2}).input(dnnl_f32, {2}).output(dnnl_f32)
            .f32(dnnl_graph_op_attr_epsilon, 0.f);
    EXPECT_EQ(shape.infer(), dnnl_invalid_shape);
}

TEST(BatchNormForwardTraining, KnownAnswer) {
    // NXC [2, 2]: channel 0 = {1, 3}, channel 1 = {2, 6}.
    op_runner_t r(dnnl_graph_op_batch_norm_forward_training);
    r.input(dnnl_f32, {2, 2}, {1, 2, 3, 6})
            .input(dnnl_f32, {2}, {10, 20})
            .input(dnnl_f32, {2}, {1, 2})
            .input(dnnl_f32, {2}, {1, 2})
            .input(dnnl_f32, {2}, {0, 1});
    for (int k = 0; k < 5; ++k)
        r.output(dnnl_f32);
    r.f32(dnnl_graph_op_attr_epsilon, 0.f).f32(dnnl_graph_op_attr_momentum, 0.25f);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(0), {-1, -1, 1, 3});
    expect_near_all(r.out_values(1), {0.25 * 10 + 0.75 * 2, 0.25 * 20 + 0.75 * 4});
    expect_near_all(r.out_values(2), {0.25 * 1 + 0.75 * 1, 0.25 * 2 + 0.75 * 4});
    expect_near_all(r.out_values(3), {2, 4});
    expect_near_all(r.out_values(4), {1, 4});
}

TEST(BatchNormForwardTraining, NoAffineDefaultMomentum) {
    op_runner_t r(dnnl_graph_op_batch_norm_forward_training);
    r.input(dnnl_f32, {2, 1, 1}, {1, 3}).input(dnnl_f32, {1}, {0}).input(dnnl_f32, {1}, {0});
    for (int k = 0; k < 5; ++k)
        r.output(dnnl_f32);
    r.f32(dnnl_graph_op_attr_epsilon, 0.f).str(dnnl_graph_op_attr_data_format, "NCX");
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(0), {-1, 1});
    expect_near_all(r.out_values(1), {1}); // 0.5 * 0 + 0.5 * 2
}

TEST(BatchNormForwardTraining, SchemaViolations) {
    op_runner_t four_out(dnnl_graph_op_batch_norm_forward_training);
    four_out.input(dnnl_f32, {2, 2}).input(dnnl_f32, {2}).input(dnnl_f32, {2});
    for (int k = 0; k < 4; ++k)
        four_out.output(dnnl_f32);
    four_out.f32(dnnl_graph_op_attr_epsilon, 0.f);
    EXPECT_EQ(four_out.verify(), dnnl_invalid_graph_op);
    op_runner_t rank1(dnnl_graph_op_batch_norm_forward_training);
    rank1.input(dnnl_f32, {2}).input(dnnl_f32, {2}).input(dnnl_f32, {2});
    for (int k = 0; k < 5; ++k)
        rank1.output(dnnl_f32);
    rank1.f32(dnnl_graph_op_attr_epsilon, 0.f);
    EXPECT_EQ(rank1.infer(), dnnl_invalid_shape);
}

TEST(BatchNormTrainingBackward, FiniteDifference) {
    const dims_t d {2, 1, 2, 2}; // NXC: C = 2, 4 elements per channel
    const vec x {0.3, -1.2, 0.8, 2.0, 0.5, -0.4, 1.5, 0.1},
            gm {1.5, -0.5}, bt {0.1, 0.2},
            w {1, -2, 0.5, 0.3, 1.1, -0.7, 0.2, 0.9};
    const float eps = 0.01f;
    auto fwd_runner = [&](const std::vector<vec> &in, op_runner_t &r) {
        r.input(dnnl_f32, d, in[0]).input(dnnl_f32, {2}, {0, 0}).input(dnnl_f32, {2}, {1, 1})
                .input(dnnl_f32, {2}, in[1]).input(dnnl_f32, {2}, in[2]);
        for (int k = 0; k < 5; ++k)
            r.output(dnnl_f32);
        r.f32(dnnl_graph_op_attr_epsilon, eps);
        EXPECT_EQ(r.run(), dnnl_success);
    };
    auto fwd = [&](const std::vector<vec> &in) {
        op_runner_t r(dnnl_graph_op_batch_norm_forward_training);
        fwd_runner(in, r);
        return r.out_values();
    };
    op_runner_t f(dnnl_graph_op_batch_norm_forward_training);
    fwd_runner({x, gm, bt}, f);
    op_runner_t b(dnnl_graph_op_batch_norm_backward);
    b.input(dnnl_f32, d, x).input(dnnl_f32, d, w)
            .input(dnnl_f32, {2}, f.out_values(3)).input(dnnl_f32, {2}, f.out_values(4))
            .input(dnnl_f32, {2}, gm)
            .output(dnnl_f32).output(dnnl_f32).output(dnnl_f32)
            .f32(dnnl_graph_op_attr_epsilon, eps);
    ASSERT_EQ(b.run(), dnnl_success);
    const std::vector<vec> in {x, gm, bt};
    expect_near_all(b.out_values(0), numeric_grad(fwd, in, 0, w), 2e-3, 1e-3);
    expect_near_all(b.out_values(1), numeric_grad(fwd, in, 1, w), 2e-3, 1e-3);
    expect_near_all(b.out_values(2), numeric_grad(fwd, in, 2, w), 2e-3, 1e-3);
}

TEST(BatchNormTrainingBackward, SchemaViolations) {
    op_runner_t rank2(dnnl_graph_op_batch_norm_backward);
    rank2.input(dnnl_f32, {2, 2}).input(dnnl_f32, {2, 2}).input(dnnl_f32, {2})
            .input(dnnl_f32, {2}).output(dnnl_f32).f32(dnnl_graph_op_attr_epsilon, 0.f);
    EXPECT_EQ(rank2.infer(), dnnl_invalid_shape);
    op_runner_t three_in(dnnl_graph_op_batch_norm_backward);
    three_in.input(dnnl_f32, {1, 2, 1, 1}).input(dnnl_f32, {1, 2, 1, 1}).input(dnnl_f32, {2})
            .output(dnnl_f32).f32(dnnl_graph_op_attr_epsilon, 0.f);
    EXPECT_EQ(three_in.verify(), dnnl_invalid_graph_op);
    op_runner_t mom(dnnl_graph_op_batch_norm_backward);
    mom.input(dnnl_f32, {1, 2, 1, 1}).input(dnnl_f32, {1, 2, 1, 1}).input(dnnl_f32, {2})
            .input(dnnl_f32, {2}).output(dnnl_f32).f32(dnnl_graph_op_attr_epsilon, 0.f)
            .f32(dnnl_graph_op_attr_momentum, 0.1f);
    EXPECT_EQ(mom.verify(), dnnl_invalid_graph_op);
}

// ---- GroupNorm -------------------------------------------------------------

TEST(GroupNorm, KnownAnswerNCX) {
    // [1, 4, 1], groups 2: {1, 3} and {0, 4}; means 2, 2; variances 1, 4.
    op_runner_t r(dnnl_graph_op_group_norm);
    r.input(dnnl_f32, {1, 4, 1}, {1, 3, 0, 4})
            .input(dnnl_f32, {4}, {1, 2, 1, 1})
            .input(dnnl_f32, {4}, {0, 0, 1, 0})
            .output(dnnl_f32).output(dnnl_f32).output(dnnl_f32)
            .s64(dnnl_graph_op_attr_groups, 2)
            .f32(dnnl_graph_op_attr_epsilon, 0.f)
            .str(dnnl_graph_op_attr_data_format, "NCX");
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {-1, 2, 0, 1});
    EXPECT_EQ(r.out_dims(1), (dims_t {1, 2}));
    expect_near_all(r.out_values(1), {2, 2});
    expect_near_all(r.out_values(2), {1, 4});
}

TEST(GroupNorm, ChannelLastNoStats) {
    // NXC [2, 2 spatial, 2 C], one group per channel.
    const vec x {1, 10, 3, 30, 5, 0, 5, 4};
    op_runner_t r(dnnl_graph_op_group_norm);
    r.input(dnnl_f32, {2, 2, 2}, x)
            .output(dnnl_f32)
            .s64(dnnl_graph_op_attr_groups, 2)
            .boolean(dnnl_graph_op_attr_keep_stats, false)
            .boolean(dnnl_graph_op_attr_use_affine, false)
            .f32(dnnl_graph_op_attr_epsilon, 1.f);
    ASSERT_EQ(r.run(), dnnl_success);
    const vec a = normalize({1, 3}, 1), b = normalize({10, 30}, 1),
              c = normalize({5, 5}, 1), e = normalize({0, 4}, 1);
    expect_near_all(r.out_values(), {a[0], b[0], a[1], b[1], c[0], e[0], c[1], e[1]});
}

TEST(GroupNorm, SchemaAndShapeViolations) {
    op_runner_t no_groups(dnnl_graph_op_group_norm);
    no_groups.input(dnnl_f32, {1, 4}).output(dnnl_f32).boolean(dnnl_graph_op_attr_keep_stats, false);
    EXPECT_EQ(no_groups.verify(), dnnl_invalid_graph_op);
    op_runner_t keep(dnnl_graph_op_group_norm);
    keep.input(dnnl_f32, {1, 4}).output(dnnl_f32).s64(dnnl_graph_op_attr_groups, 2);
    EXPECT_EQ(keep.verify(), dnnl_invalid_graph_op);
    op_runner_t indiv(dnnl_graph_op_group_norm);
    indiv.input(dnnl_f32, {1, 4}).output(dnnl_f32).s64(dnnl_graph_op_attr_groups, 3)
            .boolean(dnnl_graph_op_attr_keep_stats, false);
    EXPECT_EQ(indiv.infer(), dnnl_invalid_shape);
}

// ---- Parallel execution ------------------------------------------------------

namespace {
// Runs chunks of one iteration each on separate threads, last chunk first,
// so kernels that depend on serial order or share accumulators show it.
void threaded_impl(int64_t n, int64_t, const range_body_t &body) {
    std::vector<std::thread> threads;
    for (int64_t i = n - 1; i >= 0; --i)
        threads.emplace_back([&body, i] { body(i, i + 1); });
    for (auto &t : threads)
        t.join();
}
} // namespace

TEST(Norm, ParallelChunksMatchSerial) {
    const vec x {0.3, -1.2, 0.8, 2.0, 0.5, -0.4, 1.5, 0.1, 0.7, -0.9, 0.2, 1.1};
    auto run_all = [&]() {
        std::vector<vec> r;
        op_runner_t ln(dnnl_graph_op_layer_norm);
        ln.input(dnnl_f32, {3, 4}, x).output(dnnl_f32).output(dnnl_f32).output(dnnl_f32)
                .boolean(dnnl_graph_op_attr_use_affine, false);
        EXPECT_EQ(ln.run(), dnnl_success);
        r.push_back(ln.out_values());
        op_runner_t lb(dnnl_graph_op_layer_norm_backward);
        lb.input(dnnl_f32, {3, 4}, x).input(dnnl_f32, {3, 4}, x)
                .input(dnnl_f32, {3}, ln.out_values(1)).input(dnnl_f32, {3}, ln.out_values(2))
                .input(dnnl_f32, {4}, {1, 2, 3, 4})
                .output(dnnl_f32).output(dnnl_f32).output(dnnl_f32);
        EXPECT_EQ(lb.run(), dnnl_success);
        for (size_t k = 0; k < 3; ++k)
            r.push_back(lb.out_values(k));
        op_runner_t gn(dnnl_graph_op_group_norm);
        gn.input(dnnl_f32, {2, 3, 2}, x).output(dnnl_f32).output(dnnl_f32).output(dnnl_f32)
                .s64(dnnl_graph_op_attr_groups, 2).str(dnnl_graph_op_attr_data_format, "NXC")
                .boolean(dnnl_graph_op_attr_use_affine, false);
        EXPECT_EQ(gn.run(), dnnl_success);
        r.push_back(gn.out_values());
        r.push_back(gn.out_values(2));
        return r;
    };
    const std::vector<vec> serial = run_all();
    set_parallel_impl(threaded_impl);
    const std::vector<vec> par = run_all();
    set_parallel_impl(nullptr);
    ASSERT_EQ(serial.size(), par.size());
    for (size_t k = 0; k < serial.size(); ++k)
        expect_near_all(par[k], serial[k], 0, 0);
}

} // namespace test
} // namespace llga
