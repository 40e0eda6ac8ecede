// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/gemm_driver_impl_p.hpp — what the GEMM driver's
// source files share (gemm_driver.cpp: the regular path and AMX;
// gemm_wide.cpp: the small-M path): blocking constants, small helpers and
// the per-thread scratch buffers. Internal to those files.
#pragma once

#include "backends/cpu/kernels/kernel_util.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/gemm/gemm_driver.hpp"
#include "base/knobs.hpp"

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
// Independent FMAs needed to hide their latency (2 pipes x 4 cycles on
// Zen 3 and Sapphire Rapids): tiles with fewer accumulators are latency
// bound, so short tail panels are re-cut (see row_panels_t).
inline constexpr int64_t k_fmas_in_flight = 8;
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
// Where L2 is under 1 MiB (Zen 3: 512 KiB) that block would fill all of it
// and thrash, and a quarter-L2 block (NC 128) repacks A four times as
// often: the B strips stream from L3 instead (the prefetchers follow a
// strip), so the N block grows to cut A repacking. Zen 3, alternating in
// one process: 2048^3 1 thread 76.7 -> 85.4 GFLOP/s, 2 threads 167 -> 175;
// 128 x 4096 x 4096 128 -> 139 (2 threads).
inline constexpr int64_t k_nc_max_small_l2 = 2048;
// Widest GEMM (columns) the narrow-N path takes (gemm_narrow.cpp): each
// column of B is one more pass over the A rows (from L1/L2 after the
// first), against a masked tile that wastes 8 - N of its 8 or 16 lanes.
// Zen 3, tile -> narrow, 1 / 2 threads: 4096 x 1 x 4096 12.7 -> 4.0 / 5.4
// -> 2.2 ms, 4096 x 4 x 4096 11.3 -> 6.8 / 6.1 -> 4.5 ms. From N = 5 on
// the passes cost more than the lanes saved while A is in cache
// (512 x 6 x 512: 0.073 -> 0.099 ms). See docs/cpu-matmul.md.
inline constexpr int64_t k_narrow_max_n = 4;
// Widest last strip of the regular path computed by dot products
// (gemm_t::tail_dot_t). Zen 3, 1 thread, best of 4 alternating runs, tile
// -> dots: 2048 x 49 x 1024 (one column past 3 strips) 2.96-3.23 ->
// 2.61-2.87 ms (2048 x 48: 2.30-2.40); two columns (x 50) no change, three
// (x 51) 2.99-3.27 -> 3.36-4.04: each further column is another pass over
// the panel's rows, and from two on the masked tile costs no more.
inline constexpr int64_t k_tail_dot_max_cols = 1;
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
// Up to this M, B^T (or strided B) packed on every call goes through the
// wide path strip by strip (gemm_t::run_task_wide_strips) rather than the
// regular path's K-outer packing, whose short runs of each B^T row stream
// at a third of memory speed. Zen 3, M x 4096 x 4096^T f32, one thread,
// alternating: M = 24 19.4 -> 17.3 ms, 32 24.0 -> 21.2, 48 28.2 -> 26.3,
// 64 38.6 -> 33.1, 96 49.8 -> 48.2 (two threads: 32 15.1 -> 13.7, 64
// even). f32_avx2 only (measured there).
inline constexpr int64_t k_wide_strips_max_m = 64;
// On AMX hosts the wide AVX512-BF16 kernels keep only GEMMs of fewer rows
// than this: from about 8 rows on their vdpbf16ps work, not memory,
// bounds the time, while the 16-row AMX kernel streams B at memory speed
// (M x 4096 x 4096, 1 thread: M = 4 wide 66 vs AMX 40 GFLOP/s, M = 8 73 vs
// 81, M = 16 68 vs 133; constant weights).
inline constexpr int64_t k_amx_min_m = 8;
// Widest N block a wide task packs B for (when B cannot be read in place).
inline constexpr int64_t k_wide_nc_pack = 2048;
// Software prefetch distance of the wide kernels when B is a packed
// contiguous strip, in bytes.
inline constexpr int64_t k_wide_pf_bytes = 4096;
// Extra bytes per row of the wide path's scratch partial sums (two cache
// lines: 64 and 192 measured slower than 128 on Zen 3).
inline constexpr int64_t k_wide_acc_pad = 128;
// K block of the wide path for contiguous weights that arrive prepacked
// (gemm_desc_t::b_prepacked).
inline constexpr int64_t k_wide_kc_prepacked = 32;
// B read in place by the wide kernels (rows far apart: every row starts a
// new page): the K block and how many rows ahead each row is prefetched.
// Short blocks make the strips of one block walk each B row left to right
// within a few hundred cycles, so the L2 streamer sees sequential pages;
// whole-K strips jump a full row stride per k step and run latency-bound
// (3x slower at M = 4). The partial sums (M x strip) round-trip through L1
// once per block. The streamers differ by vendor:
// - Intel (tuned on Sapphire Rapids): 32 rows, prefetched 6 rows ahead.
//   Tasks per thread: k_tasks_per_thread.
// - AMD (Zen 3): 8 rows and no software prefetch. A read-only walk of a
//   4096-float-stride matrix in 64-byte runs streams 27 GB/s with 8 rows
//   per block but 12 GB/s with 32; prefetches 6 rows ahead mostly land in
//   the next block. M x 4096 x 4096 f32, 1 thread, alternating in one
//   process: M = 1 5.2 -> 2.7 ms, M = 4 7.4 -> 4.5 ms; M = 1 x 11008,
//   2 threads 12.2 -> 7.6 ms. One task per thread: a task reads a band of
//   columns, and 4 bands per thread cut each row's run to a quarter (2
//   threads, M = 1 x 4096: 5.1 -> 3.0 ms; M = 4: 8.8 -> 4.5 ms).
// See wide_stream_params() below.

// A tuning knob of base/knobs.def as an integer, `dflt` if unset.
inline int64_t env_int(knob_t k, int64_t dflt) {
    return knob_int(k, dflt);
}

// Largest N block of the regular path on this host (see k_nc_max and
// k_nc_max_small_l2).
inline int64_t nc_max_for_host() {
    const int l2 = host_features().l2_kib;
    return l2 > 0 && l2 < 1024 ? k_nc_max_small_l2 : k_nc_max;
}

// The in-place wide path's K block, row prefetch distance and tasks per
// thread for this host (see the comment above env_int), read once; the
// LLGA_GEMM_WIDE_KC / _PF_ROWS / _WIDE_TASKS variables override them.
// `m1_in_place`: a one-row GEMM keeps contiguous constant weights in
// place rather than prepacking them (LLGA_GEMM_M1_IN_PLACE). On Zen 3 the
// in-place walk reads 8 rows (pages) at once, and one core pulls more
// from memory that way than from the one sequential stream of prepacked
// strips (a plain read: 4 interleaved streams 21 GB/s, one stream 16).
// 1 x 4096 x 4096, alternating runs: 1 thread 3.0-3.6 vs 3.8-4.5 ms,
// 2 threads 1.9-2.2 vs 2.5-3.2 ms; from 2 rows on the two are close, and
// from 4 on prepacked wins. Not measured on Intel: off there.
struct wide_stream_t {
    int64_t kc, pf_rows, tasks_per_thread;
    bool m1_in_place;
};
inline const wide_stream_t &wide_stream_params() {
    static const wide_stream_t p = [] {
        const bool amd = host_features().amd;
        return wide_stream_t {env_int(knob_t::gemm_wide_kc, amd ? 8 : 32),
                env_int(knob_t::gemm_pf_rows, amd ? 0 : 6),
                env_int(knob_t::gemm_wide_tasks,
                        amd ? 1 : k_tasks_per_thread),
                env_int(knob_t::gemm_m1_in_place, amd ? 1 : 0) != 0};
    }();
    return p;
}

} // namespace detail

// Per-thread packing buffers, reused across tasks and calls. Tasks never
// nest, so one set per thread is enough.
struct gemm_t::scratch_t {
    aligned_buf_t a, b, acc;
    aligned_buf_t tail_cols, tail_sums; // see gemm_t::tail_dot_t
    aligned_buf_t b16_rows; // a widened 16-bit B^T block (wide path)
};

} // namespace gemm
} // namespace cpu
} // namespace llga
