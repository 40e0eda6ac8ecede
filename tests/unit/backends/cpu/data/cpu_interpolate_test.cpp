// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/data/cpu_interpolate_test.cpp — Interpolate and
// InterpolateBackward on the cpu backend (backends/cpu/kernels/
// interpolate.cpp): a linear upsampling worked out by hand, then random
// 1D/2D/3D cases (nearest and linear, half_pixel and align_corners, sizes
// and scales, NXC and NCX, padded layouts), bit for bit against the
// reference; the same in bf16 and f16 through the native 16-bit loops,
// with rows long enough for the 8-wide conversions and their tails.
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/kernels/data/interpolate.hpp"
#include "cpu_layout_test_util.hpp"
#include "cpu_plan_test_util.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using plan_test::bytes_t;
using plan_test::f32_bytes;
using av = ir::attr_value_t;

class CpuInterpolate : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

// [1, 1, 2] -> [1, 1, 4], linear, half_pixel: source coordinate
// s = (o + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25; the ends clamp, so
// y = x0, 0.75 x0 + 0.25 x1, 0.25 x0 + 0.75 x1, x1 = 0, 1, 3, 4 for x = 0, 4.
TEST_F(CpuInterpolate, HandWorkedLinearUpsampling) {
    ir::op_t op;
    op.kind = dnnl_graph_op_interpolate;
    op.id = 1;
    op.inputs = {ir::make_lt(1, dnnl_f32, {1, 1, 2})};
    op.outputs = {ir::make_lt(2, dnnl_f32, {1, 1, 4})};
    op.set_attr(dnnl_graph_op_attr_mode, av::make_str("linear"));
    op.set_attr(dnnl_graph_op_attr_sizes, av::make_s64s({4}));
    op.set_attr(dnnl_graph_op_attr_data_format, av::make_str("NCX"));
    bytes_t got;
    std::string kname;
    ASSERT_TRUE(plan_test::run_jit(plan_test::plan_of(op), {f32_bytes({0.f, 4.f})},
            got, &kname));
    EXPECT_EQ(kname, "interpolate_f32");
    std::vector<float> y(4);
    std::memcpy(y.data(), got.data(), 16);
    EXPECT_EQ(y, (std::vector<float> {0.f, 1.f, 3.f, 4.f}));
}

// A random case: 1D/2D/3D, nearest or linear, half_pixel or
// align_corners, sizes or scales, NXC or NCX, each side dense, padded or
// in the other format's order; `max_x` bounds the source extents (the
// outputs reach about twice that). False if the opset rejects it.
bool random_op(std::mt19937 &gen, data_type_t dt, int64_t max_x, ir::op_t &op,
        std::string &what) {
    const int nsp = 1 + static_cast<int>(gen() % 3);
    const bool nxc = gen() % 2, backward = gen() % 2;
    const bool nearest = gen() % 3 == 0, ac = gen() % 2;
    const bool use_scales = gen() % 2;
    const int64_t n = 1 + gen() % 2, c = 1 + gen() % 5;
    dims_t xsp, ysp;
    std::vector<float> scales;
    for (int i = 0; i < nsp; ++i) {
        const int64_t x = 1 + gen() % (nsp == 3 ? 5 : max_x);
        const float sc = use_scales ? (gen() % 2 ? 2.f : 0.5f) : 1.f;
        const int64_t y = use_scales
                ? std::max<int64_t>(1, static_cast<int64_t>(x * sc))
                : 1 + static_cast<int64_t>(gen() % (max_x + 2));
        xsp.push_back(x);
        ysp.push_back(y);
        scales.push_back(sc);
    }
    auto dims = [&](const dims_t &sp) {
        dims_t d = {n};
        if (!nxc) d.push_back(c);
        for (int64_t e : sp)
            d.push_back(e);
        if (nxc) d.push_back(c);
        return d;
    };
    logical_tensor_t x = ir::make_lt(1, dt, dims(xsp));
    logical_tensor_t y = ir::make_lt(2, dt, dims(ysp));
    const int odd = static_cast<int>(gen() % 3);
    x = layout_test::odd_layout(x, odd, nxc, gen);
    y = layout_test::odd_layout(y, static_cast<int>(gen() % 3), nxc, gen);
    op = ir::op_t();
    op.id = 1;
    // push_back, not brace lists: GCC 12 warns (-Wnonnull) on the
    // inlined copy of an initializer list here.
    if (backward) {
        op.kind = dnnl_graph_op_interpolate_backward;
        logical_tensor_t src = x;
        src.id = 3;
        op.inputs.push_back(src);
        op.inputs.push_back(y);
        op.outputs.push_back(x);
    } else {
        op.kind = dnnl_graph_op_interpolate;
        op.inputs.push_back(x);
        op.outputs.push_back(y);
    }
    op.set_attr(dnnl_graph_op_attr_mode,
            av::make_str(nearest ? "nearest" : "linear"));
    op.set_attr(dnnl_graph_op_attr_coordinate_transformation_mode,
            av::make_str(ac ? "align_corners" : "half_pixel"));
    op.set_attr(dnnl_graph_op_attr_data_format, av::make_str(nxc ? "NXC" : "NCX"));
    if (use_scales)
        op.set_attr(dnnl_graph_op_attr_scales, av::make_f32s(scales));
    else
        op.set_attr(dnnl_graph_op_attr_sizes,
                av::make_s64s(std::vector<int64_t>(ysp.begin(), ysp.end())));
    what = std::string(ir::dtype_name(dt)) + (backward ? " backward" : " forward")
            + " x " + ir::dims_to_string(ir::dims_of(x)) + " y "
            + ir::dims_to_string(ir::dims_of(y)) + (nxc ? " NXC" : " NCX")
            + (nearest ? " nearest" : " linear")
            + (ac ? " align_corners" : " half_pixel");
    if (ops::verify_op(op) != dnnl_success) return false; // e.g. a scale/size mismatch
    ir::op_t inferred = op;
    return ops::infer_shapes(inferred) == dnnl_success;
}

TEST_F(CpuInterpolate, RandomCasesMatchTheReferenceBitForBit) {
    std::mt19937 gen(17);
    int ran = 0;
    for (int t = 0; t < 160; ++t) {
        ir::op_t op;
        std::string what;
        if (!random_op(gen, dnnl_f32, 9, op, what)) continue;
        ++ran;
        const compiler::plan_t p = plan_test::plan_of(op);
        std::vector<bytes_t> in;
        for (const auto &lt : p.inputs)
            in.push_back(plan_test::random_bytes(lt, gen, -3.f, 3.f));
        plan_test::expect_all_f32_like(p, in, "interpolate", what);
        if (HasFailure()) return;
    }
    EXPECT_GE(ran, 100); // the generator's cases are mostly valid
}

// bf16 and f16 through the native kernel (interpolate[_bwd]_<type>, not
// staged_f32) against the reference, value for value (NaN matching NaN):
// the random cases above, and longer rows (sources up to 40 along each
// dim of 1D/2D cases: the conversions' 8-wide blocks and tails).
TEST_F(CpuInterpolate, HalfTypesMatchTheReferenceBitForBit) {
    std::mt19937 gen(19);
    for (data_type_t dt : {dnnl_bf16, dnnl_f16}) {
        int ran = 0;
        for (int t = 0; t < 240; ++t) {
            ir::op_t op;
            std::string what;
            if (!random_op(gen, dt, t % 2 ? 40 : 9, op, what)) continue;
            ++ran;
            const compiler::plan_t p = plan_test::plan_of(op);
            std::vector<bytes_t> in;
            for (const auto &lt : p.inputs)
                in.push_back(plan_test::random_bytes(lt, gen, -3.f, 3.f));
            const bytes_t want = plan_test::run_ref_all(p, in)[0];
            const std::string kernel = std::string(
                    op.kind == dnnl_graph_op_interpolate ? "interpolate_"
                                                          : "interpolate_bwd_")
                    + ir::dtype_name(dt);
            for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
                test_isa::isa_guard_t guard(isa);
                std::vector<bytes_t> got;
                std::string kname;
                ASSERT_TRUE(plan_test::run_jit_all(p, in, got, &kname)) << what;
                ASSERT_EQ(kname, kernel) << what;
                ASSERT_EQ(got[0].size(), want.size());
                EXPECT_EQ(plan_test::value_mismatches(got[0], want, dt,
                                  what + " at " + isa_name(isa)),
                        0);
            }
            if (HasFailure()) return;
        }
        EXPECT_GE(ran, 150);
    }
}

// Data ports of different types (outside the op's one type variable) are
// left to the staged kernel.
TEST_F(CpuInterpolate, DeclinesMixedTypes) {
    ir::op_t op;
    op.kind = dnnl_graph_op_interpolate;
    op.id = 1;
    op.inputs = {ir::make_lt(1, dnnl_bf16, {1, 1, 2})};
    op.outputs = {ir::make_lt(2, dnnl_bf16, {1, 1, 4})};
    op.set_attr(dnnl_graph_op_attr_mode, av::make_str("linear"));
    op.set_attr(dnnl_graph_op_attr_sizes, av::make_s64s({4}));
    op.set_attr(dnnl_graph_op_attr_data_format, av::make_str("NCX"));
    std::string why;
    EXPECT_TRUE(interpolate::accepts(plan_test::plan_of(op), isa_t::avx2, &why)) << why;
    op.outputs[0].data_type = dnnl_f16;
    EXPECT_FALSE(interpolate::accepts(plan_test::plan_of(op), isa_t::avx2, &why));
    EXPECT_NE(why.find("types differ"), std::string::npos) << why;
}

} // namespace
} // namespace cpu
} // namespace llga
