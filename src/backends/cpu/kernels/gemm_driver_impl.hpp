// backends/cpu/kernels/gemm_driver_impl.hpp — what the GEMM driver's
// source files share (gemm_driver.cpp: the regular path and AMX;
// gemm_wide.cpp: the small-M path): blocking constants, small helpers and
// the per-thread scratch buffers. Internal to those files.
#pragma once

#include "backends/cpu/kernels/kernel_util.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "backends/cpu/kernels/gemm_driver.hpp"

namespace llga {
namespace cpu {
namespace gemm {
namespace detail {
// K block in k elements: the packed A panel (KC x MR, 12 KiB for f32 x 12
// rows; the same bytes for bf16 pairs) stays in L1 while B strips stream.
inline constexpr int64_t k_kc_f32 = 256;
inline constexpr int64_t k_kc_bf16 = 512;
// AMX: K block of 1024 (the A panel, 64 KiB, mostly stays in L1/L2 while
// B strips stream): half the f32 scratch round trips of 512, measured
// ~10% faster on 2048^3.
inline constexpr int64_t k_kc_amx = 1024;
// Largest M block: B is repacked once per M block, so bigger is cheaper
// (A panels are packed just before use, so the block need not fit any
// cache; only the C block is walked once per K block, with its tiles
// prefetched by the micro-kernel). Packing a KC x NC block costs about as
// much as 30 rows of compute on it, so 384-row blocks lost ~8% to it and
// whole-M blocks ~2%. Tasks must still be numerous enough to balance.
inline constexpr int64_t k_mc_max = 2048;
// AMX keeps the task's f32 sums in a scratch block (mc x nc), which
// should stay within L2-L3 reach.
inline constexpr int64_t k_mc_max_amx = 768;
// Largest N block: the packed KC x NC B block (512 KiB) must sit in L2.
inline constexpr int64_t k_nc_max = 512;
// Tasks wanted per thread, so uneven blocks and busy cores even out.
inline constexpr int64_t k_tasks_per_thread = 4;
// The same for the packed paths, whose blocks are large and whose
// splitting costs repacking (a plan made for 2 threads also runs well on
// one: 1024^3 keeps 512 x 516 blocks).
inline constexpr int64_t k_packed_tasks_per_thread = 2;
// M blocks are split while they keep at least this many rows.
inline constexpr int64_t k_mc_split = 256;
// Up to this M (after batch folding) the wide kernels stream B instead of
// packing it: packing costs a full extra pass over B, which only pays off
// when many rows of A reuse each packed block.
inline constexpr int64_t k_wide_max_m = 16;
// On AMX hosts the wide AVX512-BF16 kernels keep only GEMMs of fewer rows
// than this: from about 8 rows on their vdpbf16ps work, not memory,
// bounds the time, while the 16-row AMX kernel streams B at memory speed
// (M x 4096 x 4096, 1 thread: M = 4 wide 66 vs AMX 40 GFLOP/s, M = 8 73 vs
// 81, M = 16 68 vs 133; constant weights).
inline constexpr int64_t k_amx_min_m = 8;
// Widest N block a wide task packs B for (when B cannot be read in place).
inline constexpr int64_t k_wide_nc_pack = 2048;
// Software prefetch distance of the wide kernels: B rows ahead when B is
// read in place (rows far apart: every row starts a new page), bytes ahead
// when B is a packed contiguous strip.
inline constexpr int64_t k_wide_pf_rows = 6;
inline constexpr int64_t k_wide_pf_bytes = 4096;
// K block of the wide path when B is read in place. Short blocks make the
// strips of one block walk each B row left to right within a few hundred
// cycles, so the L2 streamer sees sequential pages; whole-K strips jump a
// full row stride per k step and run latency-bound (3x slower at M = 4).
// The partial sums (M x strip) round-trip through L1 once per block.
inline constexpr int64_t k_wide_kc = 32;

inline int64_t env_int(const char *name, int64_t dflt) {
    const char *v = std::getenv(name);
    return v && *v ? std::atoll(v) : dflt;
}


// AVX2 tail masks: 8 all-ones lanes then 8 zero lanes; starting at lane
// 8 - n gives n leading valid lanes.
alignas(64) inline const int32_t k_ymask_table[16]
        = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};


} // namespace detail

// Per-thread packing buffers, reused across tasks and calls. Tasks never
// nest, so one set per thread is enough.
struct gemm_t::scratch_t {
    aligned_buf_t a, b, acc;
};

} // namespace gemm
} // namespace cpu
} // namespace llga
