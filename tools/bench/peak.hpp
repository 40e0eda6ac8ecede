// tools/bench/peak.hpp — this machine's measured compute peak for the
// benchmarks' "% of peak" columns: small asmjit loops of independent
// zmm/ymm FMAs, vdpbf16ps, or AMX tdpbf16ps, timed on N threads at once.
// (The loops are the ones of bench_gemm.cpp, shared here for bench_conv.)
#pragma once

#include <cstdint>

namespace llga_bench {

struct peaks_t {
    double f32 = 0;  // zmm (or ymm without AVX-512) FMA, GFLOP/s
    double bf16 = 0; // zmm vdpbf16ps (0 without AVX512-BF16)
    double amx = 0;  // AMX tdpbf16ps (0 without AMX or its permission)
};

// Peaks on `threads` threads running at once (GFLOP/s summed over them).
peaks_t measure_peaks(int threads);

} // namespace llga_bench
