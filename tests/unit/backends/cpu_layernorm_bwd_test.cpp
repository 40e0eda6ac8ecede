// tests/unit/backends/cpu_layernorm_bwd_test.cpp — LayerNormBackward on the
// cpu backend (backends/cpu/kernels/layernorm_bwd.cpp) against the
// reference op, bit for bit, every output: random shapes and
// begin_norm_axis, with and without gamma, with and without the
// diff_gamma / diff_beta outputs, and more columns than one block.
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "backends/cpu/isa.hpp"
#include "ir/logical_tensor.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using plan_test::bytes_t;

class CpuLayernormBwd : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

TEST_F(CpuLayernormBwd, EveryOutputMatchesTheReferenceBitForBit) {
    std::mt19937 gen(17);
    for (int trial = 0; trial < 60; ++trial) {
        const int r = 2 + static_cast<int>(gen() % 3);
        dims_t d;
        for (int k = 0; k < r; ++k)
            d.push_back(1 + static_cast<int64_t>(gen() % 6));
        if (trial % 10 == 0) d.back() = 300; // > one 256-column block
        const int64_t axis = 1 + static_cast<int64_t>(gen() % (r - 1));
        dims_t lead(d.begin(), d.begin() + axis), norm(d.begin() + axis, d.end());
        const bool gamma = gen() % 3 != 0, wgrad = gen() % 2 == 0;
        ir::op_t op;
        op.kind = dnnl_graph_op_layer_norm_backward;
        op.id = 1;
        op.inputs = {ir::make_lt(10, dnnl_f32, d), ir::make_lt(11, dnnl_f32, d),
                ir::make_lt(12, dnnl_f32, lead), ir::make_lt(13, dnnl_f32, lead)};
        if (gamma) {
            op.inputs.push_back(ir::make_lt(14, dnnl_f32, norm));
            op.inputs.push_back(ir::make_lt(15, dnnl_f32, norm));
        }
        op.outputs = {ir::make_lt(20, dnnl_f32, d)};
        if (wgrad) {
            op.outputs.push_back(ir::make_lt(21, dnnl_f32, norm));
            op.outputs.push_back(ir::make_lt(22, dnnl_f32, norm));
        }
        op.set_attr(dnnl_graph_op_attr_begin_norm_axis,
                ir::attr_value_t::make_s64(axis));
        op.set_attr(dnnl_graph_op_attr_use_affine, ir::attr_value_t::make_bool(gamma));
        op.set_attr(dnnl_graph_op_attr_epsilon, ir::attr_value_t::make_f32(1e-5f));
        const compiler::plan_t p = plan_test::plan_of(op);
        std::vector<bytes_t> in;
        for (size_t k = 0; k < p.inputs.size(); ++k)
            in.push_back(plan_test::random_bytes(p.inputs[k], gen,
                    k == 3 ? 0.1f : -2.f, 2.f)); // variance > 0
        plan_test::expect_all_f32_like(p, in, "layernorm_backward_f32",
                ir::dims_to_string(d) + " axis " + std::to_string(axis)
                        + (gamma ? " gamma" : ""));
        if (HasFailure()) return;
    }
}

} // namespace
} // namespace cpu
} // namespace llga
