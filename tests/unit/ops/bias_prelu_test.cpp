// SPDX-License-Identifier: Apache-2.0
// tests/unit/ops/bias_prelu_test.cpp — BiasAdd, BiasAddBackward, PReLU,
// PReLUBackward: channel placement per data_format, slope broadcasting rules,
// schema and shape errors, strided inputs, finite-difference gradients.
#include <cmath>
#include <functional>

#include "ops/op_test_util.hpp"

namespace llga {
namespace test {

namespace {

// Marks dim `d` of input `k` unknown after the runner built it (its buffer
// sizing needs known dims).
void forget_dim(op_runner_t &r, size_t k, int d) {
    r.op().inputs[k].dims[d] = unknown_dim;
}

// Row-major values 1, 2, 3, ... scaled, alternating in sign so PReLU sees
// both sides of zero.
std::vector<double> ramp(int64_t n, double scale = 1.0) {
    std::vector<double> v;
    for (int64_t i = 0; i < n; ++i)
        v.push_back((i % 2 ? -1.0 : 1.0) * scale * static_cast<double>(i + 1));
    return v;
}

// Independent forward formula of PReLU for one element.
double prelu_ref(double x, double s) { return x >= 0 ? x : s * x; }

} // namespace

// ---- BiasAdd ---------------------------------------------------------------------

TEST(BiasAdd, DefaultNxcUsesLastAxis) {
    op_runner_t r(dnnl_graph_op_bias_add);
    r.input(dnnl_f32, {1, 2, 2, 3}, ramp(12)).input(dnnl_f32, {3}, {100, 200, 300})
            .output(dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.op().get_str(dnnl_graph_op_attr_data_format), "NXC");
    const auto x = ramp(12);
    std::vector<double> want;
    for (int i = 0; i < 12; ++i)
        want.push_back(x[i] + 100.0 * (i % 3 + 1));
    expect_near_all(r.out_values(), want);
}

TEST(BiasAdd, NcxUsesAxisOne) {
    op_runner_t r(dnnl_graph_op_bias_add);
    r.input(dnnl_f32, {2, 2, 3}, ramp(12)).input(dnnl_f32, {2}, {10, 20})
            .output(dnnl_f32).str(dnnl_graph_op_attr_data_format, "NCX");
    ASSERT_EQ(r.run(), dnnl_success);
    const auto x = ramp(12);
    std::vector<double> want;
    for (int i = 0; i < 12; ++i)
        want.push_back(x[i] + ((i / 3) % 2 ? 20 : 10));
    expect_near_all(r.out_values(), want);
}

TEST(BiasAdd, Rank2AndBf16) {
    // [N, C] is the same in both formats. bf16: 1 + 1/512 rounds back to 1.
    op_runner_t r(dnnl_graph_op_bias_add);
    r.input(dnnl_bf16, {2, 2}, {1, 2, 3, 4})
            .input(dnnl_bf16, {2}, {1.0 / 512, 0.5}).output(dnnl_bf16)
            .str(dnnl_graph_op_attr_data_format, "NCX");
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {1, 2.5, 3, 4.5}, 0, 0);
}

TEST(BiasAdd, StridedSrc) {
    // src logical [2,3] stored column-major; NXC bias on the last axis.
    op_runner_t r(dnnl_graph_op_bias_add);
    r.input_strided(dnnl_f32, {2, 3}, {1, 2}, {1, 2, 3, 4, 5, 6})
            .input_strided(dnnl_f32, {3}, {3}, {1, 2, 3}).output(dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {2, 4, 6, 5, 7, 9});
}

TEST(BiasAdd, SchemaViolations) {
    op_runner_t bias2d(dnnl_graph_op_bias_add);
    bias2d.input(dnnl_f32, {2, 3}).input(dnnl_f32, {1, 3}).output(dnnl_f32);
    EXPECT_EQ(bias2d.verify(), dnnl_invalid_graph_op);
    op_runner_t wrong_c(dnnl_graph_op_bias_add);
    wrong_c.input(dnnl_f32, {2, 3, 4}).input(dnnl_f32, {3}).output(dnnl_f32);
    EXPECT_EQ(wrong_c.verify(), dnnl_invalid_graph_op); // NXC: C = 4
    op_runner_t fmt(dnnl_graph_op_bias_add);
    fmt.input(dnnl_f32, {2, 3}).input(dnnl_f32, {3}).output(dnnl_f32)
            .str(dnnl_graph_op_attr_data_format, "NHWC");
    EXPECT_EQ(fmt.verify(), dnnl_invalid_graph_op);
    op_runner_t mixed(dnnl_graph_op_bias_add);
    mixed.input(dnnl_f32, {2, 3}).input(dnnl_bf16, {3}).output(dnnl_f32);
    EXPECT_EQ(mixed.verify(), dnnl_invalid_graph_op);
    op_runner_t s32(dnnl_graph_op_bias_add);
    s32.input(dnnl_s32, {2, 3}).input(dnnl_s32, {3}).output(dnnl_s32);
    EXPECT_EQ(s32.verify(), dnnl_invalid_graph_op);
    op_runner_t one(dnnl_graph_op_bias_add);
    one.input(dnnl_f32, {2, 3}).output(dnnl_f32);
    EXPECT_EQ(one.verify(), dnnl_invalid_graph_op);
}

TEST(BiasAdd, ShapeErrors) {
    op_runner_t rank1(dnnl_graph_op_bias_add);
    rank1.input(dnnl_f32, {3}).input(dnnl_f32, {3}).output(dnnl_f32);
    EXPECT_EQ(rank1.infer(), dnnl_invalid_shape);
    op_runner_t declared(dnnl_graph_op_bias_add);
    declared.input(dnnl_f32, {2, 3}).input(dnnl_f32, {3}).output(dnnl_f32, {3, 2});
    EXPECT_EQ(declared.infer(), dnnl_invalid_shape);
    // Unknown channel count at add time; the mismatch shows at inference.
    op_runner_t late(dnnl_graph_op_bias_add);
    late.input(dnnl_f32, {2, 4}).input(dnnl_f32, {3}).output(dnnl_f32);
    forget_dim(late, 0, 1);
    EXPECT_EQ(late.verify(), dnnl_success);
    EXPECT_EQ(late.infer(), dnnl_invalid_shape);
}

// ---- BiasAddBackward -----------------------------------------------------------

TEST(BiasAddBackward, SumsPerChannel) {
    // NXC [1,2,2,3]: channel c collects elements c, c+3, c+6, c+9.
    op_runner_t r(dnnl_graph_op_bias_add_backward);
    r.input(dnnl_f32, {1, 2, 2, 3}, ramp(12)).output(dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {3}));
    // ramp: 1 -2 3 -4 5 -6 7 -8 9 -10 11 -12
    expect_near_all(r.out_values(), {1 - 4 + 7 - 10, -2 + 5 - 8 + 11, 3 - 6 + 9 - 12});

    op_runner_t ncx(dnnl_graph_op_bias_add_backward);
    ncx.input(dnnl_f32, {1, 2, 2, 3}, ramp(12)).output(dnnl_f32)
            .str(dnnl_graph_op_attr_data_format, "NCX");
    ASSERT_EQ(ncx.run(), dnnl_success);
    EXPECT_EQ(ncx.out_dims(), (dims_t {2}));
    expect_near_all(ncx.out_values(), {1 - 2 + 3 - 4 + 5 - 6, 7 - 8 + 9 - 10 + 11 - 12});
}

TEST(BiasAddBackward, FiniteDifference) {
    // L(b) = sum dy * (x + b[c]); dL/db[c] by central differences.
    const dims_t dims {2, 3, 2, 2}; // NCX, C = 3
    const auto dy = ramp(24, 0.25);
    op_runner_t r(dnnl_graph_op_bias_add_backward);
    r.input(dnnl_f32, dims, dy).output(dnnl_f32)
            .str(dnnl_graph_op_attr_data_format, "NCX");
    ASSERT_EQ(r.run(), dnnl_success);
    std::vector<double> want;
    for (int c = 0; c < 3; ++c) {
        auto loss = [&](double bc) {
            double l = 0;
            for (int i = 0; i < 24; ++i)
                l += dy[i] * (0.5 + ((i / 4) % 3 == c ? bc : 0.0));
            return l;
        };
        const double h = 1e-3;
        want.push_back((loss(0.1 + h) - loss(0.1 - h)) / (2 * h));
    }
    expect_near_all(r.out_values(), want, 1e-6, 1e-6);
}

TEST(BiasAddBackward, SchemaAndShape) {
    op_runner_t rank3(dnnl_graph_op_bias_add_backward);
    rank3.input(dnnl_f32, {2, 3, 4}).output(dnnl_f32);
    EXPECT_EQ(rank3.verify(), dnnl_success);
    EXPECT_EQ(rank3.infer(), dnnl_invalid_shape); // rank >= 4 required
    op_runner_t dt(dnnl_graph_op_bias_add_backward);
    dt.input(dnnl_f32, {1, 2, 2, 3}).output(dnnl_bf16);
    EXPECT_EQ(dt.verify(), dnnl_invalid_graph_op);
    op_runner_t two(dnnl_graph_op_bias_add_backward);
    two.input(dnnl_f32, {1, 2, 2, 3}).input(dnnl_f32, {3}).output(dnnl_f32);
    EXPECT_EQ(two.verify(), dnnl_invalid_graph_op);
    op_runner_t declared(dnnl_graph_op_bias_add_backward);
    declared.input(dnnl_f32, {1, 2, 2, 3}).output(dnnl_f32, {2});
    EXPECT_EQ(declared.infer(), dnnl_invalid_shape);
    EXPECT_TRUE(ops::find_op_def(dnnl_graph_op_bias_add_backward)->traits.is_backward);
}

// ---- PReLU -----------------------------------------------------------------------

TEST(PReLU, PerChannelNcxAndNxc) {
    const auto x = ramp(12);
    // NCX [1,2,6]: slope per axis 1.
    op_runner_t ncx(dnnl_graph_op_prelu);
    ncx.input(dnnl_f32, {1, 2, 6}, x).input(dnnl_f32, {2}, {0.5, 0.25})
            .output(dnnl_f32).str(dnnl_graph_op_attr_data_format, "NCX");
    ASSERT_EQ(ncx.run(), dnnl_success);
    std::vector<double> want;
    for (int i = 0; i < 12; ++i)
        want.push_back(prelu_ref(x[i], i / 6 ? 0.25 : 0.5));
    expect_near_all(ncx.out_values(), want);

    // NXC [1,6,2]: slope on the last axis.
    op_runner_t nxc(dnnl_graph_op_prelu);
    nxc.input(dnnl_f32, {1, 6, 2}, x).input(dnnl_f32, {2}, {0.5, 0.25})
            .output(dnnl_f32);
    ASSERT_EQ(nxc.run(), dnnl_success);
    want.clear();
    for (int i = 0; i < 12; ++i)
        want.push_back(prelu_ref(x[i], i % 2 ? 0.25 : 0.5));
    expect_near_all(nxc.out_values(), want);
}

TEST(PReLU, NotPerChannelAndNdSlope) {
    const auto x = ramp(12);
    // per_channel_broadcast=false: 1-D slope matches the last dim, NCX or not.
    op_runner_t last(dnnl_graph_op_prelu);
    last.input(dnnl_f32, {2, 2, 3}, x).input(dnnl_f32, {3}, {0.1, 0.2, 0.3})
            .output(dnnl_f32).str(dnnl_graph_op_attr_data_format, "NCX")
            .boolean(dnnl_graph_op_attr_per_channel_broadcast, false);
    ASSERT_EQ(last.run(), dnnl_success);
    std::vector<double> want;
    for (int i = 0; i < 12; ++i)
        want.push_back(prelu_ref(x[i], 0.1 * (i % 3 + 1)));
    expect_near_all(last.out_values(), want);

    // n-D slope [2,1] right-aligned into [3,2,2].
    op_runner_t nd(dnnl_graph_op_prelu);
    nd.input(dnnl_f32, {3, 2, 2}, x).input(dnnl_f32, {2, 1}, {2, 3}).output(dnnl_f32);
    ASSERT_EQ(nd.run(), dnnl_success);
    want.clear();
    for (int i = 0; i < 12; ++i)
        want.push_back(prelu_ref(x[i], (i / 2) % 2 ? 3 : 2));
    expect_near_all(nd.out_values(), want);

    // A single-element slope applies everywhere.
    op_runner_t one(dnnl_graph_op_prelu);
    one.input(dnnl_f32, {2, 3}, {-1, 2, -3, 4, -5, 0}).input(dnnl_f32, {1}, {0.5})
            .output(dnnl_f32);
    ASSERT_EQ(one.run(), dnnl_success);
    expect_near_all(one.out_values(), {-0.5, 2, -1.5, 4, -2.5, 0});
}

TEST(PReLU, StridedAndF16) {
    op_runner_t r(dnnl_graph_op_prelu);
    r.input_strided(dnnl_f16, {2, 2}, {1, 2}, {-4, 2, 6, -8})
            .input(dnnl_f16, {2}, {0.5, 0.125}).output(dnnl_f16);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {-2, 2, 6, -1}, 0, 0);
}

TEST(PReLU, SchemaAndShape) {
    op_runner_t bad_c(dnnl_graph_op_prelu);
    bad_c.input(dnnl_f32, {1, 2, 3}).input(dnnl_f32, {2}).output(dnnl_f32);
    EXPECT_EQ(bad_c.verify(), dnnl_invalid_graph_op); // NXC: C = 3
    op_runner_t nd_bad(dnnl_graph_op_prelu);
    nd_bad.input(dnnl_f32, {2, 3}).input(dnnl_f32, {4, 2, 3}).output(dnnl_f32);
    EXPECT_EQ(nd_bad.verify(), dnnl_invalid_graph_op);
    op_runner_t pcb(dnnl_graph_op_prelu);
    pcb.input(dnnl_f32, {2, 3}).input(dnnl_f32, {3}).output(dnnl_f32)
            .s64(dnnl_graph_op_attr_per_channel_broadcast, 1);
    EXPECT_EQ(pcb.verify(), dnnl_invalid_graph_op); // must be bool
    op_runner_t dt(dnnl_graph_op_prelu);
    dt.input(dnnl_f32, {2, 3}).input(dnnl_f16, {3}).output(dnnl_f32);
    EXPECT_EQ(dt.verify(), dnnl_invalid_graph_op);
    op_runner_t def(dnnl_graph_op_prelu);
    def.input(dnnl_f32, {2, 3}).input(dnnl_f32, {3}).output(dnnl_f32);
    ASSERT_EQ(def.verify(), dnnl_success);
    EXPECT_TRUE(def.op().get_bool(dnnl_graph_op_attr_per_channel_broadcast));
    op_runner_t late(dnnl_graph_op_prelu);
    late.input(dnnl_f32, {2, 4}).input(dnnl_f32, {5}).output(dnnl_f32);
    forget_dim(late, 0, 1);
    EXPECT_EQ(late.verify(), dnnl_success);
    EXPECT_EQ(late.infer(), dnnl_invalid_shape);
    op_runner_t declared(dnnl_graph_op_prelu);
    declared.input(dnnl_f32, {2, 3}).input(dnnl_f32, {3}).output(dnnl_f32, {2, 4});
    EXPECT_EQ(declared.infer(), dnnl_invalid_shape);
}

// ---- PReLUBackward -----------------------------------------------------------

TEST(PReLUBackward, KnownAnswer) {
    // src [2,2] NXC (= [N,C]), slope per channel [0.5, 0.25], dy = 1..4.
    op_runner_t r(dnnl_graph_op_prelu_backward);
    r.input(dnnl_f32, {2, 2}, {-2, 3, 4, -8}).input(dnnl_f32, {2}, {0.5, 0.25})
            .input(dnnl_f32, {2, 2}, {1, 2, 3, 4})
            .output(dnnl_f32).output(dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(1), (dims_t {2}));
    expect_near_all(r.out_values(0), {0.5, 2, 3, 1});
    // diff_slope[c] = sum over x <= 0 of x * dy: c0: -2*1; c1: -8*4.
    expect_near_all(r.out_values(1), {-2, -32});
}

TEST(PReLUBackward, FiniteDifference) {
    // L(x, s) = sum dy * prelu(x, s); compare both gradients with central
    // differences. src [2,3,2,2] NCX with a per-channel slope [3], and an
    // n-D slope [2,2] (= src.shape[2:]) right-aligned.
    const dims_t dims {2, 3, 2, 2};
    const int n = 24;
    std::vector<double> x = ramp(n, 0.1), dy = ramp(n, 0.05);
    for (int i = 0; i < n; i += 3) dy[i] = -dy[i];
    struct case_t {
        dims_t slope_dims;
        std::vector<double> slope;
        std::function<int(int)> slope_index; // src linear -> slope linear
    };
    const std::vector<case_t> cases {
            {{3}, {0.2, -0.3, 0.7}, [](int i) { return (i / 4) % 3; }},
            {{2, 2}, {0.1, 0.2, 0.3, 0.4}, [](int i) { return i % 4; }}};
    for (const case_t &c : cases) {
        op_runner_t r(dnnl_graph_op_prelu_backward);
        r.input(dnnl_f32, dims, x).input(dnnl_f32, c.slope_dims, c.slope)
                .input(dnnl_f32, dims, dy).output(dnnl_f32).output(dnnl_f32)
                .str(dnnl_graph_op_attr_data_format, "NCX");
        ASSERT_EQ(r.run(), dnnl_success);
        auto loss = [&](const std::vector<double> &xs, const std::vector<double> &ss) {
            double l = 0;
            for (int i = 0; i < n; ++i)
                l += dy[i] * prelu_ref(xs[i], ss[c.slope_index(i)]);
            return l;
        };
        const double h = 1e-4;
        std::vector<double> gx, gs;
        for (int i = 0; i < n; ++i) {
            auto xp = x, xm = x;
            xp[i] += h;
            xm[i] -= h;
            gx.push_back((loss(xp, c.slope) - loss(xm, c.slope)) / (2 * h));
        }
        for (size_t j = 0; j < c.slope.size(); ++j) {
            auto sp = c.slope, sm = c.slope;
            sp[j] += h;
            sm[j] -= h;
            gs.push_back((loss(x, sp) - loss(x, sm)) / (2 * h));
        }
        expect_near_all(r.out_values(0), gx, 1e-4, 1e-3);
        expect_near_all(r.out_values(1), gs, 1e-4, 1e-3);
    }
}

TEST(PReLUBackward, SchemaAndShape) {
    op_runner_t one_out(dnnl_graph_op_prelu_backward);
    one_out.input(dnnl_f32, {2, 2}).input(dnnl_f32, {2}).input(dnnl_f32, {2, 2})
            .output(dnnl_f32);
    EXPECT_EQ(one_out.verify(), dnnl_invalid_graph_op);
    op_runner_t pcb(dnnl_graph_op_prelu_backward);
    pcb.input(dnnl_f32, {2, 2}).input(dnnl_f32, {2}).input(dnnl_f32, {2, 2})
            .output(dnnl_f32).output(dnnl_f32)
            .boolean(dnnl_graph_op_attr_per_channel_broadcast, true);
    EXPECT_EQ(pcb.verify(), dnnl_invalid_graph_op); // not an attribute here
    op_runner_t dt(dnnl_graph_op_prelu_backward);
    dt.input(dnnl_f32, {2, 2}).input(dnnl_f32, {2}).input(dnnl_f32, {2, 2})
            .output(dnnl_f32).output(dnnl_bf16);
    EXPECT_EQ(dt.verify(), dnnl_invalid_graph_op);
    op_runner_t dd(dnnl_graph_op_prelu_backward);
    dd.input(dnnl_f32, {2, 2}).input(dnnl_f32, {2}).input(dnnl_f32, {2, 3})
            .output(dnnl_f32).output(dnnl_f32);
    EXPECT_EQ(dd.verify(), dnnl_invalid_graph_op);
    op_runner_t late(dnnl_graph_op_prelu_backward);
    late.input(dnnl_f32, {2, 2}).input(dnnl_f32, {3})
            .input(dnnl_f32, {2, 2}).output(dnnl_f32).output(dnnl_f32);
    forget_dim(late, 0, 1);
    EXPECT_EQ(late.verify(), dnnl_success);
    EXPECT_EQ(late.infer(), dnnl_invalid_shape);
    op_runner_t declared(dnnl_graph_op_prelu_backward);
    declared.input(dnnl_f32, {2, 2}).input(dnnl_f32, {2}).input(dnnl_f32, {2, 2})
            .output(dnnl_f32).output(dnnl_f32, {1, 2});
    EXPECT_EQ(declared.infer(), dnnl_invalid_shape);
    EXPECT_TRUE(ops::find_op_def(dnnl_graph_op_prelu_backward)->traits.is_backward);
}

} // namespace test
} // namespace llga
