// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/sdpa/cpu_sdpa_skip_test.cpp — the fused SDPA kernel
// stopping row blocks at the last key their mask keeps (implicit causal
// Select, boolean mask Select, additive padding or causal-pattern masks),
// with the score ops after the Select run on the skipped columns, the
// full-width redo for rows a finite mask value empties, finite padding
// values skipped only when the score bound proves them negligible, and the
// keys it must not read (NaN V rows behind the mask); against the
// reference ops, at every ISA level the host has.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/kernels/sdpa/sdpa_skip_p.hpp"
#include "cpu_sdpa_test_util.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using namespace sdpa_test;

class CpuSdpaSkip : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

// Row blocks stop at the last column their mask keeps: P·V then ends
// inside a K block of the packed V (300 keys, K blocks of 256) or on its
// edge, and Q·Kᵀ at a partial strip. The masked scores' probability is
// exactly 0 when the mask value is -inf or lies far below the row's max;
// a row the mask empties, with a finite value, has a uniform row instead
// (the block is recomputed at full width).
TEST_F(CpuSdpaSkip, CausalBlocksStopAtTheirLastKeptColumn) {
    causal_case(300, 300, 0, 0, "top-left, 300 keys");
    causal_case(120, 300, 300, 120, "bottom-right, 300 keys");
    causal_case(300, 300, 0, 0, "top-left, finite mask value", -1e9f);
    causal_case(300, 300, 0, 7, "rows emptied, lowest float as the mask",
            -std::numeric_limits<float>::max());
    causal_case(300, 300, 0, 7, "rows emptied, mask value -30", -30.f);
}

// GPT-2's order: the causal Select first (fill -1e4, GPT-2's masked_bias,
// or -inf), then Divide by a scalar and Add a [2,1,1,Skv] mask with some
// -inf keys. The skipped columns' values come from the fill through the
// later ops; rows the shift empties (finite fill) force full width.
void gpt_causal_case(int32_t b_shift, float fill_value, const std::string &what) {
    const int64_t sq = 130, skv = 300;
    sdpa_t a({2, 2}, sq, skv, 32);
    const logical_tensor_t scores = a.s;
    const logical_tensor_t sb = a.g.in({1}, dnnl_s32);
    const logical_tensor_t cond = a.causal_cond(scores, {}, {sb});
    const logical_tensor_t fill = a.g.in({1});
    a.s = scores;
    a.op(dnnl_graph_op_select, {cond, scores, fill});
    const logical_tensor_t div = a.g.in({1});
    a.op(dnnl_graph_op_divide, {a.s, div});
    const logical_tensor_t mask = a.g.in({2, 1, 1, skv});
    a.op(dnnl_graph_op_add, {a.s, mask});
    a.finish({2, 2}, 16);
    const compiler::plan_t p = a.g.plan();
    std::vector<bytes_t> in = make_inputs(p,
            {{sb.id, 0, 0, true, float(b_shift)},
                    {fill.id, 0, 0, true, fill_value},
                    {div.id, 0, 0, true, 4.f}, {mask.id, -1.f, 0.f}},
            6);
    float *m = reinterpret_cast<float *>(
            in[static_cast<size_t>(compiler::find_port(p.inputs, mask.id))]
                    .data());
    for (int64_t j = 5; j < 2 * skv; j += 13)
        m[j] = k_ninf;
    check(p, in, 1e-5, what);
}

TEST_F(CpuSdpaSkip, CausalMaskBeforeOtherScoreOps) {
    gpt_causal_case(0, -1e4f, "GPT-2 order, fill -1e4");
    gpt_causal_case(0, k_ninf, "GPT-2 order, fill -inf");
    gpt_causal_case(9, -1e4f, "GPT-2 order, first rows emptied");
    gpt_causal_case(9, -30.f, "GPT-2 order, fill -30 (never skippable)");
}

// Keys no query row keeps are never read: NaN in those V rows (as in an
// unfilled KV cache) leaves the output finite, equal to the reference's
// with zeros there. Row blocks of 13 rows run on the few-row GEMM path.
TEST_F(CpuSdpaSkip, ValuesOfKeysNoRowKeepsAreNotRead) {
    causal_case(100, 300, 0, 0, "100 queries, keys 100.. unused", k_ninf, 100);
    causal_case(13, 300, 0, 0, "13 queries, keys 13.. unused", k_ninf, 13);
}

// An additive padding mask [B, 1, 1, Skv] as the last score op: each
// batch's trailing -inf keys (padded positions) are skipped. Batch 0 keeps
// 70 of 150 keys (and has an interior -inf), batch 1 keeps none (rows of
// -inf: zeros under inf_as_zero, at full width). V rows of batch 0's
// padded keys are NaN for the kernel and 0 for the reference: they are not
// read. 37 query rows: several row blocks and a tail; one query row: a
// decode step over a KV cache whose unfilled slots are masked (the GEMMs
// read K and V in place, K through the one-row dot kernels). `masked`:
// the padded keys' mask value, -inf or a large finite one (Hugging Face's
// finfo.min, BERT's -1e4) that the score bound proves negligible; batch 1,
// emptied by a finite value, is uniform over its keys in the reference.
void padded_case(int64_t sq, const std::string &what, float masked = k_ninf) {
    const int64_t skv = 150, dv = 16;
    sdpa_t a({2, 3}, sq, skv, 32);
    const logical_tensor_t scale = a.g.in({1});
    a.op(dnnl_graph_op_multiply, {a.s, scale});
    const logical_tensor_t mask = a.g.in({2, 1, 1, skv});
    a.op(dnnl_graph_op_add, {a.s, mask});
    a.finish({2, 3}, dv);
    const compiler::plan_t p = a.g.plan();
    std::vector<bytes_t> in = make_inputs(p,
            {{scale.id, 0, 0, true, 0.25f}, {mask.id, -2.f, 0.f}}, 4);
    float *m = reinterpret_cast<float *>(
            in[static_cast<size_t>(compiler::find_port(p.inputs, mask.id))]
                    .data());
    for (int64_t j = 0; j < skv; ++j) {
        if (j >= 70 || j == 11) m[j] = masked;
        m[skv + j] = masked;
    }
    std::vector<bytes_t> ref_in = in;
    poison_v_rows(p, a.v.id, in, ref_in, 3, skv, dv, 70); // batch 0's heads
    check(p, in, 1e-5, what, &ref_in);
}

// An additive [1, 1, Sq, Skv] mask tensor holding a causal pattern
// (`masked` above the diagonal, random values below): each row block stops
// at its last row's diagonal. 100 queries, 300 keys: keys 100.. are never
// kept, and their V rows are NaN for the kernel, 0 for the reference.
// With `emptied` rows wholly masked by a finite value, those rows are
// uniform over all 300 keys in the reference, so their blocks run whole
// (V stays finite).
void additive_causal_case(float masked, int64_t emptied, const std::string &what) {
    const int64_t sq = 100, skv = 300, dv = 16;
    sdpa_t a({2, 2}, sq, skv, 32);
    const logical_tensor_t mask = a.g.in({1, 1, sq, skv});
    a.op(dnnl_graph_op_add, {a.s, mask});
    a.finish({2, 2}, dv);
    const compiler::plan_t p = a.g.plan();
    std::vector<bytes_t> in = make_inputs(p, {{mask.id, -1.f, 0.f}}, 7);
    float *m = reinterpret_cast<float *>(
            in[static_cast<size_t>(compiler::find_port(p.inputs, mask.id))]
                    .data());
    for (int64_t i = 0; i < sq; ++i)
        for (int64_t j = 0; j < skv; ++j)
            if (j > i || i < emptied) m[i * skv + j] = masked;
    std::vector<bytes_t> ref_in = in;
    if (emptied == 0) poison_v_rows(p, a.v.id, in, ref_in, 4, skv, dv, sq);
    check(p, in, 1e-5, what, &ref_in);
}

TEST_F(CpuSdpaSkip, AdditiveCausalMaskTensorIsSkipped) {
    const float lowest = std::numeric_limits<float>::lowest();
    additive_causal_case(k_ninf, 0, "additive causal mask tensor");
    additive_causal_case(lowest, 0, "additive causal mask tensor, finfo.min");
    additive_causal_case(lowest, 3, "finfo.min, first rows emptied");
}

// The mask's -inf and lowest finite value are recognised in bf16 and f16
// storage too: trailing padding of a [2, 1, 1, Skv] half-precision mask
// (scores in that type; f16's -65504 is skipped by the bound: |score| is
// at most 32 here);
// batch 0 keeps 50 keys and its V rows past them are NaN for the kernel,
// 0 for the reference.
TEST_F(CpuSdpaSkip, PaddedKeysInAHalfPrecisionMask) {
    for (data_type_t dt : {dnnl_bf16, dnnl_f16})
    for (bool lowest : {false, true}) {
        // The type's lowest finite value (finfo.min) or -inf.
        const float masked = !lowest ? k_ninf
                : dt == dnnl_bf16    ? -0x1.fep127f
                                     : -65504.f;
        const int64_t skv = 90;
        sdpa_t a({2, 2}, 26, skv, 32, dt, dt);
        const logical_tensor_t mask = a.g.in({2, 1, 1, skv}, dt);
        a.op(dnnl_graph_op_add, {a.s, mask});
        a.finish({2, 2}, 24);
        const compiler::plan_t p = a.g.plan();
        std::vector<bytes_t> in = make_inputs(p, {{mask.id, -2.f, 0.f}}, 9);
        bytes_t &m = in[static_cast<size_t>(
                compiler::find_port(p.inputs, mask.id))];
        for (int64_t j = 0; j < 2 * skv; ++j)
            if (j % skv >= 50 - 20 * (j / skv))
                ir::store_value(dt, m.data(), j, masked);
        std::vector<bytes_t> ref_in = in;
        const size_t vp
                = static_cast<size_t>(compiler::find_port(p.inputs, a.v.id));
        for (int64_t h = 0; h < 2; ++h) // batch 0's heads, [.., skv, 24]
            for (int64_t e = (h * skv + 50) * 24; e < (h + 1) * skv * 24; ++e) {
                ir::store_value(dt, in[vp].data(), e,
                        std::numeric_limits<float>::quiet_NaN());
                ir::store_value(dt, ref_in[vp].data(), e, 0.f);
            }
        check(p, in, dt == dnnl_bf16 ? 1.6e-2 : 2e-3,
                std::string("padded ") + ir::dtype_name(dt) + " mask"
                        + (lowest ? ", lowest value" : ", -inf"),
                &ref_in);
    }
}

TEST_F(CpuSdpaSkip, PaddedKeysAreSkipped) {
    padded_case(37, "padded keys, 37 queries");
    padded_case(1, "padded keys, one query (decode)");
}

TEST_F(CpuSdpaSkip, FiniteMaskValuesAreSkippedWhenProvablyNegligible) {
    const float lowest = std::numeric_limits<float>::lowest();
    padded_case(37, "finfo.min padding, 37 queries", lowest);
    padded_case(1, "finfo.min padding, one query", lowest);
    padded_case(37, "-1e4 padding, 37 queries", -1e4f);
    padded_case(1, "-1e4 padding, one query", -1e4f);
}

// A finite mask value is skipped only when the bound on the scores proves
// it negligible. Padded keys 70.. of batch 0 carry -1e4; Q is all ones and
// K row 100 of every head is 2500, so that key scores 2e4 - 1e4 and takes
// the whole softmax in the reference (a kernel skipping it would average
// the kept keys instead). Then K row 120 is NaN (rows of NaN in the
// reference): the NaN bound keeps the blocks whole. 37 queries (K packed:
// f32 K read in place for the bound, bf16 K through the per-key maxima of
// its f32 copy) and one (K read in place).
void unskippable_case(int64_t sq, float k_row_value, data_type_t dt,
        const std::string &what) {
    const int64_t skv = 150, d = 32;
    sdpa_t a({2, 3}, sq, skv, d, dt, dt);
    const logical_tensor_t scale = a.g.in({1}, dt);
    a.op(dnnl_graph_op_multiply, {a.s, scale});
    const logical_tensor_t mask = a.g.in({2, 1, 1, skv}, dt);
    a.op(dnnl_graph_op_add, {a.s, mask});
    a.finish({2, 3}, 16);
    const compiler::plan_t p = a.g.plan();
    std::vector<bytes_t> in = make_inputs(p,
            {{scale.id, 0, 0, true, 0.25f}, {mask.id, -2.f, 0.f},
                    {a.q.id, 0, 0, true, 1.f}},
            5);
    const auto data = [&](size_t id) {
        return in[static_cast<size_t>(compiler::find_port(p.inputs, id))].data();
    };
    for (int64_t j = 70; j < skv; ++j)
        ir::store_value(dt, data(mask.id), j, -1e4f);
    const int64_t row = std::isnan(k_row_value) ? 120 : 100;
    for (int64_t h = 0; h < 3; ++h) // batch 0's heads, K [.., skv, d]
        for (int64_t e = 0; e < d; ++e)
            ir::store_value(dt, data(a.k.id), (h * skv + row) * d + e, k_row_value);
    check(p, in, dt == dnnl_f32 ? 1e-5 : 1.6e-2, what);
}

TEST_F(CpuSdpaSkip, FiniteMaskValuesThatMayMatterAreNotSkipped) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (data_type_t dt : {dnnl_f32, dnnl_bf16}) {
        const std::string t = std::string(", ") + ir::dtype_name(dt);
        unskippable_case(37, 2500.f, dt, "a padded key that wins, 37 queries" + t);
        unskippable_case(1, 2500.f, dt, "a padded key that wins, one query" + t);
        unskippable_case(37, nan, dt, "NaN in a padded key, 37 queries" + t);
        unskippable_case(1, nan, dt, "NaN in a padded key, one query" + t);
    }
}

// GPT-2's order with an explicit boolean causal mask ([1, 1, Sq, Skv],
// true on and below the diagonal, as GPT-2's `bias` buffer): row blocks
// stop at their last kept key. 100 queries, 300 keys: V rows of keys 100..
// are NaN for the kernel and 0 for the reference. Then the mask with its
// first 7 rows emptied and a finite fill (-1e4): those rows are uniform
// over every key in the reference, so their blocks run at full width
// (with finite V).
void boolean_causal_case(int64_t emptied, const std::string &what) {
    const int64_t sq = 100, skv = 300, dv = 16;
    sdpa_t a({2, 2}, sq, skv, 32);
    const logical_tensor_t cond = a.g.in({1, 1, sq, skv}, dnnl_boolean);
    const logical_tensor_t fill = a.g.in({});
    a.op(dnnl_graph_op_select, {cond, a.s, fill});
    const logical_tensor_t div = a.g.in({});
    a.op(dnnl_graph_op_divide, {a.s, div});
    const logical_tensor_t bias = a.g.in({1, 1, 1, skv});
    a.op(dnnl_graph_op_add, {a.s, bias});
    a.finish({2, 2}, dv);
    const compiler::plan_t p = a.g.plan();
    std::vector<bytes_t> in = make_inputs(p,
            {{fill.id, 0, 0, true, -1e4f}, {div.id, 0, 0, true, 8.f},
                    {bias.id, -1.f, 0.f}},
            8);
    uint8_t *c = reinterpret_cast<uint8_t *>(
            in[static_cast<size_t>(compiler::find_port(p.inputs, cond.id))]
                    .data());
    for (int64_t i = 0; i < sq; ++i)
        for (int64_t j = 0; j < skv; ++j)
            c[i * skv + j] = j <= i && i >= emptied ? 1 : 0;
    std::vector<bytes_t> ref_in = in;
    if (emptied == 0) poison_v_rows(p, a.v.id, in, ref_in, 4, skv, dv, sq);
    check(p, in, 1e-5, what, &ref_in);
}

TEST_F(CpuSdpaSkip, BooleanCausalMaskIsSkipped) {
    boolean_causal_case(0, "boolean causal mask");
    boolean_causal_case(7, "boolean causal mask, first rows emptied");
}

// The bound's building blocks on hand-made values: per-key maxima of |K|
// for both layouts of B[k, j] (keys contiguous, or each key's k values
// contiguous), NaN for a key holding a NaN or an inf, and the vector
// loop's lanes and tail; the score bound
// through Tanh, scores rounded to f16 (which overflow past 65504), and a
// step it cannot bound.
TEST_F(CpuSdpaSkip, BoundBuildingBlocks) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    // K = 3 (k) x 4 (keys): key 1 holds a NaN, key 3 an inf.
    const float kj[3][4] = {{1, -2, 0.5f, 0}, {-7, nan, 3, -inf}, {2, 1, -4, 1}};
    float by_k[12], by_j[12];
    for (int k = 0; k < 3; ++k)
        for (int j = 0; j < 4; ++j) {
            by_k[k * 4 + j] = kj[k][j]; // ks 4, ns 1
            by_j[j * 3 + k] = kj[k][j]; // ks 1, ns 3
        }
    const float want[4] = {7, nan, 4, nan};
    for (int layout = 0; layout < 2; ++layout) {
        float out[4];
        if (layout == 0) sdpa::key_abs_max(by_k, 3, 4, 4, 1, out);
        else sdpa::key_abs_max(by_j, 3, 4, 1, 3, out);
        for (int j = 0; j < 4; ++j)
            if (std::isnan(want[j])) EXPECT_TRUE(std::isnan(out[j])) << layout;
            else EXPECT_EQ(out[j], want[j]) << layout << " key " << j;
    }
    EXPECT_EQ(sdpa::abs_max(by_k, 1, 4, 0, 1), 2.f); // k row 0
    EXPECT_TRUE(std::isnan(sdpa::abs_max(by_k, 3, 4, 4, 1)));
    // 8-wide lanes and a tail: the largest in lane 5, then in the tail;
    // an inf in a lane, then in the tail.
    std::vector<float> x(19);
    for (size_t i = 0; i < x.size(); ++i)
        x[i] = (i % 2 ? -0.25f : 0.5f) * float(i % 4);
    x[13] = -9.f;
    EXPECT_EQ(sdpa::abs_max(x.data(), 1, 19, 0, 1), 9.f);
    x[17] = 11.f;
    EXPECT_EQ(sdpa::abs_max(x.data(), 1, 19, 0, 1), 11.f);
    EXPECT_EQ(sdpa::abs_max(x.data(), 19, 1, 1, 0), 11.f); // as a column
    x[3] = -inf;
    EXPECT_TRUE(std::isnan(sdpa::abs_max(x.data(), 1, 19, 0, 1)));
    x[3] = 0.f;
    x[18] = inf;
    EXPECT_TRUE(std::isnan(sdpa::abs_max(x.data(), 1, 19, 0, 1)));

    sdpa::desc_t d;
    d.D = 64;
    sdpa::score_step_t th, add;
    th.kind = sdpa::step_kind_t::tanh;
    add.operand.cs = 1; // the mask itself: not part of the bound
    const compiler::exec_ctx_t ctx;
    d.steps = {add};
    const double b = sdpa::score_bound(d, ctx, 0, 100.0);
    EXPECT_GE(b, 100.0);
    EXPECT_LE(b, 100.0 * (1 + 1e-5));
    d.steps = {th, add}; // |tanh| <= 1
    EXPECT_LE(sdpa::score_bound(d, ctx, 0, 1e30), 1.0 + 1e-6);
    d.s_dt = dnnl_f16; // scores rounded to f16 first
    EXPECT_GE(sdpa::score_bound(d, ctx, 0, 0.5), 0.5);
    d.steps = {add};
    EXPECT_EQ(sdpa::score_bound(d, ctx, 0, 1e5), inf); // may overflow
    EXPECT_LT(sdpa::score_bound(d, ctx, 0, 1e3), 1.01e3);
    sdpa::score_step_t full = add; // a full-matrix operand before the mask
    d.steps = {full, add};
    EXPECT_EQ(sdpa::score_bound(d, ctx, 0, 1.0), inf);
}

} // namespace
} // namespace cpu
} // namespace llga
