// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/pool/cpu_pool_bwd_test.cpp — MaxPoolBackward on the
// cpu backend (backends/cpu/kernels/pool_bwd.cpp) against the reference op, bit
// for bit: random 1D/2D/3D geometries (kernel, strides below and above the
// kernel, dilations, pads, auto_pad, floor and ceil output sizes), NXC and NCX,
// padded and permuted layouts on each tensor, sources drawn from a few integers
// (ties) with NaNs, gradients whose double sums depend on their order (exact
// cancellation of +-2^60); hand-derived cases for the argmax rule and the
// order; the same random geometries and layouts in bf16 and f16 through the
// native 16-bit loops; and what the kernel declines.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/pool/pool_bwd.hpp"
#include "cpu_layout_test_util.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using plan_test::bytes_t;

class CpuPoolBwd : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

struct case_t {
    bool nxc = true, ceil_mode = false;
    std::string auto_pad = "None";
    dims_t x; // N, C, spatial... (logical order; permuted for NXC)
    std::vector<int64_t> k, s, d, pb, pe;
    // Layouts of src, diff_dst, diff_src: 0 dense, 1 padded, 2 padded in
    // the other format's order (channel-last storage of NCX and back).
    int layout[3] = {0, 0, 0};
};

std::string describe(const case_t &c) {
    auto v = [](const std::vector<int64_t> &a) {
        std::string r;
        for (int64_t e : a)
            r += (r.empty() ? "" : "x") + std::to_string(e);
        return r;
    };
    return std::string(c.nxc ? "NXC" : "NCX") + " x=" + v(c.x) + " k=" + v(c.k)
            + " s=" + v(c.s) + " d=" + v(c.d) + " pb=" + v(c.pb)
            + " pe=" + v(c.pe) + " auto_pad=" + c.auto_pad
            + (c.ceil_mode ? " ceil" : " floor") + " layouts="
            + std::to_string(c.layout[0]) + std::to_string(c.layout[1])
            + std::to_string(c.layout[2]);
}

// The physical dims of logical (N, C, spatial...) for the format.
dims_t physical(const dims_t &ncx, bool nxc) {
    dims_t x = ncx;
    if (nxc) {
        x.erase(x.begin() + 1);
        x.push_back(ncx[1]);
    }
    return x;
}

// A tensor of dims `d` in layout `kind` (see case_t).
logical_tensor_t tensor(size_t id, const dims_t &d, int kind, bool nxc,
        std::mt19937 &gen) {
    return layout_test::odd_layout(ir::make_lt(id, dnnl_f32, d), kind, nxc, gen);
}

// The MaxPoolBackward op of the case: diff_dst sized by the forward
// MaxPool's shape inference (floor or ceil); false if there is no output.
bool build(const case_t &c, std::mt19937 &gen, ir::op_t &op) {
    const dims_t x = physical(c.x, c.nxc);
    ir::op_t fwd;
    fwd.kind = dnnl_graph_op_max_pool;
    fwd.id = 1;
    fwd.inputs = {ir::make_lt(10, dnnl_f32, x)};
    fwd.outputs = {ir::make_lt_unknown(11, dnnl_f32)};
    using av = ir::attr_value_t;
    fwd.set_attr(dnnl_graph_op_attr_kernel, av::make_s64s(c.k));
    fwd.set_attr(dnnl_graph_op_attr_strides, av::make_s64s(c.s));
    fwd.set_attr(dnnl_graph_op_attr_dilations, av::make_s64s(c.d));
    fwd.set_attr(dnnl_graph_op_attr_pads_begin, av::make_s64s(c.pb));
    fwd.set_attr(dnnl_graph_op_attr_pads_end, av::make_s64s(c.pe));
    fwd.set_attr(dnnl_graph_op_attr_auto_pad, av::make_str(c.auto_pad));
    fwd.set_attr(dnnl_graph_op_attr_data_format,
            av::make_str(c.nxc ? "NXC" : "NCX"));
    fwd.set_attr(dnnl_graph_op_attr_rounding_type,
            av::make_str(c.ceil_mode ? "ceil" : "floor"));
    if (ops::verify_op(fwd) != dnnl_success) return false;
    if (ops::infer_shapes(fwd) != dnnl_success) return false;
    op = fwd;
    op.kind = dnnl_graph_op_max_pool_backward;
    op.attrs.erase(dnnl_graph_op_attr_rounding_type);
    op.inputs = {tensor(10, x, c.layout[0], c.nxc, gen),
            tensor(12, ir::dims_of(fwd.outputs[0]), c.layout[1], c.nxc, gen)};
    op.outputs = {tensor(13, x, c.layout[2], c.nxc, gen)};
    return true;
}

// Sources from {-2, ..., 2} (many ties), a few NaNs. Gradients from
// {+-1, +-3, +-2^30, +-2^60}: where a source position collects several,
// the big ones cancel exactly or swallow a 1 depending on the order of the
// double sum (1 + 2^60 - 2^60 is 0 left to right, 1 otherwise), so a sum
// in another order than the reference's shows in the f32 result, and so
// does a sum in f32 (1 + 2^30 - 2^30 is 1 in double, 0 in f32).
std::vector<bytes_t> inputs(const compiler::plan_t &p, std::mt19937 &gen,
        bool nans) {
    bytes_t src(ir::mem_size(p.inputs[0])), dd(ir::mem_size(p.inputs[1]));
    const int64_t ns = static_cast<int64_t>(src.size() / 4);
    for (int64_t i = 0; i < ns; ++i)
        ir::store_value(dnnl_f32, src.data(), i,
                static_cast<double>(static_cast<int>(gen() % 5) - 2));
    if (nans)
        for (int t = 0; t < 4; ++t)
            ir::store_value(dnnl_f32, src.data(),
                    static_cast<int64_t>(gen() % static_cast<uint32_t>(ns)),
                    std::numeric_limits<double>::quiet_NaN());
    const double big = std::ldexp(1.0, 60), mid = std::ldexp(1.0, 30);
    const double grads[] = {1, -1, 3, -3, mid, -mid, big, -big};
    for (int64_t i = 0; i < static_cast<int64_t>(dd.size() / 4); ++i)
        ir::store_value(dnnl_f32, dd.data(), i, grads[gen() % 8]);
    return {src, dd};
}

TEST_F(CpuPoolBwd, RandomGeometriesMatchTheReferenceBitForBit) {
    std::mt19937 gen(23);
    int built = 0, strided = 0;
    for (int trial = 0; trial < 400; ++trial) {
        case_t c;
        c.nxc = gen() % 2;
        c.ceil_mode = gen() % 3 == 0;
        const int nsp = 1 + static_cast<int>(gen() % 3);
        const int64_t chans[] = {1, 3, 16, 17, 35, 70};
        c.x = {1 + static_cast<int64_t>(gen() % 2), chans[gen() % 6]};
        for (int i = 0; i < nsp; ++i) {
            const uint32_t extent = nsp == 3 ? 7 : 11;
            c.x.push_back(1 + static_cast<int64_t>(gen() % extent));
            c.k.push_back(1 + static_cast<int64_t>(gen() % 4));
            c.s.push_back(1 + static_cast<int64_t>(gen() % 5)); // < and > k
            c.d.push_back(1 + static_cast<int64_t>(gen() % 3) / 2);
            c.pb.push_back(static_cast<int64_t>(gen() % c.k.back()));
            c.pe.push_back(static_cast<int64_t>(gen() % c.k.back()));
        }
        const char *pads[] = {"None", "None", "None", "SAME_UPPER",
                "SAME_LOWER", "VALID"};
        c.auto_pad = pads[gen() % 6];
        for (int &lay : c.layout)
            lay = gen() % 3 == 0 ? static_cast<int>(1 + gen() % 2) : 0;
        ir::op_t op;
        if (!build(c, gen, op)) continue;
        ASSERT_EQ(ops::verify_op(op), dnnl_success)
                << describe(c) << ": " << last_error();
        ++built;
        strided += c.layout[0] + c.layout[1] + c.layout[2] > 0;
        const compiler::plan_t p = plan_test::plan_of(op);
        const std::vector<bytes_t> in = inputs(p, gen, gen() % 4 == 0);
        plan_test::expect_all_f32_like(p, in, "maxpool_backward", describe(c));
        if (HasFailure()) return;
    }
    EXPECT_GT(built, 250);
    EXPECT_GT(strided, 60);
}

// The kernel's two loops are the ones the layouts call for: channels
// side by side for unit channel strides, one plane at a time otherwise.
// One image of 70 channels: with two threads or more, two channel blocks
// (48 + a tail of 22).
TEST_F(CpuPoolBwd, PicksTheLoopByLayout) {
    std::mt19937 gen(3);
    case_t c;
    c.x = {1, 70, 13, 11};
    c.k = {3, 3};
    c.s = {2, 2};
    c.d = {1, 1};
    c.pb = {1, 1};
    c.pe = {1, 1};
    for (int variant = 0; variant < 3; ++variant) {
        c.nxc = variant != 1;
        c.layout[2] = variant == 2 ? 1 : 0; // NXC with a padded diff_src
        ir::op_t op;
        ASSERT_TRUE(build(c, gen, op));
        const compiler::plan_t p = plan_test::plan_of(op);
        const bool channels
                = c.nxc && op.outputs[0].layout.strides[3] == 1;
        SCOPED_TRACE(describe(c) + " diff_src channel stride "
                + std::to_string(op.outputs[0].layout.strides[3]));
        plan_test::expect_all_f32_like(p, inputs(p, gen, true),
                channels ? "maxpool_backward_channels_f32"
                         : "maxpool_backward_f32",
                describe(c));
    }
}

// Runs the op with the given input values through the kernel (checking
// its name) and the reference; both must equal `want`.
void expect_values(const ir::op_t &op, const std::vector<float> &src,
        const std::vector<float> &dd, const std::vector<float> &want,
        const std::string &kernel) {
    const compiler::plan_t p = plan_test::plan_of(op);
    auto bytes = [](const std::vector<float> &v) {
        bytes_t b(v.size() * 4);
        std::memcpy(b.data(), v.data(), b.size());
        return b;
    };
    const std::vector<bytes_t> in = {bytes(src), bytes(dd)};
    const bytes_t expect = bytes(want);
    EXPECT_TRUE(plan_test::same_f32(plan_test::run_ref_all(p, in)[0], expect))
            << "reference";
    for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
        test_isa::isa_guard_t guard(isa);
        std::vector<bytes_t> got;
        std::string kname;
        ASSERT_TRUE(plan_test::run_jit_all(p, in, got, &kname));
        EXPECT_EQ(kname, kernel);
        EXPECT_TRUE(plan_test::same_f32(got[0], expect)) << isa_name(isa);
        for (size_t i = 0; i < want.size(); ++i) {
            float g;
            std::memcpy(&g, &got[0][i * 4], 4);
            EXPECT_EQ(g, want[i]) << "element " << i;
        }
    }
}

ir::op_t hand_op(const dims_t &x, const dims_t &y, bool nxc,
        const std::vector<int64_t> &k, const std::vector<int64_t> &pb) {
    ir::op_t op;
    op.kind = dnnl_graph_op_max_pool_backward;
    op.id = 1;
    op.inputs = {ir::make_lt(10, dnnl_f32, x), ir::make_lt(11, dnnl_f32, y)};
    op.outputs = {ir::make_lt(12, dnnl_f32, x)};
    using av = ir::attr_value_t;
    op.set_attr(dnnl_graph_op_attr_kernel, av::make_s64s(k));
    op.set_attr(dnnl_graph_op_attr_strides,
            av::make_s64s(std::vector<int64_t>(k.size(), 1)));
    op.set_attr(dnnl_graph_op_attr_pads_begin, av::make_s64s(pb));
    op.set_attr(dnnl_graph_op_attr_pads_end,
            av::make_s64s(std::vector<int64_t>(k.size(), 0)));
    op.set_attr(dnnl_graph_op_attr_data_format,
            av::make_str(nxc ? "NXC" : "NCX"));
    EXPECT_EQ(ops::verify_op(op), dnnl_success) << last_error();
    return op;
}

// 1D, NCX, kernel 3, stride 1, two begin pads: src [5, 0, 0, 0, 0] gives
// five windows; the first three (taps -2..0, -1..1, 0..2) all pick
// position 0, the last two (1..3, 2..4) hold only zeros, so the first tap
// inside wins: positions 1 and 2. diff_dst [1, 2^60, -2^60, 7, 9]: position
// 0 sums 1 + 2^60 - 2^60 in output order, which in double is
// (1 + 2^60) - 2^60 = 0 (2^60 + 1 rounds to 2^60); any other order that
// starts with 2^60 - 2^60 would give 1.
TEST_F(CpuPoolBwd, HandDerivedOrderOfSums) {
    const float big = std::ldexp(1.f, 60);
    expect_values(hand_op({1, 1, 5}, {1, 1, 5}, false, {3}, {2}),
            {5, 0, 0, 0, 0}, {1, big, -big, 7, 9}, {0, 7, 9, 0, 0},
            "maxpool_backward_f32");
}

// 2D, NXC, 2 channels, H 2 x W 3, kernel 2x2, stride 1: outputs (0,0)
// and (0,1).
//   channel 0: src rows [1 3 3] [3 0 3]. Window (0,0) holds 1 3 / 3 0:
//     the first 3, (0,1), wins the tie; window (0,1) holds 3 3 / 0 3: the
//     first again, (0,1). diff_dst 0.5, 0.25 -> (0,1) gets 0.75.
//   channel 1: src rows [NaN 1 2] [0 NaN 4]. Window (0,0) starts with the
//     NaN, which nothing exceeds: (0,0) gets 2; window (0,1) holds
//     1 2 / NaN 4: the NaN never wins later, 4 at (1,2) does: gets 8.
TEST_F(CpuPoolBwd, HandDerivedTiesAndNaN) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    // Stored (h, w, c): channel pairs.
    const std::vector<float> src
            = {1, nan, 3, 1, 3, 2, 3, 0, 0, nan, 3, 4};
    const std::vector<float> dd = {0.5f, 2, 0.25f, 8};
    const std::vector<float> want = {0, 2, 0.75f, 0, 0, 0, 0, 0, 0, 0, 0, 8};
    expect_values(hand_op({1, 2, 3, 2}, {1, 1, 2, 2}, true, {2, 2}, {0, 0}),
            src, dd, want, "maxpool_backward_channels_f32");
}

// Case `c` with all three tensors in `dt` (bf16 or f16) through the
// native kernel (its loop picked by the layouts) against the reference,
// value for value (NaN matching NaN). Sources of few distinct values
// (ties) with NaNs. bf16 keeps the order-sensitive gradients (+-2^60
// cancel or swallow a 1 by the order of the double sums); f16 cannot hold
// them, so its gradients are small integers and halves, whose
// f32-rounded double sums still differ from f16 sums (2048 + 1 is exact
// in f32, not in f16). Returns false if the case has no output.
bool check_half(const case_t &c, data_type_t dt, std::mt19937 &gen) {
    ir::op_t op;
    if (!build(c, gen, op)) return false;
    for (auto *t : {&op.inputs[0], &op.inputs[1], &op.outputs[0]})
        t->data_type = dt;
    EXPECT_EQ(ops::verify_op(op), dnnl_success) << last_error();
    const compiler::plan_t p = plan_test::plan_of(op);
    std::vector<bytes_t> in = {bytes_t(ir::mem_size(p.inputs[0])),
            bytes_t(ir::mem_size(p.inputs[1]))};
    const int64_t ns = static_cast<int64_t>(in[0].size() / 2);
    for (int64_t i = 0; i < ns; ++i)
        ir::store_value(dt, in[0].data(), i,
                static_cast<double>(static_cast<int>(gen() % 5) - 2));
    if (gen() % 4 == 0)
        for (int t = 0; t < 4; ++t)
            ir::store_value(dt, in[0].data(),
                    static_cast<int64_t>(gen() % static_cast<uint32_t>(ns)),
                    std::numeric_limits<double>::quiet_NaN());
    const double big = std::ldexp(1.0, 60);
    const double g_bf16[] = {1, -1, 3, -3, 0.5, big, -big, 2048};
    const double g_f16[] = {1, -1, 3, -3, 0.5, -0.5, 2048, -2048};
    for (int64_t i = 0; i < static_cast<int64_t>(in[1].size() / 2); ++i)
        ir::store_value(dt, in[1].data(), i,
                (dt == dnnl_bf16 ? g_bf16 : g_f16)[gen() % 8]);
    const bytes_t want = plan_test::run_ref_all(p, in)[0];
    // Unit channel strides on all three: the channel loop.
    const int cd = c.nxc ? op.inputs[0].ndims - 1 : 1;
    const bool ch = op.inputs[0].layout.strides[cd] == 1
            && op.inputs[1].layout.strides[cd] == 1
            && op.outputs[0].layout.strides[cd] == 1;
    const std::string kernel = std::string(ch ? "maxpool_backward_channels_"
                                              : "maxpool_backward_")
            + ir::dtype_name(dt);
    for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
        test_isa::isa_guard_t guard(isa);
        std::vector<bytes_t> got;
        std::string kname;
        EXPECT_TRUE(plan_test::run_jit_all(p, in, got, &kname));
        EXPECT_EQ(kname, kernel) << describe(c);
        if (got.empty() || got[0].size() != want.size()) {
            ADD_FAILURE() << "no output";
            continue;
        }
        EXPECT_EQ(plan_test::value_mismatches(got[0], want, dt,
                          std::string(ir::dtype_name(dt)) + " " + describe(c)
                                  + " at " + isa_name(isa)),
                0);
    }
    return true;
}

// bf16 and f16 run natively (src rows widened into a ring, diff_dst
// widened and diff_src narrowed a run at a time): random geometries and
// layouts as above (odd extents and channel counts: the conversions'
// 8-wide tails).
TEST_F(CpuPoolBwd, HalfTypesMatchTheReferenceBitForBit) {
    std::mt19937 gen(8);
    for (data_type_t dt : {dnnl_bf16, dnnl_f16}) {
        int built = 0;
        for (int trial = 0; trial < 250; ++trial) {
            case_t c;
            c.nxc = gen() % 2;
            c.ceil_mode = gen() % 3 == 0;
            const int nsp = 1 + static_cast<int>(gen() % 3);
            const int64_t chans[] = {1, 3, 9, 17, 35, 70};
            c.x = {1 + static_cast<int64_t>(gen() % 2), chans[gen() % 6]};
            for (int i = 0; i < nsp; ++i) {
                const uint32_t extent = nsp == 3 ? 7 : 13;
                c.x.push_back(1 + static_cast<int64_t>(gen() % extent));
                c.k.push_back(1 + static_cast<int64_t>(gen() % 4));
                c.s.push_back(1 + static_cast<int64_t>(gen() % 5));
                c.d.push_back(1 + static_cast<int64_t>(gen() % 3) / 2);
                c.pb.push_back(static_cast<int64_t>(gen() % c.k.back()));
                c.pe.push_back(static_cast<int64_t>(gen() % c.k.back()));
            }
            const char *pads[] = {"None", "None", "SAME_UPPER", "VALID"};
            c.auto_pad = pads[gen() % 4];
            for (int &lay : c.layout)
                lay = gen() % 3 == 0 ? static_cast<int>(1 + gen() % 2) : 0;
            built += check_half(c, dt, gen);
            if (HasFailure()) return;
        }
        EXPECT_GT(built, 150);
    }
}

// Dilated windows along the ring's dim whose first tap inside the source
// moves back as the window advances (pads 3, kernel 4, dilation 2: the
// first window's taps inside are rows 1, 3, the second's 0, 2, 4): every
// row the windows read must be in the 16-bit ring, even one no earlier
// window read.
TEST_F(CpuPoolBwd, HalfTypesDilatedWindowsReachBack) {
    std::mt19937 gen(12);
    for (data_type_t dt : {dnnl_bf16, dnnl_f16})
        for (bool nxc : {false, true}) {
            case_t c;
            c.nxc = nxc;
            c.x = {1, 17, 7, 9};
            c.k = {4, 2};
            c.s = {1, 2};
            c.d = {2, 1};
            c.pb = {3, 1};
            c.pe = {3, 0};
            ASSERT_TRUE(check_half(c, dt, gen));
        }
}

TEST_F(CpuPoolBwd, DeclinesWhatItDoesNotCover) {
    ir::op_t op = hand_op({1, 3, 5}, {1, 3, 3}, false, {3}, {0});
    for (auto *t : {&op.inputs[0], &op.inputs[1], &op.outputs[0]})
        t->data_type = dnnl_bf16;
    std::string why;
    EXPECT_TRUE(pool_bwd::accepts(plan_test::plan_of(op), isa_t::avx2, &why)) << why;
    // Mixed types (outside the one type variable) are left to others.
    op.outputs[0].data_type = dnnl_f32;
    EXPECT_FALSE(pool_bwd::accepts(plan_test::plan_of(op), isa_t::avx2, &why));
    EXPECT_NE(why.find("types differ"), std::string::npos) << why;
    op.outputs[0].data_type = dnnl_bf16;
    op.inputs[1].data_type = dnnl_f16;
    EXPECT_FALSE(pool_bwd::accepts(plan_test::plan_of(op), isa_t::avx2, &why));
    EXPECT_NE(why.find("types differ"), std::string::npos) << why;
    op.kind = dnnl_graph_op_max_pool;
    EXPECT_FALSE(pool_bwd::accepts(plan_test::plan_of(op), isa_t::avx2, &why));
    EXPECT_NE(why.find("MaxPoolBackward"), std::string::npos) << why;
}

} // namespace
} // namespace cpu
} // namespace llga
