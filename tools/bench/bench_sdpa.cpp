// SPDX-License-Identifier: Apache-2.0
// tools/bench/bench_sdpa.cpp — llga-bench-sdpa: scaled dot-product attention
// (f32) as transformer models hand it to the graph API. Each row is one SDPA
// graph built through the public C++ API — MatMul(Q, K^T), Multiply by a
// scalar scale, a mask (an explicit additive padding mask with scattered
// or trailing -inf keys, the corpus' implicit causal mask
// GenIndex/GreaterEqual/Select, or none), SoftMax
// ("inf_as_zero") and MatMul with V — run twice: partitioned with the
// `fusion` policy (one `sdp` partition) and with the `debug` policy (one op
// per partition, every intermediate written and read back). Prints ms per
// run for both (best of the timed runs), the fused GFLOP/s (4*B*H*Sq*Skv*D),
// the speed-up, the partitions formed, and oneDNN 2.6 primitives doing the
// same work (llga-bench-onednn "sdpa": matmul with output scale and mask
// post-op, softmax, matmul) as the comparator measured in the same run.
// Every row checks that the fused and op-by-op outputs agree (and a few
// output rows against a double-precision reference); a row that does not
// prints MISMATCH and the program exits 1. The fused partition's kernel
// name is not public API; ONEDNN_VERBOSE=1 prints it on each execution.
//
//   llga-bench-sdpa [--threads N] [--min-time S] [--rounds R] [--filter SUBSTR]
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <map>
#include <random>
#include <stdexcept>
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

// pad: an additive [B,1,1,Skv] mask with -inf on about one key in ten;
// tail: the same tensor masking each batch's trailing keys (padded
// sequences: batch b keeps Skv - b*Skv/B keys); tail_min: as tail, with
// the lowest finite float instead of -inf (Hugging Face's
// torch.finfo(dtype).min attention masks).
enum class mask_t { none, pad, tail, tail_min, causal };

bool mask_tensor(mask_t m) {
    return m == mask_t::pad || m == mask_t::tail || m == mask_t::tail_min;
}

const char *mask_name(mask_t m) {
    return m == mask_t::pad ? "pad"
            : m == mask_t::tail ? "tail"
            : m == mask_t::tail_min ? "tail_min"
            : m == mask_t::causal ? "causal"
                                  : "none";
}

// One benchmark row: Q [B,H,Sq,D], K and V [B,H,Skv,D], out [B,H,Sq,D].
struct row_t {
    const char *name;
    int64_t b, h, sq, skv, d;
    mask_t mask;
};

const row_t k_rows[] = {
        {"bert_base_s128", 1, 12, 128, 128, 64, mask_t::pad},
        {"bert_large_s384", 1, 16, 384, 384, 64, mask_t::pad},
        {"bert_large_b4_padded", 4, 16, 384, 384, 64, mask_t::tail},
        {"bert_large_b4_padded_min", 4, 16, 384, 384, 64, mask_t::tail_min},
        {"llm_prefill_causal_s512", 1, 32, 512, 512, 128, mask_t::causal},
        {"llm_decode_kv1024", 1, 32, 1, 1024, 128, mask_t::pad},
        {"sd_cross_attn", 2, 8, 1024, 77, 80, mask_t::none},
        {"sd_self_attn", 2, 8, 1024, 1024, 80, mask_t::none},
};

double gflop(const row_t &r) {
    return 4.0 * r.b * r.h * r.sq * r.skv * r.d * 1e-9;
}

// Tensor ids of the graph's inputs and output.
enum : size_t { id_q = 0, id_k, id_v, id_scale, id_mask, id_fill, id_out };

// The row's graph (the op kinds, attributes and data types of the corpus
// SDPA graphs, complex_fusion/mha/sdpa-plain-*) and its input data.
struct sdpa_t {
    row_t r;
    graph g {engine::kind::cpu};
    std::map<size_t, std::vector<float>> inputs;

    explicit sdpa_t(const row_t &row) : r(row) {
        const dims qd {r.b, r.h, r.sq, r.d}, kd {r.b, r.h, r.skv, r.d};
        const dims sd {r.b, r.h, r.sq, r.skv};
        size_t id = id_out + 1, op_id = 0;
        logical_tensor q(id_q, dt::f32, qd, layout::strided);
        logical_tensor k(id_k, dt::f32, kd, layout::strided);
        logical_tensor v(id_v, dt::f32, kd, layout::strided);
        logical_tensor scale(id_scale, dt::f32, dims {1}, layout::strided,
                prop::constant);
        logical_tensor out(id_out, dt::f32, qd, layout::strided);

        logical_tensor s0(id++, dt::f32, sd, layout::strided);
        op qk(op_id++, op::kind::MatMul, {q, k}, {s0}, "matmul_qk");
        qk.set_attr<bool>(op::attr::transpose_a, false);
        qk.set_attr<bool>(op::attr::transpose_b, true);
        g.add_op(qk);
        logical_tensor s1(id++, dt::f32, sd, layout::strided);
        op mul(op_id++, op::kind::Multiply, {s0, scale}, {s1}, "scale_mul");
        mul.set_attr<std::string>(op::attr::auto_broadcast, "numpy");
        g.add_op(mul);
        logical_tensor s2 = s1;
        if (mask_tensor(r.mask)) {
            logical_tensor m(id_mask, dt::f32, dims {r.b, 1, 1, r.skv},
                    layout::strided);
            s2 = logical_tensor(id++, dt::f32, sd, layout::strided);
            op add(op_id++, op::kind::Add, {s1, m}, {s2}, "mask_add");
            add.set_attr<std::string>(op::attr::auto_broadcast, "numpy");
            g.add_op(add);
        } else if (r.mask == mask_t::causal) {
            logical_tensor row_i(id++, dt::s32, sd, layout::strided);
            logical_tensor col_i(id++, dt::s32, sd, layout::strided);
            logical_tensor keep(id++, dt::boolean, sd, layout::strided);
            logical_tensor fill(id_fill, dt::f32, dims {1}, layout::strided);
            s2 = logical_tensor(id++, dt::f32, sd, layout::strided);
            op gr(op_id++, op::kind::GenIndex, {s1}, {row_i}, "genindex_row");
            gr.set_attr<int64_t>(op::attr::axis, 2);
            op gc(op_id++, op::kind::GenIndex, {s1}, {col_i}, "genindex_col");
            gc.set_attr<int64_t>(op::attr::axis, 3);
            op ge(op_id++, op::kind::GreaterEqual, {row_i, col_i}, {keep},
                    "mask_greater_equal");
            ge.set_attr<std::string>(op::attr::auto_broadcast, "numpy");
            op sel(op_id++, op::kind::Select, {keep, s1, fill}, {s2}, "select");
            sel.set_attr<std::string>(op::attr::auto_broadcast, "numpy");
            for (op *o : {&gr, &gc, &ge, &sel})
                g.add_op(*o);
        }
        logical_tensor p(id++, dt::f32, sd, layout::strided);
        op sm(op_id++, op::kind::SoftMax, {s2}, {p}, "softmax");
        sm.set_attr<int64_t>(op::attr::axis, -1);
        sm.set_attr<std::string>(op::attr::mode, "inf_as_zero");
        g.add_op(sm);
        op pv(op_id++, op::kind::MatMul, {p, v}, {out}, "matmul_v");
        pv.set_attr<bool>(op::attr::transpose_a, false);
        pv.set_attr<bool>(op::attr::transpose_b, false);
        g.add_op(pv);
        g.finalize();

        // Q, K, V uniform in [-1, 1]; the padding mask 0 or -inf (about one
        // key in ten, never key 0, so no row is fully masked).
        std::mt19937 gen(7);
        std::uniform_real_distribution<float> u(-1.f, 1.f);
        for (size_t i : {id_q, id_k, id_v}) {
            std::vector<float> x(static_cast<size_t>(r.b * r.h * r.skv * r.d));
            if (i == id_q) x.resize(static_cast<size_t>(r.b * r.h * r.sq * r.d));
            for (float &e : x) e = u(gen);
            inputs[i] = std::move(x);
        }
        inputs[id_scale] = {1.f / std::sqrt(static_cast<float>(r.d))};
        const float inf = std::numeric_limits<float>::infinity();
        if (mask_tensor(r.mask)) {
            std::vector<float> m(static_cast<size_t>(r.b * r.skv), 0.f);
            for (int64_t b = 0; b < r.b; ++b)
                for (int64_t j = 1; j < r.skv; ++j)
                    if (r.mask == mask_t::pad ? gen() % 10 == 0
                                              : j >= r.skv - b * r.skv / r.b)
                        m[b * r.skv + j] = r.mask == mask_t::tail_min
                                ? std::numeric_limits<float>::lowest()
                                : -inf;
            inputs[id_mask] = std::move(m);
        }
        if (r.mask == mask_t::causal) inputs[id_fill] = {-inf};
    }
};

// The row's partitions under one policy, compiled, with the shared input
// buffers and a zeroed buffer of its own for every other tensor id.
struct run_t {
    llga_bench::partition_runner_t runner;
    std::map<size_t, std::vector<float>> bufs;
    std::string formed;

    run_t(sdpa_t &s, partition::policy policy) {
        auto buffer = [&](const logical_tensor &lt) -> void * {
            auto in = s.inputs.find(lt.get_id());
            if (in != s.inputs.end()) return in->second.data();
            auto it = bufs.find(lt.get_id());
            if (it != bufs.end()) return it->second.data();
            std::vector<float> v((lt.get_mem_size() + 3) / 4, 0.f);
            return (bufs[lt.get_id()] = std::move(v)).data();
        };
        for (partition &p : s.g.get_partitions(policy)) {
            formed += (formed.empty() ? "" : " | ")
                    + std::to_string(p.get_ops_num()) + " ops";
            if (!p.is_supported())
                throw std::runtime_error("unsupported partition ("
                        + std::to_string(p.get_ops_num()) + " ops)");
            runner.add(p, buffer);
        }
    }
    const std::vector<float> &out() { return bufs.at(id_out); }
    void once() { runner.once(); }
    double best_ms(double min_time) { return runner.best_ms(min_time); }
};

// One output row (b, h, i) of SDPA in double precision.
std::vector<double> reference_row(
        const sdpa_t &s, int64_t b, int64_t h, int64_t i) {
    const row_t &r = s.r;
    const float *q = s.inputs.at(id_q).data() + ((b * r.h + h) * r.sq + i) * r.d;
    const float *k = s.inputs.at(id_k).data() + (b * r.h + h) * r.skv * r.d;
    const float *v = s.inputs.at(id_v).data() + (b * r.h + h) * r.skv * r.d;
    const double scale = s.inputs.at(id_scale)[0];
    std::vector<double> sc(static_cast<size_t>(r.skv));
    double mx = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < r.skv; ++j) {
        double acc = 0;
        for (int64_t c = 0; c < r.d; ++c) acc += double(q[c]) * k[j * r.d + c];
        acc *= scale;
        if (mask_tensor(r.mask))
            acc += s.inputs.at(id_mask)[b * r.skv + j];
        if (r.mask == mask_t::causal && j > i)
            acc = -std::numeric_limits<double>::infinity();
        sc[j] = acc;
        mx = std::max(mx, acc);
    }
    double sum = 0;
    for (double &e : sc) sum += (e = std::isinf(e) ? 0.0 : std::exp(e - mx));
    std::vector<double> o(static_cast<size_t>(r.d), 0.0);
    for (int64_t j = 0; j < r.skv; ++j)
        for (int64_t c = 0; c < r.d; ++c) o[c] += sc[j] / sum * v[j * r.d + c];
    return o;
}

// Fused vs op-by-op outputs: max |diff| must stay under 1e-4 * max |out|,
// and a few sampled rows must match the double reference as closely.
// Returns "" when they agree, else what went wrong.
std::string check(const sdpa_t &s, const std::vector<float> &fused,
        const std::vector<float> &split) {
    const row_t &r = s.r;
    double peak = 0, diff = 0;
    bool finite = true;
    const size_t n = static_cast<size_t>(r.b * r.h * r.sq * r.d);
    for (size_t i = 0; i < n; ++i) {
        finite = finite && std::isfinite(fused[i]) && std::isfinite(split[i]);
        peak = std::max(peak, std::fabs(double(split[i])));
        diff = std::max(diff, std::fabs(double(fused[i]) - split[i]));
    }
    char msg[128];
    if (!finite) return "non-finite output";
    if (!(peak > 0) || !(diff <= 1e-4 * peak)) {
        std::snprintf(msg, sizeof(msg), "fused vs 1-op max diff %.3g (max|out| %.3g)",
                diff, peak);
        return msg;
    }
    std::mt19937 gen(11);
    double ref_diff = 0;
    for (int t = 0; t < 8; ++t) {
        const int64_t b = gen() % r.b, h = gen() % r.h;
        const int64_t i = t == 0 ? 0 : t == 1 ? r.sq - 1 : gen() % r.sq;
        const std::vector<double> o = reference_row(s, b, h, i);
        const float *f = fused.data() + ((b * r.h + h) * r.sq + i) * r.d;
        for (int64_t c = 0; c < r.d; ++c)
            ref_diff = std::max(ref_diff, std::fabs(f[c] - o[c]));
    }
    if (!(ref_diff <= 1e-4 * peak)) {
        std::snprintf(msg, sizeof(msg), "fused vs reference max diff %.3g (max|out| %.3g)",
                ref_diff, peak);
        return msg;
    }
    return std::string();
}

std::string onednn_args(const row_t &r) {
    std::string a = "sdpa f32";
    for (int64_t x : {r.b, r.h, r.sq, r.skv, r.d}) a += " " + std::to_string(x);
    // oneDNN 2.6's primitives do the same work whatever the mask holds.
    return a + " " + (mask_tensor(r.mask) ? "pad" : mask_name(r.mask));
}

} // namespace

int main(int argc, char **argv) {
    int threads = 1, rounds = 2;
    double min_time = 0.3;
    std::string filter;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--threads" && i + 1 < argc) threads = std::atoi(argv[++i]);
        else if (a == "--min-time" && i + 1 < argc) min_time = std::atof(argv[++i]);
        else if (a == "--rounds" && i + 1 < argc) rounds = std::atoi(argv[++i]);
        else if (a == "--filter" && i + 1 < argc) filter = argv[++i];
        else {
            std::fprintf(stderr,
                    "usage: llga-bench-sdpa [--threads N] [--min-time S] "
                    "[--rounds R] [--filter SUBSTR]\n");
            return 2;
        }
    }
    rounds = std::max(1, rounds);
    tbb::global_control cap(tbb::global_control::max_allowed_parallelism,
            static_cast<size_t>(std::max(1, threads)));
    set_constant_tensor_cache_capacity(engine::kind::cpu, 4096);
    std::printf("%d thread(s); f32 SDPA; ms per run (best of the timed runs); "
                "fused = fusion policy, 1-op = debug policy; GFLOP/s = "
                "4*B*H*Sq*Skv*D / fused time\n",
            threads);
    std::printf("%-24s %-18s %-8s %9s %8s %9s %7s %11s %9s  %-12s %s\n", "graph",
            "B,H,Sq,Skv,D", "mask", "fused ms", "GFLOP/s", "1-op ms", "fusion",
            "oneDNN GF/s", "vs oneDNN", "partitions", "check");
    double log_gain = 0, log_1d = 0;
    int n_rows = 0, n_1d = 0, failures = 0;
    for (const row_t &r : k_rows) {
        if (!filter.empty() && std::string(r.name).find(filter) == std::string::npos)
            continue;
        char shape[64];
        std::snprintf(shape, sizeof(shape), "%lld,%lld,%lld,%lld,%lld",
                (long long)r.b, (long long)r.h, (long long)r.sq,
                (long long)r.skv, (long long)r.d);
        try {
            sdpa_t s(r);
            run_t fused(s, partition::policy::fusion);
            run_t split_run(s, partition::policy::debug);
            fused.once();
            split_run.once();
            const std::string bad = check(s, fused.out(), split_run.out());
            double f = 1e30, sp = 1e30, o = -1;
            for (int k = 0; k < rounds; ++k) {
                f = std::min(f, fused.best_ms(min_time));
                sp = std::min(sp, split_run.best_ms(min_time));
                o = std::max(o,
                        llga_bench::onednn_gflops(onednn_args(r), threads, min_time));
            }
            const double gf = gflop(r) / (f * 1e-3);
            log_gain += std::log(sp / f);
            ++n_rows;
            char ob[32] = "-", vs[32] = "-";
            if (o > 0) {
                std::snprintf(ob, sizeof(ob), "%.1f", o);
                std::snprintf(vs, sizeof(vs), "%.2fx", gf / o);
                log_1d += std::log(gf / o);
                ++n_1d;
            }
            std::printf("%-24s %-18s %-8s %9.3f %8.1f %9.3f %6.2fx %11s %9s  %-12s %s\n",
                    r.name, shape, mask_name(r.mask), f, gf, sp, sp / f, ob, vs,
                    fused.formed.c_str(),
                    bad.empty() ? "ok" : ("MISMATCH: " + bad).c_str());
            if (!bad.empty()) ++failures;
        } catch (const std::exception &e) {
            std::printf("%-24s %-18s %-8s FAILED: %s\n", r.name, shape,
                    mask_name(r.mask), e.what());
            ++failures;
        }
        std::fflush(stdout);
    }
    if (n_rows) {
        std::printf("geomean fusion speed-up %.2fx", std::exp(log_gain / n_rows));
        if (n_1d)
            std::printf(", fused vs oneDNN 2.6 %.2fx (%d rows)",
                    std::exp(log_1d / n_1d), n_1d);
        std::printf("\n");
    }
    if (failures) std::printf("%d row(s) failed\n", failures);
    return failures ? 1 : 0;
}
