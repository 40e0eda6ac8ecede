// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/sdpa/sdpa_skip_p.hpp — where an SDPA row block may stop
// short of Skv: the masks whose trailing keys get probability exactly 0
// (implicit causal and boolean Selects, additive padding masks holding
// -inf or a large negative finite value such as finfo.min), the column a
// block stops at, and the bound on skipped scores that makes a finite
// mask value safe to skip. asmjit-free.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "backends/cpu/kernels/sdpa/sdpa_desc_p.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace sdpa {

// Element offset of flattened batch index `b` for per-dim strides `bs`.
int64_t batch_offset(const desc_t &d, int64_t b, const std::vector<int64_t> &bs);

// How a row block may stop short of Skv, at the last column its mask
// keeps, when the ops between SoftMax and P·V keep a zero probability
// zero:
// - select: a Select on an implicit causal or an explicit boolean mask
//   (live_cols(); the score ops from it on run on the skipped columns
//   too, whose values do not depend on Q and K);
// - padding: an additive mask as the last score step, whose trailing
//   masked columns in every row of the block (padded keys, or the upper
//   triangle of an explicit causal mask) are skipped (padded_cols()).
enum class skip_t { none, select, padding };
skip_t skip_kind(const desc_t &d);

// Index of the first Select among the score steps.
size_t select_step(const desc_t &d);

// The s32 shifts of both sides of an implicit causal condition.
void causal_shifts(const compiler::exec_ctx_t &ctx, const score_step_t &st,
        int64_t *shift);

// Columns [lo, hi) of row i where the implicit causal condition
// lhs >= rhs holds.
void causal_range(const desc_t &d, const score_step_t &st,
        const int64_t *shift, int64_t i, int64_t *lo, int64_t *hi);

// Columns [0, n) of rows r0.. of batch b hold every score the Select's
// mask keeps; past n the mask replaces every row's scores. Skv when some
// row keeps a column at the end, or none anywhere.
int64_t live_cols(const desc_t &d, const compiler::exec_ctx_t &ctx, int64_t b,
        int64_t r0, int64_t rows);

// The value of a scalar operand (rs = cs = 0) for batch b, as f32.
float scalar_operand(const desc_t &d, const operand_t &o,
        const compiler::exec_ctx_t &ctx, int64_t b);

// An upper bound on |score| just before the additive mask (the last score
// step) for keys [first, Skv) of the block, given as a callback because it
// reads K and is needed only when a finite mask value would be skipped.
using score_bound_fn = std::function<double(int64_t first)>;

// Padding: one past the last column of the additive mask, over rows r0..
// of batch b (one row when the mask is the same for every row), that is
// not masked. Masked: -inf, or a finite value <= -8192 whose probability
// is provably 0 — the bound puts the skipped score more than 208 below the
// row's last kept score. Skv when there is no kept column, or when a
// finite skipped value cannot be proven negligible (the block runs whole).
int64_t padded_cols(const desc_t &d, const compiler::exec_ctx_t &ctx,
        int64_t b, int64_t r0, int64_t rows, const score_bound_fn &bound);

// |score| before the last step, from a bound `qk` on |Q·Kᵀ| through the
// steps before it (scalar scale and shift, Tanh, scalar Maximum/Minimum,
// with each type's rounding); +inf when another step comes first or a
// value may overflow.
double score_bound(const desc_t &d, const compiler::exec_ctx_t &ctx,
        int64_t b, double qk);

// max |x| over a rows x cols matrix with element strides rs, cs; NaN when
// some element is NaN or infinite (a NaN bound fails every test).
// Vectorised along a contiguous dim (AVX2, which every host that runs the
// kernel has).
float abs_max(const float *x, int64_t rows, int64_t cols, int64_t rs,
        int64_t cs);

// out[j] = max_k |K[k, j]| for j < n of an f32 B[k, j] (element strides ks,
// ns), NaN for a key holding a NaN or inf: per-key maxima, so any range of
// keys gets its bound from n values.
void key_abs_max(const float *k, int64_t K, int64_t n, int64_t ks, int64_t ns,
        float *out);

// The same two over bf16 (f16 when `f16`) storage, read as it is: a
// 16-bit value's magnitude orders as its bits without the sign, so the
// largest is found on the integers and widened once (inf and NaN lie
// above every finite pattern).
float abs_max_16(const uint16_t *x, bool f16, int64_t rows, int64_t cols,
        int64_t rs, int64_t cs);
void key_abs_max_16(const uint16_t *k, bool f16, int64_t K, int64_t n,
        int64_t ks, int64_t ns, float *out);

} // namespace sdpa
} // namespace cpu
} // namespace llga
