// SPDX-License-Identifier: Apache-2.0
// tests/api/cpp_weight_scales_test.cpp — per-channel Dequantize on weights
// whose `axis` does not name the output channels (docs/compatibility.md,
// "Per-channel scales on weights"): int8 Convolution → ReLU → [Quantize]
// with XIO/OIX weights, axis naming another dim, plain and grouped, NXC and
// NCX, two shapes each, as one partition checked against a convolution
// written here with one scale per output channel. Also the MatMul rule
// (axis is the dim) and the standalone Dequantize count check.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl_graph.hpp"

using namespace dnnl::graph;
using dt = logical_tensor::data_type;
using lt_layout = logical_tensor::layout_type;
using dims = logical_tensor::dims;

namespace {

struct conv_case_t {
    const char *name;
    bool xio;          // weights XIO (else OIX)
    bool nxc;          // data NXC (else NCX)
    int64_t axis;      // the Dequantize's axis (never the OC dim here)
    int64_t groups;
    int64_t n, ic, h, w, oc, k;
    bool quantize_out; // end with Quantize u8 (else f32 output)
};

float round_even(float x) { return std::nearbyint(x); }

// y[n][oc][y][x] = relu(sum (src - zp) * ss * wei * sw[oc]) over the
// group's input channels and the window; stride 1, no padding.
std::vector<float> reference(const conv_case_t &c, const std::vector<uint8_t> &src,
        const std::vector<int8_t> &wei, float ss, int32_t zs,
        const std::vector<float> &sw) {
    const int64_t oh = c.h - c.k + 1, ow = c.w - c.k + 1;
    const int64_t icg = c.ic / c.groups, ocg = c.oc / c.groups;
    std::vector<float> out(c.n * c.oc * oh * ow);
    auto s_at = [&](int64_t n, int64_t ch, int64_t y, int64_t x) {
        const int64_t i = c.nxc ? ((n * c.h + y) * c.w + x) * c.ic + ch
                                : ((n * c.ic + ch) * c.h + y) * c.w + x;
        return (static_cast<float>(src[i]) - zs) * ss;
    };
    auto w_at = [&](int64_t o, int64_t i, int64_t ky, int64_t kx) {
        const int64_t idx = c.xio ? ((ky * c.k + kx) * icg + i) * c.oc + o
                                  : ((o * icg + i) * c.k + ky) * c.k + kx;
        return static_cast<float>(wei[idx]) * sw[o];
    };
    for (int64_t n = 0; n < c.n; ++n)
        for (int64_t o = 0; o < c.oc; ++o)
            for (int64_t y = 0; y < oh; ++y)
                for (int64_t x = 0; x < ow; ++x) {
                    const int64_t g = o / ocg;
                    double acc = 0;
                    for (int64_t i = 0; i < icg; ++i)
                        for (int64_t ky = 0; ky < c.k; ++ky)
                            for (int64_t kx = 0; kx < c.k; ++kx)
                                acc += s_at(n, g * icg + i, y + ky, x + kx)
                                        * w_at(o, i, ky, kx);
                    const float v = std::max(0.f, static_cast<float>(acc));
                    const int64_t oi = c.nxc ? ((n * oh + y) * ow + x) * c.oc + o
                                             : ((n * c.oc + o) * oh + y) * ow + x;
                    out[oi] = v;
                }
    return out;
}

void run_conv_case(const conv_case_t &c) {
    SCOPED_TRACE(c.name);
    const int64_t oh = c.h - c.k + 1, ow = c.w - c.k + 1;
    const int64_t icg = c.ic / c.groups;
    const dims sdims = c.nxc ? dims {c.n, c.h, c.w, c.ic} : dims {c.n, c.ic, c.h, c.w};
    const dims wdims = c.xio ? dims {c.k, c.k, icg, c.oc} : dims {c.oc, icg, c.k, c.k};
    const dims odims = c.nxc ? dims {c.n, oh, ow, c.oc} : dims {c.n, c.oc, oh, ow};
    const size_t axis = static_cast<size_t>(c.axis < 0 ? c.axis + 4 : c.axis);
    ASSERT_NE(wdims[axis], c.oc) << "the case must not name the OC dim";

    std::vector<float> sw(c.oc);
    for (int64_t o = 0; o < c.oc; ++o)
        sw[o] = 0.0625f * static_cast<float>(1 + o % 5);
    const float ss = 0.5f, so = 0.25f;
    const int32_t zs = 3, zo = 2;

    logical_tensor src_u8(1, dt::u8, sdims, lt_layout::strided);
    logical_tensor src_f(2, dt::f32, sdims, lt_layout::strided);
    logical_tensor wei_s8(3, dt::s8, wdims, lt_layout::strided);
    logical_tensor wei_f(4, dt::f32, wdims, lt_layout::strided);
    logical_tensor conv_out(5, dt::f32, odims, lt_layout::strided);
    logical_tensor relu_out(6, dt::f32, odims, lt_layout::strided);
    logical_tensor q_out(7, dt::u8, odims, lt_layout::strided);

    op dq_src(1, op::kind::Dequantize, {src_u8}, {src_f}, "dq_src");
    dq_src.set_attr<std::string>(op::attr::qtype, "per_tensor");
    dq_src.set_attr<std::vector<float>>(op::attr::scales, {ss});
    dq_src.set_attr<std::vector<int64_t>>(op::attr::zps, {zs});
    op dq_wei(2, op::kind::Dequantize, {wei_s8}, {wei_f}, "dq_wei");
    dq_wei.set_attr<std::string>(op::attr::qtype, "per_channel");
    dq_wei.set_attr<std::vector<float>>(op::attr::scales, sw);
    dq_wei.set_attr<std::vector<int64_t>>(op::attr::zps, std::vector<int64_t>(c.oc, 0));
    dq_wei.set_attr<int64_t>(op::attr::axis, c.axis);
    op conv(3, op::kind::Convolution, {src_f, wei_f}, {conv_out}, "conv");
    conv.set_attr<std::vector<int64_t>>(op::attr::strides, {1, 1});
    conv.set_attr<std::vector<int64_t>>(op::attr::dilations, {1, 1});
    conv.set_attr<std::vector<int64_t>>(op::attr::pads_begin, {0, 0});
    conv.set_attr<std::vector<int64_t>>(op::attr::pads_end, {0, 0});
    conv.set_attr<int64_t>(op::attr::groups, c.groups);
    conv.set_attr<std::string>(op::attr::data_format, c.nxc ? "NXC" : "NCX");
    conv.set_attr<std::string>(op::attr::weights_format, c.xio ? "XIO" : "OIX");
    op relu(4, op::kind::ReLU, {conv_out}, {relu_out}, "relu");
    op q(5, op::kind::Quantize, {relu_out}, {q_out}, "q");
    q.set_attr<std::string>(op::attr::qtype, "per_tensor");
    q.set_attr<std::vector<float>>(op::attr::scales, {so});
    q.set_attr<std::vector<int64_t>>(op::attr::zps, {zo});

    graph g(dnnl::engine::kind::cpu);
    for (op *o : {&dq_src, &dq_wei, &conv, &relu})
        g.add_op(*o);
    if (c.quantize_out) g.add_op(q);
    g.finalize();
    auto parts = g.get_partitions();
    ASSERT_EQ(parts.size(), 1u) << "oneDNN forms one partition";
    ASSERT_TRUE(parts[0].is_supported());

    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);
    const logical_tensor &out_lt = c.quantize_out ? q_out : relu_out;
    auto cp = parts[0].compile({src_u8, wei_s8}, {out_lt}, eng);

    std::vector<uint8_t> sv(src_u8.get_mem_size());
    std::vector<int8_t> wv(wei_s8.get_mem_size());
    for (size_t i = 0; i < sv.size(); ++i)
        sv[i] = static_cast<uint8_t>((i * 37 + 11) % 17);
    for (size_t i = 0; i < wv.size(); ++i)
        wv[i] = static_cast<int8_t>(static_cast<int>((i * 29 + 5) % 15) - 7);
    const std::vector<float> want = reference(c, sv, wv, ss, zs, sw);
    tensor ts(src_u8, eng, sv.data()), tw(wei_s8, eng, wv.data());
    if (c.quantize_out) {
        std::vector<uint8_t> ov(want.size(), 0);
        tensor to(q_out, eng, ov.data());
        cp.execute(strm, {ts, tw}, {to});
        for (size_t i = 0; i < want.size(); ++i) {
            const float qv = std::min(255.f, std::max(0.f, round_even(want[i] / so + zo)));
            ASSERT_LE(std::fabs(static_cast<float>(ov[i]) - qv), 1.f) << "element " << i;
        }
    } else {
        std::vector<float> ov(want.size(), -1.f);
        tensor to(relu_out, eng, ov.data());
        cp.execute(strm, {ts, tw}, {to});
        for (size_t i = 0; i < want.size(); ++i)
            ASSERT_NEAR(ov[i], want[i], 1e-3f * (1.f + std::fabs(want[i])))
                    << "element " << i;
    }
}

TEST(WeightScalesAxis, ConvolutionScalesFollowOutputChannels) {
    const conv_case_t cases[] = {
            // name, xio, nxc, axis, groups, n, ic, h, w, oc, k, quantize
            {"XIO axis=1 (the issue's program)", true, true, 1, 1, 1, 8, 6, 6,
                    16, 3, true},
            {"XIO axis=1 1x1 kernel", true, true, 1, 1, 2, 16, 5, 4, 32, 1, true},
            {"XIO axis=0 f32 out", true, true, 0, 1, 1, 4, 7, 5, 6, 3, false},
            {"XIO axis=2 (IC) NCX", true, false, 2, 1, 2, 3, 6, 6, 5, 2, true},
            {"OIX axis=1 (IC) NCX", false, false, 1, 1, 1, 4, 5, 5, 8, 3, false},
            {"OIX axis=2 NXC", false, true, 2, 1, 2, 6, 6, 7, 12, 3, true},
            {"XIO axis=1 grouped", true, true, 1, 2, 1, 8, 6, 6, 12, 3, true},
            {"OIX axis=-1 grouped NCX", false, false, -1, 4, 2, 8, 5, 5, 8, 2,
                    false},
    };
    for (const auto &c : cases)
        run_conv_case(c);
}

TEST(WeightScalesAxis, StandaloneDequantizeNeedsAxisCount) {
    // Outside a convolution the axis is the dim: 16 scales on axis 1 of
    // {3, 3, 8, 16} do not fit and compile says so.
    logical_tensor w(1, dt::s8, {3, 3, 8, 16}, lt_layout::strided);
    logical_tensor y(2, dt::f32, {3, 3, 8, 16}, lt_layout::strided);
    op dq(1, op::kind::Dequantize, {w}, {y}, "dq");
    dq.set_attr<std::string>(op::attr::qtype, "per_channel");
    dq.set_attr<std::vector<float>>(op::attr::scales, std::vector<float>(16, 0.5f));
    dq.set_attr<int64_t>(op::attr::axis, 1);
    graph g(dnnl::engine::kind::cpu);
    g.add_op(dq); // accepted when added, as oneDNN
    g.finalize();
    auto parts = g.get_partitions();
    ASSERT_EQ(parts.size(), 1u);
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    EXPECT_THROW(parts[0].compile({w}, {y}, eng), dnnl::error);
    // On axis 3 (16 channels) it runs: element (.., c) * 0.5.
    op dq3(1, op::kind::Dequantize, {w}, {y}, "dq3");
    dq3.set_attr<std::string>(op::attr::qtype, "per_channel");
    std::vector<float> sc(16);
    for (int k = 0; k < 16; ++k)
        sc[k] = 0.25f * (k + 1);
    dq3.set_attr<std::vector<float>>(op::attr::scales, sc);
    dq3.set_attr<int64_t>(op::attr::axis, 3);
    graph g3(dnnl::engine::kind::cpu);
    g3.add_op(dq3);
    g3.finalize();
    auto p3 = g3.get_partitions();
    auto cp = p3[0].compile({w}, {y}, eng);
    std::vector<int8_t> wv(3 * 3 * 8 * 16);
    for (size_t i = 0; i < wv.size(); ++i)
        wv[i] = static_cast<int8_t>(i % 7);
    std::vector<float> yv(wv.size());
    dnnl::stream strm(eng);
    tensor tw(w, eng, wv.data()), ty(y, eng, yv.data());
    cp.execute(strm, {tw}, {ty});
    for (size_t i = 0; i < wv.size(); ++i)
        ASSERT_FLOAT_EQ(yv[i], wv[i] * sc[i % 16]);
}

TEST(WeightScalesAxis, MatMulAxisIsTheWeightsDim) {
    // MatMul weights {K, N} = {6, 4}, per-N scales on axis 1: one partition,
    // scales along N.
    const int64_t M = 3, K = 6, N = 4;
    logical_tensor a_u8(1, dt::u8, {M, K}, lt_layout::strided);
    logical_tensor a_f(2, dt::f32, {M, K}, lt_layout::strided);
    logical_tensor b_s8(3, dt::s8, {K, N}, lt_layout::strided);
    logical_tensor b_f(4, dt::f32, {K, N}, lt_layout::strided);
    logical_tensor c_f(5, dt::f32, {M, N}, lt_layout::strided);
    op dqa(1, op::kind::Dequantize, {a_u8}, {a_f}, "dqa");
    dqa.set_attr<std::vector<float>>(op::attr::scales, {1.f});
    dqa.set_attr<std::vector<int64_t>>(op::attr::zps, {0});
    op dqb(2, op::kind::Dequantize, {b_s8}, {b_f}, "dqb");
    dqb.set_attr<std::string>(op::attr::qtype, "per_channel");
    const std::vector<float> sb {0.5f, 1.f, 2.f, 4.f};
    dqb.set_attr<std::vector<float>>(op::attr::scales, sb);
    dqb.set_attr<std::vector<int64_t>>(op::attr::zps, {0, 0, 0, 0});
    dqb.set_attr<int64_t>(op::attr::axis, 1);
    op mm(3, op::kind::MatMul, {a_f, b_f}, {c_f}, "mm");
    graph g(dnnl::engine::kind::cpu);
    g.add_op(dqa);
    g.add_op(dqb);
    g.add_op(mm);
    g.finalize();
    auto parts = g.get_partitions();
    ASSERT_EQ(parts.size(), 1u);
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);
    auto cp = parts[0].compile({a_u8, b_s8}, {c_f}, eng);
    std::vector<uint8_t> av(M * K);
    std::vector<int8_t> bv(K * N);
    for (size_t i = 0; i < av.size(); ++i)
        av[i] = static_cast<uint8_t>(i % 5);
    for (size_t i = 0; i < bv.size(); ++i)
        bv[i] = static_cast<int8_t>(static_cast<int>(i % 7) - 3);
    std::vector<float> cv(M * N);
    tensor ta(a_u8, eng, av.data()), tb(b_s8, eng, bv.data()), tc(c_f, eng, cv.data());
    cp.execute(strm, {ta, tb}, {tc});
    for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
            float acc = 0;
            for (int64_t k = 0; k < K; ++k)
                acc += av[m * K + k] * bv[k * N + n] * sb[n];
            ASSERT_FLOAT_EQ(cv[m * N + n], acc) << m << "," << n;
        }
}

} // namespace
