// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/sdpa/sdpa_scores.cpp — the SDPA kernel's row work on
// a block of scores between its two GEMMs: the score ops its first GEMM's
// epilogue cannot run, rounding where the reference rounds, and the SoftMax
// of each row.
#include "backends/cpu/kernels/sdpa/sdpa_scores_p.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <vector>

#include "backends/cpu/kernels/common/convert_rows.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "backends/cpu/kernels/sdpa/sdpa_skip_p.hpp"
#include "base/knobs.hpp"

namespace llga {
namespace cpu {
namespace sdpa {

namespace {

// x[j] = x[j] op y[j] for j < n (one loop per op, so each vectorises).
void apply_binary_row(gemm::po_binary_t op, float *x, const float *y, int64_t n) {
    switch (op) {
        case gemm::po_binary_t::add:
            for (int64_t j = 0; j < n; ++j) x[j] += y[j];
            break;
        case gemm::po_binary_t::sub:
            for (int64_t j = 0; j < n; ++j) x[j] -= y[j];
            break;
        case gemm::po_binary_t::mul:
            for (int64_t j = 0; j < n; ++j) x[j] *= y[j];
            break;
        case gemm::po_binary_t::div:
            for (int64_t j = 0; j < n; ++j) x[j] /= y[j];
            break;
        case gemm::po_binary_t::max:
            for (int64_t j = 0; j < n; ++j) x[j] = std::max(x[j], y[j]);
            break;
        case gemm::po_binary_t::min:
            for (int64_t j = 0; j < n; ++j) x[j] = std::min(x[j], y[j]);
            break;
    }
}

} // namespace

// The leading score steps the GEMM epilogue can apply: binary ops on an
// f32 or bf16 operand that is a scalar, a row, a column or a full matrix,
// and Tanh, with f32 or bf16 results. Scores the reference stores as bf16
// (the Q·Kᵀ output, a step's output) are rounded there in registers
// (round_bf16), so a bf16 graph's chain costs no pass over the block;
// *rounds_scores tells the caller the GEMM output is already bf16-rounded.
// f16 results stop the chain (the epilogue has no f16 rounding).
size_t epilogue_steps(const desc_t &d, gemm::postops_t &post, bool *rounds_scores) {
    using gemm::po_bcast_t;
    using gemm::postop_t;
    using gemm::po_eltwise_t;
    *rounds_scores = false;
    if (d.s_dt != dnnl_f32 && d.s_dt != dnnl_bf16) return 0;
    if (d.s_dt == dnnl_bf16) {
        post.ops.push_back(postop_t::make_eltwise(po_eltwise_t::round_bf16));
        *rounds_scores = true;
    }
    size_t n = 0;
    for (const score_step_t &st : d.steps) {
        if (st.out_dt != dnnl_f32 && st.out_dt != dnnl_bf16) break;
        if (st.kind == step_kind_t::tanh) {
            post.ops.push_back(postop_t::make_eltwise(po_eltwise_t::tanh));
        } else if (st.kind == step_kind_t::binary) {
            const operand_t &o = st.operand;
            if (post.operand_count() >= gemm::k_max_po_operands) break;
            if ((o.dt != dnnl_f32 && o.dt != dnnl_bf16)
                    || (o.cs != 0 && o.cs != 1))
                break;
            const po_bcast_t b = o.rs == 0 ? (o.cs == 0 ? po_bcast_t::scalar
                                                        : po_bcast_t::col)
                                           : (o.cs == 0 ? po_bcast_t::row
                                                        : po_bcast_t::full);
            post.ops.push_back(postop_t::make_binary(st.op, b,
                    o.dt == dnnl_bf16 ? gemm::po_dt_t::bf16
                                      : gemm::po_dt_t::f32,
                    o.rs));
        } else {
            break;
        }
        if (st.out_dt == dnnl_bf16)
            post.ops.push_back(postop_t::make_eltwise(po_eltwise_t::round_bf16));
        ++n;
    }
    return n;
}

gemm::scalar_div_twin_t qk_div_twin(const gemm::postops_t &post) {
    if (knob_int(knob_t::sdpa_div_as_mul, 1) == 0) return {};
    return gemm::scalar_div_twin_t(post);
}

row_blocks_t plan_row_blocks(const desc_t &d, int64_t step, int nthreads) {
    row_blocks_t r;
    for (int64_t b : d.batch)
        r.nbatch *= b;
    int64_t rows = std::max<int64_t>(step,
            k_block_floats / std::max<int64_t>(d.Skv, 1) / step * step);
    rows = std::min({rows, k_max_rows, d.Sq});
    // Enough tasks for every thread a few times over.
    while (rows > step && r.nbatch * div_up(d.Sq, rows) < 4 * nthreads)
        rows = std::max(step, round_up(rows / 2, step));
    r.rows = rows;
    r.qblocks = div_up(d.Sq, rows);
    r.lds = round_up(d.Skv, 16);
    if ((r.lds * 4) % 4096 == 0) r.lds += 16; // rows off the same L1 sets
    return r;
}

int epilogue_operands(const desc_t &d, const compiler::exec_ctx_t &ctx,
        size_t steps, int64_t b, int64_t r0, const void **po) {
    int np = 0;
    for (size_t s = 0; s < steps; ++s) {
        const score_step_t &st = d.steps[s];
        if (st.kind != step_kind_t::binary) continue;
        const int64_t es = st.operand.dt == dnnl_f32 ? 4 : 2;
        po[np++] = static_cast<const char *>(ctx.inputs[st.operand.port])
                + (batch_offset(d, b, st.operand.bs) + r0 * st.operand.rs) * es;
    }
    return np;
}

status_t score_rows_t::make(const desc_t *d, int64_t lds, isa_t isa,
        score_rows_t *out) {
    softmax::spec_t s {softmax::fkind_t::row_reduce, norm::dt_t::f32,
            norm::dt_t::f32, false, false, isa == isa_t::avx512_core, true};
    norm::fn_t reduce = nullptr, apply = nullptr, block = nullptr;
    LLGA_RETURN_IF_ERROR(softmax::get_fn(isa, s, &reduce));
    s.kind = softmax::fkind_t::row_apply;
    LLGA_RETURN_IF_ERROR(softmax::get_fn(isa, s, &apply));
    s.kind = softmax::fkind_t::row_block;
    s.zero_empty = d->inf_as_zero;
    LLGA_RETURN_IF_ERROR(softmax::get_fn(isa, s, &block));
    *out = score_rows_t(d, lds, reduce, apply, block);
    return dnnl_success;
}

// The score block's values as a tensor of type t would hold them.
// Columns [c0, c1) of the block's rows.
void score_rows_t::round_rows(float *S, int64_t rows, int64_t c0, int64_t c1,
        data_type_t t) const {
    if (t == dnnl_f32) return;
    for (int64_t i = 0; i < rows; ++i)
        common::round_row(S + i * lds_ + c0, c1 - c0, t);
}

// Score steps `first`.. on columns [c0, c1) of the block's rows.
void score_rows_t::score_rows(const compiler::exec_ctx_t &ctx, int64_t b, int64_t r0,
        int64_t rows, size_t first, int64_t c0, int64_t c1,
        float *S) const {
    for (size_t k = first; k < d_->steps.size(); ++k) {
        score_step(ctx, d_->steps[k], b, r0, rows, c0, c1, S);
        round_rows(S, rows, c0, c1, d_->steps[k].out_dt);
    }
}

// One score step on columns [c0, c1) of the block's rows.
void score_rows_t::score_step(const compiler::exec_ctx_t &ctx, const score_step_t &st,
        int64_t b, int64_t r0, int64_t rows, int64_t c0, int64_t c1,
        float *S) const {
    if (st.kind == step_kind_t::tanh) {
        for (int64_t i = 0; i < rows; ++i)
            for (int64_t j = c0; j < c1; ++j)
                S[i * lds_ + j] = std::tanh(S[i * lds_ + j]);
        return;
    }
    // The operand's row i as f32 values, whatever its type and
    // broadcast: the tensor's own row when it is f32 and contiguous,
    // else a widened copy (made once when it does not vary by row).
    const operand_t &o = st.operand;
    const char *ob = static_cast<const char *>(
            ctx.inputs[static_cast<size_t>(o.port)]);
    const int64_t es = o.dt == dnnl_f32 ? 4 : 2;
    const char *base = ob + batch_offset(*d_, b, o.bs) * es;
    const bool direct = o.dt == dnnl_f32 && o.cs == 1;
    thread_local std::vector<float> yrow;
    if (!direct) yrow.resize(static_cast<size_t>(d_->Skv));
    int64_t widened = -1; // operand row now in yrow
    const auto y_row = [&](int64_t gi) -> const float * {
        const int64_t r = o.rs == 0 ? 0 : gi;
        if (direct) return reinterpret_cast<const float *>(base + r * o.rs * es);
        if (widened != r) {
            common::widen_matrix(base + r * o.rs * es, o.dt, 1, d_->Skv, 0, o.cs,
                    yrow.data());
            widened = r;
        }
        return yrow.data();
    };
    if (st.kind == step_kind_t::binary) {
        for (int64_t i = 0; i < rows; ++i)
            apply_binary_row(st.op, S + i * lds_ + c0, y_row(r0 + i) + c0,
                    c1 - c0);
        return;
    }
    // Select: x = cond ? slot1 : slot2, x being one of the slots.
    const bool x_if_true = st.chained_slot == 1;
    int64_t shift[2] = {0, 0};
    if (st.causal) causal_shifts(ctx, st, shift);
    const uint8_t *cp = st.causal
            ? nullptr
            : static_cast<const uint8_t *>(ctx.inputs[st.cond.port])
                    + batch_offset(*d_, b, st.cond.bs);
    for (int64_t i = 0; i < rows; ++i) {
        const int64_t gi = r0 + i;
        float *x = S + i * lds_;
        if (st.causal) {
            // x keeps its value inside [lo, hi) when it is the
            // "true" slot, outside it otherwise.
            int64_t lo, hi;
            causal_range(*d_, st, shift, gi, &lo, &hi);
            const float *y = y_row(gi);
            const auto take = [&](int64_t a, int64_t e) {
                for (int64_t j = a; j < e; ++j)
                    x[j] = y[j];
            };
            if (x_if_true) {
                take(c0, std::min(lo, c1));
                take(std::max(hi, c0), c1);
            } else {
                take(std::max(lo, c0), std::min(hi, c1));
            }
            continue;
        }
        const uint8_t *c = cp + gi * st.cond.rs;
        const float *y = y_row(gi);
        for (int64_t j = c0; j < c1; ++j)
            if ((c[j * st.cond.cs] != 0) != x_if_true) x[j] = y[j];
    }
}

// SoftMax over one row of `len` values in place (stored exponentials,
// blocks combined in double as softmax.cpp does); returns the row max.
float score_rows_t::softmax_row(float *x, int64_t len, float *mb, float *sb,
        float *stat) const {
    const int64_t nb = div_up(len, k_sm_block);
    float st[2], pr[2];
    norm::args_t a {};
    a.stats = st;
    a.params = pr;
    for (int64_t j = 0; j < nb; ++j) {
        a.src = x + j * k_sm_block;
        a.tmp = x + j * k_sm_block;
        a.len = std::min(k_sm_block, len - j * k_sm_block);
        reduce_(&a);
        mb[j] = st[0];
        sb[j] = st[1];
    }
    const float ninf = -std::numeric_limits<float>::infinity();
    float m = mb[0], s = sb[0];
    // One block (rows up to 1024): what combine() and block_scale()
    // give for it, without their two exponentials in double per row.
    const bool one = nb == 1;
    if (!one)
        softmax::combine(mb, sb, nb, 1, &m, &s);
    else if (std::isnan(m) || m == ninf)
        s = std::isnan(m) ? m : std::numeric_limits<float>::quiet_NaN();
    const float p1 = d_->inf_as_zero && m == ninf
            ? 0.f
            : static_cast<float>(1.0 / static_cast<double>(s));
    pr[0] = m;
    if (stat) // log-sum-exp, as the SoftMax kernel reports it
        *stat = d_->inf_as_zero && m == ninf
                ? m
                : static_cast<float>(
                        double(m) + std::log(static_cast<double>(s)));
    for (int64_t j = 0; j < nb; ++j) {
        a.len = std::min(k_sm_block, len - j * k_sm_block);
        a.tmp = x + j * k_sm_block;
        a.dst = x + j * k_sm_block;
        bool zero = one && p1 == 0.f;
        pr[1] = one ? p1 : softmax::block_scale(p1, mb[j], m, &zero);
        if (zero) std::fill(a.tmp, a.tmp + a.len, 0.f);
        apply_(&a);
    }
    return m;
}

void score_rows_t::softmax_rows(float *S, int64_t rows, int64_t len,
        float *row_max) const {
    assert(len >= 1 && len <= k_sm_block);
    norm::args_t a {};
    a.src = S;
    a.len = len;
    a.inner = lds_;
    a.lanes = rows;
    a.stats = row_max;
    block_(&a);
}

} // namespace sdpa
} // namespace cpu
} // namespace llga
