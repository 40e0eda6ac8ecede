// tests/unit/backends/cpu_pool_test.cpp — MaxPool, AvgPool and
// AvgPoolBackward on the cpu backend (backends/cpu/kernels/pool.cpp) against the reference op, bit
// for bit: random 1D/2D/3D geometries (kernel, strides, dilations, pads,
// auto_pad, ceil rounding, exclude_pad), NXC and NCX data, a strided
// source, NaN inputs, windows that lie entirely in padding, and
// AvgPoolBackward over rows long enough for its vector blocks.
#include <cmath>
#include <cstring>
#include <limits>
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

} // namespace
} // namespace cpu
} // namespace llga
