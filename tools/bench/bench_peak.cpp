// SPDX-License-Identifier: Apache-2.0
// tools/bench/bench_peak.cpp — llga-bench-peak: prints only this host's
// measured f32 FMA peak (peak.cpp's JIT loop of independent FMAs, wall
// time, best of the repetitions), for scripts that scale published
// figures to this machine (tools/bench/panel/run).
//   llga-bench-peak [--threads N] [--isa=best|avx2] [--reps R] [--cpu-time]
// Output, one line: `f32_fma_peak_gflops=X threads=N vector=zmm|ymm
// clock=wall|cpu`. --cpu-time rates each thread by its own CPU time (the
// machine's peak as if nobody else ran; steadier on a shared host).
// --isa=best uses zmm when the host has AVX-512 and ONEDNN_MAX_CPU_ISA
// (or DNNL_MAX_CPU_ISA) does not cap it below AVX512; avx2 forces ymm.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <asmjit/x86.h>

#include "peak.hpp"

namespace {

bool isa_capped_below_avx512() {
    const char *v = std::getenv("ONEDNN_MAX_CPU_ISA");
    if (!v || !*v) v = std::getenv("DNNL_MAX_CPU_ISA");
    if (!v || !*v) return false;
    return strncasecmp(v, "AVX512", 6) != 0 && strcasecmp(v, "DEFAULT") != 0;
}

int usage(const char *argv0) {
    std::fprintf(stderr, "usage: %s [--threads N] [--isa=best|avx2] [--reps R] [--cpu-time]\n", argv0);
    return 2;
}

} // namespace

int main(int argc, char **argv) {
    int threads = 1, reps = 7;
    bool cpu_time = false;
    std::string isa = "best";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--threads" && i + 1 < argc)
            threads = std::atoi(argv[++i]);
        else if (a.rfind("--threads=", 0) == 0)
            threads = std::atoi(a.c_str() + 10);
        else if (a == "--reps" && i + 1 < argc)
            reps = std::atoi(argv[++i]);
        else if (a.rfind("--reps=", 0) == 0)
            reps = std::atoi(a.c_str() + 7);
        else if (a == "--cpu-time")
            cpu_time = true;
        else if (a.rfind("--isa=", 0) == 0)
            isa = a.substr(6);
        else
            return usage(argv[0]);
    }
    if (threads < 1 || reps < 1 || (isa != "best" && isa != "avx2")) return usage(argv[0]);
    const auto &f = asmjit::CpuInfo::host().features().x86();
    if (!f.hasAVX2() || !f.hasFMA()) {
        std::fprintf(stderr, "llga-bench-peak: this host has no AVX2 + FMA\n");
        return 1;
    }
    const bool zmm = isa == "best" && f.hasAVX512_F() && !isa_capped_below_avx512();
    using llga_bench::peak_loop_t;
    const llga_bench::peak_fn_t fn = llga_bench::make_peak_loop(peak_loop_t::fma, zmm);
    if (!fn) {
        std::fprintf(stderr, "llga-bench-peak: could not generate the FMA loop\n");
        return 1;
    }
    const double gflops = llga_bench::measure_peak(fn, threads,
            llga_bench::peak_ops_per_iter(peak_loop_t::fma, zmm), 10000000, cpu_time, reps);
    std::printf("f32_fma_peak_gflops=%.1f threads=%d vector=%s clock=%s\n", gflops,
            threads, zmm ? "zmm" : "ymm", cpu_time ? "cpu" : "wall");
    return 0;
}
