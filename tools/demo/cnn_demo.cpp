// SPDX-License-Identifier: Apache-2.0
// tools/demo/cnn_demo.cpp — the quick-start demo: a small CNN built through
// the oneDNN-compatible C++ API, partitioned, compiled and executed by llga,
// with the result checked against a plain-loop implementation written here.
//
//   x[1,3,8,8] -> Convolution(8 filters, 3x3, pad 1, NCX/OIX) -> BiasAdd
//     -> ReLU -> MaxPool(2x2, stride 2) -> StaticReshape[1,128]
//     -> MatMul(w[128,10]) -> Add(b[10]) -> SoftMax(axis 1) -> probs[1,10]
#include <cmath>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include "oneapi/dnnl/dnnl_graph.hpp"

using namespace dnnl::graph;
using dt = logical_tensor::data_type;
using layout = logical_tensor::layout_type;
using dims = logical_tensor::dims;

namespace {

constexpr int C = 3, H = 8, W = 8, F = 8, K = 3, PH = 4, PW = 4, NCLS = 10;
constexpr int FLAT = F * PH * PW;

// Deterministic pseudo-random values in [-1, 1).
std::vector<float> fill(size_t n, unsigned seed) {
    std::vector<float> v(n);
    unsigned s = seed * 2654435761u + 1;
    for (auto &x : v) {
        s = s * 1664525u + 1013904223u;
        x = static_cast<float>((s >> 8) & 0xffff) / 32768.0f - 1.0f;
    }
    return v;
}

// The same network as plain loops: the independent check.
std::vector<float> expected_probs(const std::vector<float> &x,
        const std::vector<float> &cw, const std::vector<float> &cb,
        const std::vector<float> &fw, const std::vector<float> &fb) {
    std::vector<float> act(F * H * W), pooled(FLAT);
    for (int f = 0; f < F; ++f)
        for (int y = 0; y < H; ++y)
            for (int xx = 0; xx < W; ++xx) {
                double acc = cb[f];
                for (int c = 0; c < C; ++c)
                    for (int ky = 0; ky < K; ++ky)
                        for (int kx = 0; kx < K; ++kx) {
                            int iy = y + ky - 1, ix = xx + kx - 1;
                            if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                            acc += x[(c * H + iy) * W + ix]
                                    * cw[((f * C + c) * K + ky) * K + kx];
                        }
                act[(f * H + y) * W + xx] = acc > 0 ? static_cast<float>(acc) : 0.f;
            }
    for (int f = 0; f < F; ++f)
        for (int y = 0; y < PH; ++y)
            for (int xx = 0; xx < PW; ++xx) {
                float m = -INFINITY;
                for (int dy = 0; dy < 2; ++dy)
                    for (int dx = 0; dx < 2; ++dx)
                        m = std::fmax(m, act[(f * H + 2 * y + dy) * W + 2 * xx + dx]);
                pooled[(f * PH + y) * PW + xx] = m;
            }
    std::vector<double> logits(NCLS);
    double mx = -INFINITY, sum = 0;
    for (int j = 0; j < NCLS; ++j) {
        double acc = fb[j];
        for (int i = 0; i < FLAT; ++i)
            acc += pooled[i] * fw[i * NCLS + j];
        logits[j] = acc;
        mx = std::fmax(mx, acc);
    }
    for (auto &l : logits)
        sum += (l = std::exp(l - mx));
    std::vector<float> p(NCLS);
    for (int j = 0; j < NCLS; ++j)
        p[j] = static_cast<float>(logits[j] / sum);
    return p;
}

} // namespace

int main() try {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);

    // Logical tensors: inputs have shapes; everything produced is left with
    // unknown rank and layout for the library to infer.
    auto unknown = [](size_t id) {
        return logical_tensor(id, dt::f32, DNNL_GRAPH_UNKNOWN_NDIMS, layout::undef);
    };
    logical_tensor x {0, dt::f32, dims {1, C, H, W}, layout::strided};
    logical_tensor cw {1, dt::f32, dims {F, C, K, K}, layout::strided,
            logical_tensor::property_type::constant};
    logical_tensor cb {2, dt::f32, dims {F}, layout::strided,
            logical_tensor::property_type::constant};
    logical_tensor fw {8, dt::f32, dims {FLAT, NCLS}, layout::strided,
            logical_tensor::property_type::constant};
    logical_tensor fb {10, dt::f32, dims {NCLS}, layout::strided,
            logical_tensor::property_type::constant};
    logical_tensor conv_out = unknown(3), bias_out = unknown(4), relu_out = unknown(5),
                   pool_out = unknown(6), flat = unknown(7), mm_out = unknown(9),
                   logits = unknown(11), probs = unknown(12);

    op conv(0, op::kind::Convolution, {x, cw}, {conv_out}, "conv");
    conv.set_attr<dims>(op::attr::strides, {1, 1});
    conv.set_attr<dims>(op::attr::pads_begin, {1, 1});
    conv.set_attr<dims>(op::attr::pads_end, {1, 1});
    conv.set_attr<dims>(op::attr::dilations, {1, 1});
    conv.set_attr<std::string>(op::attr::data_format, "NCX");
    conv.set_attr<std::string>(op::attr::weights_format, "OIX");
    op bias(1, op::kind::BiasAdd, {conv_out, cb}, {bias_out}, "bias");
    bias.set_attr<std::string>(op::attr::data_format, "NCX");
    op relu(2, op::kind::ReLU, {bias_out}, {relu_out}, "relu");
    op pool(3, op::kind::MaxPool, {relu_out}, {pool_out}, "pool");
    pool.set_attr<dims>(op::attr::kernel, {2, 2});
    pool.set_attr<dims>(op::attr::strides, {2, 2});
    pool.set_attr<dims>(op::attr::pads_begin, {0, 0});
    pool.set_attr<dims>(op::attr::pads_end, {0, 0});
    pool.set_attr<std::string>(op::attr::data_format, "NCX");
    op reshape(4, op::kind::StaticReshape, {pool_out}, {flat}, "flatten");
    reshape.set_attr<dims>(op::attr::shape, {1, FLAT});
    reshape.set_attr<bool>(op::attr::special_zero, false);
    op fc(5, op::kind::MatMul, {flat, fw}, {mm_out}, "fc");
    op fc_bias(6, op::kind::Add, {mm_out, fb}, {logits}, "fc_bias");
    op softmax(7, op::kind::SoftMax, {logits}, {probs}, "softmax");
    softmax.set_attr<int64_t>(op::attr::axis, 1);

    dnnl::graph::graph g(dnnl::engine::kind::cpu);
    for (const op *o : {&conv, &bias, &relu, &pool, &reshape, &fc, &fc_bias, &softmax})
        g.add_op(*o);
    g.finalize();
    std::vector<partition> parts = g.get_partitions();

    std::printf("llga demo: small CNN, %zu partitions\n", parts.size());
    std::printf("  %-4s %-9s %-10s %-16s %s\n", "id", "supported", "ops", "inputs",
            "outputs");
    for (const partition &p : parts) {
        std::string ins, outs, ops;
        for (auto &t : p.get_input_ports())
            ins += (ins.empty() ? "" : ",") + std::to_string(t.get_id());
        for (auto &t : p.get_output_ports())
            outs += (outs.empty() ? "" : ",") + std::to_string(t.get_id());
        for (size_t id : p.get_ops())
            ops += (ops.empty() ? "" : ",") + std::to_string(id);
        std::printf("  %-4zu %-9s %-10s %-16s %s\n", p.get_id(),
                p.is_supported() ? "yes" : "no", ops.c_str(), ins.c_str(), outs.c_str());
    }

    // Data, keyed by tensor id; produced tensors are sized after compile.
    std::unordered_map<size_t, std::vector<float>> data;
    data[0] = fill(C * H * W, 1);
    data[1] = fill(F * C * K * K, 2);
    data[2] = fill(F, 3);
    data[8] = fill(FLAT * NCLS, 4);
    data[10] = fill(NCLS, 5);
    std::unordered_map<size_t, logical_tensor> known {
            {0, x}, {1, cw}, {2, cb}, {8, fw}, {10, fb}};

    for (const partition &p : parts) {
        if (!p.is_supported()) {
            std::fprintf(stderr, "partition %zu is not supported\n", p.get_id());
            return 1;
        }
        std::vector<logical_tensor> ins, outs;
        for (auto &port : p.get_input_ports())
            ins.push_back(known.at(port.get_id()));
        for (auto &port : p.get_output_ports())
            outs.emplace_back(port.get_id(), dt::f32, DNNL_GRAPH_UNKNOWN_NDIMS,
                    layout::any);
        compiled_partition cp = p.compile(ins, outs, eng);
        std::vector<tensor> tin, tout;
        for (auto &lt : ins)
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

    const std::vector<float> want
            = expected_probs(data[0], data[1], data[2], data[8], data[10]);
    const std::vector<float> &got = data.at(12);
    double max_err = 0, sum = 0;
    int best = 0;
    for (int j = 0; j < NCLS; ++j) {
        max_err = std::fmax(max_err, std::fabs(got[j] - want[j]));
        sum += got[j];
        if (got[j] > got[best]) best = j;
    }
    std::printf("  output probs[1,%d]:", NCLS);
    for (float v : got)
        std::printf(" %.4f", v);
    std::printf("\n  predicted class %d; sum of probs %.6f; max |error| vs plain "
                "loops %.2e\n",
            best, sum, max_err);
    const bool ok = max_err < 1e-5 && std::fabs(sum - 1.0) < 1e-5
            && known.at(12).get_dims() == dims {1, NCLS};
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
} catch (const dnnl::error &e) {
    std::fprintf(stderr, "llga error (status %d): %s\n", static_cast<int>(e.status),
            e.what());
    return 1;
}
