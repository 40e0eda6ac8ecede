// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/softmax_jit.hpp — the generated functions of the
// softmax family (see softmax.cpp for how they are combined): per-row,
// per-column-block and streaming reduce/apply, each cached by descriptor.
// Internal to backends/cpu; asmjit-free.
#pragma once

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/norm/norm_args.hpp"
#include "base/status.hpp"

namespace llga {
namespace cpu {
namespace softmax {

// row_*: one contiguous slice (args.src/dst, len); reduce writes
//   stats = {max m, sum e^(x-m)}, apply reads params = {p0, p1}.
// col_*: one block of `lanes` <= W columns of a strided axis (rows `inner`
//   elements apart); stats/params hold W-lane vectors {m | s}, {p0 | p1}.
// strm_*: one row segment of `len` contiguous columns of a strided axis,
//   accumulating per column over calls: strm_max does stats = max(stats,
//   x); strm_exp does stats += e^(x - params) (and tmp = e^(x - params)
//   when stored); strm_apply writes dst from params = p0 and gamma = p1.
// row_block: SoftMax in place on `lanes` f32 rows of `len` values,
//   `inner` elements apart from src: per row m = max (written to
//   stats[row]), s = sum e^(x-m), x = e^(x-m) * RN(1/s); a row of -inf
//   becomes zeros when zero_empty (inf_as_zero), NaN otherwise. The fused
//   attention kernel's short rows, one call per block instead of two per
//   row (f32, SoftMax, stored only).
// Apply forms: SoftMax e^(x-p0)*p1 (stored: tmp*p1), LogSoftmax
// (x-p0)-p1.
enum class fkind_t : int32_t {
    row_reduce,
    row_apply,
    col_reduce,
    col_apply,
    strm_max,
    strm_exp,
    strm_apply,
    row_block,
};

struct spec_t {
    fkind_t kind;
    norm::dt_t sdt, ddt;
    bool log, tail, avx512, stored;
    bool zero_empty = false; // row_block only
};


// The generated function for `s` at `isa` (avx2 or avx512_core).
status_t get_fn(isa_t isa, const spec_t &s, norm::fn_t *fn);

// Combining row blocks reduced separately (softmax.cpp; also used by the
// fused SDPA kernel): m = max m_j and s = sum s_j e^(m_j - m) over `nb`
// blocks `stride` apart, in double; NaN anywhere stays NaN.
void combine(const float *mb, const float *sb, int64_t nb, int64_t stride,
        float *m, float *s);
// The stored-apply factor of block j, p1 e^(m_j - m); 0 with *zero set
// (the caller zeroes the block's exponentials) for an inf_as_zero slice
// (p1 = 0) or an all -inf block of a slice with a finite max.
float block_scale(float p1, float mj, float m, bool *zero);

} // namespace softmax
} // namespace cpu
} // namespace llga
