// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/eltwise/cpu_eltwise_stream_test.cpp — the
// non-temporal store variants of the unary, dense binary and chain kernels
// (outputs from stream_min_bytes() on): with the threshold lowered to 0 the
// kernels must give exactly the bits of the plain stores, for a destination at
// every float offset from a 64-byte boundary (the head before the boundary goes
// through the plain loop, vmovntps needs aligned vectors), several chunks plus
// a vector tail, and in place.
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/kernels/eltwise/eltwise.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/logical_tensor.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using plan_test::bytes_t;

class CpuEltwiseStream : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
    void TearDown() override { eltwise::set_stream_min_bytes_for_testing(-1); }
};

// Two chunks of 16384 floats and a tail of 37.
constexpr int64_t k_n = 2 * 16384 + 37;

compiler::plan_t unary_plan() {
    ir::op_t op;
    op.kind = dnnl_graph_op_exp;
    op.id = 1;
    op.inputs = {ir::make_lt(10, dnnl_f32, {k_n})};
    op.outputs = {ir::make_lt(11, dnnl_f32, {k_n})};
    return plan_test::plan_of(op);
}

// Square, then times a second dense input.
compiler::plan_t chain_plan() {
    compiler::plan_t p;
    ir::op_t sq, mul;
    sq.kind = dnnl_graph_op_square;
    sq.id = 1;
    sq.inputs = {ir::make_lt(10, dnnl_f32, {k_n})};
    sq.outputs = {ir::make_lt(12, dnnl_f32, {k_n})};
    mul.kind = dnnl_graph_op_multiply;
    mul.id = 2;
    mul.inputs = {sq.outputs[0], ir::make_lt(11, dnnl_f32, {k_n})};
    mul.outputs = {ir::make_lt(13, dnnl_f32, {k_n})};
    p.ops = {sq, mul};
    p.inputs = {sq.inputs[0], mul.inputs[1]};
    p.outputs = {mul.outputs[0]};
    return p;
}

// A binary op on two dense inputs, or with a single-element second one.
compiler::plan_t binary_plan(bool scalar) {
    ir::op_t op;
    op.kind = scalar ? dnnl_graph_op_multiply : dnnl_graph_op_add;
    op.id = 1;
    op.inputs = {ir::make_lt(10, dnnl_f32, {k_n}),
            ir::make_lt(11, dnnl_f32, {scalar ? 1 : k_n})};
    op.outputs = {ir::make_lt(12, dnnl_f32, {k_n})};
    op.set_attr(dnnl_graph_op_attr_auto_broadcast, ir::attr_value_t::make_str("numpy"));
    return plan_test::plan_of(op);
}

std::shared_ptr<const compiler::kernel_t> compile(const compiler::plan_t &p) {
    std::shared_ptr<const compiler::kernel_t> k;
    EXPECT_EQ(cpu_backend().compile(p, k), dnnl_success) << last_error();
    return k;
}

// `k` on `in` into a destination `shift` floats past a 64-byte boundary
// (or into input 0 when in place).
std::vector<float> run(const compiler::kernel_t &k, std::vector<bytes_t> in,
        int shift, bool in_place) {
    std::vector<float> buf(k_n + 32);
    float *base = buf.data();
    while (reinterpret_cast<uintptr_t>(base) % 64 != 0)
        ++base;
    float *dst = base + shift;
    if (in_place) std::memcpy(dst, in[0].data(), k_n * 4);
    compiler::exec_ctx_t ctx;
    for (const bytes_t &b : in)
        ctx.inputs.push_back(b.data());
    if (in_place) ctx.inputs[0] = dst;
    ctx.outputs.push_back(dst);
    EXPECT_EQ(k.execute(ctx), dnnl_success) << last_error();
    return std::vector<float>(dst, dst + k_n);
}

TEST_F(CpuEltwiseStream, SameBitsAsPlainStoresAtEveryOffset) {
    const auto levels = test_isa::host_levels({isa_t::avx2, isa_t::avx512_core});
    if (levels.empty()) GTEST_SKIP() << "no AVX2";
    std::mt19937 gen(5);
    for (isa_t isa : levels) {
        test_isa::isa_guard_t guard(isa);
        for (const compiler::plan_t &p : {unary_plan(), chain_plan(),
                     binary_plan(false), binary_plan(true)}) {
            std::vector<bytes_t> in;
            for (const logical_tensor_t &t : p.inputs)
                in.push_back(plan_test::random_bytes(t, gen, -2.f, 2.f));
            eltwise::set_stream_min_bytes_for_testing(int64_t(1) << 60);
            const auto plain = compile(p);
            eltwise::set_stream_min_bytes_for_testing(0);
            const auto nt = compile(p);
            ASSERT_TRUE(plain && nt);
            for (int shift = 0; shift < 16; ++shift)
                for (bool in_place : {false, true}) {
                    const std::vector<float> want
                            = run(*plain, in, shift, in_place);
                    const std::vector<float> got = run(*nt, in, shift, in_place);
                    EXPECT_EQ(0, std::memcmp(want.data(), got.data(), k_n * 4))
                            << nt->name() << " at " << isa_name(isa)
                            << " shift " << shift << (in_place ? " in place" : "");
                }
        }
    }
}

} // namespace
} // namespace cpu
} // namespace llga
