// SPDX-License-Identifier: Apache-2.0
// backends/cpu/isa.cpp — CPUID/XGETBV decoding, the ISA-level table, the max
// knob, and the one-time AMX permission request.
#include "backends/cpu/isa.hpp"

#include <atomic>
#include <cctype>
#include <cstring>
#include <mutex>

#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/env.hpp"
#include "base/verbose.hpp"

namespace llga {
namespace cpu {

namespace {

struct regs_t {
    unsigned a = 0, b = 0, c = 0, d = 0;
};

regs_t cpuid(unsigned leaf, unsigned sub) {
    regs_t r;
    __cpuid_count(leaf, sub, r.a, r.b, r.c, r.d);
    return r;
}

bool bit(unsigned v, int n) { return (v >> n) & 1u; }

// XCR0 tells which register states the OS saves on context switch; a CPU
// feature is usable only if its state is among them.
unsigned long long xgetbv0() {
    unsigned eax = 0, edx = 0;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return (static_cast<unsigned long long>(edx) << 32) | eax;
}

cpu_features_t detect() {
    cpu_features_t f;
    const unsigned max_leaf = __get_cpuid_max(0, nullptr);
    if (max_leaf < 1) return f;
    const regs_t l0 = cpuid(0, 0);
    char vendor[13] = {};
    std::memcpy(vendor, &l0.b, 4);
    std::memcpy(vendor + 4, &l0.d, 4);
    std::memcpy(vendor + 8, &l0.c, 4);
    f.amd = std::strcmp(vendor, "AuthenticAMD") == 0
            || std::strcmp(vendor, "HygonGenuine") == 0;
    if (cpuid(0x80000000u, 0).a >= 0x80000006u)
        f.l2_kib = static_cast<int>(cpuid(0x80000006u, 0).c >> 16);
    const regs_t l1 = cpuid(1, 0);
    f.sse41 = bit(l1.c, 19);
    const bool osxsave = bit(l1.c, 27);
    unsigned long long xcr0 = osxsave ? xgetbv0() : 0;
    f.os_avx = (xcr0 & 0x6) == 0x6;              // XMM | YMM
    // opmask | ZMM_Hi256 | Hi16_ZMM
    f.os_avx512 = f.os_avx && (xcr0 & 0xe0) == 0xe0;
    f.os_amx = (xcr0 & 0x60000) == 0x60000;      // XTILECFG | XTILEDATA
    f.avx = bit(l1.c, 28) && f.os_avx;
    f.fma = bit(l1.c, 12) && f.os_avx;
    f.f16c = bit(l1.c, 29) && f.os_avx;
    if (max_leaf < 7) return f;
    const regs_t l7 = cpuid(7, 0);
    f.avx2 = bit(l7.b, 5) && f.os_avx;
    f.avx512f = bit(l7.b, 16) && f.os_avx512;
    f.avx512dq = bit(l7.b, 17) && f.os_avx512;
    f.avx512cd = bit(l7.b, 28) && f.os_avx512;
    f.avx512bw = bit(l7.b, 30) && f.os_avx512;
    f.avx512vl = bit(l7.b, 31) && f.os_avx512;
    f.avx512_vnni = bit(l7.c, 11) && f.os_avx512;
    f.amx_bf16 = bit(l7.d, 22) && f.os_amx;
    f.avx512_fp16 = bit(l7.d, 23) && f.os_avx512;
    f.amx_tile = bit(l7.d, 24) && f.os_amx;
    f.amx_int8 = bit(l7.d, 25) && f.os_amx;
    // Sub-leaf 1 exists when sub-leaf 0 reports it in EAX. It is read
    // regardless of AVX-512 (AVX-VNNI exists on CPUs without AVX-512).
    if (l7.a >= 1) {
        const regs_t l71 = cpuid(7, 1);
        f.avx_vnni = bit(l71.a, 4) && f.os_avx;
        f.avx512_bf16 = bit(l71.a, 5) && f.os_avx512;
        f.amx_fp16 = bit(l71.a, 21) && f.os_amx;
        f.avx_vnni_int8 = bit(l71.d, 4) && f.os_avx;
        f.avx_ne_convert = bit(l71.d, 5) && f.os_avx;
    }
    return f;
}

constexpr long k_arch_req_xcomp_perm = 0x1023;
constexpr long k_xfeature_xtiledata = 18;

std::atomic<int> g_override {-1}; // -1: use the environment

struct isa_name_t {
    isa_t isa;
    const char *name;
};
constexpr isa_name_t k_names[] = {
        {isa_t::sse41, "sse41"},
        {isa_t::avx, "avx"},
        {isa_t::avx2, "avx2"},
        {isa_t::avx2_vnni, "avx2_vnni"},
        {isa_t::avx2_vnni_2, "avx2_vnni_2"},
        {isa_t::avx512_core, "avx512_core"},
        {isa_t::avx512_core_vnni, "avx512_core_vnni"},
        {isa_t::avx512_core_bf16, "avx512_core_bf16"},
        {isa_t::avx512_core_fp16, "avx512_core_fp16"},
        {isa_t::avx512_core_amx, "avx512_core_amx"},
        {isa_t::avx512_core_amx_fp16, "avx512_core_amx_fp16"},
        {isa_t::isa_default, "default"},
};

isa_t env_max_isa() {
    static const isa_t v = [] {
        std::string s = getenv_string("ONEDNN_MAX_CPU_ISA");
        if (s.empty()) s = getenv_string("DNNL_MAX_CPU_ISA");
        isa_t r = isa_t::isa_default;
        if (!s.empty() && !parse_isa(s, &r)) {
            verbose_printf(vflag_warn | vflag_profile_exec, wall_ms(),
                    "common,warn,cpu,ONEDNN_MAX_CPU_ISA=%s is not a known ISA; "
                    "ignored",
                    s.c_str());
            r = isa_t::isa_default;
        }
        return r;
    }();
    return v;
}

} // namespace

const cpu_features_t &host_features() {
    static const cpu_features_t f = detect();
    return f;
}

bool amx_permission_granted() {
    static const bool granted = [] {
        const cpu_features_t &f = host_features();
        if (!f.amx_tile) return false;
        // Without this request the first tile instruction raises SIGILL. The
        // kernel may refuse (e.g. a too-small sigaltstack); then we simply
        // never offer AMX levels.
        long r = syscall(SYS_arch_prctl, k_arch_req_xcomp_perm,
                k_xfeature_xtiledata);
        if (r != 0)
            verbose_printf(vflag_warn | vflag_profile_exec, wall_ms(),
                    "common,warn,cpu,AMX tile-data permission refused; "
                    "AMX kernels disabled");
        return r == 0;
    }();
    return granted;
}

bool host_supports(isa_t isa) {
    const cpu_features_t &f = host_features();
    const bool avx2 = f.avx2 && f.fma && f.f16c;
    const bool core = avx2 && f.avx512f && f.avx512bw && f.avx512dq
            && f.avx512vl;
    const bool bf16 = core && f.avx512_vnni && f.avx512_bf16;
    const bool amx = bf16 && f.amx_tile && f.amx_int8 && f.amx_bf16;
    switch (isa) {
        case isa_t::sse41: return f.sse41;
        case isa_t::avx: return f.avx;
        case isa_t::avx2: return avx2;
        case isa_t::avx2_vnni: return avx2 && f.avx_vnni;
        case isa_t::avx2_vnni_2:
            return avx2 && f.avx_vnni && f.avx_vnni_int8 && f.avx_ne_convert;
        case isa_t::avx512_core: return core;
        case isa_t::avx512_core_vnni: return core && f.avx512_vnni;
        case isa_t::avx512_core_bf16: return bf16;
        case isa_t::avx512_core_fp16: return bf16 && f.avx512_fp16;
        case isa_t::avx512_core_amx: return amx && amx_permission_granted();
        case isa_t::avx512_core_amx_fp16:
            return amx && f.avx512_fp16 && f.amx_fp16
                    && amx_permission_granted();
        case isa_t::isa_default: return true;
    }
    return false;
}

isa_t max_isa() {
    const int o = g_override.load(std::memory_order_relaxed);
    return o >= 0 ? static_cast<isa_t>(o) : env_max_isa();
}

bool isa_available(isa_t isa) {
    return static_cast<int>(isa) <= static_cast<int>(max_isa())
            && host_supports(isa);
}

void set_max_isa_for_testing(isa_t isa) {
    g_override.store(static_cast<int>(isa));
}
void reset_max_isa_for_testing() { g_override.store(-1); }

bool parse_isa(const std::string &s, isa_t *out) {
    std::string l;
    for (char c : s)
        l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const auto &n : k_names)
        if (l == n.name) {
            *out = n.isa;
            return true;
        }
    return false;
}

const char *isa_name(isa_t isa) {
    for (const auto &n : k_names)
        if (n.isa == isa) return n.name;
    return "unknown";
}

isa_t best_available_isa() {
    for (int i = static_cast<int>(isa_t::avx512_core_amx_fp16); i >= 0; --i)
        if (isa_available(static_cast<isa_t>(i))) return static_cast<isa_t>(i);
    return isa_t::isa_default; // not even SSE4.1: no JIT at all
}

const char *isa_name() {
    const isa_t b = best_available_isa();
    return b == isa_t::isa_default ? "none" : isa_name(b);
}

} // namespace cpu
} // namespace llga
