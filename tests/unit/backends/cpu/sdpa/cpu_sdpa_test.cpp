// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/sdpa/cpu_sdpa_test.cpp — the fused SDPA kernel
// (backends/cpu/kernels/sdpa.cpp) against the reference ops of ops/ run one
// by one, at every ISA level the host has: scale + additive mask with row
// and column tails, the implicit causal mask (top-left, bottom-right, and
// rows masked entirely under inf_as_zero), the GPT order with an explicit
// boolean mask and a transpose → reorder output tail, 5-D GQA broadcast
// with Kᵀ stored transposed, JAX's V·Pᵀ order, Gemma's soft-capping, bf16
// and f16 tensors (and their vector conversions), the SoftMax statistics of
// training forward, long key sequences (small row blocks); and the
// partitions it must decline. Blocks that stop at their mask's last kept
// key: cpu_sdpa_skip_test.cpp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/sdpa/sdpa.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_sdpa_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using namespace sdpa_test;

class CpuSdpa : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

TEST_F(CpuSdpa, ScaleAndPaddingMaskWithTails) {
    // 37 query rows and 45 keys: row blocks and the 16-column padding of
    // the score block both have tails.
    sdpa_t a({2, 3}, 37, 45, 24);
    const logical_tensor_t scale = a.g.in({1});
    a.op(dnnl_graph_op_multiply, {a.s, scale});
    const logical_tensor_t mask = a.g.in({2, 1, 1, 45});
    a.op(dnnl_graph_op_add, {mask, a.s}); // mask first: Add commutes
    a.finish({2, 3}, 20);
    const compiler::plan_t p = a.g.plan();
    std::vector<bytes_t> in = make_inputs(p, {{scale.id, 0.125f, 0.125f, true, 0.125f},
                                                     {mask.id, -3.f, 0.f}}, 1);
    // Some keys masked with -inf (never a whole row).
    float *m = reinterpret_cast<float *>(
            in[static_cast<size_t>(compiler::find_port(p.inputs, mask.id))]
                    .data());
    for (int i = 3; i < 90; i += 7)
        m[i] = k_ninf;
    check(p, in, 1e-5, "scale + padding mask");
}

TEST_F(CpuSdpa, ImplicitCausalMask) {
    causal_case(29, 29, 0, 0, "top-left causal");
    causal_case(29, 61, 61, 29, "bottom-right causal");
    causal_case(29, 61, 0, 5, "first rows fully masked");
}

// 2000 keys: row blocks of 12 rows (the score block budget) and a tail
// of 4, on the tile kernels sharing K and V packed once per head.
TEST_F(CpuSdpa, LongKeysGiveSmallRowBlocks) {
    sdpa_t a({1, 2}, 40, 2000, 16);
    const logical_tensor_t scale = a.g.in({1});
    a.op(dnnl_graph_op_multiply, {a.s, scale});
    a.finish({1, 2}, 24);
    const compiler::plan_t p = a.g.plan();
    const std::vector<bytes_t> in
            = make_inputs(p, {{scale.id, 0, 0, true, 0.25f}}, 5);
    check(p, in, 1e-5, "2000 keys");
}

TEST_F(CpuSdpa, GptOrderWithBooleanMaskAndTransposedOutput) {
    // MatMul -> Select(mask, s, -1e4) -> Divide -> Add -> SoftMax -> MatMul
    // -> StaticTranspose [0, 2, 1, 3] -> Reorder (dense [B, Sq, H, Dv]).
    sdpa_t a({1, 4}, 19, 33, 40);
    const logical_tensor_t cond = a.g.in({1, 1, 19, 33}, dnnl_boolean);
    const logical_tensor_t fill = a.g.in({});
    a.op(dnnl_graph_op_select, {cond, a.s, fill});
    const logical_tensor_t div = a.g.in({});
    a.op(dnnl_graph_op_divide, {a.s, div});
    const logical_tensor_t bias = a.g.in({1, 1, 1, 33});
    a.op(dnnl_graph_op_add, {a.s, bias});
    const logical_tensor_t o = a.finish({1, 4}, 24);
    a.g.add(dnnl_graph_op_static_transpose, {o}, {1, 19, 4, 24}, dnnl_f32,
            [](ir::op_t &op) {
                op.set_attr(dnnl_graph_op_attr_order,
                        attr_value_t::make_s64s({0, 2, 1, 3}));
            });
    a.g.add(dnnl_graph_op_reorder, {a.g.ops.back().outputs[0]}, {1, 19, 4, 24});
    const compiler::plan_t p = a.g.plan();
    const std::vector<bytes_t> in = make_inputs(p,
            {{fill.id, 0, 0, true, -1e4f}, {div.id, 0, 0, true, 8.f}}, 3);
    check(p, in, 1e-5, "GPT order");
}

TEST_F(CpuSdpa, GqaBroadcastWithKStoredTransposed) {
    // Q [1, 2, 3, Sq, D]; K^T [1, 2, 1, D, Skv] (transpose_b false) and V
    // [1, 2, 1, Skv, Dv] shared by the 3 query heads of a group.
    plan_builder_t g;
    const logical_tensor_t q = g.in({1, 2, 3, 21, 16});
    const logical_tensor_t kt = g.in({1, 2, 1, 16, 50});
    const dims_t sd = {1, 2, 3, 21, 50};
    logical_tensor_t s = g.add(dnnl_graph_op_matmul, {q, kt}, sd);
    const logical_tensor_t scale = g.in({1});
    s = g.add(dnnl_graph_op_divide, {s, scale}, sd);
    s = g.add(dnnl_graph_op_softmax, {s}, sd, dnnl_f32, inf_as_zero);
    const logical_tensor_t v = g.in({1, 2, 1, 50, 12});
    g.add(dnnl_graph_op_matmul, {s, v}, {1, 2, 3, 21, 12});
    const compiler::plan_t p = g.plan();
    check(p, make_inputs(p, {{scale.id, 0, 0, true, 4.f}}, 4), 1e-5, "GQA");
}

TEST_F(CpuSdpa, JaxOrderComputesOutputTransposed) {
    // JAX: S = Q K^T (K^T given) / 8 + mask -> SoftMax -> StaticTranspose
    // (last two dims) -> Reorder -> O^T = V' P^T with V' [.., Dv, Skv] ->
    // StaticTranspose [0, 3, 1, 2] -> StaticReshape [B, Sq, H * Dv].
    plan_builder_t g;
    const int64_t B = 2, H = 3, Sq = 23, Skv = 35, D = 16, Dv = 12;
    const logical_tensor_t q = g.in({B, H, Sq, D});
    const logical_tensor_t kt = g.in({B, H, D, Skv});
    const dims_t sd = {B, H, Sq, Skv}, st = {B, H, Skv, Sq};
    logical_tensor_t s = g.add(dnnl_graph_op_matmul, {q, kt}, sd);
    const logical_tensor_t div = g.in({1});
    s = g.add(dnnl_graph_op_divide, {s, div}, sd);
    const logical_tensor_t mask = g.in({B, 1, 1, Skv});
    s = g.add(dnnl_graph_op_add, {s, mask}, sd);
    s = g.add(dnnl_graph_op_softmax, {s}, sd, dnnl_f32, inf_as_zero);
    const auto order = [](std::vector<int64_t> o) {
        return [o](ir::op_t &op) {
            op.set_attr(dnnl_graph_op_attr_order, attr_value_t::make_s64s(o));
        };
    };
    s = g.add(dnnl_graph_op_static_transpose, {s}, st, dnnl_f32,
            order({0, 1, 3, 2}));
    s = g.add(dnnl_graph_op_reorder, {s}, st);
    const logical_tensor_t vt = g.in({B, H, Dv, Skv});
    const logical_tensor_t ot = g.add(dnnl_graph_op_matmul, {vt, s}, {B, H, Dv, Sq});
    const logical_tensor_t t = g.add(dnnl_graph_op_static_transpose, {ot},
            {B, Sq, H, Dv}, dnnl_f32, order({0, 3, 1, 2}));
    g.add(dnnl_graph_op_static_reshape, {t}, {B, Sq, H * Dv}, dnnl_f32,
            [](ir::op_t &op) {
                op.set_attr(dnnl_graph_op_attr_shape,
                        attr_value_t::make_s64s({B, Sq, H * Dv}));
                op.set_attr(dnnl_graph_op_attr_special_zero,
                        attr_value_t::make_bool(false));
            });
    const compiler::plan_t p = g.plan();
    check(p, make_inputs(p, {{div.id, 0, 0, true, 8.f}, {mask.id, -2.f, 0.f}}, 6),
            1e-5, "JAX order");
}

TEST_F(CpuSdpa, GemmaSoftCapping) {
    // scale -> Tanh -> Multiply(cap) in the GEMM epilogue, then Select with
    // the scores in slot 2 (masked where the condition is true).
    sdpa_t a({1, 2}, 9, 40, 32);
    const logical_tensor_t scale = a.g.in({1});
    a.op(dnnl_graph_op_multiply, {a.s, scale});
    a.op(dnnl_graph_op_tanh, {a.s});
    const logical_tensor_t cap = a.g.in({1});
    a.op(dnnl_graph_op_multiply, {a.s, cap});
    const logical_tensor_t cond = a.g.in({1, 2, 9, 40}, dnnl_boolean);
    const logical_tensor_t fill = a.g.in({1});
    a.op(dnnl_graph_op_select, {cond, fill, a.s});
    a.finish({1, 2}, 32);
    const compiler::plan_t p = a.g.plan();
    // The epilogue's tanh is accurate to about 2e-4 relative (gemm
    // postops), which the cap of 10 scales into the scores.
    check(p, make_inputs(p, {{scale.id, 0, 0, true, 0.5f},
                                    {cap.id, 0, 0, true, 10.f},
                                    {fill.id, 0, 0, true, -30.f}},
                     5),
            5e-3, "Gemma soft-capping");
}

// The half-precision configurations: f16 Q/K/V/output with f32 scores
// (the LLM one), and bf16 everywhere, scores and mask included; the
// tolerance is about one unit in the last place of the output type.
struct half_variant_t {
    data_type_t io, s;
    double tol;
    const char *what;
};
const half_variant_t k_half_variants[] = {
        {dnnl_f16, dnnl_f32, 2e-3, "f16 + f32 scores"},
        {dnnl_bf16, dnnl_bf16, 1.6e-2, "all bf16"}};

TEST_F(CpuSdpa, HalfPrecisionTensorsAreStagedInF32) {
    // f16 Q/K/V/output with f32 scores (the LLM configuration); bf16
    // everywhere, scores and mask included (every intermediate rounded as
    // the reference rounds it). Tolerance: about one unit in the last
    // place of the output type.
    for (const half_variant_t &vt : k_half_variants) {
        sdpa_t a({2, 2}, 26, 40, 32, vt.io, vt.s);
        const logical_tensor_t scale = a.g.in({1}, vt.s);
        a.op(dnnl_graph_op_multiply, {a.s, scale});
        const logical_tensor_t mask = a.g.in({2, 1, 1, 40}, vt.s);
        a.op(dnnl_graph_op_add, {a.s, mask});
        a.finish({2, 2}, 24);
        const compiler::plan_t p = a.g.plan();
        check(p, make_inputs(p, {{scale.id, 0, 0, true, 0.25f},
                                        {mask.id, -2.f, 0.f}}, 7),
                vt.tol, vt.what);
    }
}

TEST_F(CpuSdpa, Bf16ScoresAreRoundedWhereTheReferenceRounds) {
    // All-bf16 attention whose scores need more bits than bf16 has, so
    // every rounding the reference makes between ops shows in the output:
    // Q and K hold multiples of 1/8 in [-4, 4] (every Q·Kᵀ sum is exact in
    // f32 in any order, up to 12 significant bits), the scores are divided
    // by 3 (inexact), and a bf16 mask of quarters is added. A rounding left
    // out moves a score by up to half a bf16 step at |S| ~ 40, i.e. e^0.04
    // in the exponentials, several output steps; done right, the kernel
    // matches the reference to about one output step. Column (mask
    // [2,1,1,Skv]) and full ([2,2,Sq,Skv]) mask broadcasts, row tails.
    for (const bool full : {false, true}) {
        sdpa_t a({2, 2}, 26, 40, 32, dnnl_bf16, dnnl_bf16);
        const logical_tensor_t div = a.g.in({1});
        a.op(dnnl_graph_op_divide, {a.s, div});
        const logical_tensor_t mask = a.g.in(
                full ? dims_t {2, 2, 26, 40} : dims_t {2, 1, 1, 40},
                dnnl_bf16);
        a.op(dnnl_graph_op_add, {a.s, mask});
        a.finish({2, 2}, 24);
        const compiler::plan_t p = a.g.plan();
        std::vector<bytes_t> in = make_inputs(p,
                {{div.id, 0, 0, true, 3.f}, {mask.id, -2.f, 0.f}}, 11);
        // Snap each tensor to its grid: Q, K to 1/8 steps in [-4, 4],
        // V to 1/8 steps in [-1, 1], the mask to quarters.
        const auto snap = [&](const logical_tensor_t &t, float step,
                                  float range) {
            bytes_t &b = in[static_cast<size_t>(compiler::find_port(p.inputs, t.id))];
            for (int64_t i = 0; i < ir::nelems(t); ++i) {
                const double x = ir::load_value(t.data_type, b.data(), i) * range;
                ir::store_value(t.data_type, b.data(), i,
                        static_cast<float>(std::nearbyint(x / step) * step));
            }
        };
        snap(a.q, 0.125f, 4.f);
        snap(a.k, 0.125f, 4.f);
        snap(a.v, 0.125f, 1.f);
        snap(mask, 0.25f, 1.f);
        check(p, in, 5e-3, full ? "bf16 chain, full mask" : "bf16 chain, column mask");
    }
}

TEST_F(CpuSdpa, PowerOfTwoDivisorsMultiplyWithTheSameBits) {
    // Q·Kᵀ / c with c = ±2^e runs as Q·Kᵀ x 2^-e (gemm_scalar_div.hpp):
    // the same output bytes as with the division, in f32 and in bf16
    // (where the chain rounds before and after the step), and the
    // reference's values. 3 is no power of two: the division stays.
    for (const data_type_t dt : {dnnl_f32, dnnl_bf16})
        for (const float c : {8.f, -0.25f, 3.f}) {
            sdpa_t a({2, 2}, 30, 50, 24, dt, dt);
            const logical_tensor_t div = a.g.in({1}, dt);
            a.op(dnnl_graph_op_divide, {a.s, div});
            const logical_tensor_t mask = a.g.in({2, 1, 1, 50}, dt);
            a.op(dnnl_graph_op_add, {a.s, mask});
            a.finish({2, 2}, 24);
            const compiler::plan_t p = a.g.plan();
            const std::vector<bytes_t> in = make_inputs(
                    p, {{div.id, 0, 0, true, c}, {mask.id, -2.f, 0.f}}, 5);
            const std::string what = std::string(dt == dnnl_f32 ? "f32" : "bf16")
                    + " scores / " + std::to_string(c);
            check(p, in, dt == dnnl_f32 ? 1e-5 : 1.6e-2, what);
            expect_div_twin_exact(p, in, what);
        }
}

TEST_F(CpuSdpa, HalfPrecisionHeadsReadKeysAndValuesInPlace) {
    // On AVX2 the GEMMs read bf16/f16 K and V as they are: one query row
    // (a decode step) and 5 rows widen them in registers, 40 rows (two
    // row blocks, the second a tail) widen them while packing them once
    // per head. K rows of D = 37 (whole vectors plus a tail), 300 keys
    // (a partial strip), V rows of 24. A padding mask of -inf, and of -1e4
    // with one padded key scoring 18500 (Q all ones, its K row 2000),
    // which must not be skipped: the bound that allows a finite mask
    // value's skip comes from the 16-bit K itself.
    for (const half_variant_t &vt : k_half_variants)
        for (int64_t sq : {1, 5, 40})
            for (float pad : {k_ninf, -1e4f}) {
                sdpa_t a({2, 2}, sq, 300, 37, vt.io, vt.s);
                const logical_tensor_t scale = a.g.in({1}, vt.s);
                a.op(dnnl_graph_op_multiply, {a.s, scale});
                const logical_tensor_t mask = a.g.in({2, 1, 1, 300}, dnnl_f32);
                a.op(dnnl_graph_op_add, {a.s, mask});
                a.finish({2, 2}, 24);
                const compiler::plan_t p = a.g.plan();
                const bool hot = pad != k_ninf;
                std::vector<fill_t> fills = {{scale.id, 0, 0, true, 0.25f},
                        {mask.id, -2.f, 0.f}};
                if (hot) fills.push_back({a.q.id, 0, 0, true, 1.f});
                std::vector<bytes_t> in = make_inputs(p, fills, 9);
                // The last 50 keys of each sequence padded; key 260 of every
                // head hot.
                for (size_t i = 0; i < p.inputs.size(); ++i) {
                    if (p.inputs[i].id == mask.id)
                        for (int64_t b = 0; b < 2; ++b)
                            for (int64_t j = 250; j < 300; ++j)
                                ir::store_value(dnnl_f32, in[i].data(),
                                        b * 300 + j, pad);
                    if (p.inputs[i].id == a.k.id && hot)
                        for (int64_t h = 0; h < 4; ++h)
                            for (int64_t c = 0; c < 37; ++c)
                                ir::store_value(vt.io, in[i].data(),
                                        (h * 300 + 260) * 37 + c, 2000.f);
                }
                check(p, in, vt.tol, vt.what);
            }
}

TEST_F(CpuSdpa, TrainingForwardWritesTheStatistics) {
    // SoftMax's second output: log-sum-exp per score row, f32 [.., Sq, 1],
    // next to a bf16 output (the training-forward corpus graph's types).
    sdpa_t a({2, 3}, 21, 30, 16, dnnl_bf16, dnnl_f32);
    const logical_tensor_t scale = a.g.in({1});
    a.op(dnnl_graph_op_multiply, {a.s, scale});
    const logical_tensor_t o = a.finish({2, 3}, 16);
    compiler::plan_t p = a.g.plan();
    ir::op_t &sm = p.ops[2];
    ASSERT_EQ(sm.kind, dnnl_graph_op_softmax);
    const logical_tensor_t stats = ir::make_lt(999, dnnl_f32, {2, 3, 21, 1});
    sm.outputs.push_back(stats);
    p.outputs = {stats, o}; // statistics first: ports are found by id
    const std::vector<bytes_t> in
            = make_inputs(p, {{scale.id, 0, 0, true, 0.25f}}, 8);
    // Reference: the plan without the statistics (run_ref keeps output 0
    // of each op), then the SoftMax op of ops/ on the reference scores.
    compiler::plan_t one_output = p;
    one_output.ops[2].outputs.pop_back();
    const auto ref = plan_test::run_ref(one_output, in);
    const bytes_t &sref = ref.at(p.ops[1].outputs[0].id);
    std::vector<const void *> sin = {sref.data()};
    bytes_t want_p(ir::mem_size(sm.outputs[0])), want_st(ir::mem_size(stats));
    std::vector<void *> sout = {want_p.data(), want_st.data()};
    ASSERT_EQ(ops::find_op_def(sm.kind)->ref(sm, sin, sout), dnnl_success);
    for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
        test_isa::isa_guard_t guard(isa);
        const compiler::backend_t &be = cpu_backend();
        ASSERT_TRUE(be.supports(p));
        std::shared_ptr<const compiler::kernel_t> k;
        ASSERT_EQ(be.compile(p, k), dnnl_success) << last_error();
        EXPECT_EQ(std::string(k->name()).rfind("sdpa_", 0), 0u) << k->name();
        bytes_t got_st(ir::mem_size(stats)), got_o(ir::mem_size(o));
        compiler::exec_ctx_t ctx;
        for (const auto &b : in)
            ctx.inputs.push_back(b.data());
        ctx.outputs = {got_st.data(), got_o.data()};
        ASSERT_EQ(k->execute(ctx), dnnl_success);
        for (int64_t i = 0; i < ir::nelems(stats); ++i) {
            const double w = ir::load_value(dnnl_f32, want_st.data(), i);
            const double g = ir::load_value(dnnl_f32, got_st.data(), i);
            EXPECT_NEAR(g, w, 1e-5 * (1 + std::fabs(w))) << isa_name(isa) << " row " << i;
        }
        const bytes_t &want_o = ref.at(o.id);
        for (int64_t i = 0; i < ir::nelems(o); ++i) {
            const double w = ir::load_value(dnnl_bf16, want_o.data(), i);
            const double g = ir::load_value(dnnl_bf16, got_o.data(), i);
            EXPECT_NEAR(g, w, 1.6e-2 * (1 + std::fabs(w))) << isa_name(isa) << " " << i;
        }
    }
}

TEST_F(CpuSdpa, QuantizedBlockMatchesTheReference) {
    // The int8 BERT block with bf16 compute (corpus MHA-*-int8): every
    // head DQ(u8/s8) -> TypeCast bf16; bf16 scores / f32 scale -> SoftMax
    // -> TypeCast f32 -> Quantize u8 -> Dequantize -> TypeCast bf16 ->
    // MatMul -> TypeCast f32 -> Quantize u8. On the f32 path
    // (LLGA_SDPA_INT8=0), which rounds as the reference does; the integer
    // path has its own suite (cpu_sdpa_int8_test.cpp).
    env_guard_t f32_path("LLGA_SDPA_INT8", "0");
    plan_builder_t g;
    const dims_t qd = {1, 4, 22, 32}, kd = {1, 4, 27, 32}, sd = {1, 4, 22, 27};
    const auto quant = [](float scale, int64_t zp) {
        return [scale, zp](ir::op_t &op) {
            op.set_attr(dnnl_graph_op_attr_scales, attr_value_t::make_f32s({scale}));
            op.set_attr(dnnl_graph_op_attr_zps, attr_value_t::make_s64s({zp}));
        };
    };
    const auto head = [&](const dims_t &d, data_type_t dt, float scale,
                              int64_t zp) {
        const logical_tensor_t x = g.in(d, dt);
        const logical_tensor_t f = g.add(dnnl_graph_op_dequantize, {x}, d,
                dnnl_f32, quant(scale, zp));
        return g.add(dnnl_graph_op_type_cast, {f}, d, dnnl_bf16);
    };
    // Small scales keep the scores O(1), so the probabilities spread
    // over many keys instead of one.
    const logical_tensor_t q = head(qd, dnnl_u8, 0.01f, 128);
    const logical_tensor_t k = head(kd, dnnl_s8, 0.008f, 3);
    logical_tensor_t s = g.add(dnnl_graph_op_matmul, {q, k}, sd, dnnl_bf16,
            transpose_b);
    const logical_tensor_t div = g.in({1});
    s = g.add(dnnl_graph_op_divide, {s, div}, sd, dnnl_bf16);
    s = g.add(dnnl_graph_op_softmax, {s}, sd, dnnl_bf16, inf_as_zero);
    s = g.add(dnnl_graph_op_type_cast, {s}, sd, dnnl_f32);
    // Coarse probability levels (1/16), so the round trip moves outputs
    // by many output steps.
    s = g.add(dnnl_graph_op_quantize, {s}, sd, dnnl_u8, quant(1.f / 16, 0));
    s = g.add(dnnl_graph_op_dequantize, {s}, sd, dnnl_f32, quant(1.f / 16, 0));
    s = g.add(dnnl_graph_op_type_cast, {s}, sd, dnnl_bf16);
    const logical_tensor_t v = head(kd, dnnl_u8, 0.03f, 120);
    logical_tensor_t o = g.add(dnnl_graph_op_matmul, {s, v}, qd, dnnl_bf16);
    o = g.add(dnnl_graph_op_type_cast, {o}, qd, dnnl_f32);
    g.add(dnnl_graph_op_quantize, {o}, qd, dnnl_u8, quant(0.01f, 100));
    const compiler::plan_t p = g.plan();
    const std::vector<bytes_t> in = make_inputs(p, {{div.id, 0, 0, true, 4.f}}, 10);
    // u8 output: a value on a rounding tie may land one step either way.
    check(p, in, 1.01 / 256, "quantized block");
}

TEST_F(CpuSdpa, CompressedKeysAndValues) {
    // K^T [.., D, Skv] s8 with one f32 scale and s8 zero point per 8 values
    // of D; V [.., Skv, Dv] u8 with one scale per 4 values of Dv and no
    // zero points (DynamicDequantize per_group); f32 Q and scores.
    plan_builder_t g;
    const int64_t H = 3, Sq = 10, Skv = 19, D = 16, Dv = 12;
    const auto group = [](std::vector<int64_t> gs) {
        return [gs](ir::op_t &op) {
            op.set_attr(dnnl_graph_op_attr_qtype, attr_value_t::make_str("per_group"));
            op.set_attr(dnnl_graph_op_attr_group_shape, attr_value_t::make_s64s(gs));
        };
    };
    const logical_tensor_t q = g.in({1, H, Sq, D});
    const logical_tensor_t k8 = g.in({1, H, D, Skv}, dnnl_s8);
    const logical_tensor_t ks = g.in({1, H, D / 8, Skv});
    const logical_tensor_t kz = g.in({1, H, D / 8, Skv}, dnnl_s8);
    const logical_tensor_t k = g.add(dnnl_graph_op_dynamic_dequantize,
            {k8, ks, kz}, {1, H, D, Skv}, dnnl_f32, group({1, 1, 8, 1}));
    const dims_t sd = {1, H, Sq, Skv};
    logical_tensor_t s = g.add(dnnl_graph_op_matmul, {q, k}, sd);
    const logical_tensor_t scale = g.in({1});
    s = g.add(dnnl_graph_op_multiply, {s, scale}, sd);
    s = g.add(dnnl_graph_op_softmax, {s}, sd, dnnl_f32, inf_as_zero);
    const logical_tensor_t v8 = g.in({1, H, Skv, Dv}, dnnl_u8);
    const logical_tensor_t vs = g.in({1, H, Skv, Dv / 4});
    const logical_tensor_t v = g.add(dnnl_graph_op_dynamic_dequantize,
            {v8, vs}, {1, H, Skv, Dv}, dnnl_f32, group({1, 1, 1, 4}));
    g.add(dnnl_graph_op_matmul, {s, v}, {1, H, Sq, Dv});
    const compiler::plan_t p = g.plan();
    check(p, make_inputs(p, {{ks.id, 0.001f, 0.02f}, {vs.id, 0.001f, 0.01f},
                                    {scale.id, 0, 0, true, 0.25f}}, 11),
            1e-5, "compressed K and V");
}

TEST_F(CpuSdpa, DeclinesWhatItDoesNotCover) {
    std::string why;
    // int8 Q/K without a Dequantize.
    {
        plan_builder_t g;
        const logical_tensor_t q = g.in({2, 8, 16}, dnnl_s8);
        const logical_tensor_t k = g.in({2, 8, 16}, dnnl_s8);
        logical_tensor_t s = g.add(dnnl_graph_op_matmul, {q, k}, {2, 8, 8},
                dnnl_f32, transpose_b);
        s = g.add(dnnl_graph_op_softmax, {s}, {2, 8, 8}, dnnl_f32, inf_as_zero);
        const logical_tensor_t v = g.in({2, 8, 16});
        g.add(dnnl_graph_op_matmul, {s, v}, {2, 8, 16});
        EXPECT_FALSE(sdpa::accepts(g.plan(), isa_t::avx2, &why));
        EXPECT_NE(why.find("dequantized u8/s8"), std::string::npos) << why;
    }
    // Probabilities on the second MatMul input without the transpose
    // that JAX puts there.
    {
        plan_builder_t g;
        const logical_tensor_t q = g.in({2, 8, 16});
        const logical_tensor_t k = g.in({2, 8, 16});
        logical_tensor_t s = g.add(dnnl_graph_op_matmul, {q, k}, {2, 8, 8},
                dnnl_f32, transpose_b);
        s = g.add(dnnl_graph_op_softmax, {s}, {2, 8, 8}, dnnl_f32, inf_as_zero);
        const logical_tensor_t v = g.in({2, 16, 8});
        g.add(dnnl_graph_op_matmul, {v, s}, {2, 16, 8});
        EXPECT_FALSE(sdpa::accepts(g.plan(), isa_t::avx2, &why));
        EXPECT_NE(why.find("input 0"), std::string::npos) << why;
    }
}

} // namespace
} // namespace cpu
} // namespace llga
