// SPDX-License-Identifier: Apache-2.0
// tools/bench/bench_gemm.cpp — llga-bench-gemm: MatMul throughput through
// the public C++ API (compile once, execute many times) on a shape panel,
// each row's result checked on 64 sampled outputs (a wrong row is flagged
// and the exit status is 1),
// next to this machine's measured FMA peak (a JIT loop of independent FMAs
// on one thread and on all threads) and OpenBLAS cblas_sgemm measured in the
// same run (loaded with dlopen; its column is skipped when absent).
//
// The LLM rows (M in {1, 16, 128}, K = 4096, N in {4096, 11008}) run twice:
// "llm" reads the weights from the user's buffer on every call, "llm-c"
// marks them constant so the library packs them once (prepack_b) and keeps
// them in the constant tensor cache, which this program enables (the
// library default, as in oneDNN, is off). The oneDNN comparator runs each
// row in the same regime: plain row-major weights on every call for
// non-constant rows, weights reordered once into its preferred layout for
// constant rows.
//
//   llga-bench-gemm [--big] [--narrow] [--threads N] [--min-time S]
//     --big      add the 4096^3 square GEMM
//     --narrow   leave out the LLM rows with N = 11008
//     --no-const leave out the constant-weight LLM rows
//     --no-cache leave the constant tensor cache off (constant rows then
//                pack their weights on every call, as non-constant ones do)
//     --fixed-peak  rate rows against the start-up peak only (default:
//                the peak is re-measured after llga in every round of a
//                row and the largest is used, since other load on the
//                machine changes what one core can do)
//     --cpu-time time 1-thread rows with the thread's CPU clock (robust to
//                other processes taking the core; not to cache sharing)
//     --threads  all-thread count (default: hardware concurrency)
//     --min-time seconds of timed runs per row and round (default 0.25)
//     --rounds   rounds per row (default 2): llga, OpenBLAS and oneDNN are
//                timed in turn, and each side keeps its best round
//     --shape MxNxK[t][c]  run only this shape (repeatable; t: weights
//                stored [N, K] with transpose_b; c: constant weights)
//     --dt f32|bf16  run only this type
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <asmjit/x86.h>
#include <tbb/global_control.h>

#include "onednn_comparator.hpp"
#include "peak.hpp"
#include "sample_check.hpp"

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

// --cpu-time: 1-thread rows are timed with the calling thread's CPU clock,
// which does not run while the thread is descheduled (a shared machine);
// such rows take the 5th percentile of the runs (llga_bench::best_ms).
bool g_cpu_time = false;
double thread_cpu_s() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// The peak loops live in peak.cpp (shared by the benchmarks).
using llga_bench::measure_peak;
using llga_bench::peak_fn_t;
using llga_bench::peak_loop_t;

// ---- OpenBLAS through dlopen -----------------------------------------------

using sgemm_fn_t = void (*)(int order, int ta, int tb, int M, int N, int K,
        float alpha, const float *A, int lda, const float *B, int ldb,
        float beta, float *C, int ldc);
using set_threads_fn_t = void (*)(int);

struct openblas_t {
    sgemm_fn_t sgemm = nullptr;
    set_threads_fn_t set_threads = nullptr;
    bool load() {
        for (const char *name : {"libopenblas.so.0", "libopenblas.so"}) {
            void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
            if (!h) continue;
            sgemm = reinterpret_cast<sgemm_fn_t>(dlsym(h, "cblas_sgemm"));
            set_threads = reinterpret_cast<set_threads_fn_t>(
                    dlsym(h, "openblas_set_num_threads"));
            if (sgemm) return true;
        }
        return false;
    }
};

// ---- timing ----------------------------------------------------------------

struct timing_t {
    double min_ms = 0, med_ms = 0;
};

template <typename F>
timing_t time_it(F &&run, double min_time, bool cpu = false) {
    run(); // warm-up: first touch, caches, thread pool
    std::vector<double> ts;
    const double start = now_s();
    while ((now_s() - start < min_time || ts.size() < 3) && ts.size() < 20000) {
        const double t0 = cpu ? thread_cpu_s() : now_s();
        run();
        ts.push_back(((cpu ? thread_cpu_s() : now_s()) - t0) * 1e3);
    }
    const double best = llga_bench::best_ms(ts, cpu); // sorts ts
    return {best, ts[ts.size() / 2]};
}

uint16_t to_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u += 0x7fff + ((u >> 16) & 1);
    return static_cast<uint16_t>(u >> 16);
}

struct shape_t {
    int64_t M, N, K;
    const char *label;
    bool const_b = false; // weights marked constant (packed once)
    bool trans_b = false; // weights stored [N, K] (transpose_b)
};

// One MatMul partition compiled through the public API, ready to run.
struct llga_gemm_t {
    engine eng {engine::kind::cpu, 0};
    stream strm {eng};
    compiled_partition cp;
    std::vector<tensor> ins, outs;
    std::vector<char> a, b, c;

    llga_gemm_t(const shape_t &s, bool bf16) {
        const dt t = bf16 ? dt::bf16 : dt::f32;
        logical_tensor la(0, t, dims {s.M, s.K}, layout::strided);
        logical_tensor lb(1, t,
                s.trans_b ? dims {s.N, s.K} : dims {s.K, s.N}, layout::strided,
                s.const_b ? logical_tensor::property_type::constant
                          : logical_tensor::property_type::undef);
        logical_tensor lc(2, t, dims {s.M, s.N}, layout::strided);
        op mm(0, op::kind::MatMul, {la, lb}, {lc}, "mm");
        if (s.trans_b) mm.set_attr<bool>(op::attr::transpose_b, true);
        graph g(engine::kind::cpu);
        g.add_op(mm);
        g.finalize();
        auto parts = g.get_partitions();
        cp = parts.at(0).compile({la, lb}, {lc}, eng);
        const size_t es = bf16 ? 2 : 4;
        a.resize(s.M * s.K * es);
        b.resize(s.K * s.N * es);
        c.resize(s.M * s.N * es);
        std::mt19937 gen(1);
        std::uniform_real_distribution<float> u(-1.f, 1.f);
        auto fill = [&](std::vector<char> &v) {
            for (size_t i = 0; i < v.size() / es; ++i) {
                const float x = u(gen);
                if (bf16) {
                    const uint16_t h = to_bf16(x);
                    std::memcpy(v.data() + 2 * i, &h, 2);
                } else {
                    std::memcpy(v.data() + 4 * i, &x, 4);
                }
            }
        };
        fill(a);
        fill(b);
        ins = {tensor(la, eng, a.data()), tensor(lb, eng, b.data())};
        outs = {tensor(lc, eng, c.data())};
    }
    void run() {
        cp.execute(strm, ins, outs);
        strm.wait();
    }

    // Checks `samples` outputs of the last run against dot products in
    // double: |got - want| <= 1e-5 * sum |terms| (+ 2^-8 |want| for a bf16
    // result). Returns the failures.
    int check(const shape_t &s, bool bf16, int samples) const {
        auto val = [&](const std::vector<char> &v, int64_t i) -> double {
            if (!bf16) {
                float f;
                std::memcpy(&f, v.data() + 4 * i, 4);
                return f;
            }
            uint16_t h;
            std::memcpy(&h, v.data() + 2 * i, 2);
            const uint32_t u = static_cast<uint32_t>(h) << 16;
            float f;
            std::memcpy(&f, &u, 4);
            return f;
        };
        std::mt19937_64 gen(3);
        int bad = 0;
        for (int t = 0; t < samples; ++t) {
            const int64_t m = static_cast<int64_t>(gen() % s.M),
                          n = static_cast<int64_t>(gen() % s.N);
            double want = 0, mag = 0;
            for (int64_t k = 0; k < s.K; ++k) {
                const double x = val(a, m * s.K + k)
                        * val(b, s.trans_b ? n * s.K + k : k * s.N + n);
                want += x;
                mag += std::fabs(x);
            }
            const double got = val(c, m * s.N + n);
            const double tol
                    = 1e-5 * mag + (bf16 ? std::fabs(want) / 256 : 0) + 1e-30;
            if (!(std::fabs(got - want) <= tol)) ++bad;
        }
        return bad;
    }
};

} // namespace

int main(int argc, char **argv) {
    int bad_rows = 0;
    bool big = false, wide = true, with_const = true, fixed_peak = false;
    bool use_cache = true;
    int nthr = static_cast<int>(std::thread::hardware_concurrency());
    double min_time = 0.25;
    int rounds = 2;
    std::vector<shape_t> only;
    std::string only_dt;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--big")
            big = true;
        else if (arg == "--wide")
            wide = true;
        else if (arg == "--narrow")
            wide = false;
        else if (arg == "--no-const")
            with_const = false;
        else if (arg == "--no-cache")
            use_cache = false;
        else if (arg == "--fixed-peak")
            fixed_peak = true;
        else if (arg == "--cpu-time")
            g_cpu_time = true;
        else if (arg == "--threads" && i + 1 < argc)
            nthr = std::max(1, std::atoi(argv[++i]));
        else if (arg == "--min-time" && i + 1 < argc)
            min_time = std::atof(argv[++i]);
        else if (arg == "--rounds" && i + 1 < argc)
            rounds = std::max(1, std::atoi(argv[++i]));
        else if (arg == "--dt" && i + 1 < argc)
            only_dt = argv[++i];
        else if (arg == "--shape" && i + 1 < argc) {
            long long m = 0, n = 0, k = 0;
            if (std::sscanf(argv[++i], "%lldx%lldx%lld", &m, &n, &k) != 3
                    || m <= 0 || n <= 0 || k <= 0) {
                std::fprintf(stderr, "bad --shape %s (want MxNxK)\n", argv[i]);
                return 2;
            }
            // Suffixes: 'c' marks the weights constant, 't' stores them
            // transposed ([N, K], transpose_b), e.g. 1x4096x4096tc.
            const std::string sfx = argv[i] + std::strspn(argv[i], "0123456789x");
            const bool c = sfx.find('c') != std::string::npos;
            const bool tb = sfx.find('t') != std::string::npos;
            only.push_back({m, n, k,
                    tb ? (c ? "custom-tc" : "custom-t")
                       : (c ? "custom-c" : "custom"),
                    c, tb});
        }
        else {
            std::fprintf(stderr,
                    "usage: %s [--big] [--narrow] [--no-const] [--no-cache] [--fixed-peak] [--cpu-time] [--threads N] "
                    "[--min-time S] [--rounds R] [--shape MxNxK]... [--dt f32|bf16]\n",
                    argv[0]);
            return 2;
        }
    }

    // Peak of the widest FMA this host and ONEDNN_MAX_CPU_ISA allow.
    const auto &f = asmjit::CpuInfo::host().features().x86();
    const char *max_isa = std::getenv("ONEDNN_MAX_CPU_ISA");
    const bool capped = max_isa && std::strncmp(max_isa, "AVX512", 6) != 0
            && std::strncmp(max_isa, "avx512", 6) != 0
            && std::strcmp(max_isa, "DEFAULT") != 0
            && std::strcmp(max_isa, "default") != 0;
    const bool zmm = f.hasAVX512_F() && !capped;
    const bool has_bf16 = zmm && f.hasAVX512_BF16();
    peak_fn_t pf = llga_bench::make_peak_loop(peak_loop_t::fma, zmm);
    peak_fn_t pb = has_bf16 ? llga_bench::make_peak_loop(peak_loop_t::dpbf16, true)
                            : nullptr;
    const double fpi = llga_bench::peak_ops_per_iter(peak_loop_t::fma, zmm);
    const int64_t k_iters = 20000000;
    const double peak1 = measure_peak(pf, 1, fpi, k_iters);
    const double peakN = measure_peak(pf, nthr, fpi, k_iters);
    const double bpeak1 = pb ? measure_peak(pb, 1, fpi * 2, k_iters) : 0;
    const double bpeakN = pb ? measure_peak(pb, nthr, fpi * 2, k_iters) : 0;
    // bf16 rows use AMX when the host has it (and the max ISA allows it).
    const bool amx_ok = has_bf16 && f.hasAMX_BF16()
            && !(max_isa && std::strstr(max_isa, "AMX") == nullptr
                    && std::strstr(max_isa, "amx") == nullptr
                    && std::strcmp(max_isa, "DEFAULT") != 0
                    && std::strcmp(max_isa, "default") != 0);
    peak_fn_t pamx = amx_ok ? llga_bench::make_peak_loop(peak_loop_t::amx_bf16, true)
                            : nullptr;
    const double amx_fpi = llga_bench::peak_ops_per_iter(peak_loop_t::amx_bf16, true);
    const double apeak1 = pamx ? measure_peak(pamx, 1, amx_fpi, 2000000) : 0;
    const double apeakN
            = pamx ? measure_peak(pamx, nthr, amx_fpi, 2000000) : 0;
    std::printf("llga-bench-gemm: measured peak (JIT %s loop): f32 %.1f "
                "GFLOP/s on 1 thread, %.1f on %d threads",
            zmm ? "zmm FMA" : "ymm FMA", peak1, peakN, nthr);
    if (pb)
        std::printf("; bf16 vdpbf16ps %.1f / %.1f", bpeak1, bpeakN);
    if (pamx) std::printf("; bf16 AMX tdpbf16ps %.1f / %.1f", apeak1, apeakN);
    std::printf("\n");

    set_constant_tensor_cache_capacity(engine::kind::cpu, use_cache ? 4096 : 0);

    // Without AVX512-BF16 the bf16 rows run on the f32 FMAs (the weights
    // widened as they are read or packed), and are rated against them.
    if (!has_bf16 && only_dt != "f32")
        std::printf("bf16 rows: this host has no AVX512-BF16; they run on "
                    "f32 FMAs (%%peak against the FMA loop)\n");
    openblas_t ob;
    const bool have_ob = ob.load();
    std::printf("comparator: %s\n",
            have_ob ? "OpenBLAS cblas_sgemm (f32; also the reference for "
                      "bf16 rows)"
                    : "OpenBLAS not found (column skipped)");

    const bool have_dnnl = llga_bench::onednn_comparator_available();
    std::printf("comparator: %s\n",
            have_dnnl ? "oneDNN 2.6 matmul primitive (llga-bench-onednn; "
                        "constant rows: weights prepacked in its preferred "
                        "layout, other rows: plain weights)"
                      : "oneDNN 2.6 comparator not built (libdnnl-dev "
                        "missing; column skipped)");
    double log_vs_dnnl = 0;
    int n_vs_dnnl = 0;

    std::vector<shape_t> shapes = {{256, 256, 256, "square"},
            {512, 512, 512, "square"}, {1024, 1024, 1024, "square"},
            {2048, 2048, 2048, "square"}};
    if (big) shapes.push_back({4096, 4096, 4096, "square"});
    for (bool c : {false, true}) {
        if (c && !with_const) continue;
        for (int64_t m : {1, 16, 128}) {
            shapes.push_back({m, 4096, 4096, c ? "llm-c" : "llm", c});
            if (wide) shapes.push_back({m, 11008, 4096, c ? "llm-c" : "llm", c});
        }
    }
    if (!only.empty()) shapes = only;

    std::printf("\n%-6s %-20s %-5s %3s %9s %9s %9s %7s %10s %7s %10s %7s\n",
            "kind", "MxNxK", "dt", "thr", "min ms", "med ms", "GFLOP/s",
            "%peak", "OB GFLOP/s", "vs OB", "1D GFLOP/s", "vs 1D");
    for (const shape_t &s : shapes)
        for (bool bf16 : {false, true}) {
            if (!only_dt.empty() && only_dt != (bf16 ? "bf16" : "f32"))
                continue;
            llga_gemm_t g(s, bf16);
            std::vector<float> fa, fb, fc;
            if (have_ob) {
                fa.assign(s.M * s.K, 0.5f);
                fb.assign(s.K * s.N, 0.25f);
                fc.assign(s.M * s.N, 0.f);
            }
            for (int thr : {1, nthr}) {
                if (thr == nthr && nthr == 1 && thr != 1) continue;
                const double flops = 2.0 * s.M * s.N * s.K;
                char dnnl_args[96];
                std::snprintf(dnnl_args, sizeof(dnnl_args),
                        "%s %s %lld %lld %lld",
                        s.const_b && use_cache ? "matmul" : "matmul-plain",
                        bf16 ? "bf16" : "f32", (long long)s.M, (long long)s.N,
                        (long long)s.K);
                // Rounds alternate llga and the comparators, and each keeps
                // its best: on a shared machine the speed of a core (and of
                // its AMX unit) changes over seconds, and one round each
                // could put the two sides in different states.
                timing_t t;
                t.min_ms = 1e30;
                double og = 0, dg = -1;
                // The machine may be shared: unless --fixed-peak is given,
                // the peak is measured again right after llga in every
                // round (short loop, best of 3), and the row is rated
                // against the largest of those, as its time is the best.
                const bool on_fma = !bf16 || !pb;
                double peak = on_fma ? (thr == 1 ? peak1 : peakN)
                        : pamx       ? (thr == 1 ? apeak1 : apeakN)
                                     : (thr == 1 ? bpeak1 : bpeakN);
                if (!fixed_peak) peak = 0;
                for (int r = 0; r < rounds; ++r) {
                    {
                        tbb::global_control gc(
                                tbb::global_control::max_allowed_parallelism,
                                thr);
                        const timing_t tr = time_it([&] { g.run(); },
                                min_time, g_cpu_time && thr == 1);
                        if (tr.min_ms < t.min_ms) t = tr;
                    }
                    if (!fixed_peak) {
                        peak_fn_t fn = on_fma ? pf : pamx ? pamx : pb;
                        const double fl
                                = on_fma ? fpi : pamx ? amx_fpi : fpi * 2;
                        peak = std::max(peak,
                                measure_peak(fn, thr, fl,
                                        pamx && bf16 ? 200000 : 2000000));
                    }
                    if (have_ob) {
                        ob.set_threads(thr);
                        const timing_t to = time_it(
                                [&] {
                                    ob.sgemm(101, 111, s.trans_b ? 112 : 111,
                                            int(s.M), int(s.N), int(s.K), 1.f,
                                            fa.data(), int(s.K), fb.data(),
                                            int(s.trans_b ? s.K : s.N), 0.f,
                                            fc.data(), int(s.N));
                                },
                                min_time, g_cpu_time && thr == 1);
                        og = std::max(og, flops / (to.min_ms * 1e-3) * 1e-9);
                        // OpenBLAS worker threads spin for a while after a
                        // call; let them go to sleep before our next run.
                        std::this_thread::sleep_for(
                                std::chrono::milliseconds(300));
                    }
                    if (have_dnnl && !s.trans_b)
                        dg = std::max(dg,
                                llga_bench::onednn_gflops(
                                        dnnl_args, thr, min_time));
                }
                const double gf = flops / (t.min_ms * 1e-3) * 1e-9;
                char dims_s[64];
                std::snprintf(dims_s, sizeof(dims_s), "%lldx%lldx%lld",
                        (long long)s.M, (long long)s.N, (long long)s.K);
                std::printf("%-6s %-20s %-5s %3d %9.3f %9.3f %9.1f %6.1f%%",
                        s.label, dims_s, bf16 ? "bf16" : "f32", thr, t.min_ms,
                        t.med_ms, gf, 100.0 * gf / peak);
                if (have_ob)
                    std::printf(" %10.1f %6.2fx", og, gf / og);
                else
                    std::printf(" %10s %7s", "-", "-");
                if (dg > 0) {
                    std::printf(" %10.1f %6.2fx", dg, gf / dg);
                    log_vs_dnnl += std::log(gf / dg);
                    ++n_vs_dnnl;
                }
                const int bad = g.check(s, bf16, llga_bench::k_check_samples);
                if (bad) {
                    ++bad_rows;
                    std::printf("  WRONG: %d of %d sampled outputs", bad,
                            llga_bench::k_check_samples);
                }
                std::printf("\n");
                std::fflush(stdout);
                if (nthr == 1) break;
            }
        }
    if (n_vs_dnnl > 0)
        std::printf("\ngeometric mean of llga / oneDNN 2.6 over %d rows: %.2fx\n",
                n_vs_dnnl, std::exp(log_vs_dnnl / n_vs_dnnl));
    std::printf("\nGFLOP/s and %%peak use the min time (5th percentile "
                "with --cpu-time); %%peak is against "
                "the measured peak of the unit the row uses (f32: FMA; bf16: "
                "%s) at the same thread count, %s.\n",
            pamx ? "AMX" : pb ? "vdpbf16ps" : "FMA too, no vdpbf16ps here",
            fixed_peak ? "measured at start-up"
                       : "re-measured after llga in each round (the largest)");
    return llga_bench::report_checks(bad_rows, "dot products");
}
