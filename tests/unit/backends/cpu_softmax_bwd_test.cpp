// tests/unit/backends/cpu_softmax_bwd_test.cpp — SoftMaxBackward and
// LogSoftmaxBackward on the cpu backend (backends/cpu/kernels/
// softmax_bwd.cpp) on random ranks, axes (negative too), lengths, and
// tensors stored in permuted orders, which take each of its walks (a
// dense run after the axis, a slice contiguous along it, any strides).
// SoftMaxBackward against the reference ops bit for bit;
// LogSoftmaxBackward against dy - e^y s computed here in double from the
// logical indices, within 2^-21 |e^y s| (the f32 exp's 1.14 ulp, with
// room) plus one f32 rounding of the result.
#include <cmath>
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
#include "ir/shape.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using layout_test::permuted;
using plan_test::bytes_t;

// dy - e^y s with s the sum of dy over the axis, in double, for every
// element of `got` (all three tensors in their own layouts).
void expect_log_softmax_bwd(const compiler::plan_t &p,
        const std::vector<bytes_t> &in, const bytes_t &got, int64_t axis,
        const std::string &what) {
    const logical_tensor_t &tg = p.inputs[0], &ty = p.inputs[1],
                           &to = p.outputs[0];
    const int r = tg.ndims;
    const dims_t d = ir::dims_of(tg);
    const float *g = reinterpret_cast<const float *>(in[0].data());
    const float *y = reinterpret_cast<const float *>(in[1].data());
    const float *o = reinterpret_cast<const float *>(got.data());
    int bad = 0;
    for (int64_t i = 0; i < ir::product(d); ++i) {
        int64_t idx[DNNL_MAX_NDIMS];
        ir::unravel(i, d, idx);
        double s = 0;
        const int64_t at = idx[axis];
        for (int64_t k = 0; k < d[axis]; ++k) {
            idx[axis] = k;
            s += g[ir::offset_of(idx, tg.layout.strides, r)];
        }
        idx[axis] = at;
        const double e = std::exp(double(y[ir::offset_of(idx, ty.layout.strides, r)]));
        const double want = g[ir::offset_of(idx, tg.layout.strides, r)] - e * s;
        const double v = o[ir::offset_of(idx, to.layout.strides, r)];
        const double tol = std::ldexp(std::fabs(e * s), -21)
                + std::ldexp(std::fabs(want), -23);
        if (!(std::fabs(v - want) <= tol) && bad++ < 3)
            ADD_FAILURE() << what << " element " << i << " got " << v
                          << " want " << want << " tol " << tol;
    }
}

class CpuSoftmaxBwd : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

TEST_F(CpuSoftmaxBwd, BothKindsOnEveryWalk) {
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
        const std::string what
                = ir::dims_to_string(d) + " axis " + std::to_string(axis);
        if (!log) {
            const auto want = plan_test::run_ref(p, in);
            plan_test::expect_f32_like(p, in, want.at(12), "softmax_backward",
                    what);
        } else {
            for (isa_t isa :
                    test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
                test_isa::isa_guard_t guard(isa);
                bytes_t got;
                std::string kname;
                ASSERT_TRUE(plan_test::run_jit(p, in, got, &kname)) << what;
                ASSERT_NE(kname.find("logsoftmax_backward"), std::string::npos);
                expect_log_softmax_bwd(p, in, got, axis < 0 ? axis + r : axis,
                        what + " at " + isa_name(isa));
            }
        }
        if (HasFailure()) return;
    }
}

// A dense run after the axis longer than one task's chunk (2048
// positions): 2 x 5 x 45 x 50 over the channels, 2250 positions per
// image in two chunks.
TEST_F(CpuSoftmaxBwd, LongInnerRunsInChunks) {
    std::mt19937 gen(17);
    const dims_t d = {2, 5, 45, 50};
    for (bool log : {false, true}) {
        ir::op_t op;
        op.kind = log ? dnnl_graph_op_log_softmax_backward
                      : dnnl_graph_op_softmax_backward;
        op.id = 1;
        op.inputs = {ir::make_lt(10, dnnl_f32, d), ir::make_lt(11, dnnl_f32, d)};
        op.outputs = {ir::make_lt(12, dnnl_f32, d)};
        op.set_attr(dnnl_graph_op_attr_axis, ir::attr_value_t::make_s64(1));
        const compiler::plan_t p = plan_test::plan_of(op);
        const std::vector<bytes_t> in = {
                plan_test::random_bytes(p.inputs[0], gen, -1.f, 1.f),
                plan_test::random_bytes(p.inputs[1], gen, log ? -6.f : 0.f,
                        log ? 0.f : 1.f)};
        if (!log) {
            plan_test::expect_f32_like(p, in, plan_test::run_ref(p, in).at(12),
                    "softmax_backward", "long run");
            continue;
        }
        bytes_t got;
        std::string kname;
        ASSERT_TRUE(plan_test::run_jit(p, in, got, &kname));
        expect_log_softmax_bwd(p, in, got, 1, "long run");
    }
}

} // namespace
} // namespace cpu
} // namespace llga
