// backends/cpu/kernels/gemm_blocking.hpp — the task grid shared by the
// GEMM drivers (gemm_driver for f32/bf16, gemm_int8): how M and N are cut
// into blocks so that every thread gets a few independent tasks, and where
// a task (batch, M block, N block; N fastest) starts.
#pragma once

#include <cstdint>
#include <vector>

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

// The batch dims and the element strides of A, B and dst along them.
struct batch_strides_t {
    const std::vector<int64_t> &batch, &a_bs, &b_bs, &d_bs;
};

// Task `task` of grid `g`: its first row and column, and the element
// offsets of A, B and dst for its batch index.
void task_origin(int64_t task, const block_grid_t &g,
        const batch_strides_t &b, int64_t *m0, int64_t *n0, int64_t *aoff,
        int64_t *boff, int64_t *doff);

} // namespace gemm
} // namespace cpu
} // namespace llga
