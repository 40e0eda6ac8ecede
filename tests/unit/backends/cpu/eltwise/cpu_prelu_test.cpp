// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/eltwise/cpu_prelu_test.cpp — PReLU and PReLUBackward
// on the cpu backend (backends/cpu/kernels/prelu.cpp): values worked out by
// hand, then random shapes with every slope form (per channel in NCX and NXC,
// scalar, right-aligned, full; per_channel_broadcast off), f32, bf16 and f16,
// tensors in random dense orders or padded, diff_slope sums short and long
// (every chunk count of the reference's scheme), other splits of the parallel
// loops, in place, and what the kernel declines — bit for bit against the
// reference.
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/kernels/eltwise/prelu.hpp"
#include "cpu_bcast_test_util.hpp"
#include "cpu_plan_test_util.hpp"
#include "ops/prelu_slope.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using bcast_test::relaid;
using plan_test::bytes_t;

class CpuPrelu : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

struct form_t {
    dims_t src, slope;
    bool nxc = false, per_channel = true;
};

// PReLU (src, slope) or PReLUBackward (src, slope, diff_dst), every tensor
// of type dt; with `gen`, each tensor in a random layout (inputs padded
// too when `padded_inputs`).
ir::op_t make(bool bwd, const form_t &f, data_type_t dt, std::mt19937 *gen = nullptr,
        bool padded_inputs = true) {
    ir::op_t op;
    op.kind = bwd ? dnnl_graph_op_prelu_backward : dnnl_graph_op_prelu;
    op.id = 1;
    auto lt = [&](size_t id, const dims_t &d, bool out) {
        const logical_tensor_t t = ir::make_lt(id, dt, d);
        if (!gen) return t;
        const unsigned kinds = out || !padded_inputs ? 2 : 3;
        return relaid(t, static_cast<int>((*gen)() % kinds), *gen);
    };
    op.inputs = {lt(1, f.src, false), lt(2, f.slope, false)};
    if (bwd) op.inputs.push_back(lt(3, f.src, false));
    op.outputs = {lt(4, f.src, true)};
    // diff_slope may be stored padded: only its dims are fixed.
    if (bwd) op.outputs.push_back(gen ? relaid(ir::make_lt(5, dt, f.slope),
                                                static_cast<int>((*gen)() % 3), *gen)
                                      : ir::make_lt(5, dt, f.slope));
    op.set_attr(dnnl_graph_op_attr_data_format,
            ir::attr_value_t::make_str(f.nxc ? "NXC" : "NCX"));
    if (!bwd)
        op.set_attr(dnnl_graph_op_attr_per_channel_broadcast,
                ir::attr_value_t::make_bool(f.per_channel));
    return op;
}

template <typename T>
bytes_t raw(const std::vector<T> &v) {
    return bytes_t((const char *)v.data(), (const char *)v.data() + v.size() * sizeof(T));
}

TEST_F(CpuPrelu, HandWorkedValues) {
    // NCX [1, 2, 2], per-channel slope {0.5, -2}.
    const form_t f {{1, 2, 2}, {2}, false, true};
    const std::vector<float> x = {1.f, -2.f, -0.f, -4.f}, s = {0.5f, -2.f},
                             dy = {10.f, 20.f, 30.f, 40.f};
    std::string kname;
    auto out = bcast_test::through_cpu(plan_test::plan_of(make(false, f, dnnl_f32)),
            {raw(x), raw(s)}, &kname);
    EXPECT_EQ(kname, "prelu_f32");
    ASSERT_EQ(out.size(), 1u);
    float y[4];
    std::memcpy(y, out[0].data(), 16);
    EXPECT_EQ(y[0], 1.f);
    EXPECT_EQ(y[1], -1.f);
    EXPECT_TRUE(y[2] == 0.f && std::signbit(y[2])); // -0 >= 0 passes through
    EXPECT_EQ(y[3], 8.f);
    out = bcast_test::through_cpu(plan_test::plan_of(make(true, f, dnnl_f32)),
            {raw(x), raw(s), raw(dy)}, &kname);
    EXPECT_EQ(kname, "prelu_backward_f32");
    ASSERT_EQ(out.size(), 2u);
    float dx[4], ds[2];
    std::memcpy(dx, out[0].data(), 16);
    std::memcpy(ds, out[1].data(), 8);
    EXPECT_EQ(dx[0], 10.f);  // x > 0: dy
    EXPECT_EQ(dx[1], 10.f);  // 0.5 * 20
    EXPECT_EQ(dx[2], -60.f); // x = -0 is not > 0: -2 * 30
    EXPECT_EQ(dx[3], -80.f);
    EXPECT_EQ(ds[0], -40.f); // channel 0: -2 * 20
    EXPECT_EQ(ds[1], -160.f); // channel 1: -0 * 30 + -4 * 40
}

// Random slope forms for a src of rank 1..5.
// PReLUBackward always reads a 1-D slope as per channel (`bwd`).
form_t random_form(std::mt19937 &gen, int64_t max_n, bool bwd) {
    const int64_t sizes[] = {1, 2, 3, 5, 7, 8, 16, 17, 31};
    form_t f;
    f.src.resize(1 + gen() % 5);
    int64_t n = 1;
    for (auto &x : f.src) {
        x = sizes[gen() % 9];
        if (n * x > max_n) x = 1;
        n *= x;
    }
    f.nxc = gen() % 2;
    f.per_channel = bwd || gen() % 4 != 0;
    const int r = static_cast<int>(f.src.size());
    switch (gen() % 4) {
        case 0: // 1-D: the channel axis, or the last dim when not per channel
            f.slope = {f.per_channel ? f.src[r <= 1 ? 0 : f.nxc ? r - 1 : 1]
                                     : f.src.back()};
            break;
        case 1: f.slope = {1}; break;
        case 2: f.slope = f.src; break;
        default: { // right-aligned, some dims 1, some leading dims dropped
            f.slope = f.src;
            for (auto &x : f.slope)
                if (gen() % 2) x = 1;
            const size_t drop = gen() % f.slope.size();
            f.slope.erase(f.slope.begin(), f.slope.begin() + static_cast<long>(drop));
            // A 1-D slope of length != 1 would be read as per channel.
            if (f.slope.size() == 1 && f.slope[0] != 1 && f.src.size() >= 2)
                f.slope.insert(f.slope.begin(), 1);
        }
    }
    return f;
}

std::string describe(const form_t &f, data_type_t dt) {
    return ir::dims_to_string(f.src) + " slope " + ir::dims_to_string(f.slope)
            + (f.nxc ? " NXC" : " NCX") + (f.per_channel ? "" : " not per channel")
            + (dt == dnnl_f32 ? " f32" : dt == dnnl_bf16 ? " bf16" : " f16");
}

std::vector<bytes_t> inputs_of(const compiler::plan_t &p, std::mt19937 &gen) {
    std::vector<bytes_t> in;
    for (const auto &lt : p.inputs)
        in.push_back(bcast_test::values(lt, gen));
    return in;
}

void check_random(bool bwd, int cases, int64_t max_n, uint32_t seed) {
    std::mt19937 gen(seed);
    for (data_type_t dt : {dnnl_f32, dnnl_bf16, dnnl_f16})
        for (int c = 0; c < cases; ++c) {
            const form_t f = random_form(gen, max_n, bwd);
            ir::op_t op = make(bwd, f, dt, &gen);
            const std::string what = describe(f, dt);
            ASSERT_EQ(ops::verify_op(op), dnnl_success) << last_error() << " " << what;
            const compiler::plan_t p = plan_test::plan_of(op);
            const std::string name = std::string(bwd ? "prelu_backward_" : "prelu_")
                    + (dt == dnnl_f32 ? "f32" : dt == dnnl_bf16 ? "bf16" : "f16");
            bcast_test::expect_reference(p, inputs_of(p, gen), name, what, true);
            if (::testing::Test::HasFailure()) return;
        }
}

TEST_F(CpuPrelu, ForwardRandomFormsMatchTheReferenceBitForBit) {
    check_random(false, 80, 30000, 21);
}

TEST_F(CpuPrelu, BackwardRandomFormsMatchTheReferenceBitForBit) {
    check_random(true, 80, 30000, 22);
}

// diff_slope sums of every length: the reference cuts src into
// min(64, n / (16 sn)) pieces, so these shapes take 1, a few and 64
// pieces, a per-channel slope in both formats and a full-shape one
// (several slope blocks per piece on the threads).
TEST_F(CpuPrelu, LongDiffSlopeSumsInTheReferenceOrder) {
    std::mt19937 gen(23);
    const std::vector<form_t> forms = {
            {{64, 32, 9, 9}, {32}, false, true},   // NCX, 64 pieces
            {{64, 9, 9, 32}, {32}, true, true},    // NXC, 64 pieces
            {{3, 40, 7, 5}, {40}, false, true},    // 1 piece
            {{6, 48, 11}, {48, 1}, false, true},   // a few pieces
            {{4, 7, 130, 33}, {4, 7, 130, 33}, false, true}, // full shape
            {{2, 300, 257}, {300, 1}, false, true}, // 32 pieces
            {{40, 2048}, {2048}, false, true},     // 2 pieces, slope blocks
            {{5, 1000, 3}, {1}, true, true}};      // one slope element
    for (const form_t &f : forms)
        for (data_type_t dt : {dnnl_f32, dnnl_bf16}) {
            ir::op_t op = make(true, f, dt, &gen, false);
            ASSERT_EQ(ops::verify_op(op), dnnl_success) << last_error();
            const compiler::plan_t p = plan_test::plan_of(op);
            bcast_test::expect_reference(p, inputs_of(p, gen),
                    dt == dnnl_f32 ? "prelu_backward_f32" : "prelu_backward_bf16",
                    describe(f, dt), true);
        }
}

// With NaN in one operand only, the reference's result is that NaN,
// quieted (a copy of dy where x > 0 too, through double): payloads and
// signs must match exactly then. Each slope element sums at most one NaN.
TEST_F(CpuPrelu, SingleNaNOperandsKeepTheirPayloads) {
    std::mt19937 gen(26);
    const uint32_t nans[] = {0x7f800001u, 0xff812345u, 0x7fc00000u, 0xffc0abcdu};
    for (data_type_t dt : {dnnl_f32, dnnl_bf16, dnnl_f16})
        for (bool bwd : {false, true}) {
            const form_t f = bwd ? form_t {{6, 5, 7, 16}, {16}, true, true}
                                 : form_t {{6, 16, 5, 7}, {16}, false, true};
            const compiler::plan_t p = plan_test::plan_of(make(bwd, f, dt));
            std::vector<bytes_t> in;
            for (const auto &lt : p.inputs)
                in.push_back(plan_test::random_bytes(lt, gen, -3.f, 3.f));
            const int64_t n = 6 * 16 * 5 * 7;
            for (int64_t c = 0; c < 16; ++c) {
                // One element of channel c (NXC when bwd, else NCX).
                const int64_t i = bwd ? (gen() % (n / 16)) * 16 + c
                                      : (gen() % 6) * 560 + c * 35 + gen() % 35;
                const size_t k = bwd ? (gen() % 2 ? 0 : 2) : 0;
                const uint32_t u = nans[gen() % 4];
                float v;
                std::memcpy(&v, &u, 4);
                if (dt == dnnl_f32) std::memcpy(&in[k][i * 4], &u, 4);
                else {
                    const uint16_t h = static_cast<uint16_t>(u >> 16);
                    std::memcpy(&in[k][i * 2], &h, 2);
                }
                // And a positive x at another element, passing dy through.
                if (bwd) ir::store_value(dt, in[0].data(), (i + 16) % n, 1.5);
            }
            bcast_test::expect_reference(p, in,
                    std::string(bwd ? "prelu_backward_" : "prelu_")
                            + (dt == dnnl_f32 ? "f32" : dt == dnnl_bf16 ? "bf16" : "f16"),
                    bwd ? "backward" : "forward");
        }
}

// PReLUBackward inputs (row-major) whose diff_slope depends on the order
// of every addition. The reference cuts src's row-major range into
// min(64, n / (16 sn)) pieces (restated here); per slope element, pieces
// of kind 0 and 1 start with +2^60 and -2^60 (what follows is absorbed),
// and pieces of kind 2 hold small terms around a +2^60, -2^60 pair
// (only the terms after the pair survive). Added in order, the running
// sum meets each kind-2 piece at 0 and loses it to the next +2^60; any
// other order of pieces or of the terms in a piece keeps other terms.
std::vector<bytes_t> order_sensitive_inputs(const ir::op_t &op, std::mt19937 &gen) {
    const dims_t sd = ir::dims_of(op.inputs[0]), pd = ir::dims_of(op.inputs[1]);
    const int64_t n = ir::product(sd), sn = ir::product(pd);
    const int64_t chunks = std::max<int64_t>(
            1, std::min<int64_t>(64, n / std::max<int64_t>(1, 16 * sn)));
    dims_t ld, ls;
    EXPECT_TRUE(ops::prelu_slope_at_src_rank(op, sd, pd, ir::dense_strides(pd), ld, ls));
    const float big = 1073741824.f; // 2^30: x * dy = 2^60
    const float smalls[] = {1.f, -1.f, 0.5f, 0.25f, -0.75f, 3.f};
    std::vector<float> x(n), dy(n);
    std::vector<int64_t> seen(static_cast<size_t>(chunks * sn), 0);
    int64_t idx[DNNL_MAX_NDIMS] = {0}, c = 0;
    for (int64_t i = 0; i < n; ++i, ir::next_index(idx, sd)) {
        while (i >= n * (c + 1) / chunks)
            ++c;
        int64_t j = 0;
        for (size_t d = 0; d < sd.size(); ++d)
            if (ld[d] != 1) j += idx[d] * ls[d];
        const int64_t t = seen[static_cast<size_t>(c * sn + j)]++;
        const int kind = chunks < 3 || (c % 3 == 0 && c + 1 == chunks) ? 2 : c % 3;
        const float sign = kind == 0 || (kind == 2 && t == 1) ? 1.f : -1.f;
        if ((kind < 2 && t == 0) || (kind == 2 && (t == 1 || t == 3))) {
            x[i] = -big;
            dy[i] = -sign * big;
        } else {
            x[i] = gen() % 5 ? -1.f : 2.f; // x > 0: not summed
            dy[i] = smalls[gen() % 6];
        }
    }
    const data_type_t dt = op.inputs[0].data_type;
    std::vector<bytes_t> in;
    for (size_t k = 0; k < 3; ++k) {
        bytes_t b(ir::mem_size(op.inputs[k]));
        for (int64_t i = 0; i < (k == 1 ? sn : n); ++i)
            ir::store_value(dt, b.data(), i, k == 0 ? x[i] : k == 1 ? 0.5 : dy[i]);
        in.push_back(b);
    }
    return in;
}

TEST_F(CpuPrelu, DiffSlopeAddsInTheReferenceOrder) {
    const std::vector<form_t> forms = {{{64, 32, 9, 9}, {32}, false, true},
            {{64, 9, 9, 32}, {32}, true, true}, {{6, 48, 11}, {48, 1}, false, true},
            {{3, 40, 7, 5}, {40}, false, true}, {{40, 2048}, {2048}, false, true},
            {{4, 7, 130, 33}, {4, 7, 130, 33}, false, true},
            {{5, 1000, 3}, {1}, true, true}};
    std::mt19937 gen(27);
    for (const form_t &f : forms)
        for (data_type_t dt : {dnnl_f32, dnnl_bf16}) {
            const ir::op_t op = make(true, f, dt);
            const compiler::plan_t p = plan_test::plan_of(op);
            const std::vector<bytes_t> in = order_sensitive_inputs(op, gen);
            // The sums are not all 0 or all 2^60: the order shows.
            const bytes_t ds = bcast_test::reference(p, in)[1];
            bool small = false;
            for (int64_t j = 0; j < ir::nelems(op.outputs[1]); ++j)
                small |= std::fabs(ir::load_value(dt, ds.data(), j)) < 1e6
                        && ir::load_value(dt, ds.data(), j) != 0;
            EXPECT_TRUE(small) << describe(f, dt);
            const std::string name = dt == dnnl_f32 ? "prelu_backward_f32"
                                                    : "prelu_backward_bf16";
            bcast_test::expect_reference(p, in, name, describe(f, dt));
            bcast_test::under_other_splits([&](const char *how) {
                bcast_test::expect_reference(p, in, name, describe(f, dt) + " " + how);
            });
        }
}

TEST_F(CpuPrelu, OtherLoopSplitsGiveTheSameBits) {
    std::mt19937 gen(24);
    const std::vector<form_t> forms = {{{16, 24, 7, 7}, {24}, false, true},
            {{2, 50, 40, 40}, {50, 40, 40}, true, true}};
    for (const form_t &f : forms)
        for (bool bwd : {false, true}) {
            const compiler::plan_t p = plan_test::plan_of(make(bwd, f, dnnl_f32));
            const std::vector<bytes_t> in = inputs_of(p, gen);
            const std::string name = bwd ? "prelu_backward_f32" : "prelu_f32";
            bcast_test::under_other_splits([&](const char *how) {
                bcast_test::expect_reference(p, in, name,
                        describe(f, dnnl_f32) + (bwd ? " backward " : " ") + how, true);
            });
        }
}

TEST_F(CpuPrelu, ForwardInPlaceOnSrc) {
    std::mt19937 gen(25);
    const form_t f {{3, 20, 6, 6}, {20}, false, true};
    const compiler::plan_t p = plan_test::plan_of(make(false, f, dnnl_f32));
    const std::vector<bytes_t> in = inputs_of(p, gen);
    const std::vector<bytes_t> want = bcast_test::reference(p, in);
    std::string kname;
    const auto got = bcast_test::through_cpu(p, in, &kname, 0);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(bcast_test::first_difference(p.outputs[0], got[0], want[0], true), -1);
}

TEST_F(CpuPrelu, DeclinesWithAReason) {
    std::string why;
    const form_t f {{2, 3, 4}, {3}, false, true};
    ir::op_t mixed = make(false, f, dnnl_f32);
    mixed.inputs[1].data_type = dnnl_bf16;
    EXPECT_FALSE(prelu::accepts(plan_test::plan_of(mixed), isa_t::avx2, &why));
    EXPECT_NE(why.find("must all be f32"), std::string::npos) << why;
    ir::op_t padded = make(true, f, dnnl_f32);
    padded.outputs[0].layout.strides[0] = 13;
    EXPECT_FALSE(prelu::accepts(plan_test::plan_of(padded), isa_t::avx2, &why));
    EXPECT_NE(why.find("not dense"), std::string::npos) << why;
    ir::op_t wrong = make(false, {{2, 3, 4}, {5}, false, true}, dnnl_f32);
    EXPECT_FALSE(prelu::accepts(plan_test::plan_of(wrong), isa_t::avx2, &why));
    EXPECT_NE(why.find("shapes do not match"), std::string::npos) << why;
}

} // namespace
} // namespace cpu
} // namespace llga
