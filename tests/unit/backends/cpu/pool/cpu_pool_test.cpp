// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/pool/cpu_pool_test.cpp — MaxPool, AvgPool and
// AvgPoolBackward on the cpu backend (backends/cpu/kernels/pool.cpp) against the reference op, bit
// for bit: random 1D/2D/3D geometries (kernel, strides, dilations, pads,
// auto_pad, ceil rounding, exclude_pad), NXC and NCX data, a strided
// source, NaN inputs, windows that lie entirely in padding, and
// AvgPoolBackward over rows long enough for its vector blocks; the same
// for bf16 and f16 (the native 16-bit loops, not the staged kernel), with
// padded and permuted layouts on both sides, channel counts past the
// 8-wide conversions, channel-last rows widened in several steps of
// channels, small planes widened in batches and large ones a row at a
// time, and the lowest value of an all-padding max window.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/isa.hpp"
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

class CpuPool : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

struct pool_case_t {
    bool avg = false, nxc = true, ceil_mode = false, exclude = true;
    std::string auto_pad = "None";
    dims_t x; // N, C, spatial... (logical order; permuted for NXC below)
    std::vector<int64_t> k, s, d, pb, pe;
    dims_t x_strides; // empty: dense
};

std::string describe(const pool_case_t &c) {
    auto v = [](const std::vector<int64_t> &a) {
        std::string r;
        for (int64_t e : a)
            r += (r.empty() ? "" : "x") + std::to_string(e);
        return r;
    };
    return std::string(c.avg ? "avg" : "max") + (c.nxc ? " NXC" : " NCX")
            + " x=" + v(c.x) + " k=" + v(c.k) + " s=" + v(c.s) + " d=" + v(c.d)
            + " pb=" + v(c.pb) + " pe=" + v(c.pe) + " auto_pad=" + c.auto_pad
            + (c.ceil_mode ? " ceil" : " floor")
            + (c.exclude ? " exclude_pad" : "");
}

// The op with its output shape inferred by the opset; false if the
// geometry gives no output.
bool build(const pool_case_t &c, ir::op_t &op) {
    dims_t x = c.x;
    if (c.nxc) { // N, C, sp -> N, sp, C
        x.erase(x.begin() + 1);
        x.push_back(c.x[1]);
    }
    op = ir::op_t();
    op.kind = c.avg ? dnnl_graph_op_avg_pool : dnnl_graph_op_max_pool;
    op.id = 1;
    logical_tensor_t in = ir::make_lt(10, dnnl_f32, x);
    for (size_t i = 0; i < c.x_strides.size(); ++i)
        in.layout.strides[i] = c.x_strides[i];
    op.inputs = {in};
    op.outputs = {ir::make_lt_unknown(11, dnnl_f32)};
    using av = ir::attr_value_t;
    op.set_attr(dnnl_graph_op_attr_kernel, av::make_s64s(c.k));
    op.set_attr(dnnl_graph_op_attr_strides, av::make_s64s(c.s));
    op.set_attr(dnnl_graph_op_attr_pads_begin, av::make_s64s(c.pb));
    op.set_attr(dnnl_graph_op_attr_pads_end, av::make_s64s(c.pe));
    op.set_attr(dnnl_graph_op_attr_auto_pad, av::make_str(c.auto_pad));
    op.set_attr(dnnl_graph_op_attr_data_format,
            av::make_str(c.nxc ? "NXC" : "NCX"));
    op.set_attr(dnnl_graph_op_attr_rounding_type,
            av::make_str(c.ceil_mode ? "ceil" : "floor"));
    if (c.avg)
        op.set_attr(dnnl_graph_op_attr_exclude_pad, av::make_bool(c.exclude));
    else
        op.set_attr(dnnl_graph_op_attr_dilations, av::make_s64s(c.d));
    if (ops::verify_op(op) != dnnl_success) return false;
    if (ops::infer_shapes(op) != dnnl_success) return false;
    const dims_t y = ir::dims_of(op.outputs[0]);
    op.outputs[0] = ir::make_lt(11, dnnl_f32, y);
    return true;
}

// The AvgPoolBackward of forward op `fwd` (an AvgPool): diff_dst shaped
// like its output, diff_src like its input (also given as src_shape).
ir::op_t backward_of(const ir::op_t &fwd) {
    ir::op_t op = fwd;
    op.kind = dnnl_graph_op_avg_pool_backward;
    op.attrs.erase(dnnl_graph_op_attr_rounding_type);
    const dims_t x = ir::dims_of(fwd.inputs[0]);
    op.set_attr(dnnl_graph_op_attr_src_shape,
            ir::attr_value_t::make_s64s(std::vector<int64_t>(x.begin(), x.end())));
    op.inputs = {ir::make_lt(12, dnnl_f32, ir::dims_of(fwd.outputs[0]))};
    op.outputs = {fwd.inputs[0]};
    op.outputs[0].id = 13;
    return op;
}

// `backward`: run the AvgPoolBackward of an AvgPool case (-1: at random).
void check(const pool_case_t &c, std::mt19937 &gen, int backward = -1) {
    ir::op_t op;
    if (!build(c, op)) return; // no output for this geometry
    const bool bwd = backward < 0 ? gen() % 2 != 0 : backward != 0;
    if (c.avg && bwd) op = backward_of(op);
    const compiler::plan_t p = plan_test::plan_of(op);
    bytes_t in = plan_test::random_bytes(p.inputs[0], gen, -4.f, 4.f);
    if (!c.avg && gen() % 4 == 0) { // a few NaNs
        const float nan = std::numeric_limits<float>::quiet_NaN();
        for (int t = 0; t < 3; ++t) {
            const size_t at = gen() % (in.size() / 4) * 4;
            std::memcpy(&in[at], &nan, 4);
        }
    }
    if (op.kind == dnnl_graph_op_avg_pool_backward && ops::verify_op(op) != dnnl_success)
        FAIL() << "backward op invalid: " << describe(c) << ": " << last_error();
    const auto want = plan_test::run_ref(p, {in});
    plan_test::expect_f32_like(
            p, {in}, want.at(op.outputs[0].id), "pool", describe(c));
}

// A random 1D/2D/3D case; channel counts from `chans`.
pool_case_t random_case(std::mt19937 &gen, const std::vector<int64_t> &chans) {
    pool_case_t c;
    c.avg = gen() % 2;
    c.nxc = gen() % 2;
    c.ceil_mode = gen() % 3 == 0;
    c.exclude = gen() % 2;
    const int nsp = 1 + static_cast<int>(gen() % 3);
    c.x = {1 + static_cast<int64_t>(gen() % 2),
            chans[gen() % static_cast<uint32_t>(chans.size())]};
    for (int i = 0; i < nsp; ++i) {
        c.x.push_back(1 + static_cast<int64_t>(gen() % 9));
        c.k.push_back(1 + static_cast<int64_t>(gen() % 3));
        c.s.push_back(1 + static_cast<int64_t>(gen() % 3));
        c.d.push_back(c.avg ? 1 : 1 + static_cast<int64_t>(gen() % 2));
        c.pb.push_back(static_cast<int64_t>(gen() % c.k.back()));
        c.pe.push_back(static_cast<int64_t>(gen() % c.k.back()));
    }
    const char *pads[] = {"None", "None", "None", "SAME_UPPER", "SAME_LOWER",
            "VALID"};
    c.auto_pad = pads[gen() % 6];
    return c;
}

// The half-type checks: `p` through the cpu backend at avx2 and
// avx512_core (those the host has); the kernel must be the native one
// (its name starts with `prefix` and ends with the type, no staged_f32)
// and its output equal the reference's `want` value for value (NaN
// matching NaN).
void expect_half_like(const compiler::plan_t &p, const std::vector<bytes_t> &in,
        const bytes_t &want, const std::string &prefix, const std::string &what) {
    const data_type_t dt = p.outputs[0].data_type;
    const std::string suffix = std::string("_") + ir::dtype_name(dt);
    for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
        test_isa::isa_guard_t guard(isa);
        std::vector<bytes_t> got;
        std::string kname;
        ASSERT_TRUE(plan_test::run_jit_all(p, in, got, &kname)) << what;
        ASSERT_EQ(kname.rfind(prefix, 0), 0u) << kname << " " << what;
        ASSERT_GE(kname.size(), suffix.size());
        ASSERT_EQ(kname.substr(kname.size() - suffix.size()), suffix) << kname;
        ASSERT_EQ(got[0].size(), want.size());
        EXPECT_EQ(plan_test::value_mismatches(got[0], want, dt,
                          what + " at " + isa_name(isa) + " (" + kname + ")"),
                0);
    }
}

// `c` (and, for an average, at random its AvgPoolBackward) with every
// tensor retyped to `dt` and laid out at random (dense, padded, or in the
// other format's order), on values in [-4, 4) with a few NaNs for max.
void check_half(const pool_case_t &c, data_type_t dt, std::mt19937 &gen,
        int backward = -1) {
    ir::op_t op;
    if (!build(c, op)) return;
    const bool bwd = backward < 0 ? gen() % 2 != 0 : backward != 0;
    if (c.avg && bwd) op = backward_of(op);
    for (logical_tensor_t *t : {&op.inputs[0], &op.outputs[0]}) {
        if (c.x_strides.empty())
            *t = layout_test::odd_layout(*t, static_cast<int>(gen() % 3), c.nxc, gen);
        t->data_type = dt;
    }
    if (op.kind == dnnl_graph_op_avg_pool_backward && ops::verify_op(op) != dnnl_success)
        FAIL() << "backward op invalid: " << describe(c) << ": " << last_error();
    const compiler::plan_t p = plan_test::plan_of(op);
    bytes_t in = plan_test::random_bytes(p.inputs[0], gen, -4.f, 4.f);
    const int64_t n = static_cast<int64_t>(in.size() / 2);
    if (!c.avg && gen() % 4 == 0) // a few NaNs
        for (int t = 0; t < 3; ++t)
            ir::store_value(dt, in.data(), static_cast<int64_t>(gen() % n),
                    std::numeric_limits<double>::quiet_NaN());
    const std::string prefix = op.kind == dnnl_graph_op_max_pool ? "maxpool"
            : op.kind == dnnl_graph_op_avg_pool                  ? "avgpool"
                                                                 : "avgpool_backward";
    expect_half_like(p, {in}, plan_test::run_ref_all(p, {in})[0], prefix,
            std::string(ir::dtype_name(dt)) + " " + describe(c)
                    + (bwd && c.avg ? " backward" : ""));
}

TEST_F(CpuPool, RandomGeometriesMatchTheReference) {
    std::mt19937 gen(5);
    int built = 0;
    for (int trial = 0; trial < 400; ++trial) {
        pool_case_t c;
        c.avg = gen() % 2;
        c.nxc = gen() % 2;
        c.ceil_mode = gen() % 3 == 0;
        c.exclude = gen() % 2;
        const int nsp = 1 + static_cast<int>(gen() % 3);
        const int64_t chans[] = {1, 3, 8, 17};
        c.x = {1 + static_cast<int64_t>(gen() % 2), chans[gen() % 4]};
        for (int i = 0; i < nsp; ++i) {
            c.x.push_back(1 + static_cast<int64_t>(gen() % 9));
            c.k.push_back(1 + static_cast<int64_t>(gen() % 3));
            c.s.push_back(1 + static_cast<int64_t>(gen() % 3));
            c.d.push_back(c.avg ? 1 : 1 + static_cast<int64_t>(gen() % 2));
            c.pb.push_back(static_cast<int64_t>(gen() % c.k.back()));
            c.pe.push_back(static_cast<int64_t>(gen() % c.k.back()));
        }
        const char *pads[] = {"None", "None", "None", "SAME_UPPER", "SAME_LOWER",
                "VALID"};
        c.auto_pad = pads[gen() % 6];
        ir::op_t op;
        if (!build(c, op)) continue;
        ++built;
        check(c, gen);
        if (HasFailure()) return;
    }
    EXPECT_GT(built, 200);
}

TEST_F(CpuPool, StridedSourceAndPaddingOnlyWindows) {
    std::mt19937 gen(9);
    pool_case_t c; // NCX source stored channel-last (H, W, C order)
    c.nxc = false;
    c.x = {2, 5, 7, 6};
    c.x_strides = {7 * 6 * 5, 1, 6 * 5, 5};
    c.k = {3, 3};
    c.s = {2, 2};
    c.d = {1, 1};
    c.pb = {1, 2};
    c.pe = {2, 2};
    for (bool avg : {false, true}) {
        c.avg = avg;
        check(c, gen);
    }
    // Ceil rounding with big end pads: the last window along W starts
    // past the source (max gives the lowest f32, avg 0 with exclude_pad).
    pool_case_t e;
    e.x = {1, 4, 3, 2};
    e.k = {2, 3};
    e.s = {1, 3};
    e.d = {1, 1};
    e.pb = {0, 0};
    e.pe = {0, 2};
    e.ceil_mode = true;
    for (bool avg : {false, true})
        for (bool nxc : {false, true}) {
            e.avg = avg;
            e.nxc = nxc;
            check(e, gen);
        }
}

// MaxPool with stride 2 along W over rows long enough for its eight-wide
// blocks (NCX: the row loop), odd and even widths so the last block's odd
// partner sits at the row's end or just inside it, pads, NaNs.
TEST_F(CpuPool, MaxStride2OnLongRows) {
    std::mt19937 gen(17);
    for (int64_t w : {37, 38, 53})
        for (int64_t k : {2, 3})
            for (int64_t pad : {0, 1}) {
                pool_case_t c;
                c.nxc = false;
                c.x = {1, 3, 5, w};
                c.k = {k, k};
                c.s = {2, 2};
                c.d = {1, 1};
                c.pb = {pad, pad};
                c.pe = {pad, pad};
                check(c, gen);
                if (HasFailure()) return;
            }
}

// AvgPoolBackward over rows long enough for the vector blocks: each phase
// of the W stride is one group of positions with the same tap count, four
// at a time (plus the scalar edges): 3x3/2 (one or two outputs per
// position), 5x5/3, 2x2/2 (exactly one) and 3x3/1 (up to three), with and
// without padding, exclude_pad both ways, ceil rounding, NCX and NXC.
TEST_F(CpuPool, AvgBackwardOnLongRows) {
    std::mt19937 gen(13);
    struct geom_t {
        int64_t k, s, pb, pe;
    };
    for (const geom_t g : {geom_t {3, 2, 1, 1}, geom_t {5, 3, 2, 0},
                 geom_t {2, 2, 0, 0}, geom_t {3, 1, 1, 1}})
        for (bool nxc : {false, true})
            for (bool exclude : {false, true}) {
                pool_case_t c;
                c.avg = true;
                c.nxc = nxc;
                c.exclude = exclude;
                c.ceil_mode = g.s == 3;
                c.x = {1, 3, 11, 53};
                c.k = {g.k, g.k};
                c.s = {g.s, g.s};
                c.d = {1, 1};
                c.pb = {g.pb, g.pb};
                c.pe = {g.pe, g.pe};
                check(c, gen, 1);
                if (HasFailure()) return;
            }
}

TEST_F(CpuPool, HalfTypesRandomGeometriesMatchTheReference) {
    std::mt19937 gen(31);
    for (data_type_t dt : {dnnl_bf16, dnnl_f16}) {
        int built = 0;
        for (int trial = 0; trial < 300; ++trial) {
            const pool_case_t c = random_case(gen, {1, 3, 9, 17, 37});
            ir::op_t op;
            if (!build(c, op)) continue;
            ++built;
            check_half(c, dt, gen);
            if (HasFailure()) return;
        }
        EXPECT_GT(built, 150);
    }
}

// Channel-last pools: 530 channels (one step), and 203 channels of 120
// pixels, whose three widened source rows take more than one step of
// channels (176, then a tail of 27); a channel-first source stored
// channel-last (the row loop on a strided row); and many small
// channel-first planes (widened in batches), enough output rows for
// several tasks, so tasks start and end inside planes.
TEST_F(CpuPool, HalfTypesWideChannelsAndStridedRows) {
    std::mt19937 gen(37);
    for (data_type_t dt : {dnnl_bf16, dnnl_f16})
        for (bool avg : {false, true}) {
            pool_case_t m;
            m.avg = avg;
            m.nxc = false;
            m.x = {2, 301, 5, 7};
            m.k = {2, 2};
            m.s = {1, 1};
            m.d = {1, 1};
            m.pb = {0, 0};
            m.pe = {0, 0};
            for (int rep = 0; rep < 3; ++rep) // dense and odd layouts
                check_half(m, dt, gen, 0);
            pool_case_t c;
            c.avg = avg;
            c.x = {1, 530, 5, 6};
            c.k = {3, 2};
            c.s = {2, 1};
            c.d = {1, 1};
            c.pb = {1, 0};
            c.pe = {1, 1};
            check_half(c, dt, gen, 0);
            pool_case_t w = c;
            w.x = {1, 203, 3, 120};
            w.k = {3, 3};
            w.s = {1, 2};
            w.pb = {1, 1};
            w.pe = {1, 0};
            for (int rep = 0; rep < 3; ++rep) // dense and odd layouts
                check_half(w, dt, gen, 0);
            pool_case_t r; // NCX stored (H, W, C)
            r.avg = avg;
            r.nxc = false;
            r.x = {2, 5, 7, 19};
            r.x_strides = {7 * 19 * 5, 1, 19 * 5, 5};
            r.k = {3, 3};
            r.s = {2, 2};
            r.d = {1, 1};
            r.pb = {1, 1};
            r.pe = {1, 1};
            check_half(r, dt, gen, 0);
            if (HasFailure()) return;
        }
}

// A max window that lies entirely in padding gives the lowest finite value
// of the output type (the reference's pool_lowest): bf16 0xFF7F, f16
// 0xFBFF, not -inf (what -FLT_MAX rounds to). x = 1x1x3x2, kernel 2x3,
// stride 1x3, ceil rounding, end pad 2 along W: the second window along W
// starts at 3, past the source.
TEST_F(CpuPool, HalfTypesPaddingOnlyMaxWindowIsTheLowestValue) {
    std::mt19937 gen(41);
    for (data_type_t dt : {dnnl_bf16, dnnl_f16})
        for (bool nxc : {false, true}) {
            pool_case_t e;
            e.nxc = nxc;
            e.x = {1, 1, 3, 2};
            e.k = {2, 3};
            e.s = {1, 3};
            e.d = {1, 1};
            e.pb = {0, 0};
            e.pe = {0, 2};
            e.ceil_mode = true;
            ir::op_t op;
            ASSERT_TRUE(build(e, op));
            op.inputs[0].data_type = op.outputs[0].data_type = dt;
            ASSERT_EQ(ir::nelems(op.outputs[0]), 4); // H 2 x W 2
            const compiler::plan_t p = plan_test::plan_of(op);
            const bytes_t in = plan_test::random_bytes(p.inputs[0], gen, -4.f, 4.f);
            bytes_t got;
            std::string kname;
            ASSERT_TRUE(plan_test::run_jit(p, {in}, got, &kname));
            EXPECT_EQ(kname, std::string("maxpool_") + (nxc ? "channels_" : "")
                            + ir::dtype_name(dt));
            const uint16_t lowest = dt == dnnl_bf16 ? 0xff7f : 0xfbff;
            for (int64_t h = 0; h < 2; ++h) {
                uint16_t v; // (h, w = 1); one channel: the same offset both ways
                std::memcpy(&v, &got[static_cast<size_t>(h * 2 + 1) * 2], 2);
                EXPECT_EQ(v, lowest) << ir::dtype_name(dt) << " h " << h;
            }
            check_half(e, dt, gen);
        }
}

// The stride-2 max (eight outputs from sixteen values) on widened 16-bit
// rows, and AvgPoolBackward's vector blocks, on long rows: odd and even
// widths, with and without pads; planes small enough to be widened whole
// and (more than 4096 elements) a tap row at a time.
TEST_F(CpuPool, HalfTypesLongRows) {
    std::mt19937 gen(43);
    for (data_type_t dt : {dnnl_bf16, dnnl_f16}) {
        for (int64_t w : {601, 1030})
            for (bool avg : {false, true}) {
                pool_case_t c;
                c.avg = avg;
                c.nxc = false;
                c.x = {1, 2, 7, w};
                c.k = {3, 3};
                c.s = {2, 2};
                c.d = {1, 1};
                c.pb = {1, 1};
                c.pe = {0, 1};
                check_half(c, dt, gen);
                if (HasFailure()) return;
            }
        for (int64_t w : {37, 38, 53})
            for (int64_t pad : {0, 1}) {
                pool_case_t c;
                c.nxc = false;
                c.x = {1, 3, 5, w};
                c.k = {3, 3};
                c.s = {2, 2};
                c.d = {1, 1};
                c.pb = {pad, pad};
                c.pe = {pad, pad};
                check_half(c, dt, gen);
                c.avg = true;
                c.exclude = pad == 0;
                for (bool nxc : {false, true}) {
                    c.nxc = nxc;
                    check_half(c, dt, gen, 1);
                }
                if (HasFailure()) return;
            }
    }
}

} // namespace
} // namespace cpu
} // namespace llga
