// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/sdpa/sdpa_scores_p.hpp — the SDPA kernel's row work
// on a block of scores (rows of `lds` floats) between its two GEMMs: the
// score steps left after the first GEMM's epilogue, rounding to the types
// the reference rounds to, and the SoftMax of each row. asmjit-free.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backends/cpu/kernels/gemm/gemm_scalar_div.hpp"
#include "backends/cpu/kernels/norm/softmax_jit.hpp"
#include "backends/cpu/kernels/sdpa/sdpa_desc_p.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace sdpa {

// The leading score steps a GEMM epilogue can run (appended to post):
// binary ops on an f32 or bf16 operand broadcast as a scalar, row, column
// or full matrix, and Tanh, with f32 or bf16 results, the bf16 roundings
// included (*rounds_scores: the scores are rounded to bf16 there too).
// Returns how many steps it took.
size_t epilogue_steps(const desc_t &d, gemm::postops_t &post, bool *rounds_scores);

// The Q·Kᵀ epilogue's scalar divisions that may run as multiplications
// (gemm_scalar_div.hpp); none when LLGA_SDPA_DIV_AS_MUL=0.
gemm::scalar_div_twin_t qk_div_twin(const gemm::postops_t &post);

// Score block budget: rows x Skv f32 values in about 96 KiB, so the block
// and the packed K panel share L2 with room to spare.
constexpr int64_t k_block_floats = 24 * 1024;
constexpr int64_t k_max_rows = 192;
// K and V are packed once per (batch, head) for all its row blocks, up to
// this many bytes of packed panels at a time (batches go in chunks).
constexpr size_t k_pack_budget = size_t(64) << 20;

// How the query rows are cut into blocks (one task each): `rows` a
// multiple of `step` (the GEMM's row granule) within the score block
// budget, halved until there are a few tasks per thread; `lds` the score
// block's row stride in floats.
struct row_blocks_t {
    int64_t nbatch = 1, rows = 1, qblocks = 1, lds = 16;
};
row_blocks_t plan_row_blocks(const desc_t &d, int64_t step, int nthreads);

// The epilogue's binary-step operands for batch b and the block's first
// row r0, in step order (po must hold k_max_po_operands); returns how
// many.
int epilogue_operands(const desc_t &d, const compiler::exec_ctx_t &ctx,
        size_t steps, int64_t b, int64_t r0, const void **po);

// SoftMax row blocks (as softmax.cpp): each f32 partial sum covers at most
// this many exponentials before blocks are combined in double.
constexpr int64_t k_sm_block = 1024;

class score_rows_t {
public:
    score_rows_t() = default;
    // With the generated SoftMax row functions of `isa`.
    static status_t make(const desc_t *d, int64_t lds, isa_t isa,
            score_rows_t *out);
    // `d` must outlive this object; reduce/apply are the generated SoftMax
    // row functions.
    score_rows_t(const desc_t *d, int64_t lds, norm::fn_t reduce,
            norm::fn_t apply, norm::fn_t block)
        : d_(d), lds_(lds), reduce_(reduce), apply_(apply), block_(block) {}

    // The score block's values as a tensor of type t would hold them.
    // Columns [c0, c1) of the block's rows.
    void round_rows(float *S, int64_t rows, int64_t c0, int64_t c1,
            data_type_t t) const;
    // Score steps `first`.. on columns [c0, c1) of the block's rows.
    void score_rows(const compiler::exec_ctx_t &ctx, int64_t b, int64_t r0,
            int64_t rows, size_t first, int64_t c0, int64_t c1,
            float *S) const;
    // SoftMax over one row of `len` values in place (stored exponentials,
    // blocks combined in double as softmax.cpp does); returns the row max.
    float softmax_row(float *x, int64_t len, float *mb, float *sb,
            float *stat) const;
    // The same on each of `rows` rows of `len` values (1..k_sm_block, one
    // block each), without the log-sum-exp, in one generated call; the
    // rows' maxima go to row_max. For short rows the two calls and the
    // arithmetic around them per row cost as much as the SoftMax
    // (stable-diffusion cross attention: 77 keys, 10 ymm per row).
    void softmax_rows(float *S, int64_t rows, int64_t len,
            float *row_max) const;

private:
    // One score step on columns [c0, c1) of the block's rows.
    void score_step(const compiler::exec_ctx_t &ctx, const score_step_t &st,
            int64_t b, int64_t r0, int64_t rows, int64_t c0, int64_t c1,
            float *S) const;

    const desc_t *d_ = nullptr;
    int64_t lds_ = 16;
    norm::fn_t reduce_ = nullptr, apply_ = nullptr, block_ = nullptr;
};

} // namespace sdpa
} // namespace cpu
} // namespace llga
