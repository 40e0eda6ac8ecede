// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/sdpa/sdpa.cpp — the fused scaled dot-product attention
// kernel (computing in f32; bf16/f16/int8 tensors are staged by
// sdpa_stage.cpp; quantized blocks go to sdpa_int8.cpp unless
// LLGA_SDPA_INT8=0). One task is a block of query rows of one (batch, head):
//
//   S = Q_blk · Kᵀ          JIT GEMM; the leading score ops (scale, additive
//                           masks, Tanh) run in its epilogue
//   S = rest of the score ops (Select on an explicit or implicit causal
//                           mask, anything after it), row by row
//   S = SoftMax(S)          the generated row reduce/apply functions, in
//                           place
//   O_blk = S · V           JIT GEMM, written straight to the output's
//                           strides (a transpose tail only moves them)
//
// The score block (rows x Skv) stays in L2, so the Sq x Skv score matrix is
// never written to memory, and the implicit causal mask costs a compare per
// element instead of five materialised tensors.
#include "backends/cpu/kernels/sdpa/sdpa.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "backends/cpu/kernels/common/convert_rows.hpp"
#include "backends/cpu/kernels/gemm/gemm_driver.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "backends/cpu/kernels/sdpa/sdpa_desc_p.hpp"
#include "backends/cpu/kernels/sdpa/sdpa_int8_p.hpp"
#include "backends/cpu/kernels/sdpa/sdpa_scores_p.hpp"
#include "backends/cpu/kernels/sdpa/sdpa_skip_p.hpp"
#include "backends/cpu/kernels/sdpa/sdpa_stage_p.hpp"
#include "base/knobs.hpp"
#include "base/parallel.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace sdpa {

namespace {

using gemm::gemm_desc_t;
using gemm::gemm_t;

// Per-thread score buffers. A task waiting inside a GEMM's nested
// parallel_for may run another task on the same thread, so buffers are
// taken as a stack, never shared by two live tasks.
class buffer_stack_t {
public:
    float *push(size_t floats) {
        if (depth_ == bufs_.size()) bufs_.emplace_back(new aligned_buf_t);
        return static_cast<float *>(bufs_[depth_++]->get(floats * 4));
    }
    void pop() { --depth_; }

private:
    std::vector<std::unique_ptr<aligned_buf_t>> bufs_;
    size_t depth_ = 0;
};

class kernel_t : public compiler::kernel_t {
public:
    kernel_t(const desc_t &d, isa_t isa) : d_(d), isa_(isa) {}
    const char *name() const override { return name_.c_str(); }

    status_t init(int nthreads) {
        const gemm::ukr_kind_t kind = isa_ == isa_t::avx512_core
                ? gemm::ukr_kind_t::f32_avx512
                : gemm::ukr_kind_t::f32_avx2;
        const row_blocks_t rb
                = plan_row_blocks(d_, gemm::ukr_shape(kind).mr, nthreads);
        nbatch_ = rb.nbatch;
        rows_ = rb.rows;
        qblocks_ = rb.qblocks;
        lds_ = rb.lds;

        // Heads that are not plain f32 (bf16/f16, dequantized int8) go
        // through f32 copies: Q rows per task, K and V per head; so do the
        // output rows when the output is not plain f32.
        q_f32_ = d_.q.plain_f32();
        o_f32_ = d_.o_dt == dnnl_f32 && d_.m2_dt == dnnl_f32
                && d_.out_ops.empty();
        ks_.plan(d_.k, d_.D, d_.Skv, d_.k_ks, d_.k_ns);
        vs_.plan(d_.v, d_.Skv, d_.Dv, d_.v_ks, d_.v_ns);
        gemm_desc_t g1;
        g1.kind = kind;
        g1.N = d_.Skv;
        g1.K = d_.D;
        g1.sam = q_f32_ ? d_.q_rs : d_.D;
        g1.sak = q_f32_ ? d_.q_cs : 1;
        g1.sbk = ks_.on ? ks_.sbk : d_.k_ks;
        g1.sbn = ks_.on ? ks_.sbn : d_.k_ns;
        g1.sdm = lds_;
        g1.b_prepacked = true; // packed once per head in execute()
        // Several row blocks per head share packed K and V: blocks of up
        // to 16 rows (Skv >= 1536) then run on the tile kernels like the
        // others rather than the few-row ones, which are made for B read
        // once (1 x 16 x 1024 x 2048 x 128, one thread: 75.9 -> 84.4
        // GFLOP/s), and the tail block shares the packing.
        g1.few_row_paths = qblocks_ == 1;
        gemm_steps_ = epilogue_steps(d_, g1.post, &gemm_rounds_scores_);
        gemm_desc_t g2;
        g2.kind = kind;
        g2.N = d_.Dv;
        g2.K = d_.Skv;
        g2.sam = lds_;
        g2.sak = 1;
        g2.sbk = vs_.on ? vs_.sbk : d_.v_ks;
        g2.sbn = vs_.on ? vs_.sbn : d_.v_ns;
        g2.sdm = o_f32_ ? d_.o_rs : d_.Dv;
        g2.b_prepacked = true;
        g2.few_row_paths = g1.few_row_paths;
        // On AVX2, plain bf16/f16 K and V go to the GEMMs as they are
        // (gemm_desc_t::b16) instead of through an f32 copy per head: one
        // query row (a decode step) widens them in registers as it reads
        // them, row blocks widen them while packing (once per head when
        // the blocks share a prepacked K and V). The copy was a write and
        // a read of both heads in f32 on top of the packing (bert-large
        // bf16, 2 threads: ~5% of the profile).
        if (kind == gemm::ukr_kind_t::f32_avx2) {
            k16_ = read_direct(d_.k, d_.k_ks, d_.k_ns, g1, ks_);
            read_direct(d_.v, d_.v_ks, d_.v_ns, g2, vs_);
        }
        div_twin_ = qk_div_twin(g1.post);
        const int64_t tail = d_.Sq - (qblocks_ - 1) * rows_;
        for (int t = 0; t < 2; ++t) {
            g1.M = g2.M = t == 0 ? rows_ : tail;
            LLGA_RETURN_IF_ERROR(qk_[t].init(g1, 1));
            LLGA_RETURN_IF_ERROR(pv_[t].init(g2, 1));
            if (!div_twin_.any()) continue;
            LLGA_RETURN_IF_ERROR(qk_mul_[t].init(div_twin_.twin_of(g1), 1));
            // The twin must take K as packed for qk_ (post-ops never
            // change the packing; checked rather than assumed).
            if (!qk_mul_[t].same_b_packing(qk_[t]))
                div_twin_ = gemm::scalar_div_twin_t();
        }
        // Packing ahead pays when several row blocks share a head's K and
        // V. Otherwise (one block per head, or one query row whose GEMMs
        // read K and V in place) each task's GEMMs read the tensors
        // themselves, right where they use them.
        prepack_ = qblocks_ > 1 && qk_[0].can_prepack_b()
                && pv_[0].can_prepack_b();
        tail_packed_ = tail == rows_
                || (qk_[1].same_b_packing(qk_[0]) && qk_[1].can_prepack_b()
                        && pv_[1].same_b_packing(pv_[0])
                        && pv_[1].can_prepack_b());
        k_bytes_ = round_up(qk_[0].packed_b_bytes(), 64);
        v_bytes_ = round_up(pv_[0].packed_b_bytes(), 64);
        LLGA_RETURN_IF_ERROR(score_rows_t::make(&d_, lds_, isa_, &rows_ops_));
        bool causal = false;
        for (const score_step_t &st : d_.steps)
            causal = causal || st.causal;
        skip_ = skip_kind(d_);
        fill_is_last_ = skip_ == skip_t::select
                && select_step(d_) + 1 == d_.steps.size()
                && d_.steps.back().operand.rs == 0
                && d_.steps.back().operand.cs == 0;
        const char *dtn = d_.q.dt == dnnl_bf16 ? "bf16"
                : d_.q.dt == dnnl_f16           ? "f16"
                : d_.q.dt == dnnl_u8            ? "u8"
                : d_.q.dt == dnnl_s8            ? "s8"
                                                : "f32";
        name_ = std::string("sdpa_") + dtn + "_" + isa_name(isa_)
                + (causal ? "_causal" : "");
        return dnnl_success;
    }

    bool sized_for_threads() const override { return true; }

    // A plain bf16/f16 head (no dequantization, no other rounding) read
    // in place by a one-row GEMM: sets g's B strides and b16 and turns the
    // staging copy off, when the GEMM takes it (gemm::b16_plan_fits).
    static bool read_direct(const head_t &h, int64_t ks, int64_t ns,
            gemm::gemm_desc_t &g, staging_t &sg) {
        if ((h.dt != dnnl_bf16 && h.dt != dnnl_f16) || h.dq || h.ddq
                || (h.round_dt != dnnl_f32 && h.round_dt != h.dt))
            return false;
        gemm::gemm_desc_t t = g;
        t.M = 1;
        t.b16 = h.dt == dnnl_bf16 ? gemm::b16_t::bf16 : gemm::b16_t::f16;
        t.sbk = ks;
        t.sbn = ns;
        if (!gemm::b16_plan_fits(t)) return false;
        g.b16 = t.b16;
        g.sbk = ks;
        g.sbn = ns;
        sg.on = false;
        return true;
    }

    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        // Per-key maxima of |K| (padding skip, packed heads whose K is
        // staged: the tasks then have no f32 K to read), made from the f32
        // copy being packed, for the bound of finite mask values.
        std::vector<float> key_max;
        const auto tasks = [&](int64_t b0, int64_t nb, const char *packed) {
            parallel_for(nb * qblocks_, 1, [&](int64_t lo, int64_t hi) {
                thread_local buffer_stack_t stack;
                float *S = stack.push(task_floats());
                for (int64_t t = lo; t < hi; ++t) {
                    const int64_t b = b0 + t / qblocks_;
                    const char *pk = packed
                            ? packed + (b - b0) * (k_bytes_ + v_bytes_)
                            : nullptr;
                    const float *km = key_max.empty()
                            ? nullptr
                            : key_max.data() + (b - b0) * d_.Skv;
                    run_task(ctx, b, t % qblocks_, S, pk, km);
                }
                stack.pop();
            });
        };
        if (!prepack_) {
            tasks(0, nbatch_, nullptr);
            return dnnl_success;
        }
        // Pack K and V of a chunk of heads, then run its row blocks.
        const size_t per = static_cast<size_t>(k_bytes_ + v_bytes_);
        const int64_t chunk = std::max<int64_t>(1,
                std::min<int64_t>(nbatch_, static_cast<int64_t>(k_pack_budget / per)));
        thread_local aligned_buf_t packed_buf;
        char *packed = static_cast<char *>(packed_buf.get(chunk * per));
        if (skip_ == skip_t::padding && (ks_.on || k16_))
            key_max.resize(static_cast<size_t>(chunk * d_.Skv));
        for (int64_t b0 = 0; b0 < nbatch_; b0 += chunk) {
            const int64_t nb = std::min(chunk, nbatch_ - b0);
            parallel_for(2 * nb, 1, [&](int64_t lo, int64_t hi) {
                for (int64_t t = lo; t < hi; ++t) {
                    const int64_t b = b0 + t / 2;
                    char *dst = packed + (b - b0) * per;
                    const bool is_k = t % 2 == 0;
                    const staging_t &sg = is_k ? ks_ : vs_;
                    const void *src = is_k
                            ? operand(ctx, d_.k, batch_offset(d_, b, d_.k_bs))
                            : operand(ctx, d_.v, batch_offset(d_, b, d_.v_bs));
                    thread_local buffer_stack_t stack;
                    if (sg.on) {
                        float *w = stack.push(static_cast<size_t>(sg.floats()));
                        sg.widen(src, params(ctx, sg.h, b), w);
                        src = w;
                    }
                    if (is_k && !key_max.empty()) {
                        float *kmax = key_max.data() + (b - b0) * d_.Skv;
                        if (k16_)
                            key_abs_max_16(static_cast<const uint16_t *>(src),
                                    d_.k.dt == dnnl_f16, d_.D, d_.Skv,
                                    d_.k_ks, d_.k_ns, kmax);
                        else
                            key_abs_max(static_cast<const float *>(src), d_.D,
                                    d_.Skv, sg.sbk, sg.sbn, kmax);
                    }
                    if (is_k)
                        qk_[0].prepack_b(src, dst);
                    else
                        pv_[0].prepack_b(src, dst + k_bytes_);
                    if (sg.on) stack.pop();
                }
            });
            tasks(b0, nb, packed);
        }
        return dnnl_success;
    }

private:
    // A DynamicDequantize head's scales and zero points for batch b.
    dyn_params_t params(const compiler::exec_ctx_t &ctx, const head_t &h,
            int64_t b) const {
        dyn_params_t p;
        if (!h.ddq) return p;
        const auto at = [&](int port, data_type_t t,
                                const std::vector<int64_t> &bs) {
            return static_cast<const char *>(ctx.inputs[static_cast<size_t>(port)])
                    + batch_offset(d_, b, bs)
                    * static_cast<int64_t>(ir::dtype_storage_bytes(t, 1));
        };
        p.sc = at(h.sc_port, h.sc_dt, h.sc_bs);
        if (h.zp_port >= 0) p.zp = at(h.zp_port, h.zp_dt, h.zp_bs);
        return p;
    }

    // Element `off` of a head's input.
    static const void *operand(const compiler::exec_ctx_t &ctx,
            const head_t &h, int64_t off) {
        const char *p = static_cast<const char *>(
                ctx.inputs[static_cast<size_t>(h.port)]);
        return p + off * static_cast<int64_t>(ir::dtype_storage_bytes(h.dt, 1));
    }

    // Floats of a task's scratch: the score block, then the f32 copies of
    // Q rows, output rows, K and V (used without prepacked panels: always
    // for some tasks, and for the last row block when it cannot share
    // them).
    size_t task_floats() const {
        int64_t n = rows_ * lds_;
        if (!q_f32_) n += rows_ * d_.D;
        if (!o_f32_) n += rows_ * d_.Dv;
        n += ks_.floats() + vs_.floats();
        return static_cast<size_t>(n + 64);
    }

    // Row block qb of batch b; `packed`: K then V of this batch, packed
    // (nullptr: the GEMMs read the tensors themselves).
    void run_task(const compiler::exec_ctx_t &ctx, int64_t b, int64_t qb,
            float *S, const char *packed, const float *key_max) const {
        const int64_t r0 = qb * rows_, rows = std::min(rows_, d_.Sq - r0);
        const int tail = rows == rows_ ? 0 : 1;
        if (tail && !tail_packed_) packed = nullptr;
        assert(!packed || skip_ != skip_t::padding || !(ks_.on || k16_)
                || key_max);
        const void *q = operand(ctx, d_.q, batch_offset(d_, b, d_.q_bs) + r0 * d_.q_rs);
        const void *k = operand(ctx, d_.k, batch_offset(d_, b, d_.k_bs));
        const void *v = operand(ctx, d_.v, batch_offset(d_, b, d_.v_bs));
        const int64_t oes
                = static_cast<int64_t>(ir::dtype_storage_bytes(d_.o_dt, 1));
        char *o = static_cast<char *>(ctx.outputs[d_.out])
                + (batch_offset(d_, b, d_.o_bs) + r0 * d_.o_rs) * oes;
        // f32 copies after the score block (see task_floats()).
        float *spare = S + rows_ * lds_;
        if (!q_f32_) {
            stage(d_.q, q, rows, d_.D, d_.q_rs, d_.q_cs, spare);
            q = spare;
            spare += rows_ * d_.D;
        }
        float *o32 = nullptr;
        if (!o_f32_) {
            o32 = spare;
            spare += rows_ * d_.Dv;
        }
        if (!packed && ks_.on) {
            ks_.widen(k, params(ctx, d_.k, b), spare);
            k = spare;
            spare += ks_.floats();
        }
        if (!packed && vs_.on) {
            vs_.widen(v, params(ctx, d_.v, b), spare);
            v = spare;
        }
        const void *po[gemm::k_max_po_operands];
        const int np = epilogue_operands(d_, ctx, gemm_steps_, b, r0, po);
        // Divisions by a power of two as multiplications (same values).
        gemm::scalar_div_twin_t::recips_t recips;
        const gemm_t *qk = div_twin_.any() && div_twin_.take(po, recips)
                ? qk_mul_
                : qk_;
        // Under a causal or padding mask the block may stop at its last
        // kept column n. A skipped score has probability exactly 0 when it
        // is -inf or lies more than 104 below its row's max (exp(-104) is
        // under half the smallest f32 denormal). Padding: the skipped
        // scores are -inf, or proven that far below before the block runs
        // (padded_cols()). Select: past the Select they hold the mask's
        // value, so the steps from the Select on are run on the skipped
        // columns (cheap: no Q·Kᵀ) to get their largest value per row. A
        // row where the test fails (one the mask leaves empty, with a
        // finite mask value) sends the block round again at full width.
        const float ninf = -std::numeric_limits<float>::infinity();
        int64_t n = d_.Skv;
        if (skip_ == skip_t::select)
            n = live_cols(d_, ctx, b, r0, rows);
        else if (skip_ == skip_t::padding)
            n = padded_cols(d_, ctx, b, r0, rows, [&](int64_t first) {
                // |Q·Kᵀ| <= D max|q| max|k| over the block's rows and the
                // keys from `first` on (per-key maxima made at packing, or
                // K itself: the tensor, 16-bit when the GEMM reads it so,
                // or this task's f32 copy).
                float km = 0.f;
                if (key_max) {
                    km = abs_max(key_max + first, 1, d_.Skv - first, 0, 1);
                } else if (k16_) {
                    km = abs_max_16(static_cast<const uint16_t *>(k)
                                    + first * d_.k_ns,
                            d_.k.dt == dnnl_f16, d_.Skv - first, d_.D,
                            d_.k_ns, d_.k_ks);
                } else {
                    const bool w = ks_.on; // k is the widened copy
                    const int64_t sk = w ? ks_.sbk : d_.k_ks;
                    const int64_t sn = w ? ks_.sbn : d_.k_ns;
                    km = abs_max(static_cast<const float *>(k) + first * sn,
                            d_.Skv - first, d_.D, sn, sk);
                }
                const float qm = abs_max(static_cast<const float *>(q), rows,
                        d_.D, q_f32_ ? d_.q_rs : d_.D, q_f32_ ? d_.q_cs : 1);
                return score_bound(d_, ctx, b,
                        double(d_.D) * double(qm) * double(km));
            });
        const int64_t nb = div_up(d_.Skv, k_sm_block);
        std::vector<float> blocks(static_cast<size_t>(2 * nb));
        float *stats = d_.out_stats >= 0
                ? static_cast<float *>(ctx.outputs[static_cast<size_t>(d_.out_stats)])
                        + batch_offset(d_, b, d_.st_bs) + r0 * d_.st_rs
                : nullptr;
        // Per task, not thread_local: a task waiting inside a GEMM may run
        // another task on this thread (see buffer_stack_t).
        std::vector<float> skipped_max(static_cast<size_t>(rows), ninf);
        std::vector<float> row_max(static_cast<size_t>(rows));
        for (bool exact = false; !exact;) {
            qk[tail].execute(q, k, nullptr, S, packed, np ? po : nullptr,
                    gemm::extent_t {n, 0});
            if (!gemm_rounds_scores_)
                rows_ops_.round_rows(S, rows, 0, n, d_.s_dt);
            rows_ops_.score_rows(ctx, b, r0, rows, gemm_steps_, 0, n, S);
            if (skip_ == skip_t::select && n < d_.Skv && fill_is_last_) {
                // The Select is the last step and puts one value per batch.
                skipped_max.assign(static_cast<size_t>(rows), scalar_operand(d_, d_.steps.back().operand, ctx, b));
            } else if (skip_ == skip_t::select && n < d_.Skv) {
                rows_ops_.score_rows(
                        ctx, b, r0, rows, select_step(d_), n, d_.Skv, S);
                for (int64_t i = 0; i < rows; ++i) {
                    const float *x = S + i * lds_;
                    float v = ninf;
                    for (int64_t j = n; j < d_.Skv; ++j) // NaN sticks
                        v = x[j] > v || std::isnan(x[j]) ? x[j] : v;
                    skipped_max[static_cast<size_t>(i)] = v;
                }
            }
            exact = true;
            // Rows of one SoftMax block without statistics: one call.
            const bool one_call = !stats && n >= 1 && n <= k_sm_block;
            if (one_call) rows_ops_.softmax_rows(S, rows, n, row_max.data());
            for (int64_t i = 0; i < rows; ++i) {
                float *x = S + i * lds_;
                const float m = one_call
                        ? row_max[static_cast<size_t>(i)]
                        : rows_ops_.softmax_row(x, n, blocks.data(),
                                  blocks.data() + nb,
                                  stats ? stats + i * d_.st_rs : nullptr);
                const float v = skipped_max[static_cast<size_t>(i)];
                if (n < d_.Skv && v != ninf && !(v - m < -104.f)) exact = false;
                // The probabilities' roundings and quantize round trips
                // while the row is still in L1 (a block that goes round
                // again is recomputed from Q·Kᵀ, so this is never applied
                // twice).
                common::round_row(x, n, d_.p_dt);
                if (!d_.p_ops.empty()) apply_value_ops(d_.p_ops, x, n);
            }
            if (!exact) n = d_.Skv;
        }
        pv_[tail].execute(S, v, nullptr, o32 ? static_cast<void *>(o32) : o,
                packed ? packed + k_bytes_ : nullptr, nullptr,
                gemm::extent_t {0, n});
        if (o32)
            for (int64_t i = 0; i < rows; ++i) {
                float *r = o32 + i * d_.Dv;
                common::round_row(r, d_.Dv, d_.m2_dt);
                apply_value_ops(d_.out_ops, r, d_.Dv);
                common::narrow_row(r, d_.Dv, o + i * d_.o_rs * oes, d_.o_dt);
            }
    }

    desc_t d_;
    isa_t isa_;
    std::string name_;
    int64_t nbatch_ = 1, rows_ = 1, qblocks_ = 1, lds_ = 16;
    size_t gemm_steps_ = 0;
    bool gemm_rounds_scores_ = false; // the epilogue rounds S to bf16
    bool prepack_ = false, tail_packed_ = false;
    skip_t skip_ = skip_t::none; // skip_kind()
    // Causal: the Select is the last score step, with one value per batch
    // (then the skipped scores are that value, without computing them).
    bool fill_is_last_ = false;
    bool q_f32_ = true, o_f32_ = true;
    staging_t ks_, vs_;
    bool k16_ = false; // K read in place as bf16/f16 (read_direct)
    int64_t k_bytes_ = 0, v_bytes_ = 0; // one batch's packed K and V
    gemm_t qk_[2], pv_[2]; // [full block | last block]
    // Q·Kᵀ with the epilogue's scalar divisions as multiplications, for
    // blocks whose divisors are powers of two (when div_twin_.any()).
    gemm::scalar_div_twin_t div_twin_;
    gemm_t qk_mul_[2];
    score_rows_t rows_ops_; // the row work between the two GEMMs
};

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    if (plan.ops.size() < 3) {
        if (why) *why = "SDPA: not a multi-op partition";
        return false;
    }
    if (isa != isa_t::avx2 && isa != isa_t::avx512_core) {
        if (why) *why = "SDPA: f32 runs on the avx2/avx512_core candidates";
        return false;
    }
    desc_t d;
    if (!analyse(plan, d, why)) return false;
    for (const score_step_t &st : d.steps)
        if (st.kind == step_kind_t::select && !st.causal
                && st.cond.dt != dnnl_boolean) {
            if (why) *why = "SDPA: Select condition is not boolean";
            return false;
        }
    return true;
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    desc_t d;
    std::string why;
    if (!analyse(plan, d, &why)) return fail(dnnl_unimplemented, "%s", why.c_str());
    // Quantized blocks on the integers unless LLGA_SDPA_INT8=0 (then, and
    // for blocks the integer path does not take, in f32 below).
    int8_plan_t ip;
    if (knob_int(knob_t::sdpa_int8, 1) != 0 && int8_eligible(d, &ip, nullptr))
        return create_int8(d, ip, isa, out);
    auto k = std::make_shared<kernel_t>(d, isa);
    LLGA_RETURN_IF_ERROR(k->init(rt::max_threads()));
    out = k;
    return dnnl_success;
}

} // namespace sdpa
} // namespace cpu
} // namespace llga
