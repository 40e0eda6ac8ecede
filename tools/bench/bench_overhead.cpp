// SPDX-License-Identifier: Apache-2.0
// tools/bench/bench_overhead.cpp — llga-bench-overhead: the fixed costs a
// framework pays around the kernels, next to oneDNN 2.6 measured in the same
// run (llga-bench-onednn "overhead", a child process). The rows:
//   - execute of a tiny ReLU partition (16 floats) and of a tiny Add, per
//     call: the cost of validating every tensor against its port (dtype,
//     shape, layout, engine, handle), dispatch and the stream, with almost
//     no real work;
//   - compile of MatMul + BiasAdd + ReLU 256x1024x1024 f32 (constant
//     weights): the first compile in the process, and the best of repeated
//     compiles with the compiled-partition cache disabled (both include the
//     JIT code generation; the comparator creates the matmul primitive with
//     the same post-ops, the first time and then with its primitive cache
//     off through DNNL_PRIMITIVE_CACHE_CAPACITY=0 in a second child);
//   - the same compile again with the cache on (a cache hit).
// With the compiled-partition cache off, llga still reuses generated code
// through its kernel cache (keyed by the kernel descriptor), so that row
// measures planning plus the kernel-cache lookup.
// Regressions in the per-call overhead and compile time show here rather
// than in kernel benchmarks, where they drown.
//
//   llga-bench-overhead [--threads N] [--calls C] [--rounds R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <tbb/global_control.h>

#include "oneapi/dnnl/dnnl_graph.hpp"
#include "onednn_comparator.hpp"

using namespace dnnl::graph;
using dt = logical_tensor::data_type;
using layout = logical_tensor::layout_type;
using prop = logical_tensor::property_type;
using dims = logical_tensor::dims;
using clock_type = std::chrono::steady_clock;

namespace {

double seconds_since(clock_type::time_point t0) {
    return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// Best per-call microseconds of a tiny one-op partition (ReLU, or Add of
// two tensors) over `rounds` batches of `calls` executes (the batch
// amortises the clock reads); -1 if the result is wrong.
double tiny_op_us(bool add, int calls, int rounds) {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);
    logical_tensor a_lt(0, dt::f32, dims {16}, layout::strided);
    logical_tensor b_lt(1, dt::f32, dims {16}, layout::strided);
    logical_tensor dst(2, dt::f32, dims {16}, layout::strided);
    graph g(dnnl::engine::kind::cpu);
    if (add)
        g.add_op(op(0, op::kind::Add, {a_lt, b_lt}, {dst}, "add"));
    else
        g.add_op(op(0, op::kind::ReLU, {a_lt}, {dst}, "relu"));
    g.finalize();
    std::vector<partition> parts = g.get_partitions();
    if (parts.size() != 1) return -1;
    std::vector<logical_tensor> ins {a_lt};
    if (add) ins.push_back(b_lt);
    compiled_partition cp = parts[0].compile(ins, {dst}, eng);
    std::vector<float> a(16, -1.f), b(16, 0.5f), d(16, 0.f);
    for (int i = 0; i < 16; i += 2) a[static_cast<size_t>(i)] = 1.f;
    tensor ta(a_lt, eng, a.data()), tb(b_lt, eng, b.data()), td(dst, eng, d.data());
    std::vector<tensor> tin {ta};
    if (add) tin.push_back(tb);
    double best = 1e30;
    for (int r = 0; r < rounds; ++r) {
        const auto t0 = clock_type::now();
        for (int i = 0; i < calls; ++i) cp.execute(strm, tin, {td});
        strm.wait();
        best = std::min(best, seconds_since(t0) / calls);
    }
    // The result proves the calls ran: +1/-1 alternating, through ReLU or
    // plus 0.5.
    for (int i = 0; i < 16; ++i) {
        const float x = i % 2 == 0 ? 1.f : -1.f;
        const float want = add ? x + 0.5f : (x > 0 ? x : 0.f);
        if (d[static_cast<size_t>(i)] != want) return -1;
    }
    return best * 1e6;
}

// The MatMul + BiasAdd + ReLU partition and its ports.
struct mlp_t {
    logical_tensor src {0, dt::f32, dims {256, 1024}, layout::strided};
    logical_tensor wei {1, dt::f32, dims {1024, 1024}, layout::strided, prop::constant};
    logical_tensor bia {2, dt::f32, dims {1024}, layout::strided, prop::constant};
    logical_tensor mm {3, dt::f32, dims {256, 1024}, layout::strided};
    logical_tensor ba {4, dt::f32, dims {256, 1024}, layout::strided};
    logical_tensor out {5, dt::f32, dims {256, 1024}, layout::strided};
    std::vector<partition> parts;

    mlp_t() {
        graph g(dnnl::engine::kind::cpu);
        g.add_op(op(0, op::kind::MatMul, {src, wei}, {mm}, "matmul"));
        g.add_op(op(1, op::kind::BiasAdd, {mm, bia}, {ba}, "bias"));
        g.add_op(op(2, op::kind::ReLU, {ba}, {out}, "relu"));
        g.finalize();
        parts = g.get_partitions();
    }
    double compile_ms(dnnl::engine &eng) {
        const auto t0 = clock_type::now();
        compiled_partition cp = parts[0].compile({src, wei, bia}, {out}, eng);
        return seconds_since(t0) * 1e3;
    }
};

// oneDNN 2.6's "overhead" line: exec_us create_first_ms create_again_ms.
bool onednn_overhead(int threads, const char *extra_env, double v[3]) {
    const std::string exe = llga_bench::onednn_comparator_path();
    if (exe.empty()) return false;
    const std::string cmd = "OMP_NUM_THREADS=" + std::to_string(threads)
            + " OMP_PROC_BIND=false " + extra_env + " " + exe
            + " overhead f32 2>/dev/null";
    FILE *p = popen(cmd.c_str(), "r");
    if (!p) return false;
    char line[256];
    bool ok = false;
    while (std::fgets(line, sizeof(line), p))
        if (std::sscanf(line, "overhead %lf %lf %lf", &v[0], &v[1], &v[2]) == 3)
            ok = true;
    pclose(p);
    return ok;
}

} // namespace

int main(int argc, char **argv) {
    int threads = 2, calls = 20000, rounds = 5;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--threads" && i + 1 < argc) threads = std::atoi(argv[++i]);
        else if (a == "--calls" && i + 1 < argc) calls = std::atoi(argv[++i]);
        else if (a == "--rounds" && i + 1 < argc) rounds = std::atoi(argv[++i]);
        else {
            std::fprintf(stderr,
                    "usage: llga-bench-overhead [--threads N] [--calls C] "
                    "[--rounds R]\n");
            return 2;
        }
    }
    calls = std::max(1, calls);
    rounds = std::max(1, rounds);
    tbb::global_control cap(tbb::global_control::max_allowed_parallelism,
            static_cast<size_t>(std::max(1, threads)));
    try {
        dnnl::engine eng(dnnl::engine::kind::cpu, 0);
        mlp_t mlp;
        if (mlp.parts.size() != 1) {
            std::fprintf(stderr, "MatMul+BiasAdd+ReLU formed %zu partitions\n",
                    mlp.parts.size());
            return 1;
        }
        // The very first compile of the process, cache empty.
        const double first = mlp.compile_ms(eng);
        // Cache hits.
        double again = 1e30;
        for (int r = 0; r < rounds; ++r) again = std::min(again, mlp.compile_ms(eng));
        // Cache off: every compile generates the kernel again.
        const int capacity = get_compiled_partition_cache_capacity();
        set_compiled_partition_cache_capacity(0);
        double uncached = 1e30;
        for (int r = 0; r < rounds; ++r)
            uncached = std::min(uncached, mlp.compile_ms(eng));
        set_compiled_partition_cache_capacity(capacity);
        const double exec_us = tiny_op_us(false, calls, rounds);
        const double add_us = tiny_op_us(true, calls, rounds);
        if (exec_us < 0 || add_us < 0) {
            std::fprintf(stderr, "a tiny partition gave a wrong result\n");
            return 1;
        }

        double d[3] = {-1, -1, -1}, d_off[3] = {-1, -1, -1};
        const bool have = onednn_overhead(threads, "", d);
        const bool have_off = onednn_overhead(
                threads, "DNNL_PRIMITIVE_CACHE_CAPACITY=0", d_off);
        auto col = [](bool ok, double v, const char *fmt) {
            static char buf[4][32];
            static int k = 0;
            char *b = buf[k++ % 4];
            if (ok) std::snprintf(b, 32, fmt, v);
            else std::snprintf(b, 32, "-");
            return b;
        };
        std::printf("%d thread(s); best of %d rounds; oneDNN = Debian's "
                    "oneDNN 2.6 primitives in a child process\n",
                threads, rounds);
        std::printf("%-52s %12s %12s %8s\n", "", "llga", "oneDNN 2.6", "ratio");
        auto row = [&](const char *name, double l, bool ok, double o,
                           const char *unit) {
            std::printf("%-52s %9.3f %-2s %9s %-2s %8s\n", name, l, unit,
                    col(ok, o, "%.3f"), unit, col(ok && o > 0, l / o, "%.2f"));
        };
        row("execute tiny ReLU (16 floats), per call", exec_us, have, d[0], "us");
        std::printf("%-52s %9.3f us %9s    %8s\n",
                "execute tiny Add (2 x 16 floats), per call", add_us, "-", "-");
        row("first compile MatMul+BiasAdd+ReLU 256x1024x1024", first, have,
                d[1], "ms");
        row("compile again, partition cache off (best)", uncached, have_off, d_off[2], "ms");
        row("compile again, cache hit (best)", again, have, d[2], "ms");
        std::printf("ratio = llga / oneDNN (below 1: llga faster)\n");
    } catch (const dnnl::error &e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
