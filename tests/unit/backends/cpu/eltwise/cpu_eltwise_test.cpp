// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/eltwise/cpu_eltwise_test.cpp — the elementwise JIT
// kernels against the reference semantics of ops/ at every JIT ISA level the
// host has: randomized shapes with tails, in-place, broadcasts, NaN handling,
// declines, caching, concurrency, and accuracy sweeps of the vector math.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/eltwise/eltwise.hpp"
#include "base/status.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using ir::attr_value_t;

const std::vector<int64_t> k_sizes = {1, 7, 15, 16, 17, 31, 33, 1000, 4097,
        40000};

// JIT levels of the eltwise family that this host can run.
std::vector<isa_t> jit_levels() {
    return test_isa::host_levels({isa_t::avx512_core, isa_t::avx2});
}

const char *isa_suffix(isa_t i) {
    return i == isa_t::avx512_core ? "avx512" : "avx2";
}

// Restores the environment's maximum whatever the test does.
using test_isa::isa_guard_t;

class CpuEltwise : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

// A few shapes with `n` elements: flat, 2-D (if n factors) and 3-D.
std::vector<dims_t> shapes_of(int64_t n) {
    std::vector<dims_t> s = {{n}, {1, 1, n}};
    for (int64_t d = 2; d * d <= n; ++d)
        if (n % d == 0) {
            s.push_back({n / d, d});
            break;
        }
    return s;
}

// Values: uniform in [lo, hi], or (log_scale) sign * 10^u with |.| in
// [10^lo, 10^hi], which stresses behaviour near zero.
std::vector<float> random_values(int64_t n, double lo, double hi,
        bool log_scale, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<float> v(static_cast<size_t>(n));
    for (auto &x : v) {
        if (!log_scale) {
            x = static_cast<float>(u(gen));
        } else {
            const double m = std::pow(10.0, u(gen));
            x = static_cast<float>(gen() & 1 ? m : -m);
        }
    }
    return v;
}

ir::op_t make_op(op_kind_t kind, const std::vector<dims_t> &in_dims,
        const dims_t &out_dims) {
    ir::op_t op;
    op.kind = kind;
    op.id = 1;
    op.name = "jit_test";
    size_t id = 10;
    for (const auto &d : in_dims)
        op.inputs.push_back(ir::make_lt(id++, dnnl_f32, d));
    op.outputs.push_back(ir::make_lt(id++, dnnl_f32, out_dims));
    if (op.inputs.size() == 2)
        op.set_attr(dnnl_graph_op_attr_auto_broadcast,
                attr_value_t::make_str("numpy"));
    return op;
}

using plan_test::plan_of;

std::vector<float> run_ref(const ir::op_t &op,
        const std::vector<std::vector<float>> &in) {
    std::vector<float> out(static_cast<size_t>(ir::nelems(op.outputs[0])));
    std::vector<const void *> ip;
    for (const auto &v : in)
        ip.push_back(v.data());
    std::vector<void *> op_out = {out.data()};
    EXPECT_EQ(ops::find_op_def(op.kind)->ref(op, ip, op_out), dnnl_success)
            << last_error();
    return out;
}

// Compiles with the cpu backend and runs; in place writes into a copy of
// input 0 and returns it.
std::vector<float> run_jit(const ir::op_t &op,
        const std::vector<std::vector<float>> &in, bool in_place,
        std::string *kernel_name) {
    const compiler::plan_t plan = plan_of(op);
    const compiler::backend_t &be = cpu_backend();
    EXPECT_TRUE(be.supports(plan)) << ops::describe(op);
    std::shared_ptr<const compiler::kernel_t> k;
    EXPECT_EQ(be.compile(plan, k), dnnl_success) << last_error();
    if (!k) return {};
    if (kernel_name) *kernel_name = k->name();
    std::vector<std::vector<float>> bufs = in;
    std::vector<float> out(static_cast<size_t>(ir::nelems(op.outputs[0])));
    compiler::exec_ctx_t ctx;
    for (const auto &b : bufs)
        ctx.inputs.push_back(b.data());
    ctx.outputs.push_back(in_place ? bufs[0].data() : out.data());
    EXPECT_EQ(k->execute(ctx), dnnl_success) << last_error();
    return in_place ? bufs[0] : out;
}

struct tol_t {
    double rtol = 0, atol = 0; // 0/0: bit-exact (NaN matches NaN)
};

struct err_t {
    double max_rel = 0;
    int64_t bad = 0;
};

err_t compare(const std::vector<float> &got, const std::vector<float> &want,
        const std::vector<float> &x, tol_t tol, const std::string &what) {
    err_t e;
    EXPECT_EQ(got.size(), want.size()) << what;
    for (size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
        const float g = got[i], w = want[i];
        bool ok;
        if (std::isnan(w) || std::isnan(g)) {
            ok = std::isnan(w) && std::isnan(g);
        } else if (std::isinf(w) || tol.rtol == 0) {
            ok = g == w;
        } else {
            const double d = std::fabs(double(g) - double(w));
            ok = d <= tol.rtol * std::fabs(double(w)) + tol.atol;
            // Reported error skips tiny results, where the reference itself
            // is off (see the GELU note above).
            if (std::fabs(double(w)) >= 1e-6)
                e.max_rel = std::max(e.max_rel, d / std::fabs(double(w)));
        }
        if (!ok && e.bad++ < 5)
            ADD_FAILURE() << what << ": element " << i << " x=" << x[i]
                          << " got " << g << " want " << w;
    }
    return e;
}

struct unary_case_t {
    op_kind_t kind;
    const char *mode; // GELU mode or nullptr
    float alpha, beta;
    double lo, hi;
    bool log_scale;
    tol_t tol;
};

// Tolerances: exact ops must match the reference bit for bit (the reference
// computes in double and rounds once, which for these ops equals a correctly
// rounded f32 result). Transcendental ones: relative error bounds a few
// ulp above what the accuracy sweeps below measure, plus a tiny absolute
// term for results near f32 underflow. GELU's absolute term is larger
// because the reference itself loses everything below ~|x|*1e-16 (it forms
// 1 + tanh/erf in double), while the kernel's x/(1+e^-2g) and erfc forms
// keep those tiny results. GELU-tanh's relative error grows in the far
// negative tail with |2g| (the f32 rounding of its exponent argument), so
// it gets a wider band there (1e-10 absolute is far below its values near
// the transition).
const unary_case_t k_unary_cases[] = {
        {dnnl_graph_op_relu, nullptr, 0, 0, -10, 10, false, {}},
        {dnnl_graph_op_leaky_relu, nullptr, 0.1f, 0, -10, 10, false, {}},
        {dnnl_graph_op_clamp, nullptr, -0.5f, 0.7f, -2, 2, false, {}},
        {dnnl_graph_op_abs, nullptr, 0, 0, -10, 10, false, {}},
        {dnnl_graph_op_square, nullptr, 0, 0, -100, 100, false, {}},
        {dnnl_graph_op_sqrt, nullptr, 0, 0, 0, 1000, false, {}},
        {dnnl_graph_op_exp, nullptr, 0, 0, -110, 95, false, {5e-7, 1e-38}},
        {dnnl_graph_op_sigmoid, nullptr, 0, 0, -100, 100, false,
                {5e-7, 1e-38}},
        {dnnl_graph_op_sigmoid, nullptr, 0, 0, -6, 1.5, true, {5e-7, 1e-38}},
        {dnnl_graph_op_tanh, nullptr, 0, 0, -12, 12, false, {5e-7, 1e-38}},
        {dnnl_graph_op_tanh, nullptr, 0, 0, -7, 1.2, true, {5e-7, 1e-38}},
        {dnnl_graph_op_gelu, "gelu_tanh", 0, 0, -12, 12, false, {2e-6, 1e-10}},
        {dnnl_graph_op_gelu, "gelu_erf", 0, 0, -14, 14, false, {1e-6, 1e-14}},
        {dnnl_graph_op_gelu, "gelu_erf", 0, 0, -6, 0.8, true, {1e-6, 1e-14}},
        {dnnl_graph_op_elu, nullptr, 0.7f, 0, -20, 10, false, {5e-7, 1e-38}},
        {dnnl_graph_op_elu, nullptr, 1.0f, 0, -7, 0.5, true, {5e-7, 1e-38}},
        // One f32 rounding inside (the reference's is in double): a few ulp.
        {dnnl_graph_op_hard_sigmoid, nullptr, 0.2f, 0.5f, -4, 4, false,
                {5e-7, 1e-38}},
        {dnnl_graph_op_hard_swish, nullptr, 0, 0, -5, 5, false, {5e-7, 1e-38}},
        {dnnl_graph_op_round, nullptr, 0, 0, -40, 40, false, {}},
};

ir::op_t unary_op(const unary_case_t &c, const dims_t &d) {
    ir::op_t op = make_op(c.kind, {d}, d);
    if (c.kind == dnnl_graph_op_leaky_relu || c.kind == dnnl_graph_op_elu)
        op.set_attr(dnnl_graph_op_attr_alpha, attr_value_t::make_f32(c.alpha));
    if (c.kind == dnnl_graph_op_hard_sigmoid) {
        op.set_attr(dnnl_graph_op_attr_alpha, attr_value_t::make_f32(c.alpha));
        op.set_attr(dnnl_graph_op_attr_beta, attr_value_t::make_f32(c.beta));
    }
    if (c.kind == dnnl_graph_op_clamp) {
        op.set_attr(dnnl_graph_op_attr_min, attr_value_t::make_f32(c.alpha));
        op.set_attr(dnnl_graph_op_attr_max, attr_value_t::make_f32(c.beta));
    }
    if (c.mode)
        op.set_attr(dnnl_graph_op_attr_mode, attr_value_t::make_str(c.mode));
    return op;
}

TEST_F(CpuEltwise, UnaryMatchesReferenceAtEveryIsa) {
    const auto levels = jit_levels();
    if (levels.empty()) GTEST_SKIP() << "host has neither AVX2 nor AVX-512";
    for (isa_t isa : levels) {
        isa_guard_t g(isa);
        for (const auto &c : k_unary_cases) {
            const std::string opname = ops::op_kind_name(c.kind);
            double worst = 0;
            unsigned seed = 1;
            for (int64_t n : k_sizes)
                for (const dims_t &d : shapes_of(n))
                    for (bool in_place : {false, true}) {
                        const ir::op_t op = unary_op(c, d);
                        auto x = random_values(
                                n, c.lo, c.hi, c.log_scale, seed++);
                        if (n > 3 && c.tol.rtol == 0) {
                            x[1] = -0.0f; // sign of zero must survive
                            x[2] = std::numeric_limits<float>::quiet_NaN();
                        }
                        std::string kname;
                        const auto got = run_jit(op, {x}, in_place, &kname);
                        const auto want = run_ref(op, {x});
                        const std::string what = opname + " "
                                + (c.mode ? c.mode : "") + " "
                                + ir::dims_to_string(d) + " "
                                + isa_name(isa) + (in_place ? " inplace" : "");
                        EXPECT_NE(kname.find(isa_suffix(isa)),
                                std::string::npos)
                                << what << " ran " << kname;
                        const err_t e = compare(got, want, x, c.tol, what);
                        worst = std::max(worst, e.max_rel);
                        if (e.bad) return;
                    }
            if (c.tol.rtol != 0)
                std::printf("[ accuracy ] %-9s %-9s %-16s max rel err %.3g "
                            "(|ref| >= 1e-6)\n",
                        opname.c_str(), c.mode ? c.mode : "",
                        isa_name(isa), worst);
        }
    }
}

const op_kind_t k_binary_kinds[] = {dnnl_graph_op_add, dnnl_graph_op_subtract,
        dnnl_graph_op_multiply, dnnl_graph_op_divide, dnnl_graph_op_maximum,
        dnnl_graph_op_minimum};

TEST_F(CpuEltwise, BinaryMatchesReferenceAtEveryIsa) {
    const auto levels = jit_levels();
    if (levels.empty()) GTEST_SKIP() << "host has neither AVX2 nor AVX-512";
    for (isa_t isa : levels) {
        isa_guard_t g(isa);
        for (op_kind_t kind : k_binary_kinds) {
            unsigned seed = 100;
            for (int64_t n : k_sizes)
                for (const dims_t &d : shapes_of(n)) {
                    const dims_t row = {d.back()};
                    const dims_t row2 = {1, d.back()};
                    // (src_0, src_1) shapes: same, scalar either side, row
                    // broadcast either side.
                    const std::vector<std::pair<dims_t, dims_t>> forms = {
                            {d, d}, {d, {1}}, {{1}, d}, {d, row}, {row2, d}};
                    for (const auto &f : forms)
                        for (bool in_place : {false, true}) {
                            const int64_t n0 = ir::nelems(
                                    ir::make_lt(0, dnnl_f32, f.first));
                            // In place shares src_0, which needs its size.
                            if (in_place && n0 != n) continue;
                            const ir::op_t op
                                    = make_op(kind, {f.first, f.second}, d);
                            auto a = random_values(n0, -50, 50, false, seed++);
                            auto b = random_values(ir::nelems(op.inputs[1]),
                                    -50, 50, false, seed++);
                            if (a.size() > 4 && b.size() > 4) {
                                a[1] = std::numeric_limits<float>::quiet_NaN();
                                b[3] = std::numeric_limits<float>::quiet_NaN();
                                b[2] = 0.f; // division by zero gives +-inf
                            }
                            std::string kname;
                            const auto got
                                    = run_jit(op, {a, b}, in_place, &kname);
                            const auto want = run_ref(op, {a, b});
                            const std::string what
                                    = std::string(ops::op_kind_name(kind)) + " "
                                    + ir::dims_to_string(f.first) + " x "
                                    + ir::dims_to_string(f.second) + " "
                                    + isa_name(isa)
                                    + (in_place ? " inplace" : "");
                            EXPECT_NE(kname.find(isa_suffix(isa)),
                                    std::string::npos)
                                    << what << " ran " << kname;
                            if (compare(got, want, a, {}, what).bad) return;
                        }
                }
        }
    }
}

// Channel-last (dense but not row-major) tensors run flat when every
// multi-element tensor has the output's layout, and inputs in another
// dense order are copied into the output's first; values match the
// reference, which reads through the strides.
TEST_F(CpuEltwise, ChannelLastTensorsRunFlat) {
    const dims_t d = {2, 3, 4, 5}; // N, C, H, W stored N, H, W, C
    auto nhwc = [&](logical_tensor_t &lt) {
        const int64_t c = d[1], h = d[2], w = d[3];
        const int64_t st[4] = {h * w * c, 1, w * c, c};
        for (int k = 0; k < 4; ++k)
            lt.layout.strides[k] = st[k];
    };
    for (isa_t isa : jit_levels()) {
        isa_guard_t guard(isa);
        ir::op_t gelu = make_op(dnnl_graph_op_gelu, {d}, d);
        nhwc(gelu.inputs[0]);
        nhwc(gelu.outputs[0]);
        ir::op_t add = make_op(dnnl_graph_op_subtract, {d, d}, d);
        for (auto *lt : {&add.inputs[0], &add.inputs[1], &add.outputs[0]})
            nhwc(*lt);
        ir::op_t scal = make_op(dnnl_graph_op_multiply, {d, {1}}, d);
        nhwc(scal.inputs[0]);
        nhwc(scal.outputs[0]);
        // Inputs in another order than the output are copied into its
        // order first: a row-major operand of a channel-last output, a
        // channel-last operand of a row-major output (with a per-channel
        // broadcast on the other side), a channel-last unary input.
        ir::op_t mixed = add;
        mixed.inputs[1] = ir::make_lt(mixed.inputs[1].id, dnnl_f32, d);
        ir::op_t mixed2 = make_op(dnnl_graph_op_add, {d, {1, 3, 1, 1}}, d);
        nhwc(mixed2.inputs[0]);
        ir::op_t mixed3 = make_op(dnnl_graph_op_tanh, {d}, d);
        nhwc(mixed3.inputs[0]);
        for (const ir::op_t *op : {&gelu, &add, &scal, &mixed, &mixed2, &mixed3}) {
            std::vector<std::vector<float>> in;
            for (size_t k = 0; k < op->inputs.size(); ++k)
                in.push_back(random_values(ir::nelems(op->inputs[k]), -3, 3,
                        false, 40 + static_cast<unsigned>(k)));
            std::string name;
            const std::vector<float> got = run_jit(*op, in, false, &name);
            const std::vector<float> want = run_ref(*op, in);
            ASSERT_EQ(got.size(), want.size());
            for (size_t i = 0; i < got.size(); ++i)
                EXPECT_NEAR(got[i], want[i], 1e-5 * (1 + std::fabs(want[i])))
                        << name << " @" << isa_name(isa) << " [" << i << "]";
        }
    }
}

// Round's ties go to even (nearbyint), and HardSwish/HardSigmoid meet
// their end points; expected values by hand.
TEST_F(CpuEltwise, RoundTiesToEvenAndHardActivationsHitTheirEnds) {
    const auto levels = jit_levels();
    if (levels.empty()) GTEST_SKIP();
    const std::vector<float> x = {0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 3.f, -3.f,
            1e30f, -6.f, 6.f};
    for (isa_t isa : levels) {
        isa_guard_t g(isa);
        const dims_t d = {static_cast<int64_t>(x.size())};
        std::string kname;
        const auto r = run_jit(make_op(dnnl_graph_op_round, {d}, d), {x},
                false, &kname);
        const std::vector<float> want_r = {0.f, 2.f, 2.f, -0.f, -2.f, 3.f,
                -3.f, 1e30f, -6.f, 6.f};
        ASSERT_EQ(r.size(), want_r.size());
        for (size_t i = 0; i < r.size(); ++i) {
            EXPECT_EQ(r[i], want_r[i]) << "round " << x[i];
            EXPECT_EQ(std::signbit(r[i]), std::signbit(want_r[i])) << x[i];
        }
        // HardSwish: 0 at x <= -3, x at x >= 3, x (x + 3) / 6 between.
        const auto h = run_jit(make_op(dnnl_graph_op_hard_swish, {d}, d), {x},
                false, &kname);
        EXPECT_EQ(h[5], 3.f);
        EXPECT_EQ(h[6], 0.f);
        EXPECT_EQ(h[8], 0.f);
        EXPECT_EQ(h[9], 6.f);
        EXPECT_FLOAT_EQ(h[1], 1.5f * 4.5f / 6.f);
    }
}

// Any numpy broadcast of row-major operands: per-channel planes (NCX),
// middle dims, both sides at once, runs longer than one task's chunk.
TEST_F(CpuEltwise, BinaryGeneralBroadcastsMatchReference) {
    const auto levels = jit_levels();
    if (levels.empty()) GTEST_SKIP() << "host has neither AVX2 nor AVX-512";
    const std::vector<std::array<dims_t, 3>> cases = {
            {dims_t {2, 5, 7, 9}, dims_t {1, 5, 1, 1}, dims_t {2, 5, 7, 9}},
            {dims_t {2, 5, 7, 9}, dims_t {2, 5, 1, 1}, dims_t {2, 5, 7, 9}},
            {dims_t {1, 5, 1, 1}, dims_t {2, 5, 7, 9}, dims_t {2, 5, 7, 9}},
            {dims_t {2, 5, 7, 9}, dims_t {2, 1, 7, 9}, dims_t {2, 5, 7, 9}},
            {dims_t {2, 5, 7, 9}, dims_t {7, 1}, dims_t {2, 5, 7, 9}},
            {dims_t {4, 3, 5}, dims_t {4, 1, 5}, dims_t {4, 3, 5}},
            {dims_t {4, 1}, dims_t {1, 5}, dims_t {4, 5}},
            {dims_t {2, 1, 1, 9}, dims_t {1, 5, 7, 1}, dims_t {2, 5, 7, 9}},
            {dims_t {1, 2, 40000}, dims_t {1, 2, 1}, dims_t {1, 2, 40000}},
            {dims_t {3, 1}, dims_t {3, 40000}, dims_t {3, 40000}},
    };
    unsigned seed = 900;
    for (isa_t isa : levels) {
        isa_guard_t g(isa);
        for (op_kind_t kind : k_binary_kinds)
            for (const auto &c : cases) {
                const ir::op_t op = make_op(kind, {c[0], c[1]}, c[2]);
                auto a = random_values(ir::nelems(op.inputs[0]), -50, 50,
                        false, seed++);
                auto b = random_values(ir::nelems(op.inputs[1]), -50, 50,
                        false, seed++);
                std::string kname;
                const auto got = run_jit(op, {a, b}, false, &kname);
                const auto want = run_ref(op, {a, b});
                const std::string what = std::string(ops::op_kind_name(kind))
                        + " " + ir::dims_to_string(c[0]) + " x "
                        + ir::dims_to_string(c[1]) + " " + isa_name(isa);
                EXPECT_NE(kname.find(isa_suffix(isa)), std::string::npos)
                        << what << " ran " << kname;
                if (compare(got, want, a, {}, what).bad) return;
            }
    }
}

// BiasAdd: the bias runs along the channel axis of data_format (dim 1 for
// NCX, the last for NXC), even where numpy alignment would put it
// elsewhere; a hand-worked NCX value, then random shapes in both formats
// against the reference.
TEST_F(CpuEltwise, BiasAddRunsAlongTheChannelAxis) {
    const auto levels = jit_levels();
    if (levels.empty()) GTEST_SKIP() << "host has neither AVX2 nor AVX-512";
    auto bias_add = [](const dims_t &x, int64_t c, bool nxc) {
        ir::op_t op = make_op(dnnl_graph_op_bias_add, {x, {c}}, x);
        op.attrs.erase(dnnl_graph_op_attr_auto_broadcast);
        op.set_attr(dnnl_graph_op_attr_data_format,
                attr_value_t::make_str(nxc ? "NXC" : "NCX"));
        return op;
    };
    unsigned seed = 300;
    for (isa_t isa : levels) {
        isa_guard_t g(isa);
        std::string kname;
        // [1, 2, 1, 3] NCX + (10, 20): 10 on the first three, 20 after.
        const auto h = run_jit(bias_add({1, 2, 1, 3}, 2, false),
                {{0, 1, 2, 3, 4, 5}, {10, 20}}, false, &kname);
        EXPECT_EQ(h, (std::vector<float> {10, 11, 12, 23, 24, 25})) << kname;
        for (bool nxc : {false, true})
            for (const dims_t &x : {dims_t {2, 3}, dims_t {2, 5, 7, 9},
                         dims_t {3, 4, 2, 6, 5}, dims_t {1, 33, 1000}}) {
                const int64_t c = nxc ? x.back() : x[1];
                const ir::op_t op = bias_add(x, c, nxc);
                const auto a = random_values(ir::nelems(op.inputs[0]), -50, 50,
                        false, seed++);
                const auto b = random_values(c, -50, 50, false, seed++);
                const auto got = run_jit(op, {a, b}, false, &kname);
                const std::string what = "BiasAdd " + ir::dims_to_string(x)
                        + (nxc ? " NXC " : " NCX ") + isa_name(isa);
                EXPECT_NE(kname.find(isa_suffix(isa)), std::string::npos) << what;
                if (compare(got, run_ref(op, {a, b}), a, {}, what).bad) return;
            }
    }
}

TEST_F(CpuEltwise, DeclinesWhatItCannotRun) {
    const compiler::backend_t &be = cpu_backend();
    // bf16 (or f16) everywhere runs here (cpu_eltwise_half_test.cpp);
    // mixed types decline, and the backend runs them on this kernel's f32
    // form through the staged kernel (staged.cpp).
    ir::op_t bf = make_op(dnnl_graph_op_relu, {{8}}, {8});
    bf.inputs[0].data_type = dnnl_bf16;
    bf.outputs[0].data_type = dnnl_bf16;
    EXPECT_TRUE(eltwise::accepts(plan_of(bf), isa_t::avx2, nullptr));
    bf.outputs[0].data_type = dnnl_f32;
    std::string why;
    EXPECT_FALSE(eltwise::accepts(plan_of(bf), isa_t::avx2, &why));
    EXPECT_NE(why.find("mixed types"), std::string::npos) << why;
    if (host_supports(isa_t::avx2)) {
        std::shared_ptr<const compiler::kernel_t> k;
        ASSERT_EQ(be.compile(plan_of(bf), k), dnnl_success);
        EXPECT_EQ(std::string(k->name()).rfind("staged_f32(eltwise_", 0), 0u)
                << k->name();
    }
    // A padded (not dense) output; a padded input is copied dense first.
    ir::op_t strided = make_op(dnnl_graph_op_relu, {{4, 4}}, {4, 4});
    strided.outputs[0].layout.strides[0] = 8;
    EXPECT_FALSE(be.supports(plan_of(strided)));
    if (host_supports(isa_t::avx2)) {
        ir::op_t padded_in = make_op(dnnl_graph_op_relu, {{4, 4}}, {4, 4});
        padded_in.inputs[0].layout.strides[0] = 8;
        const auto x = random_values(32, -5, 5, false, 77);
        std::string kname;
        EXPECT_EQ(run_jit(padded_in, {x}, false, &kname),
                run_ref(padded_in, {x}))
                << kname;
    }
    // Not in the family (Log runs on eltwise_exact instead).
    EXPECT_FALSE(eltwise::accepts(
            plan_of(make_op(dnnl_graph_op_log, {{8}}, {8})), isa_t::avx2, nullptr));
    // Two ops.
    compiler::plan_t two = plan_of(make_op(dnnl_graph_op_relu, {{8}}, {8}));
    two.ops.push_back(two.ops[0]);
    EXPECT_FALSE(be.supports(two));
    // No JIT level allowed.
    {
        isa_guard_t g(isa_t::avx);
        EXPECT_FALSE(be.supports(
                plan_of(make_op(dnnl_graph_op_relu, {{8}}, {8}))));
    }
}

TEST_F(CpuEltwise, IdenticalKernelsAreGeneratedOnce) {
    const auto levels = jit_levels();
    if (levels.empty()) GTEST_SKIP();
    isa_guard_t g(levels[0]);
    eltwise::unary_fn_t f1 = nullptr, f2 = nullptr, f3 = nullptr;
    ASSERT_EQ(eltwise::get_unary(eltwise::alg_t::leaky_relu, 0.25f, 0,
                      levels[0], &f1),
            dnnl_success);
    const size_t n = jit_cache_size();
    ASSERT_EQ(eltwise::get_unary(eltwise::alg_t::leaky_relu, 0.25f, 0,
                      levels[0], &f2),
            dnnl_success);
    EXPECT_EQ(f1, f2);
    EXPECT_EQ(n, jit_cache_size());
    // A different parameter is a different kernel.
    ASSERT_EQ(eltwise::get_unary(eltwise::alg_t::leaky_relu, 0.5f, 0,
                      levels[0], &f3),
            dnnl_success);
    EXPECT_NE(f1, f3);
    EXPECT_EQ(n + 1, jit_cache_size());
}

TEST_F(CpuEltwise, ExecuteIsThreadSafe) {
    const auto levels = jit_levels();
    if (levels.empty()) GTEST_SKIP();
    const ir::op_t op = make_op(dnnl_graph_op_tanh, {{5000}}, {5000});
    std::shared_ptr<const compiler::kernel_t> k;
    ASSERT_EQ(cpu_backend().compile(plan_of(op), k), dnnl_success);
    const auto x = random_values(5000, -5, 5, false, 7);
    const auto want = run_ref(op, {x});
    std::vector<std::thread> th;
    std::vector<int> bad(8, 0);
    for (int t = 0; t < 8; ++t)
        th.emplace_back([&, t] {
            for (int rep = 0; rep < 20; ++rep) {
                std::vector<float> out(5000);
                compiler::exec_ctx_t ctx;
                ctx.inputs = {x.data()};
                ctx.outputs = {out.data()};
                if (k->execute(ctx) != dnnl_success) bad[t]++;
                for (size_t i = 0; i < out.size(); ++i)
                    if (std::fabs(out[i] - want[i]) > 1e-6f) bad[t]++;
            }
        });
    for (auto &t : th)
        t.join();
    for (int b : bad)
        EXPECT_EQ(b, 0);
}

// ---- accuracy sweeps of the vector math against double libm ---------------

double ulp_of(double r) {
    const float f = static_cast<float>(std::fabs(r));
    if (f < std::numeric_limits<float>::min()) return std::ldexp(1.0, -149);
    return std::ldexp(1.0, std::ilogb(f) - 23);
}

struct sweep_t {
    double max_ulp = 0, max_rel = 0, max_abs = 0;
};

sweep_t sweep(eltwise::alg_t alg, isa_t isa, double lo, double hi,
        double (*f)(double), float alpha = 0) {
    eltwise::unary_fn_t fn = nullptr;
    EXPECT_EQ(eltwise::get_unary(alg, alpha, 0, isa, &fn), dnnl_success);
    const int64_t n = 1000001;
    std::vector<float> x(n), y(n);
    for (int64_t i = 0; i < n; ++i)
        x[i] = static_cast<float>(lo + (hi - lo) * double(i) / double(n - 1));
    fn(x.data(), y.data(), static_cast<size_t>(n));
    sweep_t s;
    for (int64_t i = 0; i < n; ++i) {
        const double r = f(x[i]);
        const double d = std::fabs(double(y[i]) - r);
        s.max_abs = std::max(s.max_abs, d);
        if (std::fabs(r) >= std::numeric_limits<float>::min()) {
            s.max_ulp = std::max(s.max_ulp, d / ulp_of(r));
            s.max_rel = std::max(s.max_rel, d / std::fabs(r));
        }
    }
    std::printf("[ accuracy ] %-8s [%g, %g] %-12s max %.2f ulp, rel %.3g, "
                "abs %.3g\n",
            eltwise::alg_name(alg), lo, hi, isa_name(isa), s.max_ulp,
            s.max_rel, s.max_abs);
    return s;
}

double d_exp(double x) { return std::exp(x); }
double d_tanh(double x) { return std::tanh(x); }
double d_sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double d_erf(double x) { return std::erf(x); }
// Independent oracles written to stay accurate in the tails (erfc and a
// sigmoid form rather than 1 + erf / 1 + tanh).
double d_gelu_erf(double x) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }
double d_gelu_tanh(double x) {
    const double g = std::sqrt(2.0 / 3.14159265358979323846)
            * (x + 0.044715 * x * x * x);
    return x / (1.0 + std::exp(-2.0 * g));
}
double d_elu1(double x) { return x > 0 ? x : std::expm1(x); }

TEST_F(CpuEltwise, VectorMathAccuracy) {
    const auto levels = jit_levels();
    if (levels.empty()) GTEST_SKIP();
    for (isa_t isa : levels) {
        isa_guard_t g(isa);
        EXPECT_LE(sweep(eltwise::alg_t::exp, isa, -87.3, 88.7, d_exp).max_ulp,
                3.0);
        EXPECT_LE(sweep(eltwise::alg_t::exp, isa, -1, 1, d_exp).max_ulp, 3.0);
        EXPECT_LE(sweep(eltwise::alg_t::tanh, isa, -10, 10, d_tanh).max_ulp,
                4.0);
        EXPECT_LE(sweep(eltwise::alg_t::tanh, isa, -1e-3, 1e-3, d_tanh)
                          .max_ulp,
                4.0);
        EXPECT_LE(sweep(eltwise::alg_t::sigmoid, isa, -80, 30, d_sigmoid)
                          .max_ulp,
                4.0);
        EXPECT_LE(sweep(eltwise::alg_t::erf, isa, -6, 6, d_erf).max_abs,
                4e-7);
        EXPECT_LE(sweep(eltwise::alg_t::gelu_erf, isa, -5, 5, d_gelu_erf)
                          .max_ulp,
                8.0);
        EXPECT_LE(sweep(eltwise::alg_t::gelu_erf, isa, -12, -5, d_gelu_erf)
                          .max_ulp,
                8.0);
        EXPECT_LE(sweep(eltwise::alg_t::gelu_tanh, isa, -3, 5, d_gelu_tanh)
                          .max_ulp,
                16.0);
        // The far tail: the f32 exponent argument's rounding grows with
        // |2g| (~90 at x = -9), so this band is wide by design.
        EXPECT_LE(sweep(eltwise::alg_t::gelu_tanh, isa, -9, -3, d_gelu_tanh)
                          .max_rel,
                2e-5);
        EXPECT_LE(sweep(eltwise::alg_t::elu, isa, -10, 1, d_elu1, 1.f)
                          .max_ulp,
                4.0);
    }
}

} // namespace
} // namespace cpu
} // namespace llga
