// SPDX-License-Identifier: Apache-2.0
// tools/bench/bench_norm.cpp — llga-bench-norm: SoftMax, LogSoftmax,
// LayerNorm / GroupNorm and data-movement (transpose, reorder, reshape,
// concat) throughput through the public C++ API (compile once, execute
// many times), as GB/s of tensor traffic (src read + dst written) next to a
// memcpy of the same bytes. The kernel that ran is whatever the library
// picks: ONEDNN_MAX_CPU_ISA=avx2 gives the AVX2 kernels, =sse41 the
// reference backend.
//
//   llga-bench-norm [--threads N] [--min-time S]
//     --threads  oneTBB thread cap (default 1: the rows are per-thread
//                bandwidth numbers)
//     --min-time seconds of timed runs per row (default 0.3)
//     --row K    run only row K of the panel (0-based; repeatable)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <tbb/global_control.h>

#include "oneapi/dnnl/dnnl_graph.hpp"

using namespace dnnl::graph;
using dt = logical_tensor::data_type;
using layout = logical_tensor::layout_type;
using dims = logical_tensor::dims;

namespace {

double now_s() {
    return std::chrono::duration<double>(
            std::chrono::steady_clock::now().time_since_epoch())
            .count();
}

// Median-free but robust enough: runs f until min_time has passed (after
// one warm-up call) and returns the best per-call time of 5 batches.
template <typename F>
double time_it(F f, double min_time) {
    f();
    double best = 1e30;
    for (int b = 0; b < 5; ++b) {
        int n = 0;
        const double t0 = now_s();
        double t = 0;
        do {
            f();
            ++n;
            t = now_s() - t0;
        } while (t < min_time / 5);
        best = std::min(best, t / n);
    }
    return best;
}

size_t dt_size(dt t) { return t == dt::f32 ? 4 : 2; }

struct row_t {
    const char *op; // "softmax", "logsoftmax", "layernorm", "groupnorm"
    dims shape;
    int64_t axis;
    dt type;
};

// Times the compiled partition and a memcpy of the same bytes (`a` to
// `b`: the inputs' and the output's buffers) and prints the row.
void time_and_print(const char *op, const dims &shape, const std::string &axis,
        dt type, compiled_partition &cp, stream &strm,
        const std::vector<tensor> &ti, const std::vector<tensor> &to,
        const std::vector<char> &a, std::vector<char> &b, double min_time) {
    const size_t bytes = b.size();
    const double t = time_it(
            [&] {
                cp.execute(strm, ti, to);
                strm.wait();
            },
            min_time);
    const double tm = time_it(
            [&] { std::memcpy(b.data(), a.data(), bytes); }, min_time);
    std::string sh;
    for (auto d : shape)
        sh += (sh.empty() ? "" : "x") + std::to_string(d);
    const double gbs = 2.0 * bytes / t / 1e9, mgbs = 2.0 * bytes / tm / 1e9;
    std::printf("%-10s %-14s %4s %-4s %10.2f %8.2f %8.2f %6.2f\n", op,
            sh.c_str(), axis.c_str(),
            type == dt::f32 ? "f32" : type == dt::bf16 ? "bf16" : "f16",
            t * 1e6, gbs, mgbs, gbs / mgbs);
}

void run_row(const row_t &r, double min_time) {
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    logical_tensor src(0, r.type, r.shape, layout::strided);
    logical_tensor dst(1, r.type, r.shape, layout::strided);
    std::vector<logical_tensor> ins = {src}, outs = {dst};
    int64_t n = 1;
    for (auto d : r.shape)
        n *= d;
    const int64_t last = r.shape.back();
    const std::string name = r.op;
    op::kind k = name == "softmax" ? op::kind::SoftMax
            : name == "logsoftmax" ? op::kind::LogSoftmax
            : name == "groupnorm"  ? op::kind::GroupNorm
                                   : op::kind::LayerNorm;
    // GroupNorm rows are NXC (the op's default): channels last, and `axis`
    // holds the group count.
    const bool norm = k == op::kind::LayerNorm || k == op::kind::GroupNorm;
    logical_tensor gamma(2, dt::f32, dims {last}, layout::strided);
    logical_tensor beta(3, dt::f32, dims {last}, layout::strided);
    if (norm) {
        ins.push_back(gamma);
        ins.push_back(beta);
    }
    op o(0, k, ins, outs, "op");
    if (norm)
        o.set_attr<bool>(op::attr::keep_stats, false);
    if (k == op::kind::GroupNorm)
        o.set_attr<int64_t>(op::attr::groups, r.axis);
    else if (!norm)
        o.set_attr<int64_t>(op::attr::axis, r.axis);
    graph g(engine::kind::cpu);
    g.add_op(o);
    g.finalize();
    compiled_partition cp = g.get_partitions().at(0).compile(ins, outs, eng);

    const size_t bytes = static_cast<size_t>(n) * dt_size(r.type);
    std::vector<char> a(bytes), b(bytes);
    std::vector<float> gv(static_cast<size_t>(last), 1.f),
            bv(static_cast<size_t>(last), 0.f);
    std::mt19937 gen(1);
    std::uniform_int_distribution<int> u(0x3c00, 0x3f00); // f16/bf16-ish
    for (size_t i = 0; i + 1 < bytes; i += 2) {
        const uint16_t h = static_cast<uint16_t>(u(gen));
        std::memcpy(&a[i], &h, 2);
    }
    if (r.type == dt::f32)
        for (size_t i = 0; i < bytes / 4; ++i) {
            const float x = static_cast<float>(i % 97) * 0.1f - 4.f;
            std::memcpy(&a[i * 4], &x, 4);
        }
    std::vector<tensor> ti = {tensor(src, eng, a.data())};
    if (norm) {
        ti.emplace_back(gamma, eng, gv.data());
        ti.emplace_back(beta, eng, bv.data());
    }
    std::vector<tensor> to = {tensor(dst, eng, b.data())};
    time_and_print(r.op, r.shape, std::to_string(r.axis), r.type, cp, strm,
            ti, to, a, b, min_time);
}

// Data movement rows: StaticTranspose swapping dims 1 and 2 (attention's
// [B, S, H, D] -> [B, H, S, D]), Reorder to channel-last, StaticReshape
// merging the last two dims, Concat of two halves along dim 1.
void run_movement_row(const char *what, const dims &shape, dt type,
        double min_time) {
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    const std::string name = what;
    int64_t n = 1;
    for (auto d : shape)
        n *= d;
    const size_t bytes = static_cast<size_t>(n) * dt_size(type);
    dims out_shape = shape;
    std::vector<logical_tensor> ins, outs;
    op::kind k = op::kind::Reorder;
    if (name == "concat") {
        dims half = shape;
        half[1] /= 2;
        ins = {logical_tensor(0, type, half, layout::strided),
                logical_tensor(1, type, half, layout::strided)};
        k = op::kind::Concat;
    } else {
        ins = {logical_tensor(0, type, shape, layout::strided)};
    }
    if (name == "transpose") {
        std::swap(out_shape[1], out_shape[2]);
        k = op::kind::StaticTranspose;
    } else if (name == "reshape") {
        out_shape.pop_back();
        out_shape.back() *= shape.back();
        k = op::kind::StaticReshape;
    }
    if (name == "reorder") {
        // NCHW -> NHWC strides.
        const int64_t c = shape[1], h = shape[2], w = shape[3];
        outs = {logical_tensor(2, type, out_shape,
                dims {c * h * w, 1, w * c, c})};
    } else {
        outs = {logical_tensor(2, type, out_shape, layout::strided)};
    }
    op o(0, k, ins, outs, "op");
    if (k == op::kind::StaticTranspose) {
        std::vector<int64_t> order(shape.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = static_cast<int64_t>(i);
        std::swap(order[1], order[2]);
        o.set_attr<std::vector<int64_t>>(op::attr::order, order);
    } else if (k == op::kind::StaticReshape) {
        o.set_attr<std::vector<int64_t>>(op::attr::shape, out_shape);
        o.set_attr<bool>(op::attr::special_zero, false);
    } else if (k == op::kind::Concat) {
        o.set_attr<int64_t>(op::attr::axis, 1);
    }
    graph g(engine::kind::cpu);
    g.add_op(o);
    g.finalize();
    compiled_partition cp = g.get_partitions().at(0).compile(ins, outs, eng);
    std::vector<char> a(bytes, 1), b(bytes, 0);
    std::vector<tensor> ti;
    size_t at = 0;
    for (const auto &lt : ins) {
        ti.emplace_back(lt, eng, a.data() + at);
        at += lt.get_mem_size();
    }
    std::vector<tensor> to = {tensor(outs[0], eng, b.data())};
    time_and_print(what, shape, "-", type, cp, strm, ti, to, a, b, min_time);
}

bool wanted(const std::vector<int> &only, int row) {
    return only.empty()
            || std::find(only.begin(), only.end(), row) != only.end();
}

} // namespace

int main(int argc, char **argv) {
    int threads = 1;
    double min_time = 0.3;
    std::vector<int> only; // empty: every row
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--threads" && i + 1 < argc)
            threads = std::atoi(argv[++i]);
        else if (a == "--min-time" && i + 1 < argc)
            min_time = std::atof(argv[++i]);
        else if (a == "--row" && i + 1 < argc)
            only.push_back(std::atoi(argv[++i]));
        else {
            std::fprintf(stderr,
                    "usage: llga-bench-norm [--threads N] [--min-time S] "
                    "[--row K]\n");
            return 1;
        }
    }
    tbb::global_control gc(tbb::global_control::max_allowed_parallelism,
            static_cast<size_t>(std::max(1, threads)));
    const row_t rows[] = {
            {"softmax", {512, 128}, -1, dt::f32},
            {"softmax", {128, 1024}, -1, dt::f32},
            {"softmax", {32, 4096}, -1, dt::f32},
            {"softmax", {128, 1024}, -1, dt::bf16},
            {"softmax", {128, 1024}, -1, dt::f16},
            {"softmax", {8, 64, 1024}, 1, dt::f32},
            {"logsoftmax", {128, 1024}, -1, dt::f32},
            {"layernorm", {256, 768}, -1, dt::f32},
            {"layernorm", {64, 4096}, -1, dt::f32},
            {"layernorm", {256, 768}, -1, dt::bf16},
            {"groupnorm", {1, 32, 32, 320}, 32, dt::f32},
            {"groupnorm", {1, 32, 32, 320}, 32, dt::bf16},
    };
    std::printf("threads %d; GB/s = (src + dst bytes) / time; memcpy moves "
                "the same bytes\n",
            threads);
    // For groupnorm the axis column is the group count.
    std::printf("%-10s %-14s %4s %-4s %10s %8s %8s %6s\n", "op", "shape",
            "axis", "dt", "time_us", "GB/s", "memcpy", "ratio");
    const int nrows = static_cast<int>(sizeof(rows) / sizeof(rows[0]));
    for (int i = 0; i < nrows; ++i)
        if (wanted(only, i)) run_row(rows[i], min_time);
    struct mrow_t {
        const char *what;
        dims shape;
        dt type;
    };
    const mrow_t mrows[] = {
            {"transpose", {8, 128, 16, 64}, dt::f32},
            {"transpose", {8, 128, 16, 64}, dt::bf16},
            {"reorder", {8, 64, 56, 56}, dt::f32},
            {"reshape", {8, 128, 16, 64}, dt::f32},
            {"concat", {8, 128, 56, 56}, dt::f32},
    };
    for (int i = 0; i < static_cast<int>(sizeof(mrows) / sizeof(mrows[0])); ++i)
        if (wanted(only, nrows + i))
            run_movement_row(mrows[i].what, mrows[i].shape, mrows[i].type,
                    min_time);
    return 0;
}
