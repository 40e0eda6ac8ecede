// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/int8/gemm_int8.hpp — the int8 GEMM driver: u8·s8 or
// s8·s8 with s32 accumulation on AMX-INT8, AVX512-VNNI, AVX-VNNI or AVX2,
// and the Dequantize -> MatMul -> Quantize epilogue fused into the micro-kernels.
// The problem description (strided, batched, broadcast), blocking plan,
// packing (with compensation sums) and threaded execution mirror
// gemm_driver.hpp. asmjit-free.
//
// Semantics, per output element (i, j), with r = sum_k (A[i,k] - zp_a) *
// (B[k,j] - zp_b) computed exactly in s32:
//   s32 dst: r (no scales, no bias)
//   else:    f = r * src_scale * wei_scale[j] + bias[j]
//            f32 / bf16 (round to nearest even): f
//            s8 / u8: q = f * (1 / dst_scale) + dst_zp, saturated, rounded
//            to nearest even (the opset's Quantize)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/cpu/kernels/gemm/gemm.hpp"
#include "backends/cpu/kernels/gemm/gemm_postops.hpp"
#include "backends/cpu/kernels/gemm/int8/gemm_int8_ukr.hpp"
#include "base/status.hpp"

namespace llga {
namespace cpu {
namespace gemm_int8 {

// dst[b] = A[b] x B[b]. Strides in elements; the batch dims are already
// broadcast (a stride of 0 repeats an operand).
struct gemm_int8_desc_t {
    bool src_s8 = false;          // A is s8 (else u8)
    // B is u8 (else s8): packing flips its top bit, so the kernels see s8
    // values b - 128, and the weight zero point (still given as B's own,
    // u8) is lowered by 128 to match. No copy of B is needed.
    bool wei_u8 = false;
    i8_dst_t dst = i8_dst_t::f32;
    bool has_bias = false;        // f32 bias per column (not with s32 dst)
    bool wei_scale_per_col = false; // N weight scales (else one)
    int64_t M = 0, N = 0, K = 0;
    int64_t sam = 0, sak = 0; // A[m, k]
    int64_t sbk = 0, sbn = 0; // B[k, n]
    int64_t sdm = 0;          // dst row stride; columns are contiguous
    std::vector<int64_t> batch;            // outermost first
    std::vector<int64_t> a_bs, b_bs, d_bs; // per batch dim
    // A post-op chain after scale and bias (none when post.ops is empty):
    // each tile's f32 values go to a per-thread block, and the f32 GEMM
    // kernels of the same vector width (gemm.hpp, k = 0) run the chain on
    // them and store post.dst_dt (f32, s8 or u8, with its dst_scale and
    // dst_zp) at dst. `dst` must then be f32 (the block's type).
    gemm::postops_t post;
    bool has_chain() const { return !post.ops.empty(); }
};

// Folds trailing batch dims into M where that is the same memory walk (B
// repeats, A and dst step by exactly M rows), as gemm::fold_batch_into_m:
// shared weights over [B, S, K] become one tall GEMM that blocks better.
void fold_batch_into_m(gemm_int8_desc_t &d);

// Quantization values of one execution (they may change between calls).
struct gemm_int8_params_t {
    const float *bias = nullptr;       // N values, with has_bias
    float src_scale = 1.f;
    const float *wei_scales = nullptr; // 1 or N values; nullptr means 1
    float dst_scale = 1.f;             // s8/u8 dst only
    int32_t src_zp = 0, wei_zp = 0;    // per tensor
    int32_t dst_zp = 0;                // s8/u8 dst only
    // s8/u8 dst only: extra bounds on q (whole numbers), intersected with
    // the type's range. A ReLU or Clamp just before the Quantize lands
    // here: rounding is monotone, so clamping f to [a, b] before it equals
    // clamping q to [rne(a / dst_scale + zp), rne(b / dst_scale + zp)].
    float q_lo = -1e30f, q_hi = 1e30f;
    // With a chain: the base of each scale/binary operand, in chain order.
    const void *const *po_args = nullptr;
};

class gemm_int8_t {
public:
    // Picks the best flavour the current ISA limit allows (AMX, then
    // AVX512-VNNI, then AVX-VNNI, then AVX2; AVX512-VNNI rather than AMX
    // for M < 12)
    // and the blocking for `nthreads`; fetches
    // every kernel variant. dnnl_unimplemented when no flavour is available.
    status_t init(const gemm_int8_desc_t &d, int nthreads);
    i8_kind_t kind() const { return kind_; }
    // Runs all tasks with llga::parallel_for. `packed_b`, when given, is
    // prepack_b()'s output for this B (packing and column sums are skipped).
    void execute(const void *a, const void *b, void *dst,
            const gemm_int8_params_t &p, const void *packed_b = nullptr) const;
    // B can be packed ahead when every batch uses the same B (weights).
    bool can_prepack_b() const;
    // Every (N block, K block) panel as a task packs it, N blocks outer,
    // then the s32 column sums of B (N rounded up to whole blocks).
    size_t packed_b_bytes() const;
    void prepack_b(const void *b, void *packed) const;
    // "isa=.. mc=.. nc=.. kc=.. tasks=.." for verbose and tests.
    std::string blocking_str() const;

private:
    struct scratch_t;
    struct call_t; // per-execute values shared by all tasks
    void run_task(int64_t task, const call_t &c, scratch_t &sc) const;
    size_t packed_block_bytes() const;
    uint8_t b_flip() const { return d_.wei_u8 ? 0x80 : 0; }
    int64_t kblocks() const { return (d_.K + kc_ - 1) / kc_; }
    int64_t kpad(int64_t kc) const;
    // AMX: whether tile loads can read A's rows (from `a`) where they are.
    bool a_in_place(const char *a) const;
    void task_origin(int64_t task, int64_t *m0, int64_t *n0, int64_t *aoff,
            int64_t *boff, int64_t *doff) const;

    gemm_int8_desc_t d_;
    i8_kind_t kind_ = i8_kind_t::vnni512;
    i8_shape_t s_ {};
    int64_t mc_ = 0, nc_ = 0, kc_ = 0;
    int64_t mblocks_ = 0, nblocks_ = 0, nbatch_ = 1;
    i8_fn_t fns_[12][2] = {}; // [rows - 1][vectors - 1] (epilogue for AMX)
    // AVX2 with u8 A: the same tiles for panels whose A bytes are all
    // below 128 (get_i8_ukernel's `a7`), chosen per panel and K block.
    bool a7_ = false;
    i8_fn_t fns7_[12][2] = {};
    // With a chain: the f32 kernels (k = 0) that finish each tile.
    gemm::ukr_fn_t chain_[12][2] = {};
    i8_fn_t amx_ = nullptr; // block kernel: the strip past the last whole one
    i8_fn_t amx_panel_[2] = {}; // panel kernel [with the row term]
};

} // namespace gemm_int8
} // namespace cpu
} // namespace llga
