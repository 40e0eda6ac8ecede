// SPDX-License-Identifier: Apache-2.0
// tests/api/cpp_api_test.cpp — the C++ wrapper (dnnl_graph.hpp) end to end:
// the getting-started flow (two conv + bias + relu blocks, NCX/OIX, outputs
// with unknown rank and layout any, queried back and fed forward), checked
// against a naive convolution written here; and exceptions carrying status
// and a message that names the offending op.
#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl_graph.hpp"

using namespace dnnl::graph;
using dt = logical_tensor::data_type;
using lt_layout = logical_tensor::layout_type;
using dims = logical_tensor::dims;

namespace {

// out[n][o][y][x] = b[o] + sum_{i,ky,kx} in[n][i][y+ky-p][x+kx-p] * w[o][i][ky][kx]
std::vector<float> naive_conv_bias_relu(const std::vector<float> &in,
        const std::vector<float> &w, const std::vector<float> &b, int N, int C,
        int H, int W, int O, int K, int pad) {
    const int OH = H + 2 * pad - K + 1, OW = W + 2 * pad - K + 1;
    std::vector<float> out(static_cast<size_t>(N) * O * OH * OW);
    for (int n = 0; n < N; ++n)
        for (int o = 0; o < O; ++o)
            for (int y = 0; y < OH; ++y)
                for (int x = 0; x < OW; ++x) {
                    double acc = b[o];
                    for (int i = 0; i < C; ++i)
                        for (int ky = 0; ky < K; ++ky)
                            for (int kx = 0; kx < K; ++kx) {
                                const int iy = y + ky - pad, ix = x + kx - pad;
                                if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                                acc += in[((n * C + i) * H + iy) * W + ix]
                                        * w[((o * C + i) * K + ky) * K + kx];
                            }
                    out[((n * O + o) * OH + y) * OW + x]
                            = static_cast<float>(acc > 0 ? acc : 0);
                }
    return out;
}

std::vector<float> ramp(size_t n, float scale, float shift) {
    std::vector<float> v(n);
    for (size_t k = 0; k < n; ++k)
        v[k] = scale * static_cast<float>(static_cast<int>(k % 13) - 6) + shift;
    return v;
}

} // namespace

TEST(CppApi, GettingStartedFlow) {
    const int N = 2, C = 3, H = 6, W = 6, O1 = 4, O2 = 2, K = 3;
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);
    dnnl::graph::graph g(dnnl::engine::kind::cpu);

    logical_tensor src {0, dt::f32, dims {N, C, H, W}, lt_layout::strided};
    logical_tensor w1 {1, dt::f32, dims {O1, C, K, K}, lt_layout::strided};
    logical_tensor b1 {2, dt::f32, dims {O1}, lt_layout::strided};
    logical_tensor c1 {3, dt::f32, DNNL_GRAPH_UNKNOWN_NDIMS, lt_layout::undef};
    logical_tensor a1 {4, dt::f32, DNNL_GRAPH_UNKNOWN_NDIMS, lt_layout::undef};
    logical_tensor r1 {5, dt::f32, DNNL_GRAPH_UNKNOWN_NDIMS, lt_layout::undef};
    logical_tensor w2 {6, dt::f32, dims {O2, O1, K, K}, lt_layout::strided};
    logical_tensor b2 {7, dt::f32, dims {O2}, lt_layout::strided};
    logical_tensor c2 {8, dt::f32, DNNL_GRAPH_UNKNOWN_NDIMS, lt_layout::undef};
    logical_tensor a2 {9, dt::f32, DNNL_GRAPH_UNKNOWN_NDIMS, lt_layout::undef};
    logical_tensor r2 {10, dt::f32, DNNL_GRAPH_UNKNOWN_NDIMS, lt_layout::undef};

    auto conv = [](size_t id, logical_tensor in, logical_tensor wt,
                        logical_tensor out, int64_t pad) {
        op o(id, op::kind::Convolution, {in, wt}, {out}, "conv" + std::to_string(id));
        o.set_attr<dims>(op::attr::strides, {1, 1});
        o.set_attr<dims>(op::attr::pads_begin, {pad, pad});
        o.set_attr<dims>(op::attr::pads_end, {pad, pad});
        o.set_attr<dims>(op::attr::dilations, {1, 1});
        o.set_attr<int64_t>(op::attr::groups, 1);
        o.set_attr<std::string>(op::attr::data_format, "NCX");
        o.set_attr<std::string>(op::attr::weights_format, "OIX");
        return o;
    };
    op bias1(1, op::kind::BiasAdd, {c1, b1}, {a1}, "bias1");
    bias1.set_attr<std::string>(op::attr::data_format, "NCX");
    op relu1(2, op::kind::ReLU, {a1}, {r1}, "relu1");
    op bias2(4, op::kind::BiasAdd, {c2, b2}, {a2}, "bias2");
    bias2.set_attr<std::string>(op::attr::data_format, "NCX");
    op relu2(5, op::kind::ReLU, {a2}, {r2}, "relu2");

    g.add_op(conv(0, src, w1, c1, 1));
    g.add_op(bias1);
    g.add_op(relu1);
    g.add_op(conv(3, r1, w2, c2, 0));
    g.add_op(bias2);
    g.add_op(relu2);
    g.finalize();
    std::vector<partition> parts = g.get_partitions();
    ASSERT_GE(parts.size(), 2u);

    // Compile in order; outputs of layout any are queried and fed forward.
    std::vector<float> src_v = ramp(N * C * H * W, 0.25f, 0.1f);
    std::vector<float> w1_v = ramp(O1 * C * K * K, 0.1f, 0.0f);
    std::vector<float> b1_v = {0.5f, -0.5f, 1.0f, 0.0f};
    std::vector<float> w2_v = ramp(O2 * O1 * K * K, -0.07f, 0.02f);
    std::vector<float> b2_v = {0.25f, -2.0f};
    std::unordered_map<size_t, std::vector<float>> data = {{0, src_v}, {1, w1_v},
            {2, b1_v}, {6, w2_v}, {7, b2_v}};
    std::unordered_map<size_t, logical_tensor> known = {{0, src}, {1, w1},
            {2, b1}, {6, w2}, {7, b2}};
    for (const partition &p : parts) {
        ASSERT_TRUE(p.is_supported());
        std::vector<logical_tensor> ins, outs;
        for (const auto &port : p.get_input_ports())
            ins.push_back(known.at(port.get_id()));
        for (const auto &port : p.get_output_ports())
            outs.emplace_back(port.get_id(), dt::f32, DNNL_GRAPH_UNKNOWN_NDIMS,
                    lt_layout::any);
        compiled_partition cp = p.compile(ins, outs, eng);
        std::vector<tensor> tin, tout;
        for (const auto &lt : ins)
            tin.emplace_back(lt, eng, data.at(lt.get_id()).data());
        for (auto &lt : outs) {
            logical_tensor q = cp.query_logical_tensor(lt.get_id());
            known[q.get_id()] = q;
            data[q.get_id()].assign(q.get_mem_size() / sizeof(float), 0.f);
            tout.emplace_back(q, eng, data[q.get_id()].data());
        }
        cp.execute(strm, tin, tout);
    }
    strm.wait();

    const logical_tensor out_lt = known.at(10);
    EXPECT_EQ(out_lt.get_dims(), (dims {N, O2, H - 2, W - 2}));
    std::vector<float> mid = naive_conv_bias_relu(src_v, w1_v, b1_v, N, C, H, W, O1, K, 1);
    std::vector<float> want = naive_conv_bias_relu(mid, w2_v, b2_v, N, O1, H, W, O2, K, 0);
    const std::vector<float> &got = data.at(10);
    ASSERT_EQ(got.size(), want.size());
    size_t nonzero = 0;
    for (size_t k = 0; k < want.size(); ++k) {
        EXPECT_NEAR(got[k], want[k], 1e-4 + 1e-4 * std::fabs(want[k])) << k;
        nonzero += want[k] != 0;
    }
    EXPECT_GT(nonzero, want.size() / 4); // the data exercises both ReLU sides
}

TEST(CppApi, SingleOpPartitionMatMul) {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);
    logical_tensor a {0, dt::f32, dims {2, 3}, lt_layout::strided};
    logical_tensor b {1, dt::f32, dims {2, 3}, lt_layout::strided};
    logical_tensor c {2, dt::f32, dims {2, 2}, lt_layout::strided};
    op mm(0, op::kind::MatMul, {a, b}, {c}, "mm");
    mm.set_attr<bool>(op::attr::transpose_b, true);
    partition p(mm, dnnl::engine::kind::cpu);
    compiled_partition cp = p.compile({a, b}, {c}, eng);
    std::vector<float> av = {1, 2, 3, 4, 5, 6}, bv = {1, 0, -1, 2, 1, 0}, cv(4);
    tensor ta(a, eng, av.data()), tb(b, eng, bv.data()), tc(c, eng, cv.data());
    cp.execute(strm, {ta, tb}, {tc});
    strm.wait();
    // a * b^T: rows of a dot rows of b.
    EXPECT_FLOAT_EQ(cv[0], 1 * 1 + 2 * 0 + 3 * -1);
    EXPECT_FLOAT_EQ(cv[1], 1 * 2 + 2 * 1 + 3 * 0);
    EXPECT_FLOAT_EQ(cv[2], 4 * 1 + 5 * 0 + 6 * -1);
    EXPECT_FLOAT_EQ(cv[3], 4 * 2 + 5 * 1 + 6 * 0);
}

TEST(CppApi, LibraryAllocatedTensorAndAllocator) {
    allocator alloc; // default allocator, not an empty handle
    dnnl::engine eng = make_engine_with_allocator(dnnl::engine::kind::cpu, 0, alloc);
    logical_tensor t {3, dt::f32, dims {4, 5}, lt_layout::strided};
    tensor owned(t, eng);
    EXPECT_NE(owned.get_data_handle(), nullptr);
    EXPECT_EQ(owned.get_logical_tensor().get_dims(), (dims {4, 5}));
    EXPECT_EQ(owned.get_engine().get_kind(), dnnl::engine::kind::cpu);
}

TEST(CppApi, ErrorsCarryStatusAndOpId) {
    dnnl::graph::graph g(dnnl::engine::kind::cpu);
    logical_tensor in {0, dt::f32, dims {1, 1, 4, 4}, lt_layout::strided};
    logical_tensor wt {1, dt::f32, dims {1, 1, 3, 3}, lt_layout::strided};
    logical_tensor out {2, dt::f32, dims {1, 1, 2, 2}, lt_layout::strided};
    op conv(42, op::kind::Convolution, {in, wt}, {out}, "conv42");
    // strides and the rest are missing.
    try {
        g.add_op(conv);
        FAIL() << "add_op should throw";
    } catch (const dnnl::error &e) {
        EXPECT_EQ(e.status, dnnl_invalid_graph_op);
        const std::string what = e.what();
        EXPECT_NE(what.find("op 42"), std::string::npos) << what;
        EXPECT_NE(what.find("strides"), std::string::npos) << what;
    }
    // Non-throwing form returns the status.
    EXPECT_EQ(g.add_op(conv, false), status::invalid_graph_op);
    // Partitions of an unfinalized graph.
    EXPECT_THROW(g.get_partitions(), dnnl::error);
    if (dnnl::engine::get_count(dnnl::engine::kind::gpu) == 0) {
        EXPECT_THROW(dnnl::engine(dnnl::engine::kind::gpu, 0), dnnl::error);
    }
}

TEST(CppApi, UnsupportedPartitionThrowsOnCompile) {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::graph::graph g(dnnl::engine::kind::cpu);
    logical_tensor x {0, dt::f32, dims {2}, lt_layout::strided};
    logical_tensor y {1, dt::f32, dims {2}, lt_layout::strided};
    g.add_op(op(0, op::kind::Wildcard, {x}, {y}, "framework_op"));
    g.finalize();
    auto parts = g.get_partitions();
    ASSERT_EQ(parts.size(), 1u);
    EXPECT_FALSE(parts[0].is_supported());
    try {
        parts[0].compile({x}, {y}, eng);
        FAIL() << "compile should throw";
    } catch (const dnnl::error &e) {
        EXPECT_EQ(e.status, dnnl_invalid_arguments);
    }
}
