// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/norm/cpu_batchnorm_bwd_test.cpp —
// BatchNormTrainingBackward on the cpu backend
// (backends/cpu/kernels/batchnorm_bwd.cpp) against the reference op, bit for
// bit, every output: random ranks and shapes (channel counts below and above
// one channel block), NXC and NCX, padded and permuted layouts of each data
// tensor, strided per-channel vectors, with and without gamma, one to three
// outputs, random epsilon, and inputs whose sums or gradients cancel (so the
// order and association of the double arithmetic show); all of it in f32, bf16
// and f16 (per-channel tensors f32, or bf16 with bf16 data), the 16-bit runs
// also with more channels than one widened piece and runs longer than one; f32
// planes off the groups of four channels whose sums run side by side; a
// hand-derived case; and what the kernel declines.
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/norm/batchnorm_bwd.hpp"
#include "cpu_layout_test_util.hpp"
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

class CpuBatchnormBwd : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

struct case_t {
    dims_t x; // physical dims
    bool nxc = true, gamma = true;
    int outputs = 3;
    float eps = 1e-5f;
    // Layouts of src, diff_dst, diff_src: 0 dense, 1 padded, 2 padded in
    // the other format's order; stride of the per-channel vectors.
    int layout[3] = {0, 0, 0};
    int64_t vec_stride = 1;
};

std::string describe(const case_t &c) {
    return ir::dims_to_string(c.x) + (c.nxc ? " NXC" : " NCX")
            + (c.gamma ? " gamma" : "") + " outputs "
            + std::to_string(c.outputs) + " layouts "
            + std::to_string(c.layout[0]) + std::to_string(c.layout[1])
            + std::to_string(c.layout[2]) + " vec stride "
            + std::to_string(c.vec_stride) + " eps " + std::to_string(c.eps);
}

logical_tensor_t data_tensor(size_t id, const case_t &c, int kind,
        std::mt19937 &gen) {
    return layout_test::odd_layout(
            ir::make_lt(id, dnnl_f32, c.x), kind, c.nxc, gen);
}

ir::op_t build(const case_t &c, std::mt19937 &gen) {
    const int64_t ch = c.nxc ? c.x.back() : c.x[1];
    auto vec = [&](size_t id) {
        logical_tensor_t t = ir::make_lt(id, dnnl_f32, {ch});
        t.layout.strides[0] = c.vec_stride;
        return t;
    };
    ir::op_t op;
    op.kind = dnnl_graph_op_batch_norm_backward;
    op.id = 1;
    op.inputs = {data_tensor(10, c, c.layout[0], gen),
            data_tensor(11, c, c.layout[1], gen), vec(12), vec(13)};
    if (c.gamma) op.inputs.push_back(vec(14));
    op.outputs = {data_tensor(20, c, c.layout[2], gen)};
    for (int k = 1; k < c.outputs; ++k)
        op.outputs.push_back(vec(20 + static_cast<size_t>(k)));
    op.set_attr(dnnl_graph_op_attr_epsilon, ir::attr_value_t::make_f32(c.eps));
    op.set_attr(dnnl_graph_op_attr_data_format,
            ir::attr_value_t::make_str(c.nxc ? "NXC" : "NCX"));
    return op;
}

std::vector<bytes_t> random_inputs(
        const compiler::plan_t &p, std::mt19937 &gen) {
    std::vector<bytes_t> in;
    for (size_t k = 0; k < p.inputs.size(); ++k)
        in.push_back(plan_test::random_bytes(
                p.inputs[k], gen, k == 3 ? 0.05f : -3.f, 3.f)); // var > 0
    return in;
}

// Inputs whose sums cancel: one mean for every channel (a multiple of
// 1/64), sources mean + {-3, ..., 3} (x - mean exact in f32; in 16-bit
// types as far as the rounded values allow), diff_dst small integers or
// one constant. Both sums are then sums of k inv that cancel
// to a few ulps or to zero, and diff_src subtracts nearly equal values,
// so another association or order of the double arithmetic than the
// reference's shows in the f32 outputs.
std::vector<bytes_t> cancelling_inputs(
        const compiler::plan_t &p, std::mt19937 &gen) {
    std::vector<bytes_t> in = random_inputs(p, gen);
    auto small_int = [&](int n) { // in [-n / 2, n / 2]
        return static_cast<double>(static_cast<int>(gen() % n) - n / 2);
    };
    const double mean = small_int(385) / 64;
    const bool constant_dy = gen() % 2 == 0;
    const double dy0 = small_int(7);
    auto fill = [&](size_t k, const std::function<double()> &value) {
        const data_type_t dt = p.inputs[k].data_type;
        const size_t n = in[k].size() / ir::dtype_storage_bytes(dt, 1);
        for (int64_t i = 0; i < static_cast<int64_t>(n); ++i)
            ir::store_value(dt, in[k].data(), i, value());
    };
    fill(0, [&] { return mean + small_int(7); });
    fill(1, [&] { return constant_dy ? dy0 : small_int(7); });
    fill(2, [&] { return mean; });
    return in;
}

// Inputs for which diff_src vanishes in exact arithmetic: every channel
// holds the same sources (small integers by position), mean and variance
// are their own batch statistics, epsilon is negligible (the case sets
// it) and diff_dst is a + b x per channel — normalization removes
// exactly such gradients. What is left in diff_src is rounding residue,
// which any other association or order of the double arithmetic than the
// reference's changes.
std::vector<bytes_t> degenerate_inputs(const compiler::plan_t &p,
        const case_t &c, std::mt19937 &gen) {
    std::vector<bytes_t> in = random_inputs(p, gen);
    const int r = static_cast<int>(c.x.size()), cax = c.nxc ? r - 1 : 1;
    const int64_t ch = c.x[static_cast<size_t>(cax)];
    const int64_t m = ir::product(c.x) / ch;
    std::vector<double> xs(static_cast<size_t>(m));
    double mean = 0, var = 0;
    for (double &v : xs)
        mean += (v = static_cast<double>(static_cast<int>(gen() % 7) - 3));
    mean /= static_cast<double>(m);
    for (double v : xs)
        var += (v - mean) * (v - mean);
    var /= static_cast<double>(m);
    std::vector<double> a(static_cast<size_t>(ch)), b(a);
    for (int64_t k = 0; k < ch; ++k) {
        a[static_cast<size_t>(k)] = static_cast<int>(gen() % 5) - 2;
        b[static_cast<size_t>(k)] = static_cast<int>(gen() % 5) - 2;
        ir::store_value(p.inputs[2].data_type, in[2].data(), k * c.vec_stride, mean);
        ir::store_value(p.inputs[3].data_type, in[3].data(), k * c.vec_stride, var);
    }
    // Every logical index: its position among the non-channel dims
    // (row-major), its channel, and its offsets in src and diff_dst.
    std::vector<int64_t> idx(static_cast<size_t>(r), 0);
    for (int64_t e = 0; e < ir::product(c.x); ++e) {
        int64_t pos = 0, off0 = 0, off1 = 0;
        for (int d = 0; d < r; ++d) {
            const int64_t i = idx[static_cast<size_t>(d)];
            if (d != cax) pos = pos * c.x[static_cast<size_t>(d)] + i;
            off0 += i * p.inputs[0].layout.strides[d];
            off1 += i * p.inputs[1].layout.strides[d];
        }
        const size_t k = static_cast<size_t>(idx[static_cast<size_t>(cax)]);
        const double x = xs[static_cast<size_t>(pos)];
        ir::store_value(p.inputs[0].data_type, in[0].data(), off0, x);
        ir::store_value(p.inputs[1].data_type, in[1].data(), off1, a[k] + b[k] * x);
        for (int d = r - 1; d >= 0; --d) { // next index, row-major
            const size_t u = static_cast<size_t>(d);
            if (++idx[u] < c.x[u]) break;
            idx[u] = 0;
        }
    }
    return in;
}

// A random case: rank, format, shape (channel counts below and above one
// channel block; every 15th trial a long run), gamma, outputs, epsilon,
// layouts, vector stride; mode 2 (degenerate inputs) sets a negligible
// epsilon.
case_t random_case(std::mt19937 &gen, int trial, int mode) {
    const int64_t chans[] = {1, 3, 16, 17, 40, 70};
    case_t c;
    const int r = 2 + static_cast<int>(gen() % 4);
    c.nxc = gen() % 2;
    for (int k = 0; k < r; ++k)
        c.x.push_back(1 + static_cast<int64_t>(gen() % 7));
    (c.nxc ? c.x.back() : c.x[1]) = chans[gen() % 6];
    if (trial % 15 == 0) c.x[r - 1 - (c.nxc ? 1 : 0)] = 300; // long runs
    c.gamma = gen() % 3 != 0;
    c.outputs = 1 + static_cast<int>(gen() % 3);
    c.eps = std::ldexp(1.f + static_cast<float>(gen() % 100) / 100.f,
            -static_cast<int>(gen() % 20));
    for (int &lay : c.layout)
        lay = gen() % 3 == 0 ? static_cast<int>(1 + gen() % 2) : 0;
    c.vec_stride = gen() % 4 == 0 ? 3 : 1;
    if (mode == 2) c.eps = 1e-30f;
    return c;
}

std::vector<bytes_t> mode_inputs(const compiler::plan_t &p, const case_t &c,
        int mode, std::mt19937 &gen) {
    return mode == 0 ? random_inputs(p, gen)
            : mode == 1 ? cancelling_inputs(p, gen)
                        : degenerate_inputs(p, c, gen);
}

const char *const k_modes[] = {"", " cancelling", " degenerate"};

TEST_F(CpuBatchnormBwd, EveryOutputMatchesTheReferenceBitForBit) {
    std::mt19937 gen(31);
    for (int trial = 0; trial < 240; ++trial) {
        const int mode = trial % 3; // random, cancelling, degenerate
        const case_t c = random_case(gen, trial, mode);
        const compiler::plan_t p = plan_test::plan_of(build(c, gen));
        plan_test::expect_all_f32_like(p, mode_inputs(p, c, mode, gen),
                "batchnorm_backward", describe(c) + k_modes[mode]);
        if (HasFailure()) return;
    }
}

// bf16 and f16 data run natively, every output bit for bit, on the same
// random cases, plus channel-last tensors of more channels than one
// widened piece (1100) and runs longer than one (1500); per-channel
// tensors f32, or bf16 with bf16 data. The kernel name says the loop
// (channels side by side when all three data tensors have unit channel
// stride) and the type.
TEST_F(CpuBatchnormBwd, HalfTypesMatchTheReferenceBitForBit) {
    std::mt19937 gen(41);
    for (int trial = 0; trial < 180; ++trial) {
        const int mode = trial % 3;
        case_t c = random_case(gen, trial, mode);
        if (trial % 20 == 4) c.x = c.nxc ? dims_t {1, 2, 1100} : dims_t {1, 1100, 2};
        if (trial % 20 == 14) c.x = c.nxc ? dims_t {2, 1500, 3} : dims_t {2, 3, 1500};
        const data_type_t dt = trial / 3 % 2 ? dnnl_f16 : dnnl_bf16;
        const data_type_t pdt = dt == dnnl_bf16 && trial % 4 < 2 ? dnnl_bf16 : dnnl_f32;
        ir::op_t op = build(c, gen);
        for (auto *v : {&op.inputs, &op.outputs})
            for (size_t k = 0; k < v->size(); ++k)
                (*v)[k].data_type = k < (v == &op.inputs ? 2u : 1u) ? dt : pdt;
        const compiler::plan_t p = plan_test::plan_of(op);
        const int cax = c.nxc ? static_cast<int>(c.x.size()) - 1 : 1;
        const bool channels = op.inputs[0].layout.strides[cax] == 1
                && op.inputs[1].layout.strides[cax] == 1
                && op.outputs[0].layout.strides[cax] == 1;
        normtest::expect_same_bytes(p, mode_inputs(p, c, mode, gen),
                std::string(channels ? "batchnorm_backward_channels_"
                                     : "batchnorm_backward_")
                        + ir::dtype_name(dt),
                describe(c) + k_modes[mode] + " " + ir::dtype_name(dt)
                        + " vectors " + ir::dtype_name(pdt));
        if (HasFailure()) return;
    }
}

// Channels side by side for unit channel strides, one channel at a time
// otherwise: the kernel name says which loop ran. 70 channels: with two
// threads or more, the sums run in two channel blocks (48 + a tail of 22).
TEST_F(CpuBatchnormBwd, PicksTheLoopByLayout) {
    std::mt19937 gen(5);
    for (bool nxc : {true, false}) {
        case_t c;
        c.nxc = nxc;
        c.x = nxc ? dims_t {2, 9, 7, 70} : dims_t {2, 70, 9, 7};
        const compiler::plan_t p = plan_test::plan_of(build(c, gen));
        plan_test::expect_all_f32_like(p, random_inputs(p, gen),
                nxc ? "batchnorm_backward_channels_f32"
                    : "batchnorm_backward_f32",
                describe(c));
    }
}

// f32 channel-first planes with unit-stride runs: four channels' sums
// side by side per task (fewer when there are fewer channels than
// threads times four), read in place: channel counts off the groups (2,
// 5, 9, 13), runs off the vector widths (37, 7 x 3), src and diff_dst of
// different channel strides (src padded); inputs whose sums show their
// order (random with a cancelling pair per channel, cancelling,
// degenerate).
TEST_F(CpuBatchnormBwd, F32PlaneGroupsMatchTheReferenceBitForBit) {
    std::mt19937 gen(43);
    const std::vector<dims_t> shapes = {{3, 2, 37}, {2, 5, 37}, {1, 9, 7, 3},
            {2, 13, 11}};
    int variant = 0;
    for (const dims_t &x : shapes)
        for (int mode = 0; mode < 3; ++mode) {
            case_t c;
            c.nxc = false;
            c.x = x;
            c.gamma = variant % 2 == 0;
            c.outputs = 1 + variant++ % 3;
            if (mode == 2) c.eps = 1e-30f;
            ir::op_t op = build(c, gen);
            if (mode == 1) { // src planes padded by 3: not diff_dst's stride
                logical_tensor_t &t = op.inputs[0];
                t.layout.strides[t.ndims - 1] = 1;
                for (int d = t.ndims - 2; d >= 0; --d)
                    t.layout.strides[d] = t.layout.strides[d + 1]
                            * (t.dims[d + 1] + (d == 1 ? 3 : 0));
            }
            const compiler::plan_t p = plan_test::plan_of(op);
            std::vector<bytes_t> in = mode_inputs(p, c, mode, gen);
            if (mode == 0) { // each channel's diff_dst with a cancelling pair
                const logical_tensor_t &t = p.inputs[1];
                const int64_t inner = ir::product(x) / (x[0] * x[1]);
                for (int64_t ch = 0; ch < x[1]; ++ch)
                    normtest::plant_cancelling_pair(in[1], x[0] * inner,
                            [&](int64_t j) {
                                // dense NCX: (n, ch, inner position)
                                return j / inner * t.layout.strides[0]
                                        + ch * t.layout.strides[1] + j % inner;
                            },
                            gen);
            }
            plan_test::expect_all_f32_like(p, in, "batchnorm_backward_f32",
                    describe(c) + k_modes[mode]);
            if (HasFailure()) return;
        }
}

// N 1, H 2, W 2, C 2 (NXC), epsilon 0.25, all three outputs:
//   channel 0: src 1 2 3 4, mean 2.5, var 0.75 (inv = 1/sqrt(1) = 1),
//     gamma 2, diff_dst 1 0 0 2. xh = -1.5 -0.5 0.5 1.5; sum dy = 3,
//     sum dy xh = -1.5 + 3 = 1.5; diff_src = 2 (dy - 3/4 - xh 1.5/4)
//     = 2 (0.8125, -0.5625, -0.9375, 0.6875)
//     = 1.625 -1.125 -1.875 1.375; diff_gamma 1.5, diff_beta 3.
//   channel 1: src 2 -2 0 0, mean 0, var 3.75 (inv = 1/2), gamma -1,
//     diff_dst 3 1 0 0. xh = 1 -1 0 0; sum dy = 4, sum dy xh = 2;
//     diff_src = -1/2 (dy - 1 - xh/2) = -1/2 (1.5, 0.5, -1, -1)
//     = -0.75 -0.25 0.5 0.5; diff_gamma 2, diff_beta 4.
TEST_F(CpuBatchnormBwd, HandDerived) {
    case_t c;
    c.x = {1, 2, 2, 2};
    c.eps = 0.25f;
    std::mt19937 gen(1);
    const compiler::plan_t p = plan_test::plan_of(build(c, gen));
    auto bytes = [](const std::vector<float> &v) {
        bytes_t b(v.size() * 4);
        std::memcpy(b.data(), v.data(), b.size());
        return b;
    };
    // Channel pairs per position (h, w).
    const std::vector<bytes_t> in = {bytes({1, 2, 2, -2, 3, 0, 4, 0}),
            bytes({1, 3, 0, 1, 0, 0, 2, 0}), bytes({2.5f, 0}),
            bytes({0.75f, 3.75f}), bytes({2, -1})};
    const std::vector<bytes_t> want = {
            bytes({1.625f, -0.75f, -1.125f, -0.25f, -1.875f, 0.5f, 1.375f,
                    0.5f}),
            bytes({1.5f, 2}), bytes({3, 4})};
    const std::vector<bytes_t> ref = plan_test::run_ref_all(p, in);
    for (size_t k = 0; k < want.size(); ++k)
        EXPECT_TRUE(plan_test::same_f32(ref[k], want[k])) << "reference " << k;
    for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
        test_isa::isa_guard_t guard(isa);
        std::vector<bytes_t> got;
        std::string kname;
        ASSERT_TRUE(plan_test::run_jit_all(p, in, got, &kname));
        EXPECT_EQ(kname, "batchnorm_backward_channels_f32");
        for (size_t k = 0; k < want.size(); ++k)
            EXPECT_TRUE(plan_test::same_f32(got[k], want[k]))
                    << "output " << k << " at " << isa_name(isa);
    }
}

TEST_F(CpuBatchnormBwd, DeclinesWhatItDoesNotCover) {
    std::mt19937 gen(2);
    case_t c;
    c.x = {2, 3, 4, 5};
    // Types outside the spec's: bf16 per-channel tensors with f16 (or
    // f32) data, per-channel tensors of two types, diff_src of another
    // type than src.
    ir::op_t op = build(c, gen);
    op.inputs[0].data_type = op.inputs[1].data_type = dnnl_f16;
    op.outputs[0].data_type = dnnl_f16;
    for (size_t k = 2; k < op.inputs.size(); ++k)
        op.inputs[k].data_type = dnnl_bf16;
    for (size_t k = 1; k < op.outputs.size(); ++k)
        op.outputs[k].data_type = dnnl_bf16;
    std::string why;
    EXPECT_FALSE(batchnorm_bwd::accepts(
            plan_test::plan_of(op), isa_t::avx2, &why));
    EXPECT_NE(why.find("f32, or bf16 with bf16 data"), std::string::npos) << why;
    op = build(c, gen);
    op.inputs[0].data_type = op.inputs[1].data_type = dnnl_bf16;
    op.outputs[0].data_type = dnnl_bf16;
    EXPECT_TRUE(batchnorm_bwd::accepts(plan_test::plan_of(op), isa_t::avx2, &why))
            << why;
    op.inputs[4].data_type = dnnl_bf16; // gamma bf16, mean f32
    EXPECT_FALSE(batchnorm_bwd::accepts(
            plan_test::plan_of(op), isa_t::avx2, &why));
    EXPECT_NE(why.find("types differ"), std::string::npos) << why;
    op = build(c, gen);
    op.inputs[0].data_type = op.inputs[1].data_type = dnnl_bf16;
    EXPECT_FALSE(batchnorm_bwd::accepts(
            plan_test::plan_of(op), isa_t::avx2, &why));
    EXPECT_NE(why.find("diff_src"), std::string::npos) << why;
    op = build(c, gen);
    op.inputs[2] = ir::make_lt(12, dnnl_f32, {1, 5}); // mean not 1-D
    EXPECT_FALSE(batchnorm_bwd::accepts(
            plan_test::plan_of(op), isa_t::avx2, &why));
    EXPECT_NE(why.find("1-D"), std::string::npos) << why;
}

} // namespace
} // namespace cpu
} // namespace llga
