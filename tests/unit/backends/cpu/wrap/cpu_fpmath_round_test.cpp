// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/wrap/cpu_fpmath_round_test.cpp — f32 MatMul and
// convolutions under fpmath bf16 / f16 / tf32 (backends/cpu/kernels/
// fpmath_round.cpp): hand-worked roundings, random MatMuls and
// convolutions (forward and backward) against the reference, which rounds
// the same operands, within the f32 summation bound; what is declined; and
// f16 ops whose mode changes nothing running staged.
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/kernels/wrap/fpmath_round.hpp"
#include "cpu_plan_test_util.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "ops/registry.hpp"
#include "runtime/constant_cache.hpp"
#include "runtime/engine.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using plan_test::bytes_t;
using plan_test::f32_bytes;
using av = ir::attr_value_t;

class CpuFpmathRound : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

ir::op_t matmul(int64_t m, int64_t k, int64_t n, fpmath_mode_t mode) {
    ir::op_t op;
    op.kind = dnnl_graph_op_matmul;
    op.id = 1;
    op.fpmath = mode;
    op.inputs = {ir::make_lt(1, dnnl_f32, {m, k}), ir::make_lt(2, dnnl_f32, {k, n})};
    op.outputs = {ir::make_lt(3, dnnl_f32, {m, n})};
    return op;
}

// [1 x 2] x [2 x 1] with src (1 + 2^-10, 1 + 2^-12), weights (1, 1):
// bf16 keeps 7 fraction bits, so both round to 1: 2. tf32 and f16 keep 10:
// 1 + 2^-10 stays, 1 + 2^-12 rounds to 1: 2 + 2^-10. Strict: 2 + 2^-10 +
// 2^-12.
TEST_F(CpuFpmathRound, HandWorkedRounding) {
    const std::vector<float> src = {1.f + std::ldexp(1.f, -10),
            1.f + std::ldexp(1.f, -12)};
    const std::vector<float> wei = {1.f, 1.f};
    const struct {
        fpmath_mode_t mode;
        float want;
        const char *name;
    } cases[] = {{dnnl_fpmath_mode_bf16, 2.f, "fpmath_bf16("},
            {dnnl_fpmath_mode_tf32, 2.f + std::ldexp(1.f, -10), "fpmath_tf32("},
            {dnnl_fpmath_mode_f16, 2.f + std::ldexp(1.f, -10), "fpmath_f16("}};
    for (const auto &c : cases) {
        bytes_t got;
        std::string kname;
        ASSERT_TRUE(plan_test::run_jit(plan_test::plan_of(matmul(1, 2, 1, c.mode)),
                {f32_bytes(src), f32_bytes(wei)}, got, &kname));
        EXPECT_EQ(kname.rfind(c.name, 0), 0u) << kname;
        float y;
        std::memcpy(&y, got.data(), 4);
        EXPECT_EQ(y, c.want) << kname;
    }
}

// Ties round to even: 1 + 3 * 2^-8 lies halfway between the bf16 values
// 1 + 2^-7 (odd) and 1 + 2^-6 (even); 1 + 3 * 2^-11 the same for tf32's 10
// fraction bits.
TEST_F(CpuFpmathRound, TiesRoundToEven) {
    const struct {
        fpmath_mode_t mode;
        float x, want;
    } cases[] = {{dnnl_fpmath_mode_bf16, 1.f + 3 * std::ldexp(1.f, -8),
                         1.f + std::ldexp(1.f, -6)},
            {dnnl_fpmath_mode_tf32, 1.f + 3 * std::ldexp(1.f, -11),
                    1.f + std::ldexp(1.f, -9)},
            {dnnl_fpmath_mode_f16, 1.f + 3 * std::ldexp(1.f, -11),
                    1.f + std::ldexp(1.f, -9)}};
    for (const auto &c : cases) {
        bytes_t got;
        std::string kname;
        ASSERT_TRUE(plan_test::run_jit(plan_test::plan_of(matmul(1, 1, 1, c.mode)),
                {f32_bytes({c.x}), f32_bytes({1.f})}, got, &kname));
        float y;
        std::memcpy(&y, got.data(), 4);
        EXPECT_EQ(y, c.want) << kname;
    }
}

// Every element of `p`'s output within the bound of `terms` products.
void expect_within_bound(const compiler::plan_t &p, const std::vector<bytes_t> &in,
        int64_t terms, const std::string &what) {
    const size_t out_id = p.outputs[0].id;
    const plan_test::anchor_bounds_t bounds
            = plan_test::reference_bounds(p, in, 0, out_id, terms);
    bytes_t got;
    std::string kname;
    ASSERT_TRUE(plan_test::run_jit(p, in, got, &kname)) << what;
    EXPECT_EQ(kname.rfind("fpmath_", 0), 0u) << kname;
    const dims_t od = ir::dims_of(p.outputs[0]);
    const dims_t os = ir::strides_of(p.outputs[0]);
    int64_t idx[DNNL_MAX_NDIMS];
    int bad = 0;
    for (int64_t i = 0; i < ir::product(od); ++i) {
        ir::unravel(i, od, idx);
        int64_t o = 0;
        for (size_t a = 0; a < od.size(); ++a)
            o += idx[a] * os[a];
        const plan_test::bound_check_t e
                = plan_test::check_element(bounds, out_id, got, o);
        if (!e.ok && bad++ < 3)
            ADD_FAILURE() << what << " " << kname << " [" << o << "] got "
                          << e.got << " want " << e.want;
    }
}

TEST_F(CpuFpmathRound, MatMulsMatchTheReference) {
    std::mt19937 gen(8);
    for (fpmath_mode_t mode : {dnnl_fpmath_mode_bf16, dnnl_fpmath_mode_f16,
                 dnnl_fpmath_mode_tf32})
        for (int t = 0; t < 8; ++t) {
            const int64_t m = 1 + gen() % 40, k = 1 + gen() % 300,
                          n = 1 + gen() % 50;
            const compiler::plan_t p = plan_test::plan_of(matmul(m, k, n, mode));
            std::vector<bytes_t> in;
            for (const auto &lt : p.inputs)
                in.push_back(plan_test::random_bytes(lt, gen, -3.f, 3.f));
            expect_within_bound(p, in, k, "matmul " + std::to_string(m) + "x"
                            + std::to_string(k) + "x" + std::to_string(n));
            if (HasFailure()) return;
        }
}

// Constant weights under a rounding mode are rounded once per user buffer
// into the engine's constant cache, and the strict-mode kernel packs each
// rounded copy once too, keyed by the user's buffer: three buffers (the
// first and last equal) and the first again make 3 + 3 entries, the
// repeat hitting both. Values are small integers with a half (exact in
// bf16), so the results equal the reference's exactly.
TEST_F(CpuFpmathRound, ConstantWeightsAreRoundedOncePerBuffer) {
    ir::op_t op = matmul(16, 64, 48, dnnl_fpmath_mode_bf16);
    op.inputs[1].property = dnnl_graph_tensor_property_constant;
    const compiler::plan_t p = plan_test::plan_of(op);
    ASSERT_EQ(p.inputs[1].property, dnnl_graph_tensor_property_constant);
    std::shared_ptr<const compiler::kernel_t> k;
    ASSERT_EQ(cpu_backend().compile(p, k), dnnl_success);
    ASSERT_EQ(std::string(k->name()).rfind("fpmath_bf16(", 0), 0u) << k->name();
    rt::engine_t eng(dnnl_cpu, 14, rt::allocator_t());
    rt::constant_cache_t &cache = rt::constant_cache_t::get(dnnl_cpu, 14);
    cache.set_capacity(size_t(64) << 20);
    const auto values = [](const logical_tensor_t &lt, unsigned seed) {
        std::mt19937 gen(seed);
        std::vector<float> v(static_cast<size_t>(ir::nelems(lt)));
        for (float &x : v)
            x = static_cast<float>(static_cast<int>(gen() % 9) - 4) / 2.f;
        return f32_bytes(v);
    };
    const bytes_t av = values(p.inputs[0], 3);
    const std::vector<bytes_t> bvs = {values(p.inputs[1], 4),
            values(p.inputs[1], 5), values(p.inputs[1], 4)};
    const size_t computed0 = cache.usage().computed;
    plan_test::expect_weight_calls(*k, p, eng, av, bvs, {0, 1, 2, 0});
    EXPECT_EQ(cache.usage().computed - computed0, 6u);
    EXPECT_EQ(cache.usage().entries, 6u);
    cache.flush();
}

// A 3x3 convolution and its two gradients, channel-last, in each mode.
TEST_F(CpuFpmathRound, ConvolutionsMatchTheReference) {
    std::mt19937 gen(9);
    const dims_t x = {2, 9, 9, 6}, w = {3, 3, 6, 5}, y = {2, 9, 9, 5};
    for (fpmath_mode_t mode : {dnnl_fpmath_mode_bf16, dnnl_fpmath_mode_f16,
                 dnnl_fpmath_mode_tf32})
        for (op_kind_t kind : {dnnl_graph_op_convolution,
                     dnnl_graph_op_convolution_backward_data,
                     dnnl_graph_op_convolution_backward_weights}) {
            ir::op_t op;
            op.kind = kind;
            op.id = 1;
            op.fpmath = mode;
            const logical_tensor_t lx = ir::make_lt(1, dnnl_f32, x),
                                   lw = ir::make_lt(2, dnnl_f32, w),
                                   ly = ir::make_lt(3, dnnl_f32, y);
            int64_t terms = 9 * 6;
            if (kind == dnnl_graph_op_convolution) {
                op.inputs = {lx, lw};
                op.outputs = {ly};
            } else if (kind == dnnl_graph_op_convolution_backward_data) {
                op.inputs = {ly, lw};
                op.outputs = {lx};
                op.set_attr(dnnl_graph_op_attr_dst_shape, av::make_s64s(x));
                terms = 9 * 5;
            } else {
                op.inputs = {lx, ly};
                op.outputs = {lw};
                op.set_attr(dnnl_graph_op_attr_weights_shape, av::make_s64s(w));
                terms = 2 * 81;
            }
            op.set_attr(dnnl_graph_op_attr_strides, av::make_s64s({1, 1}));
            op.set_attr(dnnl_graph_op_attr_dilations, av::make_s64s({1, 1}));
            op.set_attr(dnnl_graph_op_attr_pads_begin, av::make_s64s({1, 1}));
            op.set_attr(dnnl_graph_op_attr_pads_end, av::make_s64s({1, 1}));
            op.set_attr(dnnl_graph_op_attr_data_format, av::make_str("NXC"));
            op.set_attr(dnnl_graph_op_attr_weights_format, av::make_str("XIO"));
            ASSERT_EQ(ops::verify_op(op), dnnl_success) << last_error();
            const compiler::plan_t p = plan_test::plan_of(op);
            std::vector<bytes_t> in;
            for (const auto &lt : p.inputs)
                in.push_back(plan_test::random_bytes(lt, gen, -2.f, 2.f));
            expect_within_bound(p, in, terms, ops::op_kind_name(kind));
            if (HasFailure()) return;
        }
}

TEST_F(CpuFpmathRound, DeclinesWhatItCannotRound) {
    std::string why;
    // Strict (or any): nothing to round.
    EXPECT_FALSE(fpmath_round::accepts(
            plan_test::plan_of(matmul(2, 3, 4, dnnl_fpmath_mode_strict)),
            isa_t::avx2, &why));
    // A rounded operand computed inside the partition (a ReLU feeds the
    // MatMul's src).
    plan_test::plan_builder_t b;
    const logical_tensor_t a = b.in({2, 3});
    const logical_tensor_t wt = b.in({3, 4});
    const logical_tensor_t r = b.add(dnnl_graph_op_relu, {a}, {2, 3});
    b.add(dnnl_graph_op_matmul, {r, wt}, {2, 4});
    compiler::plan_t p = b.plan();
    for (auto &op : p.ops)
        op.fpmath = dnnl_fpmath_mode_bf16;
    EXPECT_FALSE(fpmath_round::accepts(p, isa_t::avx2, &why));
    EXPECT_NE(why.find("computed inside"), std::string::npos) << why;
}

// f16 inputs are read as they are in any fpmath mode, so an f16 MatMul
// under fpmath f16 runs as a strict one: on AVX2 on the MatMul line that
// widens the weights inside the GEMM (staged, f32 around the f32 kernel,
// on hosts without AVX2); with an f32 input the mode would round it, and
// both decline.
TEST_F(CpuFpmathRound, HalfOpsIgnoreTheModeAndRunStaged) {
    for (int64_t m : {17, 4}) {
        ir::op_t op = matmul(m, 8, 6, dnnl_fpmath_mode_f16);
        for (auto *v : {&op.inputs, &op.outputs})
            for (auto &lt : *v)
                lt.data_type = dnnl_f16;
        std::shared_ptr<const compiler::kernel_t> k;
        ASSERT_EQ(cpu_backend().compile(plan_test::plan_of(op), k),
                dnnl_success)
                << last_error();
        EXPECT_EQ(std::string(k->name()).rfind(host_supports(isa_t::avx2)
                                  ? "matmul_gemm_f16_avx2"
                                  : "staged_f32(matmul_",
                          0),
                0u)
                << k->name();
    }
}

} // namespace
} // namespace cpu
} // namespace llga
