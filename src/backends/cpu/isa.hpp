// SPDX-License-Identifier: Apache-2.0
// backends/cpu/isa.hpp — what the host CPU can run and what the user allows:
// our own CPUID/XGETBV feature detection (asmjit's snapshot misdetects
// AVX-VNNI), the ordered ISA levels of ONEDNN_MAX_CPU_ISA, the AMX permission
// request, and a test hook that lowers the maximum at runtime.
#pragma once

#include <string>

namespace llga {
namespace cpu {

// Ordered like oneDNN's ONEDNN_MAX_CPU_ISA values: a max level admits every
// level at or below it. isa_default means "no limit".
enum class isa_t : int {
    sse41 = 0,
    avx,
    avx2,
    avx2_vnni,
    avx2_vnni_2,
    avx512_core,
    avx512_core_vnni,
    avx512_core_bf16,
    avx512_core_fp16,
    avx512_core_amx,
    avx512_core_amx_fp16,
    isa_default,
};

// Raw feature bits. `os_*` say the OS saves the matching register state
// (XCR0); the ISA-level queries below already fold them in.
struct cpu_features_t {
    bool sse41 = false, avx = false, fma = false, f16c = false, avx2 = false;
    bool avx512f = false, avx512bw = false, avx512dq = false, avx512vl = false;
    bool avx512cd = false, avx512_vnni = false, avx512_bf16 = false;
    bool avx512_fp16 = false, avx_vnni = false, avx_vnni_int8 = false;
    bool avx_ne_convert = false;
    bool amx_tile = false, amx_int8 = false, amx_bf16 = false, amx_fp16 = false;
    bool os_avx = false, os_avx512 = false, os_amx = false;
    // Vendor "AuthenticAMD" (or Hygon's Zen derivative): some blocking
    // choices depend on the cache prefetchers, which differ by vendor.
    bool amd = false;
    // L2 size per core in KiB (CPUID 0x80000006, both vendors); 0 if not
    // reported. The GEMM blocking reads it.
    int l2_kib = 0;
};

const cpu_features_t &host_features();

// True if the host (CPU and OS, plus the AMX permission for AMX levels) can
// run every instruction the level stands for, regardless of the max knob.
bool host_supports(isa_t isa);
// Host supports it AND it is not above the current maximum.
bool isa_available(isa_t isa);

// The maximum from ONEDNN_MAX_CPU_ISA (DNNL_MAX_CPU_ISA as a fallback name),
// read once; isa_default if unset or unrecognised. A test override wins.
isa_t max_isa();
// Test hook: lower (or raise) the maximum for the rest of the process;
// isa_default removes the limit, reset_max_isa_for_testing() returns to env.
void set_max_isa_for_testing(isa_t isa);
void reset_max_isa_for_testing();

// Case-insensitive parse of "AVX2", "avx512_core_amx", "default", ...
bool parse_isa(const std::string &s, isa_t *out);
const char *isa_name(isa_t isa); // "avx512_core"
// Name of the best level available right now (what kernels will target).
const char *isa_name();
isa_t best_available_isa();

// Asks the kernel for the AMX tile-data state once per process; false if the
// CPU lacks AMX or the kernel refused (then AMX levels are unavailable).
bool amx_permission_granted();

} // namespace cpu
} // namespace llga
