// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/gemm_driver.hpp — the GEMM driver around the
// micro-kernels: the problem description (strided, batched, broadcast),
// the blocking plan (cache blocks MC x NC x KC and how they become parallel
// tasks), packing of A and B panels, and the threaded execution. asmjit-free.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/cpu/kernels/gemm/gemm.hpp"
#include "backends/cpu/kernels/gemm/gemm_postops.hpp"
#include "base/status.hpp"

namespace llga {
namespace cpu {
namespace gemm {

// C[b] = A[b] x B[b] (+ bias per column), all strides in elements. The
// batch dims are already broadcast: a stride of 0 repeats an operand.
struct gemm_desc_t {
    ukr_kind_t kind = ukr_kind_t::f32_avx2; // also fixes the src/wei type
    bool dst_bf16 = false;
    bool has_bias = false;
    int64_t M = 0, N = 0, K = 0;
    int64_t sam = 0, sak = 0; // A[m, k]
    int64_t sbk = 0, sbn = 0; // B[k, n]
    int64_t sdm = 0;          // dst row stride; columns are contiguous
    std::vector<int64_t> batch;            // outermost first
    std::vector<int64_t> a_bs, b_bs, d_bs; // per batch dim
    // Fused epilogue after bias (empty: none). po.dst_dt s8/u8 makes the
    // destination int8 (dst_bf16 must then be false).
    postops_t post;
    // B arrives prepacked on most calls (constant weights). When not, every
    // call packs B, and a bf16 GEMM of at most 16 rows with row-major B
    // stays on the AVX512-BF16 wide kernels, which read B in place, rather
    // than AMX, which needs B packed.
    bool b_prepacked = true;
    // M <= 16 may take the few-row paths (the wide kernels; under AMX the
    // AVX512-BF16 ones), whose B packing differs from the regular path's.
    // Callers whose GEMMs of different M share one packed B (conv pixel
    // blocks and their tail) turn this off.
    bool few_row_paths = true;
    // f32_avx2 only: B is stored as bf16 or f16 and widened exactly to
    // f32: in registers where the few-row kernels read it in place,
    // otherwise as it is packed (pack_b_16), per call or once when
    // prepacked (the regular path only: the few-row paths never take
    // 16-bit B prepacked, can_prepack_b()).
    b16_t b16 = b16_t::none;
};

// Whether gemm_t::init() takes d with its 16-bit B (d.b16): f32_avx2 and
// a non-empty problem.
bool b16_plan_fits(const gemm_desc_t &d);

// Folds batch dims into M where that is the same memory walk: B repeats
// along the dim and A and dst (and row-varying post-op operands) step by
// exactly M rows; per-column/scalar post-op operands must not vary. Turns a shared-weight
// [B, S, K] x [K, N] into one tall GEMM, which blocks and threads better.
void fold_batch_into_m(gemm_desc_t &d);

// The leading part of the problem that one execute() computes: output
// columns [0, n) and the products over k in [0, k); 0 means all of N or
// K. Columns from n up to the next strip boundary may be written as well.
// A and B are not read at or past k, except that the bf16 kinds round k up
// to even (one k pair). The AMX kind takes n only. Callers whose operands
// are known to be zero or unused past some point (a causal mask's skipped
// columns) use it to skip that work without a new plan.
struct extent_t {
    int64_t n = 0, k = 0;
};

class gemm_t {
public:
    // Picks the blocking for `nthreads` workers and fetches every
    // micro-kernel variant the shape needs (tails included).
    status_t init(const gemm_desc_t &d, int nthreads);
    // Columns of the bias buffer execute() expects (N rounded up to NR).
    int64_t bias_cols() const;
    // Runs all tasks with llga::parallel_for. `bias` is f32, bias_cols()
    // long and zero-padded, or nullptr when the problem has no bias.
    // `packed_b`, when given, is prepack_b()'s output for this B: no task
    // packs B then (constant weights are packed once and cached).
    // `po_args` holds one base pointer per scale/binary post-op, in chain
    // order (the operand's element [batch 0, row 0, column 0]).
    // `ext` limits the work to a leading part of N and K (see extent_t).
    void execute(const void *a, const void *b, const float *bias, void *dst,
            const void *packed_b = nullptr,
            const void *const *po_args = nullptr,
            const extent_t &ext = {}) const;
    // B can be packed ahead when every batch uses the same B (weights).
    bool can_prepack_b() const;
    // How many tasks of one execute() without a prepacked B pack each of
    // its blocks themselves (batches x M blocks): prepacking a B that is
    // new on every call pays off only when this, times the calls sharing
    // it, exceeds one.
    int64_t b_block_uses() const { return nbatch_ * mblocks_; }
    // Size of the prepacked B: every (N block, K block) panel exactly as a
    // task would pack it, N blocks outer.
    size_t packed_b_bytes() const;
    void prepack_b(const void *b, void *packed) const;
    // Whether `o`'s prepack_b() output is laid out exactly like ours, so
    // one packed B serves both (e.g. a GEMM and its row-tail twin).
    bool same_b_packing(const gemm_t &o) const;
    // "mc=.. nc=.. kc=.. tasks=.." for verbose and tests.
    std::string blocking_str() const;

private:
    struct scratch_t;
    struct po_ctx_t;
    void run_task(int64_t task, const void *a, const void *b,
            const float *bias, void *dst, const void *packed_b,
            const void *const *po_args, scratch_t &sc,
            const extent_t &e) const;
    // The same loop nest with the AMX kernel (32 x 32 tiles accumulated in
    // an f32 scratch block across K blocks; the last K block stores each
    // tile block to L1 for the AVX-512 epilogue kernels with k = 0).
    void run_task_amx(int64_t task, const void *a, const void *b,
            const float *bias, void *dst, const void *packed_b,
            const void *const *po_args, scratch_t &sc,
            const extent_t &e) const;
    // Small M: N-split tasks over whole rows of B, "wide" kernels that
    // stream B (in place when possible), A packed once per K block.
    void run_task_wide(int64_t task, const void *a, const void *b,
            const float *bias, void *dst, const void *packed_b,
            const void *const *po_args, scratch_t &sc,
            const extent_t &e) const;
    void init_wide(int nthreads);
    // Where one task of the wide paths works: its columns, strips, operand
    // bases and element sizes; false when it has no columns in the extent.
    struct wide_task_t {
        int64_t n0, nc, nrw, nstrips, es_a, es_b, es_d;
        const char *A, *B;
        char *D;
    };
    bool wide_task(int64_t task, const void *a, const void *b, void *dst,
            const extent_t &e, wide_task_t *t) const;
    // The wide path with B packed per call from rows that are not B's:
    // strip by strip over all of K (gemm_wide.cpp).
    void run_task_wide_strips(int64_t task, const void *a, const void *b,
            const float *bias, void *dst, const void *const *po_args,
            scratch_t &sc, const extent_t &e) const;
    bool strips_outer_ = false;
    // Narrow N (gemm_narrow.cpp): row-block tasks, each row a dot product
    // per column of B, the sums finished by the tile kernels with k = 0.
    static bool narrow_fits(const gemm_desc_t &d);
    status_t init_narrow(int nthreads);
    void run_task_narrow(int64_t task, const void *a, const void *b,
            const float *bias, void *dst, const void *packed_b,
            const void *const *po_args, scratch_t &sc,
            const extent_t &e) const;
    // The regular path's last strip when it holds at most
    // k_tail_dot_max_cols columns (N = 49: one of 16) and A's rows are k
    // contiguous: per row panel and K block, dot products of the panel's
    // rows against those columns (gathered from the packed strip), summed
    // over K blocks in a small tile that the tile kernels with k = 0
    // finish, instead of a masked tile kernel that spends a whole tile on
    // them. See tail_dots() in gemm_narrow.cpp.
    struct tail_dot_t {
        int64_t cols = 0, kc = 0;
        char *xt = nullptr;    // the columns, kc values each
        float *sums = nullptr;    // per row panel: mr rows x 16 floats
    };
    void gather_tail(const char *strip, int64_t kc, int64_t cols,
            char *out) const;
    // What the narrow path and the tail share: sums[r][c] += the dot
    // product of A row r (of `rows` from `arows`, A's row stride) with
    // column c (of `cols` from `xcol`, `col_step` bytes apart) over k
    // values; and the tile kernels with k = 0 on `rows` rows of sums
    // (bias, post-ops for the tile at (row, col), the store to dst).
    void add_dots(const char *arows, int rows, const char *xcol,
            int64_t col_step, int64_t cols, int64_t k,
            float (*sums)[16]) const;
    void finish_sums(float (*sums)[16], int rows, int64_t cols,
            const float *bias, char *dst, int64_t task,
            const void *const *po_args, int64_t row, int64_t col) const;
    void tail_dots(const tail_dot_t &t, int64_t task, int64_t panel,
            const char *arows, int rows, bool first, bool last,
            const float *bias, char *dst, const void *const *po_args,
            int64_t row, int64_t col) const;
    bool tail_dot_ = false; // the kinds and A layout allow it
    // The narrow path's packed B: its columns, each K contiguous values
    // (the first `k` of each written), N x K elements.
    size_t narrow_packed_bytes() const;
    void gather_columns(const void *b, int64_t k, void *out) const;
    // Columns of one packed B strip (NR, or the wide strip width).
    int64_t strip_cols() const { return wide_ ? nvw_ * s_.width : s_.nr; }
    // Fills the per-tile operand table for the tile at rows m0.., columns
    // n0.. of the batch that `task` belongs to.
    void po_table(int64_t task, const void *const *po_args, int64_t m0,
            int64_t n0, postop_ptr_t *out) const;
    // f32 partial sums need their own buffer (not dst) when the dst type
    // is not f32 or the chain reads the previous dst (sum).
    bool acc_in_scratch() const;
    int64_t dst_es() const;
    // Bytes of one packed (N block, K block) panel and the K block count.
    size_t packed_block_bytes() const;
    int64_t kblocks() const { return (d_.K + kc_ - 1) / kc_; }
    const char *packed_block(const void *packed, int64_t n0, int64_t k0) const {
        return static_cast<const char *>(packed)
                + static_cast<size_t>((n0 / nc_) * kblocks() + k0 / kc_)
                * packed_block_bytes();
    }
    // Where a task's operands start: element offsets of A, B and dst.
    void task_origin(int64_t task, int64_t *m0, int64_t *n0, int64_t *aoff,
            int64_t *boff, int64_t *doff) const;

    gemm_desc_t d_;
    ukr_shape_t s_ {};
    int64_t mc_ = 0, nc_ = 0, kc_ = 0;
    int64_t mblocks_ = 0, nblocks_ = 0, nbatch_ = 1;
    ukr_fn_t fns_[12][2] = {}; // [rows - 1][vectors - 1]
    // AVX2 f32: the tile kernels broadcast A from the user's rows (no A
    // panel packing); see a_rows_wins() in gemm_driver.cpp.
    bool a_rows_ = false;
    ukr_fn_t amx_ = nullptr;
    int amx_rows_ = 32; // rows per AMX panel: 16 for GEMMs of <= 16 rows
    bool wide_ = false;
    // Wide, one row: constant weights are read in place, not prepacked
    // (wide_stream_t::m1_in_place).
    bool b_stays_ = false;
    int wm_ = 0, nvw_ = 0; // wide: rows per panel, vectors per strip
    ukr_fn_t wfns_[8][16] = {};
    ukr_fn_t wcvt_[8][16] = {}; // wide, bf16 B read in place (sbn == 1)
    // M = 1 against B^T (k contiguous): dot-product kernels per 1..8
    // columns, then the wide kernels with k = 0 as the epilogue.
    bool dot_ = false;
    // At most k_narrow_max_n columns: the narrow path (B's columns are
    // read in place or gathered, not packed in strips).
    bool narrow_ = false;
    ukr_fn_t dfns_[8] = {};
    // Interleaved-order dot kernels for the further rows of A, which find
    // B^T's rows in L1 (run_task_dot); K is then walked in dot_kc_ chunks.
    ukr_fn_t dfns_hot_[8] = {};
    int64_t dot_kc_ = 0;
    void run_task_dot(int64_t task, const void *a, const void *b,
            const float *bias, void *dst, const void *const *po_args,
            scratch_t &sc, const extent_t &e) const;
};

} // namespace gemm
} // namespace cpu
} // namespace llga
