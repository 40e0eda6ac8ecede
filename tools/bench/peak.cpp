// tools/bench/peak.cpp — JIT peak loops (see peak.hpp): 24 independent
// accumulators cover 2 FMA ports x 4-cycle latency; AMX runs four
// independent tdpbf16ps chains on zeroed tiles.
#include "peak.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <asmjit/x86.h>

namespace llga_bench {

namespace {

using peak_fn_t = void (*)(int64_t iters);

double now_s() {
    return std::chrono::duration<double>(
            std::chrono::steady_clock::now().time_since_epoch())
            .count();
}

peak_fn_t make_peak(asmjit::JitRuntime &rt, bool zmm, bool bf16) {
    using namespace asmjit;
    CodeHolder code;
    code.init(rt.environment());
    x86::Assembler a(&code);
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
        if (bf16)
            a.vdpbf16ps(reg(i), reg(s0), reg(s1));
        else
            a.vfmadd231ps(reg(i), reg(s0), reg(s1));
    }
    a.dec(x86::rdi);
    a.jnz(loop);
    a.vzeroupper();
    a.ret();
    peak_fn_t fn = nullptr;
    if (rt.add(&fn, &code) != kErrorOk) return nullptr;
    return fn;
}

peak_fn_t make_amx_peak(asmjit::JitRuntime &rt) {
    using namespace asmjit;
    if (syscall(SYS_arch_prctl, 0x1023 /*ARCH_REQ_XCOMP_PERM*/, 18) != 0)
        return nullptr;
    CodeHolder code;
    code.init(rt.environment());
    x86::Assembler a(&code);
    Label cfg = a.newLabel(), loop = a.newLabel();
    a.ldtilecfg(x86::ptr(cfg));
    for (int i = 0; i < 8; ++i)
        a.tilezero(x86::tmm(i));
    a.bind(loop);
    for (int i = 0; i < 4; ++i)
        a.tdpbf16ps(x86::tmm(i), x86::tmm(4 + i % 2), x86::tmm(6 + i / 2));
    a.dec(x86::rdi);
    a.jnz(loop);
    a.tilerelease();
    a.ret();
    a.align(AlignMode::kData, 64);
    a.bind(cfg);
    uint8_t bytes[64] = {};
    bytes[0] = 1;
    for (int i = 0; i < 8; ++i) {
        bytes[16 + 2 * i] = 64;
        bytes[48 + i] = 16;
    }
    a.embed(bytes, sizeof(bytes));
    peak_fn_t fn = nullptr;
    if (rt.add(&fn, &code) != kErrorOk) return nullptr;
    return fn;
}

double measure(peak_fn_t fn, int threads, double flops_per_iter,
        int64_t iters) {
    if (!fn) return 0;
    double best = 0;
    for (int rep = 0; rep < 7; ++rep) { // best of 7: a shared machine
        std::vector<std::thread> ts;
        const double t0 = now_s();
        for (int t = 0; t < threads; ++t)
            ts.emplace_back([&] { fn(iters); });
        for (auto &t : ts)
            t.join();
        const double dt = now_s() - t0;
        best = std::max(best, threads * iters * flops_per_iter / dt * 1e-9);
    }
    return best;
}

} // namespace

peaks_t measure_peaks(int threads) {
    static asmjit::JitRuntime rt; // code lives as long as the process
    const auto &f = asmjit::CpuInfo::host().features().x86();
    const bool zmm = f.hasAVX512_F();
    const double fpi = (zmm ? 24 : 12) * (zmm ? 16 : 8) * 2.0;
    peaks_t p;
    p.f32 = measure(make_peak(rt, zmm, false), threads, fpi, 10000000);
    if (zmm && f.hasAVX512_BF16())
        p.bf16 = measure(make_peak(rt, true, true), threads, fpi * 2,
                10000000);
    if (f.hasAMX_BF16())
        p.amx = measure(make_amx_peak(rt), threads, 4 * 16 * 16 * 32 * 2.0,
                2000000);
    return p;
}

} // namespace llga_bench
