// tests/unit/backends/cpu_softmax_bwd_test.cpp — SoftMaxBackward and
// LogSoftmaxBackward on the cpu backend (backends/cpu/kernels/
// softmax_bwd.cpp) against the reference ops, bit for bit: random ranks,
// axes (negative too), lengths, and tensors stored in permuted orders.
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu_layout_test_util.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "backends/cpu/isa.hpp"
#include "ir/logical_tensor.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using layout_test::permuted;
using plan_test::bytes_t;

class CpuSoftmaxBwd : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

TEST_F(CpuSoftmaxBwd, BothKindsMatchTheReferenceBitForBit) {
    std::mt19937 gen(13);
    for (int trial = 0; trial < 120; ++trial) {
        const bool log = trial % 2;
        const int r = 1 + static_cast<int>(gen() % 4);
        dims_t d;
        for (int k = 0; k < r; ++k)
            d.push_back(1 + static_cast<int64_t>(gen() % (k == r - 1 ? 70 : 6)));
        ir::op_t op;
        op.kind = log ? dnnl_graph_op_log_softmax_backward
                      : dnnl_graph_op_softmax_backward;
        op.id = 1;
        const bool strided = gen() % 3 == 0;
        op.inputs = {strided ? permuted(10, d, gen) : ir::make_lt(10, dnnl_f32, d),
                strided ? permuted(11, d, gen) : ir::make_lt(11, dnnl_f32, d)};
        op.outputs = {strided ? permuted(12, d, gen) : ir::make_lt(12, dnnl_f32, d)};
        const int64_t axis = static_cast<int64_t>(gen() % r) - (gen() % 2 ? r : 0);
        op.set_attr(dnnl_graph_op_attr_axis, ir::attr_value_t::make_s64(axis));
        const compiler::plan_t p = plan_test::plan_of(op);
        // dst of a forward softmax lies in (0, 1); of a log-softmax below 0.
        const std::vector<bytes_t> in = {
                plan_test::random_bytes(p.inputs[0], gen, -1.f, 1.f),
                plan_test::random_bytes(p.inputs[1], gen, log ? -6.f : 0.f,
                        log ? 0.f : 1.f)};
        const auto want = plan_test::run_ref(p, in);
        plan_test::expect_f32_like(p, in, want.at(12), "softmax_backward",
                ir::dims_to_string(d) + " axis " + std::to_string(axis));
        if (HasFailure()) return;
    }
}

} // namespace
} // namespace cpu
} // namespace llga
