// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/eltwise/cpu_eltwise_exact_test.cpp — Log, Mish,
// SoftPlus, Pow, Reciprocal and the twelve unary backward ops on the cpu
// backend (backends/cpu/kernels/eltwise_exact.cpp): values worked out by hand,
// then random shapes with edge values (NaN, infinities, signed zeros, large
// magnitudes), every attribute form, and inputs stored in another order than
// the output, bit for bit against the reference; in f32, bf16, f16 and mixes of
// them.
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/eltwise/eltwise_exact.hpp"
#include "cpu_layout_test_util.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using layout_test::permuted;
using plan_test::bytes_t;
using plan_test::f32_bytes;
using av = ir::attr_value_t;

class CpuEltwiseExact : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

// One op of `kind` on tensors of `d` (all dense row-major) with the given
// attribute setter.
ir::op_t make(op_kind_t kind, const dims_t &d,
        const std::function<void(ir::op_t &)> &attrs = nullptr) {
    ir::op_t op;
    op.kind = kind;
    op.id = 1;
    const bool bwd = ops::find_op_def(kind)->traits.is_backward;
    op.inputs.push_back(ir::make_lt(10, dnnl_f32, d));
    if (bwd) op.inputs.push_back(ir::make_lt(11, dnnl_f32, d));
    op.outputs.push_back(ir::make_lt(12, dnnl_f32, d));
    if (attrs) attrs(op);
    return op;
}

std::vector<float> run(const ir::op_t &op, const std::vector<std::vector<float>> &in) {
    std::vector<bytes_t> b;
    for (const auto &v : in)
        b.push_back(f32_bytes(v));
    bytes_t got;
    std::string kname;
    EXPECT_TRUE(plan_test::run_jit(plan_test::plan_of(op), b, got, &kname));
    EXPECT_EQ(kname.rfind("exact_", 0), 0u) << kname;
    std::vector<float> out(got.size() / 4);
    if (!got.empty()) std::memcpy(out.data(), got.data(), got.size());
    return out;
}

TEST_F(CpuEltwiseExact, HandWorkedValues) {
    // Log(1) = 0, Log(e^2) = 2; Reciprocal(4) = 0.25; Pow(2, 3) = 8.
    EXPECT_EQ(run(make(dnnl_graph_op_log, {2}), {{1.f, std::exp(2.f)}})[0], 0.f);
    EXPECT_FLOAT_EQ(run(make(dnnl_graph_op_log, {2}), {{1.f, std::exp(2.f)}})[1], 2.f);
    EXPECT_EQ(run(make(dnnl_graph_op_reciprocal, {1}), {{4.f}})[0], 0.25f);
    EXPECT_EQ(run(make(dnnl_graph_op_pow, {1},
                          [](ir::op_t &o) {
                              o.set_attr(dnnl_graph_op_attr_beta, av::make_f32(3.f));
                          }),
                      {{2.f}})[0],
            8.f);
    // ReLUBackward with use_dst: dx = dy where y > 0, else 0.
    EXPECT_EQ(run(make(dnnl_graph_op_relu_backward, {3}), {{2.f, 0.f, -1.f}, {5.f, 6.f, 7.f}}),
            (std::vector<float> {5.f, 0.f, 0.f}));
    // SigmoidBackward from the forward output y: dx = dy * y * (1 - y).
    EXPECT_EQ(run(make(dnnl_graph_op_sigmoid_backward, {1}), {{0.25f}, {2.f}})[0],
            2.f * 0.25f * 0.75f);
    // TanhBackward from y: dx = dy (1 - y^2).
    EXPECT_EQ(run(make(dnnl_graph_op_tanh_backward, {1}), {{0.5f}, {4.f}})[0], 3.f);
    // ClampBackward on src in [-1, 1] (use_dst false): dy inside, 0 outside.
    EXPECT_EQ(run(make(dnnl_graph_op_clamp_backward, {3},
                          [](ir::op_t &o) {
                              o.set_attr(dnnl_graph_op_attr_min, av::make_f32(-1.f));
                              o.set_attr(dnnl_graph_op_attr_max, av::make_f32(1.f));
                              o.set_attr(dnnl_graph_op_attr_use_dst, av::make_bool(false));
                          }),
                      {{-2.f, 0.5f, 3.f}, {1.f, 2.f, 3.f}}),
            (std::vector<float> {0.f, 2.f, 0.f}));
}

// Values: a spread over many magnitudes with both signs, then the edges.
std::vector<float> values(int64_t n, std::mt19937 &gen, bool positive) {
    std::uniform_real_distribution<float> e(-12.f, 6.f);
    std::vector<float> v(static_cast<size_t>(n));
    const float inf = std::numeric_limits<float>::infinity();
    const float edges[] = {0.f, -0.f, inf, -inf,
            std::numeric_limits<float>::quiet_NaN(), 1.f, -1.f, 20.f, -20.f,
            90.f, -90.f, 1e-40f};
    for (size_t i = 0; i < v.size(); ++i) {
        float x = i < sizeof(edges) / sizeof(edges[0]) && n > 40
                ? edges[i]
                : std::exp2(e(gen)) * (gen() % 2 ? -1.f : 1.f);
        if (positive && !std::isnan(x)) x = std::fabs(x);
        v[i] = x;
    }
    std::shuffle(v.begin(), v.end(), gen);
    return v;
}

struct form_t {
    op_kind_t kind;
    std::function<void(ir::op_t &)> attrs;
};

std::vector<form_t> forms() {
    auto f32 = [](attr_id_t a, float v) {
        return [a, v](ir::op_t &o) { o.set_attr(a, av::make_f32(v)); };
    };
    auto use_dst = [](bool u) {
        return [u](ir::op_t &o) {
            o.set_attr(dnnl_graph_op_attr_use_dst, av::make_bool(u));
        };
    };
    std::vector<form_t> f = {{dnnl_graph_op_log, nullptr},
            {dnnl_graph_op_mish, nullptr}, {dnnl_graph_op_softplus, nullptr},
            {dnnl_graph_op_softplus, f32(dnnl_graph_op_attr_beta, 2.5f)},
            {dnnl_graph_op_pow, f32(dnnl_graph_op_attr_beta, 0.5f)},
            {dnnl_graph_op_pow, f32(dnnl_graph_op_attr_beta, -1.5f)},
            {dnnl_graph_op_reciprocal, nullptr},
            {dnnl_graph_op_abs_backward, nullptr},
            {dnnl_graph_op_hard_swish_backward, nullptr},
            {dnnl_graph_op_mish_backward, nullptr},
            {dnnl_graph_op_gelu_backward, nullptr},
            {dnnl_graph_op_gelu_backward,
                    [](ir::op_t &o) {
                        o.set_attr(dnnl_graph_op_attr_mode, av::make_str("gelu_tanh"));
                    }},
            {dnnl_graph_op_hard_sigmoid_backward,
                    [](ir::op_t &o) {
                        o.set_attr(dnnl_graph_op_attr_alpha, av::make_f32(0.2f));
                        o.set_attr(dnnl_graph_op_attr_beta, av::make_f32(0.5f));
                    }},
            {dnnl_graph_op_softplus_backward, f32(dnnl_graph_op_attr_beta, 1.5f)},
            {dnnl_graph_op_clamp_backward,
                    [](ir::op_t &o) {
                        o.set_attr(dnnl_graph_op_attr_min, av::make_f32(-0.5f));
                        o.set_attr(dnnl_graph_op_attr_max, av::make_f32(2.f));
                        o.set_attr(dnnl_graph_op_attr_use_dst, av::make_bool(false));
                    }}};
    for (bool u : {true, false}) {
        for (op_kind_t k : {dnnl_graph_op_relu_backward,
                     dnnl_graph_op_sigmoid_backward, dnnl_graph_op_sqrt_backward,
                     dnnl_graph_op_tanh_backward})
            f.push_back({k, use_dst(u)});
        f.push_back({dnnl_graph_op_elu_backward, [u](ir::op_t &o) {
                         o.set_attr(dnnl_graph_op_attr_alpha, av::make_f32(0.7f));
                         o.set_attr(dnnl_graph_op_attr_use_dst, av::make_bool(u));
                     }});
    }
    return f;
}

TEST_F(CpuEltwiseExact, EveryOpMatchesTheReferenceBitForBit) {
    std::mt19937 gen(5);
    const std::vector<dims_t> shapes = {{1}, {77}, {3, 5, 7}, {2, 3, 4, 1000}};
    for (const form_t &f : forms())
        for (const dims_t &d : shapes)
            for (int layout = 0; layout < 3; ++layout) {
                ir::op_t op = make(f.kind, d, f.attrs);
                // 1: every tensor in one other order (walked flat); 2: the
                // inputs each in their own order (copied first).
                if (layout == 1) {
                    const logical_tensor_t p = permuted(0, d, gen);
                    for (auto *v : {&op.inputs, &op.outputs})
                        for (auto &lt : *v)
                            std::memcpy(lt.layout.strides, p.layout.strides,
                                    sizeof(lt.layout.strides));
                } else if (layout == 2) {
                    for (auto &lt : op.inputs)
                        lt = permuted(lt.id, d, gen);
                }
                ASSERT_EQ(ops::verify_op(op), dnnl_success) << last_error();
                const compiler::plan_t p = plan_test::plan_of(op);
                // Backward ops whose input 0 is a forward dst get values in
                // that op's range, so every branch of the formula is hit.
                const bool positive = f.kind == dnnl_graph_op_sqrt_backward
                        || f.kind == dnnl_graph_op_log;
                std::vector<bytes_t> in;
                for (const auto &lt : p.inputs) {
                    const std::vector<float> v = values(
                            static_cast<int64_t>(ir::mem_size(lt) / 4), gen,
                            positive && &lt == &p.inputs[0]);
                    in.push_back(f32_bytes(v));
                }
                plan_test::expect_all_f32_like(p, in, "exact_",
                        std::string(ops::op_kind_name(f.kind)) + " "
                                + ir::dims_to_string(d) + " layout "
                                + std::to_string(layout));
                if (HasFailure()) return;
            }
}

// bf16/f16 tensors run in the kernel itself (widened and narrowed in
// chunks), not staged through f32 copies: every op, lengths around the
// 8-wide conversions and the chunks, permuted inputs, and the type mixes
// the op's schema allows, bit for bit against the reference (which rounds
// each double result to f32 and then to the output type).
TEST_F(CpuEltwiseExact, HalfTypesMatchTheReferenceBitForBit) {
    std::mt19937 gen(11);
    const std::vector<dims_t> shapes = {{7}, {3, 5, 9}, {2, 1031}};
    struct mix_t {
        data_type_t in0, in1, out;
    };
    const mix_t mixes[] = {{dnnl_bf16, dnnl_bf16, dnnl_bf16},
            {dnnl_f16, dnnl_f16, dnnl_f16}, {dnnl_bf16, dnnl_f32, dnnl_bf16},
            {dnnl_f32, dnnl_f16, dnnl_f16}, {dnnl_bf16, dnnl_bf16, dnnl_f32}};
    int mixes_run = 0;
    for (const form_t &f : forms())
        for (const mix_t &m : mixes)
            for (const dims_t &d : shapes)
                for (int layout = 0; layout < 2; ++layout) {
                    ir::op_t op = make(f.kind, d, f.attrs);
                    if (layout == 1)
                        for (auto &lt : op.inputs)
                            lt = permuted(lt.id, d, gen);
                    op.inputs[0].data_type = m.in0;
                    if (op.inputs.size() == 2) op.inputs[1].data_type = m.in1;
                    op.outputs[0].data_type = m.out;
                    // Mixes the schema refuses are not the kernel's to take.
                    if (ops::verify_op(op) != dnnl_success) continue;
                    ++mixes_run;
                    const compiler::plan_t p = plan_test::plan_of(op);
                    const bool positive = f.kind == dnnl_graph_op_sqrt_backward
                            || f.kind == dnnl_graph_op_log;
                    std::vector<bytes_t> in;
                    for (const auto &lt : p.inputs) {
                        const int64_t n = static_cast<int64_t>(ir::mem_size(lt)
                                / ir::dtype_storage_bytes(lt.data_type, 1));
                        const std::vector<float> v = values(
                                n, gen, positive && &lt == &p.inputs[0]);
                        bytes_t b(ir::mem_size(lt));
                        for (int64_t i = 0; i < n; ++i)
                            ir::store_value(lt.data_type, b.data(), i, v[size_t(i)]);
                        in.push_back(std::move(b));
                    }
                    const bytes_t want = plan_test::run_ref_all(p, in)[0];
                    const std::string what = std::string(ops::op_kind_name(f.kind))
                            + " " + ir::dims_to_string(d) + " "
                            + ir::dtype_name(m.in0) + "/" + ir::dtype_name(m.in1)
                            + "->" + ir::dtype_name(m.out) + " layout "
                            + std::to_string(layout);
                    for (isa_t isa : test_isa::host_levels(
                                 {isa_t::avx2, isa_t::avx512_core})) {
                        test_isa::isa_guard_t guard(isa);
                        bytes_t got;
                        std::string kname;
                        ASSERT_TRUE(plan_test::run_jit(p, in, got, &kname)) << what;
                        ASSERT_EQ(kname.rfind("exact_", 0), 0u) << kname << " " << what;
                        EXPECT_EQ(plan_test::value_mismatches(got, want, m.out,
                                          what + " at " + isa_name(isa)),
                                0);
                    }
                    if (HasFailure()) return;
                }
    // Same-type bf16 and f16 pass the schema for every op at least.
    EXPECT_GE(mixes_run, static_cast<int>(forms().size() * 2 * shapes.size() * 2));
}

TEST_F(CpuEltwiseExact, LeavesTheGeneratedOpsAndOtherTypesAlone) {
    std::string why;
    EXPECT_FALSE(eltwise_exact::accepts(
            plan_test::plan_of(make(dnnl_graph_op_relu, {8})), isa_t::avx2, &why));
    EXPECT_NE(why.find("not an exact-formula"), std::string::npos) << why;
    ir::op_t s8 = make(dnnl_graph_op_relu_backward, {8});
    for (auto *v : {&s8.inputs, &s8.outputs})
        for (auto &lt : *v)
            lt.data_type = dnnl_s8;
    EXPECT_FALSE(eltwise_exact::accepts(plan_test::plan_of(s8), isa_t::avx2, &why));
    EXPECT_NE(why.find("only f32, bf16 and f16"), std::string::npos) << why;
}

} // namespace
} // namespace cpu
} // namespace llga
