// SPDX-License-Identifier: Apache-2.0
// tools/bench/peak.cpp — JIT peak loops (see peak.hpp). 24 independent
// accumulators cover 2 vector ports x 4-cycle latency with room to spare;
// the AMX loops run four independent tile chains on zeroed tiles.
#include "peak.hpp"

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include <asmjit/x86.h>

namespace llga_bench {

namespace {

double wall_s() {
    return std::chrono::duration<double>(
            std::chrono::steady_clock::now().time_since_epoch())
            .count();
}

double thread_cpu_s() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

asmjit::JitRuntime &runtime() {
    static asmjit::JitRuntime rt; // code lives as long as the process
    return rt;
}

peak_fn_t finish(asmjit::CodeHolder &code) {
    peak_fn_t fn = nullptr;
    if (runtime().add(&fn, &code) != asmjit::kErrorOk) return nullptr;
    return fn;
}

void vector_loop(asmjit::x86::Assembler &a, peak_loop_t kind, bool zmm) {
    using namespace asmjit;
    const int nacc = zmm ? 24 : 12;
    auto reg = [&](int i) {
        return zmm ? x86::Vec(x86::zmm(i)) : x86::Vec(x86::ymm(i));
    };
    const int s0 = zmm ? 30 : 14, s1 = zmm ? 31 : 15;
    for (int i = 0; i < nacc; ++i)
        a.vxorps(reg(i), reg(i), reg(i));
    a.vxorps(reg(s0), reg(s0), reg(s0));
    a.vxorps(reg(s1), reg(s1), reg(s1));
    Label loop = a.newLabel();
    a.bind(loop);
    for (int i = 0; i < nacc; ++i) {
        switch (kind) {
            case peak_loop_t::dpbf16: a.vdpbf16ps(reg(i), reg(s0), reg(s1)); break;
            case peak_loop_t::vnni:
                if (zmm)
                    a.vpdpbusd(reg(i), reg(s0), reg(s1));
                else
                    a.vex().vpdpbusd(reg(i), reg(s0), reg(s1));
                break;
            case peak_loop_t::pmaddwd: a.vpmaddwd(reg(i), reg(s0), reg(s1)); break;
            default: a.vfmadd231ps(reg(i), reg(s0), reg(s1)); break;
        }
    }
    a.dec(x86::rdi);
    a.jnz(loop);
    a.vzeroupper();
    a.ret();
}

void amx_loop(asmjit::x86::Assembler &a, bool int8) {
    using namespace asmjit;
    Label cfg = a.newLabel(), loop = a.newLabel();
    a.ldtilecfg(x86::ptr(cfg));
    for (int i = 0; i < 8; ++i)
        a.tilezero(x86::tmm(i));
    a.bind(loop);
    for (int i = 0; i < 4; ++i) {
        if (int8)
            a.tdpbusd(x86::tmm(i), x86::tmm(4 + i % 2), x86::tmm(6 + i / 2));
        else
            a.tdpbf16ps(x86::tmm(i), x86::tmm(4 + i % 2), x86::tmm(6 + i / 2));
    }
    a.dec(x86::rdi);
    a.jnz(loop);
    a.tilerelease();
    a.ret();
    a.align(AlignMode::kData, 64);
    a.bind(cfg);
    uint8_t bytes[64] = {};
    bytes[0] = 1; // palette 1: eight 16 x 64-byte tiles
    for (int i = 0; i < 8; ++i) {
        bytes[16 + 2 * i] = 64;
        bytes[48 + i] = 16;
    }
    a.embed(bytes, sizeof(bytes));
}

} // namespace

peak_fn_t make_peak_loop(peak_loop_t kind, bool zmm) {
    using namespace asmjit;
    const bool amx = kind == peak_loop_t::amx_bf16 || kind == peak_loop_t::amx_int8;
    if (amx && syscall(SYS_arch_prctl, 0x1023 /*ARCH_REQ_XCOMP_PERM*/, 18) != 0)
        return nullptr;
    CodeHolder code;
    code.init(runtime().environment());
    x86::Assembler a(&code);
    if (amx)
        amx_loop(a, kind == peak_loop_t::amx_int8);
    else
        vector_loop(a, kind, zmm || kind == peak_loop_t::dpbf16);
    return finish(code);
}

double peak_ops_per_iter(peak_loop_t kind, bool zmm) {
    const bool z = zmm || kind == peak_loop_t::dpbf16;
    const double lanes = z ? 16 : 8, chains = z ? 24 : 12;
    switch (kind) {
        case peak_loop_t::fma: return chains * lanes * 2;
        case peak_loop_t::dpbf16: return chains * lanes * 4;
        case peak_loop_t::vnni: return chains * lanes * 8;
        case peak_loop_t::pmaddwd: return chains * lanes * 4;
        case peak_loop_t::amx_bf16: return 4 * 16 * 16 * 32 * 2.0;
        case peak_loop_t::amx_int8: return 4 * 16 * 16 * 64 * 2.0;
    }
    return 0;
}

double measure_peak(peak_fn_t fn, int threads, double ops_per_iter,
        int64_t iters, bool cpu_time, int reps) {
    if (!fn) return 0;
    double best = 0;
    for (int rep = 0; rep < reps; ++rep) {
        std::vector<std::thread> ts;
        std::vector<double> busy(static_cast<size_t>(threads));
        const double t0 = wall_s();
        for (int t = 0; t < threads; ++t)
            ts.emplace_back([&, t] {
                const double c0 = thread_cpu_s();
                fn(iters);
                busy[static_cast<size_t>(t)] = thread_cpu_s() - c0;
            });
        for (auto &t : ts)
            t.join();
        const double wall = wall_s() - t0;
        double rate = 0;
        if (cpu_time)
            for (double b : busy)
                rate += iters * ops_per_iter / b * 1e-9;
        else
            rate = threads * iters * ops_per_iter / wall * 1e-9;
        best = std::max(best, rate);
    }
    return best;
}

peaks_t measure_peaks(int threads) {
    const auto &f = asmjit::CpuInfo::host().features().x86();
    const bool zmm = f.hasAVX512_F();
    peaks_t p;
    p.f32 = measure_peak(make_peak_loop(peak_loop_t::fma, zmm), threads,
            peak_ops_per_iter(peak_loop_t::fma, zmm), 10000000, false, 7);
    if (zmm && f.hasAVX512_BF16())
        p.bf16 = measure_peak(make_peak_loop(peak_loop_t::dpbf16, true),
                threads, peak_ops_per_iter(peak_loop_t::dpbf16, true),
                10000000, false, 7);
    if (f.hasAMX_BF16())
        p.amx = measure_peak(make_peak_loop(peak_loop_t::amx_bf16, true),
                threads, peak_ops_per_iter(peak_loop_t::amx_bf16, true),
                2000000, false, 7);
    return p;
}

double best_ms(std::vector<double> &ms, bool cpu_time) {
    if (ms.empty()) return 0;
    std::sort(ms.begin(), ms.end());
    return cpu_time && ms.size() >= 20 ? ms[ms.size() / 20] : ms.front();
}

} // namespace llga_bench
