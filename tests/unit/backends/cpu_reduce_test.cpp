// tests/unit/backends/cpu_reduce_test.cpp — the Reduce* family on the cpu
// backend (backends/cpu/kernels/reduce.cpp) against the reference ops, bit
// for bit: every kind, random ranks and axis sets (some or all),
// keep_dims both ways, permuted (strided) sources, and NaNs that max/min
// must not drop.
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "backends/cpu/isa.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using plan_test::bytes_t;

class CpuReduce : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

const op_kind_t k_kinds[] = {dnnl_graph_op_reduce_sum,
        dnnl_graph_op_reduce_mean, dnnl_graph_op_reduce_max,
        dnnl_graph_op_reduce_min, dnnl_graph_op_reduce_prod,
        dnnl_graph_op_reduce_l1, dnnl_graph_op_reduce_l2};

TEST_F(CpuReduce, EveryKindMatchesTheReferenceBitForBit) {
    std::mt19937 gen(21);
    int ran = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const op_kind_t kind = k_kinds[trial % 7];
        const int r = 1 + static_cast<int>(gen() % 4);
        dims_t x;
        for (int d = 0; d < r; ++d)
            x.push_back(1 + static_cast<int64_t>(gen() % (trial % 5 == 0 ? 40 : 7)));
        std::vector<int64_t> axes;
        for (int d = 0; d < r; ++d)
            if (gen() % 2) axes.push_back(gen() % 2 ? d : d - r);
        if (axes.empty()) // the opset has no identity reduction
            axes.push_back(static_cast<int64_t>(gen() % r));
        ir::op_t op;
        op.kind = kind;
        op.id = 1;
        logical_tensor_t in = ir::make_lt(10, dnnl_f32, x);
        if (gen() % 3 == 0) { // stored in a permuted order
            std::vector<int> perm(static_cast<size_t>(r));
            std::iota(perm.begin(), perm.end(), 0);
            std::shuffle(perm.begin(), perm.end(), gen);
            int64_t acc = 1;
            for (size_t k = perm.size(); k-- > 0;) {
                in.layout.strides[perm[k]] = acc;
                acc *= x[static_cast<size_t>(perm[k])];
            }
        }
        op.inputs = {in};
        op.outputs = {ir::make_lt_unknown(11, dnnl_f32)};
        op.set_attr(dnnl_graph_op_attr_axes, ir::attr_value_t::make_s64s(axes));
        op.set_attr(dnnl_graph_op_attr_keep_dims,
                ir::attr_value_t::make_bool(gen() % 2 == 0));
        ASSERT_EQ(ops::verify_op(op), dnnl_success) << last_error();
        if (ops::infer_shapes(op) != dnnl_success) {
            ADD_FAILURE() << last_error();
            return;
        }
        op.outputs[0] = ir::make_lt(11, dnnl_f32, ir::dims_of(op.outputs[0]));
        const compiler::plan_t p = plan_test::plan_of(op);
        // Products stay finite: values near 1 for ReduceProd.
        const bool prod = kind == dnnl_graph_op_reduce_prod;
        bytes_t src = plan_test::random_bytes(
                in, gen, prod ? 0.8f : -3.f, prod ? 1.25f : 3.f);
        if (gen() % 4 == 0) {
            const float nan = std::numeric_limits<float>::quiet_NaN();
            std::memcpy(&src[gen() % (src.size() / 4) * 4], &nan, 4);
        }
        const auto want = plan_test::run_ref(p, {src});
        plan_test::expect_f32_like(p, {src}, want.at(11), "reduce_",
                std::string(ops::op_kind_name(kind)) + " "
                        + ir::dims_to_string(x) + " trial "
                        + std::to_string(trial));
        ++ran;
        if (HasFailure()) return;
    }
    EXPECT_EQ(ran, 300);
}

} // namespace
} // namespace cpu
} // namespace llga
