// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/norm/cpu_batchnorm_test.cpp — BatchNormInference and
// BatchNormForwardTraining on the cpu backend (backends/cpu/kernels/
// batchnorm.cpp) against the reference op, bit for bit (the kernel
// evaluates the reference's own double expressions): NCX and NXC, ranks 2
// to 5, odd channel counts (f32 training also off its groups of four
// channels); bf16 and f16 data (parameters f32, or bf16
// with bf16 data) with pieces that cross planes and rows, planes longer
// than one piece, channel counts off the training kernel's groups of
// four; and what the kernels decline.
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/norm/batchnorm.hpp"
#include "cpu_norm_test_util.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using plan_test::bytes_t;
using plan_test::plan_builder_t;

class CpuBatchnorm : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

compiler::plan_t bn_plan(const dims_t &x, bool nxc, data_type_t pdt = dnnl_f32,
        const dims_t &x_strides = {}, data_type_t dt = dnnl_f32) {
    plan_builder_t g;
    const int64_t c = nxc ? x.back() : x[1];
    const logical_tensor_t src = g.in(x, dt, x_strides);
    std::vector<logical_tensor_t> ins = {src};
    for (int k = 0; k < 4; ++k)
        ins.push_back(g.in({c}, pdt));
    g.add(dnnl_graph_op_batch_norm_inference, ins, x, dt,
            [&](ir::op_t &op) {
                op.set_attr(dnnl_graph_op_attr_epsilon,
                        ir::attr_value_t::make_f32(1e-5f));
                op.set_attr(dnnl_graph_op_attr_data_format,
                        ir::attr_value_t::make_str(nxc ? "NXC" : "NCX"));
            });
    return g.plan();
}

TEST_F(CpuBatchnorm, InferenceMatchesTheReferenceBitForBit) {
    std::mt19937 gen(4);
    const std::vector<dims_t> shapes = {{7, 5}, {2, 3, 17}, {2, 13, 5, 6},
            {1, 64, 9, 9}, {2, 3, 2, 3, 5}, {3, 300, 40}};
    for (const dims_t &x : shapes)
        for (bool nxc : {false, true}) {
            const compiler::plan_t p = bn_plan(x, nxc);
            std::vector<bytes_t> in;
            in.push_back(plan_test::random_bytes(p.inputs[0], gen, -3.f, 5.f));
            in.push_back(plan_test::random_bytes(p.inputs[1], gen, -2.f, 2.f));
            in.push_back(plan_test::random_bytes(p.inputs[2], gen, -1.f, 1.f));
            in.push_back(plan_test::random_bytes(p.inputs[3], gen, -1.f, 1.f));
            in.push_back(plan_test::random_bytes(p.inputs[4], gen, 0.f, 3.f));
            const auto want = plan_test::run_ref(p, in);
            plan_test::expect_f32_like(p, in, want.at(p.outputs[0].id),
                    "batchnorm_inference",
                    ir::dims_to_string(x) + (nxc ? " NXC" : " NCX"));
        }
}

// BatchNormInference, bf16 and f16 data natively (the kernel name says
// the type): pieces of 1024 elements that start and end inside planes
// (NCX) and rows (NXC), planes longer than a piece, parameters f32 or
// (bf16 data) bf16.
TEST_F(CpuBatchnorm, InferenceHalfTypesMatchTheReferenceBitForBit) {
    std::mt19937 gen(8);
    const std::vector<dims_t> shapes = {{7, 5}, {2, 3, 17}, {2, 13, 5, 6},
            {1, 64, 9, 9}, {2, 3, 2, 3, 5}, {3, 300, 40}, {2, 5, 1100},
            {2, 1500, 3}};
    int variant = 0;
    for (const dims_t &x : shapes)
        for (bool nxc : {false, true})
            for (data_type_t dt : {dnnl_bf16, dnnl_f16}) {
                const data_type_t pdt
                        = dt == dnnl_bf16 && variant++ % 2 ? dnnl_bf16 : dnnl_f32;
                const compiler::plan_t p = bn_plan(x, nxc, pdt, {}, dt);
                std::vector<bytes_t> in;
                in.push_back(plan_test::random_bytes(p.inputs[0], gen, -3.f, 5.f));
                in.push_back(plan_test::random_bytes(p.inputs[1], gen, -2.f, 2.f));
                in.push_back(plan_test::random_bytes(p.inputs[2], gen, -1.f, 1.f));
                in.push_back(plan_test::random_bytes(p.inputs[3], gen, -1.f, 1.f));
                in.push_back(plan_test::random_bytes(p.inputs[4], gen, 0.f, 3.f));
                // (Rank 2 NCX has no inner dims: the channel-last loop.)
                normtest::expect_same_bytes(p, in,
                        std::string(nxc || x.size() == 2
                                        ? "batchnorm_inference_nxc_"
                                        : "batchnorm_inference_ncx_")
                                + ir::dtype_name(dt),
                        ir::dims_to_string(x) + (nxc ? " NXC " : " NCX ")
                                + ir::dtype_name(dt) + " params "
                                + ir::dtype_name(pdt));
            }
}

// A BatchNormForwardTraining op: data of dims x and type dt, the other
// tensors of type pdt; nparams 0 (no gamma, beta), 1 (gamma) or 2.
ir::op_t training_op(const dims_t &x, bool nxc, int nparams, bool momentum,
        data_type_t dt, data_type_t pdt) {
    const int64_t c = nxc ? x.back() : x[1];
    ir::op_t op;
    op.kind = dnnl_graph_op_batch_norm_forward_training;
    op.id = 1;
    op.inputs = {ir::make_lt(10, dt, x), ir::make_lt(11, pdt, {c}),
            ir::make_lt(12, pdt, {c})};
    for (int k = 0; k < nparams; ++k)
        op.inputs.push_back(ir::make_lt(13 + static_cast<size_t>(k), pdt, {c}));
    op.outputs = {ir::make_lt(20, dt, x)};
    for (size_t k = 0; k < 4; ++k)
        op.outputs.push_back(ir::make_lt(21 + k, pdt, {c}));
    op.set_attr(dnnl_graph_op_attr_epsilon, ir::attr_value_t::make_f32(1e-5f));
    if (momentum)
        op.set_attr(dnnl_graph_op_attr_momentum, ir::attr_value_t::make_f32(0.9f));
    op.set_attr(dnnl_graph_op_attr_data_format,
            ir::attr_value_t::make_str(nxc ? "NXC" : "NCX"));
    return op;
}

std::vector<bytes_t> training_inputs(const compiler::plan_t &p, std::mt19937 &gen) {
    std::vector<bytes_t> in;
    for (size_t k = 0; k < p.inputs.size(); ++k)
        in.push_back(plan_test::random_bytes(
                p.inputs[k], gen, k == 2 ? 0.1f : -2.f, 3.f));
    return in;
}

// BatchNormForwardTraining: all five outputs, NCX and NXC, with and
// without gamma/beta and the momentum attribute.
TEST_F(CpuBatchnorm, TrainingMatchesTheReferenceBitForBit) {
    std::mt19937 gen(6);
    const std::vector<dims_t> shapes = {{7, 5}, {2, 3, 17}, {2, 13, 5, 6},
            {3, 70, 4, 4}};
    int variant = 0;
    for (const dims_t &x : shapes)
        for (bool nxc : {false, true}) {
            const int nparams = variant % 3; // 0: none, 1: gamma, 2: both
            const bool momentum = variant++ % 2 == 0;
            const compiler::plan_t p = plan_test::plan_of(training_op(
                    x, nxc, nparams, momentum, dnnl_f32, dnnl_f32));
            plan_test::expect_all_f32_like(p, training_inputs(p, gen),
                    "batchnorm_training",
                    ir::dims_to_string(x) + (nxc ? " NXC" : " NCX"));
        }
}

// f32 BatchNormForwardTraining read in place. Channel-first: four
// channels' sums side by side per task (fewer when there are fewer
// channels than threads times four): channel counts off the groups (2,
// 5, 9, 11), planes off the vector widths (37, 1 x 700, 3 x 5).
// Channel-last: a share of the channels per thread in multiples of 16
// (130, 150: blocks wider than 64 and a tail). Every output; channels
// whose sums show their order.
TEST_F(CpuBatchnorm, TrainingF32ChannelGroupsMatchTheReferenceBitForBit) {
    std::mt19937 gen(12);
    const std::vector<std::pair<dims_t, bool>> shapes = {{{4, 2, 3}, false},
            {{2, 5, 37}, false}, {{1, 9, 700}, false}, {{3, 11, 3, 5}, false},
            {{2, 8, 1, 9}, false}, {{5, 130}, true}, {{2, 3, 5, 150}, true},
            {{7, 2, 9}, true}};
    int variant = 0;
    for (const auto &[x, nxc] : shapes) {
        const int nparams = variant % 3;
        const bool momentum = variant++ % 2 == 0;
        const compiler::plan_t p = plan_test::plan_of(training_op(
                x, nxc, nparams, momentum, dnnl_f32, dnnl_f32));
        std::vector<bytes_t> in = training_inputs(p, gen);
        // Each channel's values (outer rows, then its plane) with a
        // cancelling pair: its mean shows the order of the sum.
        const int64_t c = nxc ? x.back() : x[1];
        const int64_t inner = nxc ? 1 : ir::product(x) / (x[0] * c);
        const int64_t outer = ir::product(x) / (c * inner);
        for (int64_t ch = 0; ch < c; ++ch)
            normtest::plant_cancelling_pair(in[0], outer * inner,
                    [&](int64_t j) {
                        return (j / inner * c + ch) * inner + j % inner;
                    },
                    gen);
        plan_test::expect_all_f32_like(p, in,
                nxc ? "batchnorm_training_nxc_f32"
                    : "batchnorm_training_ncx_f32",
                ir::dims_to_string(x) + (nxc ? " NXC" : " NCX") + " params "
                        + std::to_string(nparams));
        if (HasFailure()) return;
    }
}

// BatchNormForwardTraining on bf16 and f16 data natively, every output:
// channel counts off the groups of four channels whose sums run side by
// side, planes of more than one piece (a 257-position plane leaves a
// one-position tail piece), channel-last rows of up to 64 channels per
// task, with and without gamma/beta and momentum; statistics f32 or
// (bf16 data) bf16.
TEST_F(CpuBatchnorm, TrainingHalfTypesMatchTheReferenceBitForBit) {
    std::mt19937 gen(10);
    const std::vector<dims_t> shapes = {{7, 5}, {2, 3, 17}, {2, 13, 5, 6},
            {3, 70, 4, 4}, {2, 6, 257}, {1, 9, 700}, {5, 130}};
    int variant = 0;
    for (const dims_t &x : shapes)
        for (bool nxc : {false, true})
            for (data_type_t dt : {dnnl_bf16, dnnl_f16}) {
                const int nparams = variant % 3;
                const bool momentum = variant % 2 == 0;
                const data_type_t pdt
                        = dt == dnnl_bf16 && variant++ % 4 < 2 ? dnnl_bf16 : dnnl_f32;
                const compiler::plan_t p = plan_test::plan_of(
                        training_op(x, nxc, nparams, momentum, dt, pdt));
                normtest::expect_same_bytes(p, training_inputs(p, gen),
                        std::string(nxc || x.size() == 2
                                        ? "batchnorm_training_nxc_"
                                        : "batchnorm_training_ncx_")
                                + ir::dtype_name(dt),
                        ir::dims_to_string(x) + (nxc ? " NXC " : " NCX ")
                                + ir::dtype_name(dt) + " stats "
                                + ir::dtype_name(pdt) + " params "
                                + std::to_string(nparams));
            }
}

TEST_F(CpuBatchnorm, DeclinesWhatItDoesNotCover) {
    std::string why;
    // Parameters of a type the spec does not allow with the data: bf16
    // with f32 or f16 data, f16 with any; or of two types.
    EXPECT_FALSE(batchnorm::accepts(
            bn_plan({2, 4, 3}, false, dnnl_bf16), isa_t::avx2, &why));
    EXPECT_NE(why.find("parameters must be f32"), std::string::npos) << why;
    EXPECT_FALSE(batchnorm::accepts(bn_plan({2, 4, 3}, false, dnnl_bf16, {},
                                            dnnl_f16),
            isa_t::avx2, &why));
    EXPECT_NE(why.find("parameters must be f32"), std::string::npos) << why;
    EXPECT_FALSE(batchnorm::accepts(bn_plan({2, 4, 3}, false, dnnl_f16, {},
                                            dnnl_f16),
            isa_t::avx2, &why));
    EXPECT_NE(why.find("parameters must be f32"), std::string::npos) << why;
    compiler::plan_t mixed = bn_plan({2, 4, 3}, false, dnnl_bf16, {}, dnnl_bf16);
    mixed.ops[0].inputs[2].data_type = dnnl_f32;
    EXPECT_FALSE(batchnorm::accepts(mixed, isa_t::avx2, &why));
    EXPECT_NE(why.find("types differ"), std::string::npos) << why;
    EXPECT_FALSE(batchnorm::accepts_training(
            plan_test::plan_of(training_op(
                    {2, 4, 3}, false, 2, false, dnnl_f16, dnnl_bf16)),
            isa_t::avx2, &why));
    EXPECT_NE(why.find("parameters must be f32"), std::string::npos) << why;
    // src and dst of two types.
    compiler::plan_t two = bn_plan({2, 4, 3}, false, dnnl_f32, {}, dnnl_bf16);
    two.ops[0].outputs[0].data_type = dnnl_f16;
    EXPECT_FALSE(batchnorm::accepts(two, isa_t::avx2, &why));
    EXPECT_NE(why.find("src and dst"), std::string::npos) << why;
    // A source that is not row-major dense (channel-last strides on NCX).
    EXPECT_FALSE(batchnorm::accepts(
            bn_plan({2, 4, 3}, false, dnnl_f32, {12, 1, 4}), isa_t::avx2, &why));
    EXPECT_NE(why.find("dense"), std::string::npos) << why;
}

} // namespace
} // namespace cpu
} // namespace llga
