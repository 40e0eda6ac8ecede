// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/gemm_blocking_p.hpp — the task grid shared by the
// GEMM drivers (gemm_driver for f32/bf16, gemm_int8): how M and N are cut
// into blocks so that every thread gets a few independent tasks, where a
// task (batch, M block, N block; N fastest) starts, which batch dims fold
// into M, and where a tile's post-op operands are.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "backends/cpu/kernels/gemm/gemm_postops.hpp"

namespace llga {
namespace cpu {
namespace gemm {

// How blocks are split until there are enough tasks: first M while blocks
// keep at least `m_first_rows` rows (0: skip this step), then N down to
// `min_nc` columns, then M down to `min_mc` rows, then N down to one strip.
struct split_rule_t {
    int64_t m_first_rows = 0;
    int64_t min_nc = 0, min_mc = 0;
};

struct block_grid_t {
    int64_t mc = 0, nc = 0;           // rows / columns per block
    int64_t mblocks = 0, nblocks = 0; // blocks along M / N
};

// Starts from the largest blocks (at most mc_max x nc_max, whole mr-row
// panels and nr-column strips) and splits by `rule` until nbatch x
// blocks reaches `want`; blocks come out even.
block_grid_t split_blocks(int64_t M, int64_t N, int64_t nbatch, int64_t mr,
        int64_t nr, int64_t mc_max, int64_t nc_max, int64_t want,
        const split_rule_t &rule);

// The row panels of an M block of `mc` rows: `mr` rows each, except that
// a last panel of fewer than `min_rows` rows (too few independent
// accumulators to hide the FMA latency: a 6 x 16 AVX2 tile runs at peak
// with 4 or more rows, at 3/4 with 3, 1/2 with 2) is merged with the one
// before and the pair cut into two nearly equal panels: 6 + 2 becomes
// 4 + 4, 6 + 1 becomes 4 + 3.
class row_panels_t {
public:
    row_panels_t(int64_t mc, int64_t mr, int64_t min_rows)
        : mc_(mc), mr_(mr), n_((mc + mr - 1) / mr) {
        const int64_t rem = mc % mr;
        if (n_ >= 2 && rem > 0 && rem < min_rows)
            split_ = (n_ - 2) * mr + (mr + rem + 1) / 2;
    }
    int64_t count() const { return n_; }
    int64_t start(int64_t i) const {
        return split_ > 0 && i == n_ - 1 ? split_ : i * mr_;
    }
    int rows(int64_t i) const {
        const int64_t end = split_ > 0 && i == n_ - 2
                ? split_
                : std::min(mc_, (i + 1) * mr_);
        return static_cast<int>(end - start(i));
    }

private:
    int64_t mc_, mr_, n_;
    int64_t split_ = 0; // first row of the last panel when re-cut
};

// The batch dims and the element strides of A, B and dst along them.
struct batch_strides_t {
    const std::vector<int64_t> &batch, &a_bs, &b_bs, &d_bs;
};

// Task `task` of grid `g`: its first row and column, and the element
// offsets of A, B and dst for its batch index.
void task_origin(int64_t task, const block_grid_t &g,
        const batch_strides_t &b, int64_t *m0, int64_t *n0, int64_t *aoff,
        int64_t *boff, int64_t *doff);

// The batch-related fields of a GEMM description (gemm_desc_t,
// gemm_int8_desc_t), for fold_batch below.
struct batch_view_t {
    int64_t &M, &sam, &sdm;
    std::vector<int64_t> &batch, &a_bs, &b_bs, &d_bs;
    postops_t &post;
};

// Folds batch dims into M where that is the same memory walk: B repeats
// along the dim and A and dst (and row-varying post-op operands) step by
// exactly M rows; per-column/scalar post-op operands must not vary. Turns
// a shared-weight [B, S, K] x [K, N] into one tall GEMM, which blocks and
// threads better.
void fold_batch(const batch_view_t &v);

// The operand table of the tile whose first element is (row, col) of
// batch index `bt` (row-major over `batch`): for each scale/binary op of
// `po`, in chain order, the address of its value for that element in
// args[i] (the operand's base) and its row stride in bytes.
void po_operand_table(const postops_t &po, const std::vector<int64_t> &batch,
        int64_t bt, const void *const *args, int64_t row, int64_t col,
        postop_ptr_t *out);

} // namespace gemm
} // namespace cpu
} // namespace llga
