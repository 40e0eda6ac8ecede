// tests/unit/backends/cpu_batchnorm_test.cpp — BatchNormInference on the
// cpu backend (backends/cpu/kernels/batchnorm.cpp) against the reference
// op, bit for bit (the kernel evaluates the reference's own double
// expression): NCX and NXC, ranks 2 to 5, odd channel counts; and what it
// declines.
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/batchnorm.hpp"
#include "ir/logical_tensor.hpp"
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
        const dims_t &x_strides = {}) {
    plan_builder_t g;
    const int64_t c = nxc ? x.back() : x[1];
    const logical_tensor_t src = g.in(x, dnnl_f32, x_strides);
    std::vector<logical_tensor_t> ins = {src};
    for (int k = 0; k < 4; ++k)
        ins.push_back(g.in({c}, pdt));
    g.add(dnnl_graph_op_batch_norm_inference, ins, x, dnnl_f32,
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

// BatchNormForwardTraining: all five outputs, NCX and NXC, with and
// without gamma/beta and the momentum attribute.
TEST_F(CpuBatchnorm, TrainingMatchesTheReferenceBitForBit) {
    std::mt19937 gen(6);
    const std::vector<dims_t> shapes = {{7, 5}, {2, 3, 17}, {2, 13, 5, 6},
            {3, 70, 4, 4}};
    int variant = 0;
    for (const dims_t &x : shapes)
        for (bool nxc : {false, true}) {
            const int64_t c = nxc ? x.back() : x[1];
            const int nparams = variant % 3; // 0: none, 1: gamma, 2: both
            const bool momentum = variant++ % 2 == 0;
            ir::op_t op;
            op.kind = dnnl_graph_op_batch_norm_forward_training;
            op.id = 1;
            op.inputs = {ir::make_lt(10, dnnl_f32, x),
                    ir::make_lt(11, dnnl_f32, {c}),
                    ir::make_lt(12, dnnl_f32, {c})};
            for (int k = 0; k < nparams; ++k)
                op.inputs.push_back(ir::make_lt(13 + k, dnnl_f32, {c}));
            op.outputs = {ir::make_lt(20, dnnl_f32, x)};
            for (size_t k = 0; k < 4; ++k)
                op.outputs.push_back(ir::make_lt(21 + k, dnnl_f32, {c}));
            op.set_attr(dnnl_graph_op_attr_epsilon,
                    ir::attr_value_t::make_f32(1e-5f));
            if (momentum)
                op.set_attr(dnnl_graph_op_attr_momentum,
                        ir::attr_value_t::make_f32(0.9f));
            op.set_attr(dnnl_graph_op_attr_data_format,
                    ir::attr_value_t::make_str(nxc ? "NXC" : "NCX"));
            const compiler::plan_t p = plan_test::plan_of(op);
            std::vector<bytes_t> in;
            for (size_t k = 0; k < p.inputs.size(); ++k)
                in.push_back(plan_test::random_bytes(
                        p.inputs[k], gen, k == 2 ? 0.1f : -2.f, 3.f));
            plan_test::expect_all_f32_like(p, in, "batchnorm_training",
                    ir::dims_to_string(x) + (nxc ? " NXC" : " NCX"));
        }
}

TEST_F(CpuBatchnorm, DeclinesWhatItDoesNotCover) {
    std::string why;
    EXPECT_FALSE(batchnorm::accepts(
            bn_plan({2, 4, 3}, false, dnnl_bf16), isa_t::avx2, &why));
    EXPECT_NE(why.find("f32"), std::string::npos) << why;
    // A source that is not row-major dense (channel-last strides on NCX).
    EXPECT_FALSE(batchnorm::accepts(
            bn_plan({2, 4, 3}, false, dnnl_f32, {12, 1, 4}), isa_t::avx2, &why));
    EXPECT_NE(why.find("dense"), std::string::npos) << why;
}

} // namespace
} // namespace cpu
} // namespace llga
