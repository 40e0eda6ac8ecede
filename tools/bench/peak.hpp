// SPDX-License-Identifier: Apache-2.0
// tools/bench/peak.hpp — this machine's measured compute peak for the
// benchmarks' "% of peak" columns: small asmjit loops of independent vector
// FMAs, vdpbf16ps or vpdpbusd chains, vpmaddwd products, or AMX tile
// products, timed on N
// threads at once. One copy for every benchmark program.
#pragma once

#include <cstdint>
#include <vector>

namespace llga_bench {

// One call runs `iters` iterations of the loop body.
using peak_fn_t = void (*)(int64_t iters);

enum class peak_loop_t {
    fma,      // vfmadd231ps, 24 (zmm) or 12 (ymm) independent chains
    dpbf16,   // vdpbf16ps zmm, 24 chains (2 MACs per f32 lane)
    vnni,     // vpdpbusd, zmm (EVEX) or ymm (VEX, AVX-VNNI), 24 / 12 chains
    pmaddwd,  // vpmaddwd ymm, 12 independent products (AVX2 int8 without VNNI)
    amx_bf16, // tdpbf16ps, four independent 16x16x32 tile chains
    amx_int8, // tdpbusd, four independent 16x16x64 tile chains
};

// Generates the loop (code lives for the process); nullptr if asmjit fails
// or, for AMX, the kernel refuses the tile-data permission. The caller
// checks the host has the instructions.
peak_fn_t make_peak_loop(peak_loop_t kind, bool zmm);
// Operations (FLOP or integer OP, a MAC counts 2) per loop iteration.
double peak_ops_per_iter(peak_loop_t kind, bool zmm);
// G(FL)OP/s of `fn` on `threads` threads at once, best of `reps`. With
// `cpu_time` each thread's rate uses its own CPU time (the machine's peak
// as if nobody else ran), otherwise wall time.
double measure_peak(peak_fn_t fn, int threads, double ops_per_iter,
        int64_t iters, bool cpu_time = false, int reps = 3);

struct peaks_t {
    double f32 = 0;  // zmm (or ymm without AVX-512) FMA, GFLOP/s
    double bf16 = 0; // zmm vdpbf16ps (0 without AVX512-BF16)
    double amx = 0;  // AMX tdpbf16ps (0 without AMX or its permission)
};

// The best time of a row's runs, from `ms` (sorted here). Wall-time
// samples: the minimum. Thread-CPU-time samples: the 5th percentile once
// there are 20 or more, because this VM's thread clock now and then
// stands still while steal time is settled (one run of ~300000 at 30 us
// measured 0), and the minimum would pick exactly that run.
double best_ms(std::vector<double> &ms, bool cpu_time);

// The three floating-point peaks on `threads` threads, wall time, best of 7.
peaks_t measure_peaks(int threads);

} // namespace llga_bench
