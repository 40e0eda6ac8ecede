// SPDX-License-Identifier: Apache-2.0
// tools/bench/bench_fusion.cpp — llga-bench-fusion: what fusion buys on the
// epilogues real models put after their GEMMs and convolutions. Each row is
// a small graph built through the public C++ API (constant weights and
// biases, the constant cache on) and run twice: partitioned with the
// `fusion` policy (one fused partition) and with the `debug` policy (one
// op per partition, every intermediate written and read back). Prints
// milliseconds per run for both (best of the timed runs), the GFLOP/s of
// the fused run, the speed-up, the fused partition's kernel, and the oneDNN
// 2.6 primitive with the same post-ops (f32 rows; llga-bench-onednn,
// "po=") as the comparator measured in the same run.
//
//   llga-bench-fusion [--threads N] [--min-time S] [--rounds R]
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <tbb/global_control.h>

#include "oneapi/dnnl/dnnl_graph.hpp"
#include "onednn_comparator.hpp"
#include "partition_runner.hpp"

using namespace dnnl::graph;
using dt = logical_tensor::data_type;
using layout = logical_tensor::layout_type;
using dims = logical_tensor::dims;
using prop = logical_tensor::property_type;

namespace {

// One benchmark row: a MatMul (M x K by K x N) or an NHWC convolution
// (mb 1, IC -> OC, k x k, stride 1, same padding) followed by a chain.
struct row_t {
    const char *name;
    bool conv, int8;
    int64_t m, n, k;   // MatMul M, N, K; conv: H(=W), OC, IC
    int64_t ksize;     // conv kernel size
    const char *chain; // comma list: bias, relu, gelu, add (dst-shaped)
};

const row_t k_rows[] = {
        {"bert_ffn_up 128x1024x4096", false, false, 128, 4096, 1024, 0, "bias,gelu"},
        {"bert_ffn_down 128x4096x1024", false, false, 128, 1024, 4096, 0, "bias,add"},
        {"mlp 512x1024x1024", false, false, 512, 1024, 1024, 0, "bias,relu"},
        {"llm_decode 16x4096x4096", false, false, 16, 4096, 4096, 0, "bias,gelu"},
        {"res2_1x1_64_256 mb1", true, false, 56, 256, 64, 1, "bias,add,relu"},
        {"res3_3x3_128 mb1", true, false, 28, 128, 128, 3, "bias,relu"},
        {"res4_1x1_256_1024 mb1", true, false, 14, 1024, 256, 1, "bias,add,relu"},
        {"int8 linear 128x1024x1024", false, true, 128, 1024, 1024, 0, "bias,relu"},
        {"int8 linear 16x4096x4096", false, true, 16, 4096, 4096, 0, "bias,relu"},
        {"int8 ffn_up 128x1024x4096", false, true, 128, 4096, 1024, 0, "bias,gelu"},
        {"int8 ffn_down 128x4096x1024", false, true, 128, 1024, 4096, 0, "bias,add"},
        {"int8 pointwise 3136x256x64", false, true, 3136, 256, 64, 0, "bias,add,relu"},
        {"int8 res2_1x1_64_256 mb1", true, true, 56, 256, 64, 1, "bias,add,relu"},
        {"int8 res3_3x3_128 mb1", true, true, 28, 128, 128, 3, "bias,add,relu"},
};

double gflop(const row_t &r) {
    if (!r.conv) return 2.0 * r.m * r.n * r.k * 1e-9;
    return 2.0 * r.m * r.m * r.n * r.k * r.ksize * r.ksize * 1e-9;
}

std::vector<std::string> split(const std::string &s) {
    std::vector<std::string> v;
    size_t at = 0;
    while (at <= s.size()) {
        const size_t end = std::min(s.find(',', at), s.size());
        v.push_back(s.substr(at, end - at));
        at = end + 1;
    }
    return v;
}

void set_quant(op &o, float scale, int64_t zp) {
    o.set_attr<std::string>(op::attr::qtype, "per_tensor");
    o.set_attr<std::vector<float>>(op::attr::scales, {scale});
    o.set_attr<std::vector<int64_t>>(op::attr::zps, {zp});
    o.set_attr<int64_t>(op::attr::axis, 0);
}

// The row's graph: anchor, then the chain; int8 rows dequantize u8 src and
// s8 weights first and quantize the result to u8 last.
graph build(const row_t &r) {
    graph g(engine::kind::cpu);
    size_t id = 0, op_id = 0;
    const dims sd = r.conv ? dims {1, r.m, r.m, r.k} : dims {r.m, r.k};
    const dims wd = r.conv ? dims {r.ksize, r.ksize, r.k, r.n} : dims {r.k, r.n};
    const dims dd = r.conv ? dims {1, r.m, r.m, r.n} : dims {r.m, r.n};
    logical_tensor src(id++, r.int8 ? dt::u8 : dt::f32, sd, layout::strided);
    logical_tensor wei(id++, r.int8 ? dt::s8 : dt::f32, wd, layout::strided,
            prop::constant);
    if (r.int8) {
        logical_tensor sf(id++, dt::f32, sd, layout::strided);
        logical_tensor wf(id++, dt::f32, wd, layout::strided, prop::constant);
        op dqs(op_id++, op::kind::Dequantize, {src}, {sf}, "dq_src");
        op dqw(op_id++, op::kind::Dequantize, {wei}, {wf}, "dq_wei");
        set_quant(dqs, 0.02f, 3);
        set_quant(dqw, 0.01f, 0);
        g.add_op(dqs);
        g.add_op(dqw);
        src = sf;
        wei = wf;
    }
    logical_tensor y(id++, dt::f32, dd, layout::strided);
    if (r.conv) {
        op c(op_id++, op::kind::Convolution, {src, wei}, {y}, "conv");
        const int64_t p = r.ksize / 2;
        c.set_attr<dims>(op::attr::strides, {1, 1});
        c.set_attr<dims>(op::attr::dilations, {1, 1});
        c.set_attr<dims>(op::attr::pads_begin, {p, p});
        c.set_attr<dims>(op::attr::pads_end, {p, p});
        c.set_attr<int64_t>(op::attr::groups, 1);
        c.set_attr<std::string>(op::attr::data_format, "NXC");
        c.set_attr<std::string>(op::attr::weights_format, "XIO");
        g.add_op(c);
    } else {
        g.add_op(op(op_id++, op::kind::MatMul, {src, wei}, {y}, "matmul"));
    }
    for (const std::string &step : split(r.chain)) {
        logical_tensor z(id++, dt::f32, dd, layout::strided);
        if (step == "bias") {
            logical_tensor b(id++, dt::f32, dims {r.n}, layout::strided,
                    prop::constant);
            op o(op_id++, op::kind::BiasAdd, {y, b}, {z}, "bias");
            o.set_attr<std::string>(op::attr::data_format, "NXC");
            g.add_op(o);
        } else if (step == "add") {
            logical_tensor res(id++, dt::f32, dd, layout::strided);
            g.add_op(op(op_id++, op::kind::Add, {y, res}, {z}, "residual"));
        } else {
            g.add_op(op(op_id++,
                    step == "gelu" ? op::kind::GELU : op::kind::ReLU, {y}, {z},
                    step));
        }
        y = z;
    }
    if (r.int8) {
        logical_tensor q(id++, dt::u8, dd, layout::strided);
        op o(op_id++, op::kind::Quantize, {y}, {q}, "quantize");
        set_quant(o, 0.05f, 100);
        g.add_op(o);
    }
    g.finalize();
    return g;
}

// The row's partitions under one policy, compiled, with a buffer per
// tensor id (graph inputs filled with small random values).
struct run_t {
    llga_bench::partition_runner_t runner;
    std::map<size_t, std::vector<float>> bufs;
    std::string kernels;

    run_t(graph &g, partition::policy policy) {
        std::mt19937 gen(7);
        std::uniform_real_distribution<float> u(-1.f, 1.f);
        auto buffer = [&](const logical_tensor &lt) {
            auto it = bufs.find(lt.get_id());
            if (it != bufs.end()) return it->second.data();
            // int8 inputs: small non-negative bytes (valid u8 and s8).
            std::vector<float> v((lt.get_mem_size() + 3) / 4);
            const bool bytes = lt.get_data_type() == dt::u8
                    || lt.get_data_type() == dt::s8;
            for (float &x : v) {
                if (!bytes) {
                    x = u(gen);
                } else {
                    uint32_t w = gen() & 0x3f3f3f3fu;
                    std::memcpy(&x, &w, 4);
                }
            }
            return (bufs[lt.get_id()] = std::move(v)).data();
        };
        for (partition &p : g.get_partitions(policy)) {
            if (!p.is_supported()) continue;
            runner.add(p, buffer);
        }
    }
    void once() { runner.once(); }
    double best_ms(double min_time) { return runner.best_ms(min_time); }
};

// The fused partition's kernel (verbose would say it too): the one
// partition's kernel name is not public, so report what was formed.
std::string formed(graph &g) {
    std::string s;
    for (partition &p : g.get_partitions(partition::policy::fusion))
        s += (s.empty() ? "" : " | ") + std::to_string(p.get_ops_num()) + " ops";
    return s;
}

std::string onednn_args(const row_t &r) {
    if (r.int8) return std::string();
    if (r.conv)
        return "conv f32 1 " + std::to_string(r.k) + " " + std::to_string(r.m)
                + " " + std::to_string(r.m) + " " + std::to_string(r.n) + " "
                + std::to_string(r.ksize) + " " + std::to_string(r.ksize)
                + " 1 1 " + std::to_string(r.ksize / 2) + " "
                + std::to_string(r.ksize / 2) + " po=" + r.chain;
    return "matmul f32 " + std::to_string(r.m) + " " + std::to_string(r.n) + " "
            + std::to_string(r.k) + " po=" + r.chain;
}

} // namespace

int main(int argc, char **argv) {
    int threads = 1, rounds = 2;
    double min_time = 0.3;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--threads" && i + 1 < argc) threads = std::atoi(argv[++i]);
        else if (a == "--min-time" && i + 1 < argc) min_time = std::atof(argv[++i]);
        else if (a == "--rounds" && i + 1 < argc) rounds = std::atoi(argv[++i]);
        else {
            std::fprintf(stderr,
                    "usage: llga-bench-fusion [--threads N] [--min-time S] "
                    "[--rounds R]\n");
            return 2;
        }
    }
    tbb::global_control cap(tbb::global_control::max_allowed_parallelism,
            static_cast<size_t>(std::max(1, threads)));
    set_constant_tensor_cache_capacity(engine::kind::cpu, 4096);
    std::printf("%d thread(s); ms per run (best of the timed runs); fused = "
                "fusion policy, op-by-op = debug policy\n",
            threads);
    std::printf("%-30s %-14s %9s %8s %9s %7s %8s %6s  %s\n", "graph", "chain",
            "fused ms", "GFLOP/s", "1-op ms", "fusion", "1D GF/s", "vs 1D",
            "partitions");
    double log_gain = 0, log_1d = 0;
    int n_1d = 0;
    for (const row_t &r : k_rows) {
        graph g = build(r);
        run_t fused(g, partition::policy::fusion);
        run_t split_run(g, partition::policy::debug);
        double f = 1e30, s = 1e30, o = -1;
        for (int k = 0; k < rounds; ++k) {
            f = std::min(f, fused.best_ms(min_time));
            s = std::min(s, split_run.best_ms(min_time));
            const std::string args = onednn_args(r);
            if (!args.empty())
                o = std::max(o, llga_bench::onednn_gflops(args, threads, min_time));
        }
        const double gf = gflop(r) / (f * 1e-3);
        log_gain += std::log(s / f);
        char ob[32] = "-", vs[32] = "-";
        if (o > 0) {
            std::snprintf(ob, sizeof(ob), "%.1f", o);
            std::snprintf(vs, sizeof(vs), "%.2fx", gf / o);
            log_1d += std::log(gf / o);
            ++n_1d;
        }
        std::printf("%-30s %-14s %9.3f %8.1f %9.3f %6.2fx %8s %6s  %s\n",
                r.name, (std::string(r.int8 ? "dq," : "") + r.chain
                                + (r.int8 ? ",q" : ""))
                                .c_str(),
                f, gf, s, s / f, ob, vs, formed(g).c_str());
        std::fflush(stdout);
    }
    const int rows = static_cast<int>(sizeof(k_rows) / sizeof(k_rows[0]));
    std::printf("geomean fusion speed-up %.2fx", std::exp(log_gain / rows));
    if (n_1d) std::printf(", vs oneDNN 2.6 (f32 rows) %.2fx", std::exp(log_1d / n_1d));
    std::printf("\n");
    return 0;
}
