// SPDX-License-Identifier: Apache-2.0
// tools/bench/bench_int8.cpp — llga-bench-int8: throughput of the int8 GEMM
// driver (gemm_int8_t, white-box: linked against the internal modules) on
// square and LLM shapes at each int8 ISA level the host has, 1 and N
// threads, next to the measured peak of the unit each row uses (a JIT loop
// of independent tdpbusd tiles for AMX, vpdpbusd for VNNI, vpmaddwd for
// AVX2) and our AMX bf16 GEMM (gemm::gemm_t) on the same shape, and oneDNN 2.6's int8 matmul
// (the same quantized MatMul: u8 x s8 -> the row's dst type, per-column
// scales, weights prepacked; tools/bench/onednn `matmul-q`, run in a child
// process right after the row) with the geometric mean of llga / oneDNN.
// f32 and s32 rows check 64 sampled outputs against exact integer sums (a
// wrong row is flagged and the exit status is 1).
//
//   llga-bench-int8 [--threads N] [--min-time S] [--rounds R] [--max-row-s S] [--all-isa]
//                   [--dst f32|s8|u8|s32|bf16] [--shape MxNxK]... [--no-bf16]
//                   [--isa LEVEL] [--no-prepack] [--no-onednn]
//     --threads  second thread count (default 2)
//     --rounds R rounds per row (default 2): this level, the bf16 GEMM and
//                oneDNN are timed in turn, each keeps its best round
//     --max-row-s  skip a shape on a level once one run is estimated to take
//                  longer than this (default 1.5 s)
//     --all-isa  add the ymm rows (AVX-VNNI, AVX2 without VNNI) on hosts
//                with AVX512-VNNI (without it they are the default)
//     --isa L    only level L (avx512_core_amx, avx512_core_vnni, avx2_vnni,
//                avx2)
//     --no-prepack  tasks pack B on every run (default: B is prepacked
//                   once, as the MatMul kernel does for constant weights)
//     --no-onednn   leave out the oneDNN 2.6 columns
//     --a8       A (u8) over 0..255 instead of 0..127. On AVX2 without
//                VNNI, panels whose bytes are all below 128 run the
//                vpmaddubsw kernels and the rest the exact 16-bit ones;
//                oneDNN's AVX2 int8 always uses vpmaddubsw (and its data
//                stays below 128)
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <asmjit/x86.h>
#include <tbb/global_control.h>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/gemm/gemm_driver.hpp"
#include "backends/cpu/kernels/gemm/int8/gemm_int8.hpp"
#include "runtime/threading/threading.hpp"
#include "onednn_comparator.hpp"
#include "peak.hpp"
#include "sample_check.hpp"

using namespace llga::cpu;
using namespace llga::cpu::gemm_int8;

namespace {

double now_s() {
    return std::chrono::duration<double>(
            std::chrono::steady_clock::now().time_since_epoch())
            .count();
}

// CPU time of the calling thread: on a shared machine it leaves out the
// time other processes had the core, so 1-thread rows stay comparable.
double thread_cpu_s() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// The peak loops live in peak.cpp (shared by the benchmarks); rates here
// use each thread's CPU time.
using llga_bench::peak_fn_t;
using llga_bench::peak_loop_t;
double measure_peak(peak_fn_t fn, int threads, double ops_per_iter,
        int64_t iters) {
    return llga_bench::measure_peak(fn, threads, ops_per_iter, iters, true, 3);
}

// Best time of one run (llga_bench::best_ms): thread CPU time when
// `cpu_time` (1 thread: the work runs on the calling thread), else wall time.
template <typename F>
double time_min_ms(F &&run, double min_time, bool cpu_time = false) {
    run(); // warm-up
    std::vector<double> ms;
    const double start = now_s();
    while ((now_s() - start < min_time || ms.size() < 3) && ms.size() < 20000) {
        const double t0 = cpu_time ? thread_cpu_s() : now_s();
        run();
        ms.push_back(((cpu_time ? thread_cpu_s() : now_s()) - t0) * 1e3);
    }
    return llga_bench::best_ms(ms, cpu_time);
}

// 64-byte aligned buffer: the packed B panels are read with whole-line
// tile and vector loads, as in the MatMul kernel's constant cache.
struct aligned_t {
    explicit aligned_t(size_t n)
        : p(static_cast<char *>(std::aligned_alloc(64, (n + 63) / 64 * 64))) {}
    ~aligned_t() { std::free(p); }
    aligned_t(const aligned_t &) = delete;
    aligned_t &operator=(const aligned_t &) = delete;
    char *data() const { return p; }
    char *p;
};

struct shape_t {
    int64_t M, N, K;
    const char *label;
};

bool parse_dst(const std::string &s, i8_dst_t *d) {
    for (i8_dst_t x : {i8_dst_t::f32, i8_dst_t::bf16, i8_dst_t::s32,
                 i8_dst_t::s8, i8_dst_t::u8})
        if (s == i8_dst_name(x)) {
            *d = x;
            return true;
        }
    return false;
}

// Our AMX bf16 GEMM on the same shape (GFLOP/s), B prepacked.
double bench_bf16(const shape_t &s, int thr, double min_time) {
    using namespace llga::cpu::gemm;
    gemm_desc_t d;
    d.kind = ukr_kind_t::bf16_amx;
    d.M = s.M;
    d.N = s.N;
    d.K = s.K;
    d.sam = s.K;
    d.sak = 1;
    d.sbk = s.N;
    d.sbn = 1;
    d.sdm = s.N;
    gemm_t g;
    if (g.init(d, thr) != dnnl_success) return 0;
    std::vector<uint16_t> a(s.M * s.K, 0x3f80), b(s.K * s.N, 0x3f00);
    std::vector<float> c(s.M * s.N);
    aligned_t pb(g.packed_b_bytes());
    g.prepack_b(b.data(), pb.data());
    tbb::global_control gc(tbb::global_control::max_allowed_parallelism, thr);
    const double ms = time_min_ms(
            [&] { g.execute(a.data(), b.data(), nullptr, c.data(), pb.data()); },
            min_time, thr == 1);
    return 2.0 * s.M * s.N * s.K / (ms * 1e-3) * 1e-9;
}

} // namespace

int main(int argc, char **argv) {
    int bad_rows = 0;
    int nthr = 2;
    double min_time = 0.3, max_row_s = 1.5;
    int rounds = 2;
    bool all_isa = false, with_bf16 = true, prepack = true, with_dnnl = true, a8 = false;
    isa_t only_isa = isa_t::isa_default;
    i8_dst_t dst = i8_dst_t::f32;
    std::vector<shape_t> only;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--threads" && i + 1 < argc)
            nthr = std::max(1, std::atoi(argv[++i]));
        else if (arg == "--min-time" && i + 1 < argc)
            min_time = std::atof(argv[++i]);
        else if (arg == "--rounds" && i + 1 < argc)
            rounds = std::max(1, std::atoi(argv[++i]));
        else if (arg == "--max-row-s" && i + 1 < argc)
            max_row_s = std::atof(argv[++i]);
        else if (arg == "--all-isa")
            all_isa = true;
        else if (arg == "--isa" && i + 1 < argc) {
            if (!parse_isa(argv[++i], &only_isa)) {
                std::fprintf(stderr, "bad --isa %s\n", argv[i]);
                return 2;
            }
        } else if (arg == "--no-prepack")
            prepack = false;
        else if (arg == "--no-bf16")
            with_bf16 = false;
        else if (arg == "--no-onednn")
            with_dnnl = false;
        else if (arg == "--a8")
            a8 = true;
        else if (arg == "--dst" && i + 1 < argc && parse_dst(argv[i + 1], &dst))
            ++i;
        else if (arg == "--shape" && i + 1 < argc) {
            long long m = 0, n = 0, k = 0;
            if (std::sscanf(argv[++i], "%lldx%lldx%lld", &m, &n, &k) != 3
                    || m <= 0 || n <= 0 || k <= 0) {
                std::fprintf(stderr, "bad --shape %s (want MxNxK)\n", argv[i]);
                return 2;
            }
            only.push_back({m, n, k, "custom"});
        } else {
            std::fprintf(stderr,
                    "usage: %s [--threads N] [--min-time S] [--rounds R] [--max-row-s S] "
                    "[--all-isa] [--isa LEVEL] [--no-bf16] [--no-prepack] "
                    "[--no-onednn] [--a8] "
                    "[--dst f32|bf16|s32|s8|u8] "
                    "[--shape MxNxK]...\n",
                    argv[0]);
            return 2;
        }
    }
    llga::rt::start_threading();

    std::vector<isa_t> levels;
    // By default the zmm levels, or without them the best ymm level;
    // --all-isa: every level; --isa: that one.
    bool ymm_shown = isa_available(isa_t::avx512_core_vnni);
    for (isa_t l : {isa_t::avx512_core_amx, isa_t::avx512_core_vnni,
                 isa_t::avx2_vnni, isa_t::avx2}) {
        if (!isa_available(l)) continue;
        const bool ymm = l == isa_t::avx2_vnni || l == isa_t::avx2;
        if (only_isa != isa_t::isa_default ? only_isa == l
                                           : all_isa || !ymm || !ymm_shown)
            levels.push_back(l);
        ymm_shown = ymm_shown || ymm;
    }
    if (levels.empty()) {
        std::printf("llga-bench-int8: no int8 ISA (needs avx2 or better)\n");
        return 0;
    }
    double peak[4][2] = {}; // [level][1 thread, nthr]
    peak_fn_t pfn[4] = {};
    double popi[4] = {};
    int64_t piters[4] = {};
    for (size_t l = 0; l < levels.size(); ++l) {
        peak_fn_t fn = nullptr;
        double opi = 0;
        int64_t iters = 20000000;
        if (levels[l] == isa_t::avx512_core_amx) {
            // The AMX permission: isa_available already asked for it.
            fn = llga_bench::make_peak_loop(peak_loop_t::amx_int8, true);
            opi = llga_bench::peak_ops_per_iter(peak_loop_t::amx_int8, true);
            iters = 2000000;
        } else if (levels[l] == isa_t::avx2) {
            fn = llga_bench::make_peak_loop(peak_loop_t::pmaddwd, false);
            opi = llga_bench::peak_ops_per_iter(peak_loop_t::pmaddwd, false);
        } else {
            const bool z = levels[l] == isa_t::avx512_core_vnni;
            fn = llga_bench::make_peak_loop(peak_loop_t::vnni, z);
            opi = llga_bench::peak_ops_per_iter(peak_loop_t::vnni, z);
        }
        pfn[l] = fn;
        popi[l] = opi;
        piters[l] = iters;
        peak[l][0] = measure_peak(fn, 1, opi, iters);
        peak[l][1] = measure_peak(fn, nthr, opi, iters);
        std::printf("peak %-17s %8.1f GOP/s (1 thread) %8.1f GOP/s (%d thread(s))\n",
                isa_name(levels[l]), peak[l][0], peak[l][1], nthr);
    }

    std::vector<shape_t> shapes;
    for (int64_t n : {256, 512, 1024, 2048, 4096})
        shapes.push_back({n, n, n, "square"});
    for (int64_t m : {1, 16, 128})
        for (int64_t n : {4096, 11008})
            shapes.push_back({m, n, 4096, "llm"});
    if (!only.empty()) shapes = only;

    std::printf("\nint8 GEMM u8*s8 -> %s, per-column scales, B %s, A in "
                "0..%d; TOPS = 2*M*N*K / min time; bf16 = our AMX bf16 GEMM, "
                "same shape\n",
            i8_dst_name(dst), prepack ? "prepacked" : "packed by every task",
            a8 ? 255 : 127);
    with_dnnl = with_dnnl && llga_bench::onednn_comparator_available();
    std::printf("%-6s %-17s %-17s %3s %9s %8s %7s %7s %9s %7s %8s %6s\n",
            "kind", "MxNxK", "isa", "thr", "min ms", "TOPS", "%peak", "%lpeak",
            "bf16 TF", "i8/bf16", "1D TOPS", "vs 1D");
    // log(llga / oneDNN) sums per level and thread-count column.
    std::vector<double> log_vs(levels.size() * 2, 0.0);
    std::vector<int> n_vs(levels.size() * 2, 0);
    std::vector<std::vector<double>> est(levels.size(),
            std::vector<double>(1, 0)); // last seconds per op, per level
    for (const shape_t &s : shapes) {
        const double ops = 2.0 * s.M * s.N * s.K;
        std::vector<uint8_t> a(s.M * s.K);
        std::vector<int8_t> b(s.K * s.N);
        std::mt19937 gen(1);
        for (auto &x : a) x = static_cast<uint8_t>(gen() & (a8 ? 0xff : 0x7f));
        for (auto &x : b) x = static_cast<int8_t>(gen());
        std::vector<float> ws(s.N, 0.01f);
        std::vector<char> c(s.M * s.N * 4);
        double dnnl_tops[2] = {-1, -1}; // per thread-count column, once per shape
        for (size_t l = 0; l < levels.size(); ++l) {
            // Skip when the previous shape says one run would be too slow.
            if (est[l][0] * ops > max_row_s) continue;
            set_max_isa_for_testing(levels[l]);
            for (int thr : {1, nthr}) {
                gemm_int8_desc_t d;
                d.dst = dst;
                d.wei_scale_per_col = true;
                d.M = s.M;
                d.N = s.N;
                d.K = s.K;
                d.sam = s.K;
                d.sak = 1;
                d.sbk = s.N;
                d.sbn = 1;
                d.sdm = s.N;
                gemm_int8_t g;
                if (g.init(d, thr) != dnnl_success) continue;
                aligned_t pb(g.packed_b_bytes());
                g.prepack_b(b.data(), pb.data());
                gemm_int8_params_t p;
                p.src_scale = 0.02f;
                p.wei_scales = ws.data();
                p.dst_scale = 4.f;
                p.dst_zp = 3; // s8/u8 dst (as the oneDNN comparator)
                // Rounds alternate this level, the bf16 GEMM and oneDNN;
                // each keeps its best (the host's speed drifts).
                const int col = thr == 1 ? 0 : 1;
                const bool amx_row = levels[l] == isa_t::avx512_core_amx;
                // oneDNN runs next to our first (best-level) row of a shape.
                const bool dnnl_now = with_dnnl && dnnl_tops[col] < 0;
                double ms = 1e30, bf = 0;
                for (int round = 0; round < rounds; ++round) {
                    {
                        tbb::global_control gc(
                                tbb::global_control::max_allowed_parallelism,
                                thr);
                        ms = std::min(ms,
                                time_min_ms(
                                        [&] {
                                            g.execute(a.data(), b.data(),
                                                    c.data(), p,
                                                    prepack ? pb.data()
                                                            : nullptr);
                                        },
                                        min_time, thr == 1));
                    }
                    if (with_bf16 && amx_row) {
                        reset_max_isa_for_testing();
                        bf = std::max(bf, bench_bf16(s, thr, min_time) * 1e-3);
                        set_max_isa_for_testing(levels[l]);
                    }
                    if (dnnl_now) {
                        char args[96];
                        std::snprintf(args, sizeof(args),
                                "matmul-q %s %lld %lld %lld", i8_dst_name(dst),
                                (long long)s.M, (long long)s.N, (long long)s.K);
                        dnnl_tops[col] = std::max(dnnl_tops[col],
                                llga_bench::onednn_gflops(args, thr, min_time)
                                        * 1e-3);
                    }
                }
                if (dnnl_now && dnnl_tops[col] <= 0) dnnl_tops[col] = 0;
                if (thr == 1) est[l][0] = ms * 1e-3 / ops;
                const double tops = ops / (ms * 1e-3) * 1e-12;
                char dims[64];
                std::snprintf(dims, sizeof(dims), "%lldx%lldx%lld",
                        (long long)s.M, (long long)s.N, (long long)s.K);
                // The host is shared and its speed drifts (busy hyperthread
                // siblings), so %peak uses a short peak run taken right
                // after the row, not only the one measured at start-up.
                const double lp = measure_peak(pfn[l], thr, popi[l], piters[l] / 20);
                // The level, and the flavour when init chose another one
                // (AMX hosts run M < 12 on AVX512-VNNI).
                std::string lv = isa_name(levels[l]);
                if (std::string(i8_kind_name(g.kind())) != lv)
                    lv = std::string(i8_kind_name(g.kind())) + "*";
                std::printf("%-6s %-17s %-17s %3d %9.3f %8.3f %6.1f%% %6.1f%%",
                        s.label, dims, lv.c_str(), thr, ms, tops,
                        100.0 * tops * 1e3 / peak[l][thr == 1 ? 0 : 1],
                        100.0 * tops * 1e3 / lp);
                if (with_bf16 && amx_row) {
                    std::printf(" %9.3f %6.2fx", bf, bf > 0 ? tops / bf : 0.0);
                } else if (with_dnnl) {
                    std::printf(" %9s %7s", "-", "-");
                }
                if (with_dnnl && dnnl_tops[col] > 0) {
                    std::printf(" %8.3f %5.2fx", dnnl_tops[col],
                            tops / dnnl_tops[col]);
                    log_vs[l * 2 + col] += std::log(tops / dnnl_tops[col]);
                    ++n_vs[l * 2 + col];
                }
                // f32 / s32 results on sampled outputs against the exact
                // integer sum (times the scales for f32).
                if (dst == i8_dst_t::f32 || dst == i8_dst_t::s32) {
                    std::mt19937_64 pick(5);
                    int bad = 0;
                    for (int t = 0; t < llga_bench::k_check_samples; ++t) {
                        const int64_t m = static_cast<int64_t>(pick() % s.M),
                                      n = static_cast<int64_t>(pick() % s.N);
                        int64_t r = 0;
                        for (int64_t k = 0; k < s.K; ++k)
                            r += int64_t(a[m * s.K + k]) * b[k * s.N + n];
                        if (dst == i8_dst_t::s32) {
                            int32_t got;
                            std::memcpy(&got, c.data() + 4 * (m * s.N + n), 4);
                            bad += got != r;
                        } else {
                            float got;
                            std::memcpy(&got, c.data() + 4 * (m * s.N + n), 4);
                            const double want = double(r) * p.src_scale * ws[n];
                            bad += !(std::fabs(got - want)
                                    <= 1e-6 * std::fabs(want) + 1e-30);
                        }
                    }
                    if (bad) {
                        ++bad_rows;
                        std::printf("  WRONG: %d of %d sampled outputs", bad,
                                llga_bench::k_check_samples);
                    }
                }
                std::printf("\n");
                std::fflush(stdout);
                if (nthr == 1) break;
            }
            reset_max_isa_for_testing();
        }
    }
    for (size_t l = 0; l < levels.size(); ++l)
        for (int col = 0; col < 2; ++col)
            if (n_vs[l * 2 + col] > 0)
                std::printf("\ngeometric mean of llga / oneDNN 2.6, %s, %d "
                            "thread(s), over %d rows: %.2fx",
                        isa_name(levels[l]), col == 0 ? 1 : nthr,
                        n_vs[l * 2 + col],
                        std::exp(log_vs[l * 2 + col] / n_vs[l * 2 + col]));
    std::printf("\n");
    std::printf("\n%%peak is against the measured peak of the row's unit at "
                "the same thread count (AMX: tdpbusd; VNNI: vpdpbusd), measured "
                "on thread CPU time at start-up; %%lpeak against a short peak run "
                "right after the row. 1-thread rows are timed on thread CPU time "
                "(immune to other processes on a shared host; 5th percentile "
                "of the runs, as this VM's thread clock now and then stands "
                "still), %d-thread rows on the best wall time. isa*: the flavour init chose at that level. "
                "1D TOPS: oneDNN 2.6 int8 matmul doing the same work (u8 x s8 -> "
                "the row's dst type with per-column output scales, weights "
                "prepacked, best wall time, OMP_NUM_THREADS = thr), timed in "
                "turn with the first (best-level) row of each shape and thread "
                "count, best of the rounds; vs 1D "
                "= TOPS / 1D TOPS (oneDNN always runs its best ISA, AMX on "
                "this host, so VNNI rows compare against it too).\n", nthr);
    // Only f32 / s32 rows are checked.
    return llga_bench::report_checks(bad_rows, "exact integer sums",
            dst == i8_dst_t::f32 || dst == i8_dst_t::s32);
}
