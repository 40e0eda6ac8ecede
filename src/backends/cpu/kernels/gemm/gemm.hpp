// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/gemm.hpp — the GEMM micro-kernel family: the
// register-blocked MR x NR tile generators (f32 FMA on AVX2 and AVX-512,
// bf16 pairs with AVX512-BF16 vdpbf16ps), their argument block and the
// shape constants the packing and blocking code must agree on. This header
// is asmjit-free; the generators live in gemm.cpp.
#pragma once

#include <cstdint>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/gemm/gemm_postops.hpp"
#include "base/status.hpp"

namespace llga {
namespace cpu {
namespace gemm {

// Which micro-kernel flavour: the instruction set and the input type (the
// rows of gemm_flavours.def).
enum class ukr_kind_t : int {
#define LLGA_GEMM_UKR(kind, mr, nr, width, kpack, isa, name) kind,
#include "backends/cpu/kernels/gemm/gemm_flavours.def"
#undef LLGA_GEMM_UKR
};

// Shape of the register tile and the vector width of a flavour.
struct ukr_shape_t {
    int mr;    // rows of C per call (A values broadcast)
    int nr;    // columns of C per call (B vectors)
    int width; // f32 lanes per vector
    int kpack; // k values per packed A/B element (2 for bf16 pairs)
};
ukr_shape_t ukr_shape(ukr_kind_t kind);
// Bytes of one A or B element as the flavour reads it (bf16: 2, f32: 4).
inline int64_t ukr_in_bytes(ukr_kind_t kind) {
    return ukr_shape(kind).kpack == 2 ? 2 : 4;
}

// Flags of ukr_args_t::flags.
enum : int64_t {
    // Add the f32 partial sums already in `acc` (a previous K block).
    k_ukr_accumulate = 1,
    // This is the last K block: add bias (if set) and store to `dst` in the
    // destination type; otherwise the f32 sums go back to `acc`.
    k_ukr_last = 2,
    k_ukr_bias = 4,
    // AMX only: the tile configuration is already loaded (by an earlier
    // call on this thread with k_ukr_amx_keep), skip ldtilecfg.
    k_ukr_amx_configured = 8,
    // AMX only: keep the tile state at the end (no tilerelease); the
    // caller's last call must leave this unset.
    k_ukr_amx_keep = 16,
    // AMX only: store the summed tile as f32 to `dst` (rows `ldd` bytes
    // apart) instead of back to `acc`, so the last K block can hand a
    // small L1-resident block to the epilogue.
    k_ukr_amx_to_dst = 32,
};

// The single argument of a micro-kernel call. Offsets are fixed: the
// generator reads fields by offsetof.
struct ukr_args_t {
    // Packed A: for every k step, MR elements (f32) or MR bf16 pairs;
    // rows past m are never read.
    const void *a;
    // B: for every k step one row of NR elements (or NR bf16 pairs), rows
    // `ldb` bytes apart (NR * 4 when packed, the user's row stride when B
    // is read in place).
    const void *b;
    int64_t ldb;   // bytes between consecutive k steps of B
    int64_t k;     // k steps (bf16: pairs), >= 1
    float *acc;    // f32 tile of partial sums, rows `ldacc` bytes apart
    int64_t ldacc;
    void *dst;     // final output (f32 or bf16), rows `ldd` bytes apart
    int64_t ldd;
    const float *bias; // NR per-column values (padded), with k_ukr_bias
    int64_t flags;
    // Lanes of the last vector that are valid: a k-mask (AVX-512) or a
    // pointer to 8 int32 lane masks (AVX2).
    int64_t kmask;
    const int32_t *ymask;
    // Bytes between A rows: AMX (packed or in place) and the AVX2 tile
    // kernels built with a_rows (A read from the user's rows, k
    // contiguous; args->a is row 0 at this K block's first k).
    int64_t lda;
    // Post-op operands of this tile, one per scale/binary op in chain
    // order (read only with k_ukr_last when the chain has operands).
    const postop_ptr_t *po;
    // Wide kernels only: B is prefetched this many bytes past each row.
    int64_t pf;
    // AMX only: bytes between consecutive 32-k chunks of A (64 for the
    // user's row-major A, 2048 for the chunk-major packed panel); 0 means 64.
    int64_t a_kstep;
    // AVX2 wide kernels only: whole strips of nv vectors side by side
    // (each strip's B and partial sums start nv * 32 bytes right of the
    // previous one's) computed in one call; 0 or 1 means one. Only for
    // calls without k_ukr_last (bias, post-ops and dst are per strip) and
    // without a partial last vector.
    int64_t strips;
};

// AVX2 tail masks for ukr_args_t::ymask: 8 all-ones lanes then 8 zero
// lanes; starting at lane 8 - n gives n leading valid lanes.
alignas(64) inline const int32_t k_ymask_table[16]
        = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};

// Sets both tail masks of `args` to the first `lanes` lanes of a vector
// (kmask for AVX-512, ymask for AVX2).
inline void set_tail_lanes(ukr_args_t &args, int64_t lanes) {
    args.kmask = (int64_t(1) << lanes) - 1;
    args.ymask = k_ymask_table + 8 - (lanes < 8 ? lanes : 8);
}

// One generated tile function: C[m x nv vectors] per call.
using ukr_fn_t = void (*)(const ukr_args_t *args);

// Returns the micro-kernel for `m` rows (1..mr) and `nv` vectors (1..nr /
// width), writing a `dst_bf16` or f32 destination; generated once per
// descriptor and cached. The flavour's ISA must be available.
status_t get_ukernel(ukr_kind_t kind, int m, int nv, bool dst_bf16,
        ukr_fn_t *fn);
// The same with a fused epilogue: after bias, the last K block applies
// `po` (chain, then conversion to po.dst_dt) before the store. Declines
// (unimplemented) what the flavour cannot run: see check_postops.
// `a_rows` (f32_avx2 only): A is broadcast from the user's rows (args->lda
// bytes apart, k contiguous) instead of a packed panel.
status_t get_ukernel(ukr_kind_t kind, int m, int nv, bool dst_bf16,
        const postops_t &po, ukr_fn_t *fn, bool a_rows = false);

// Small-M ("wide") kernels: up to wide_max_rows(kind) rows of C by up to
// wide_vectors(kind, m) vectors, for GEMV-like shapes where B dominates
// the traffic: A is read k-major with exactly m values (bf16: m pairs) per
// k step (the user's row when m = 1), B rows `ldb` apart are streamed with
// a software prefetch args->pf bytes ahead. Same epilogue as get_ukernel.
// With b_bf16_inplace (bf16_avx512 only) B is the user's row-major bf16
// (no pairs), widened to f32 in registers, A is f32 k-major (m floats per
// k step) and args->k counts k values: f32 FMAs on the exact bf16 values.
int wide_max_rows(ukr_kind_t kind);
int wide_vectors(ukr_kind_t kind, int m);
// B stored as 16-bit values and widened to f32 in registers by the wide
// kernels (rows read in place): bf16 on bf16_avx512 (b_bf16_inplace) and
// f32_avx2, f16 (F16C) on f32_avx2.
enum class b16_t { none = 0, bf16 = 1, f16 = 2 };
status_t get_wide_ukernel(ukr_kind_t kind, int m, int nv, bool dst_bf16,
        const postops_t &po, ukr_fn_t *fn, b16_t b16 = b16_t::none);

// Dot-product kernel for one row of A against B^T (rows of B^T contiguous
// along k): args->a is the A row, args->b row 0 of nn consecutive B^T rows
// `ldb` bytes apart, args->k the k count (the last k % W lanes masked by
// kmask / ymask), and the nn f32 sums are written to args->acc[0..nn).
// The flavour fixes the input type (bf16 is widened to f32).
// `interleaved` walks k once for all nn rows (one A load per nn FMAs);
// `rows` sums each row whole before the next (address order), which
// streams short rows from memory 20-40% faster: nn interleaved streams
// of a few lines each are too short for the hardware prefetchers, while
// long ones run side by side faster than one. dot_order_for() picks by
// the row's length in bytes: rows up to k_dot_rows_max_bytes
// (`LLGA_GEMM_DOT_ROWS_MAX` overrides; 0: always interleaved).
constexpr int k_dot_max_cols = 8;
constexpr int64_t k_dot_rows_max_bytes = 2048;
// The most rows of A the few-row path runs as dot products against B^T
// rows, each B^T row read from memory once and from L1 by the further
// rows (K in chunks of LLGA_GEMM_DOT_KC_BYTES per row, default 2048);
// `LLGA_GEMM_DOT_MAX_M` overrides (1: one row only). Twice as many for
// 16-bit B^T, whose re-reads are half the bytes. Past that, packing B per
// task is as fast (Zen 3, 2 threads, M x 4096 x 4096ᵀ f32, packed ->
// dots: M = 5 7.8-8.6 -> 4.1-5.1 ms, 8 10.1-10.3 -> 7.4-7.6, 16 11.7-12
// -> 12.4-13.2).
constexpr int64_t k_dot_max_m = 8;
int64_t dot_max_m(bool b16);
enum class dot_order_t { interleaved, rows };
dot_order_t dot_order_for(int64_t row_bytes);
// `b16` (f32_avx2 only): B^T rows stored as bf16/f16, widened as read;
// A stays f32 and args->k must be a multiple of 8 (no tail code).
status_t get_dot_kernel(ukr_kind_t kind, int nn, dot_order_t order,
        ukr_fn_t *fn, b16_t b16 = b16_t::none);

// The AMX kernels (bf16_amx): over args->k chunks of 32 k values they add
// A (`rows` = 32 or 16 rows of bf16, args->lda bytes apart, args->a_kstep bytes further
// per chunk; packed or the user's row-major A) times B (packed strip, 16
// pair-rows of 128 bytes per chunk; the next chunk is prefetched into L1
// while this one computes) to the 32 x 32 f32 tile at
// args->acc (rows args->ldacc bytes apart), which it first loads when
// k_ukr_accumulate is set and zeroes otherwise; the result goes back
// there, or to args->dst / args->ldd with k_ukr_amx_to_dst. Other fields
// are unused.
status_t get_amx_kernel(ukr_fn_t *fn, int rows = 32);

// The ISA level a flavour needs.
isa_t ukr_isa(ukr_kind_t kind);
const char *ukr_name(ukr_kind_t kind);

} // namespace gemm
} // namespace cpu
} // namespace llga
