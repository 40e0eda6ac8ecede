// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/norm/cpu_layernorm_test.cpp — the LayerNorm and
// GroupNorm JIT kernels at every JIT ISA level the host has, against a
// double-precision plain-loop formula written here: every begin_norm_axis,
// normalized sizes 1..1000 with tails, affine on/off, stats outputs,
// f32/bf16/f16 data, large offsets and magnitudes, GroupNorm NCX shapes and the
// NXC-without-spatial case, and declines.
//
// Tolerances (|got - want| <= rtol*|want| + atol), outputs are O(1) after
// normalization, so atol dominates:
//   f32 dst   rtol 1e-5, atol 2e-5 * (1 + |mean|/sigma) — the f32 row mean
//             carries rounding proportional to |mean|
//   bf16 dst  rtol 8e-3 (one bf16 ulp), same atol
//   f16 dst   rtol 1.5e-3, same atol + 6e-8
//   mean      rtol 1e-5, atol 1e-6 * sigma;  variance rtol 1e-4 + atol
//             1e-6 * sigma^2 (f32 two-pass sums)
#include <cmath>
#include <random>

#include "backends/cpu/kernels/norm/layernorm.hpp"
#include "base/verbose.hpp"
#include "cpu_norm_test_util.hpp"
#include "ir/attr.hpp"
#include "oneapi/dnnl/dnnl_graph.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using namespace normtest;
using ir::attr_value_t;

class CpuLayerNorm : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

int64_t count(const dims_t &d) {
    int64_t n = 1;
    for (auto v : d)
        n *= v;
    return n;
}

std::vector<float> uniform(size_t n, double lo, double hi, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<float> v(n);
    for (auto &x : v)
        x = static_cast<float>(u(gen));
    return v;
}

// One normalization group as the reference sees it: element indices.
struct slice_ref_t {
    double mean, var;
};

slice_ref_t stats_of(const std::vector<float> &x,
        const std::vector<size_t> &idx) {
    double s = 0, q = 0;
    for (size_t i : idx)
        s += x[i];
    const double m = idx.empty() ? 0 : s / double(idx.size());
    for (size_t i : idx)
        q += (x[i] - m) * (x[i] - m);
    return {m, idx.empty() ? 0 : q / double(idx.size())};
}

void dst_tol(data_type_t dt, double *rtol, double *atol_scale) {
    *rtol = dt == dnnl_f32 ? 1e-5 : dt == dnnl_bf16 ? 8e-3 : 1.5e-3;
    *atol_scale = 2e-5;
}

// Checks one op: inputs src (+ gamma, beta), outputs dst (+ mean, var).
// `groups` lists, per statistics slice, its element indices and the
// gamma/beta index of each element.
void check(isa_t isa, const ir::op_t &op, const std::vector<float> &values,
        const std::vector<std::vector<size_t>> &slices,
        const std::vector<std::vector<size_t>> &affine_idx, bool affine,
        float eps, const std::string &what) {
    const data_type_t sdt = op.inputs[0].data_type,
                      ddt = op.outputs[0].data_type;
    const buf_t src = buf_t::from(sdt, values);
    std::vector<buf_t> in = {src};
    std::vector<float> gam, bet;
    if (affine) {
        const size_t na = static_cast<size_t>(ir::nelems(op.inputs[1]));
        // Rounded to the parameter type; the expected values use the
        // rounded numbers.
        const data_type_t pdt = op.inputs[1].data_type;
        in.push_back(buf_t::from(pdt, uniform(na, 0.5, 2, 11)));
        in.push_back(buf_t::from(pdt, uniform(na, -1, 1, 12)));
        gam = in[1].f32();
        bet = in[2].f32();
    }
    std::string kname;
    const std::vector<buf_t> out = run_jit(op, in, &kname);
    ASSERT_FALSE(out.empty()) << what;
    const bool group = op.kind == dnnl_graph_op_group_norm;
    EXPECT_EQ(kname.rfind(group ? "groupnorm_" : "layernorm_", 0), 0u)
            << kname;
    EXPECT_NE(kname.find(isa_suffix(isa)), std::string::npos) << kname;
    const std::vector<float> x = src.f32();
    double rtol, ascale;
    dst_tol(ddt, &rtol, &ascale);
    const buf_t &dst = out[0];
    int bad = 0;
    for (size_t s = 0; s < slices.size(); ++s) {
        const slice_ref_t st = stats_of(x, slices[s]);
        const double sigma = std::sqrt(st.var + eps);
        const double inv = 1.0 / sigma;
        const double atol = ascale * (1 + std::fabs(st.mean) / sigma)
                + (ddt == dnnl_f16 ? 6e-8 : 0);
        for (size_t k = 0; k < slices[s].size(); ++k) {
            const size_t i = slices[s][k];
            double w = (x[i] - st.mean) * inv;
            double a = atol;
            if (affine) {
                const size_t j = affine_idx[s][k];
                w = w * gam[j] + bet[j];
                a *= std::fabs(gam[j]);
            }
            const double g = dst.at(i);
            if (!(std::fabs(g - w) <= rtol * std::fabs(w) + a) && bad++ < 5)
                ADD_FAILURE() << what << " element " << i << " got " << g
                              << " want " << w;
        }
        if (out.size() == 3) {
            // Stats stored as bf16/f16 add one rounding of that type.
            const data_type_t st_dt = op.outputs[1].data_type;
            const double r_st = st_dt == dnnl_f32 ? 0
                    : st_dt == dnnl_bf16          ? 8e-3
                                                  : 1.5e-3;
            const double sd = std::sqrt(st.var);
            const double gm = out[1].at(s), gv = out[2].at(s);
            if (!(std::fabs(gm - st.mean)
                        <= (1e-5 + r_st) * std::fabs(st.mean) + 1e-6 * sd
                                + 1e-30)
                    && bad++ < 5)
                ADD_FAILURE() << what << " mean " << s << " got " << gm
                              << " want " << st.mean;
            if (!(std::fabs(gv - st.var) <= (1e-4 + r_st) * st.var + 1e-30)
                    && bad++ < 5)
                ADD_FAILURE() << what << " variance " << s << " got " << gv
                              << " want " << st.var;
        }
    }
}

// pdt: type of gamma/beta and of mean/variance.
ir::op_t make_ln(const dims_t &d, int64_t begin, data_type_t sdt,
        data_type_t ddt, bool affine, bool stats, float eps,
        data_type_t pdt = dnnl_f32) {
    ir::op_t op;
    op.kind = dnnl_graph_op_layer_norm;
    op.id = 1;
    op.name = "jit_test";
    op.inputs.push_back(ir::make_lt(10, sdt, d));
    const size_t a = static_cast<size_t>(begin < 0 ? begin + int64_t(d.size())
                                                   : begin);
    const dims_t lead(d.begin(), d.begin() + long(a));
    const dims_t norm(d.begin() + long(a), d.end());
    if (affine) {
        op.inputs.push_back(ir::make_lt(11, pdt, norm));
        op.inputs.push_back(ir::make_lt(12, pdt, {count(norm)}));
    }
    op.outputs.push_back(ir::make_lt(13, ddt, d));
    if (stats) {
        op.outputs.push_back(ir::make_lt(14, pdt, lead));
        op.outputs.push_back(ir::make_lt(15, pdt, lead));
    }
    op.set_attr(dnnl_graph_op_attr_begin_norm_axis,
            attr_value_t::make_s64(begin));
    op.set_attr(dnnl_graph_op_attr_use_affine, attr_value_t::make_bool(affine));
    op.set_attr(dnnl_graph_op_attr_keep_stats, attr_value_t::make_bool(stats));
    op.set_attr(dnnl_graph_op_attr_epsilon, attr_value_t::make_f32(eps));
    return op;
}

void check_ln(isa_t isa, const dims_t &d, int64_t begin, data_type_t sdt,
        data_type_t ddt, bool affine, bool stats,
        const std::vector<float> &v, data_type_t pdt = dnnl_f32) {
    const float eps = 1e-5f;
    const ir::op_t op = make_ln(d, begin, sdt, ddt, affine, stats, eps, pdt);
    const size_t a = static_cast<size_t>(begin < 0 ? begin + int64_t(d.size())
                                                   : begin);
    int64_t rows = 1, len = 1;
    for (size_t k = 0; k < d.size(); ++k)
        (k < a ? rows : len) *= d[k];
    std::vector<std::vector<size_t>> slices(static_cast<size_t>(rows));
    std::vector<std::vector<size_t>> aff(static_cast<size_t>(rows));
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t j = 0; j < len; ++j) {
            slices[size_t(r)].push_back(size_t(r * len + j));
            aff[size_t(r)].push_back(size_t(j));
        }
    const std::string what = "LayerNorm " + ir::dims_to_string(d) + " begin "
            + std::to_string(begin) + " " + dt_str(sdt) + "->" + dt_str(ddt)
            + (affine ? " affine" : "") + (stats ? " stats " : " ")
            + "params " + dt_str(pdt) + " "
            + isa_suffix(isa);
    check(isa, op, v, slices, aff, affine, eps, what);
}

const data_type_t k_types[] = {dnnl_f32, dnnl_bf16, dnnl_f16};

TEST_F(CpuLayerNorm, RowLengthsTypesAffineStats) {
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        for (data_type_t t : k_types)
            for (int64_t n : {1, 7, 15, 16, 17, 33, 64, 100, 1000})
                for (bool affine : {false, true})
                    for (bool stats : {false, true}) {
                        const dims_t d = {3, n};
                        const auto v = uniform(size_t(3 * n), -3, 5,
                                unsigned(n + affine * 3 + stats));
                        check_ln(isa, d, -1, t, t, affine, stats, v);
                    }
    }
}

// bf16 data with bf16 gamma/beta and mean/variance (allowed by the op).
TEST_F(CpuLayerNorm, Bf16ParametersAndStats) {
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        for (int64_t n : {1, 7, 16, 33, 1000})
            check_ln(isa, {3, n}, -1, dnnl_bf16, dnnl_bf16, true, true,
                    uniform(size_t(3 * n), -3, 5, unsigned(n)), dnnl_bf16);
        check_ln(isa, {2, 3, 7}, 1, dnnl_bf16, dnnl_bf16, true, true,
                uniform(42, -3, 5, 4), dnnl_bf16);
    }
}

TEST_F(CpuLayerNorm, EveryBeginAxisRandomShapes) {
    std::mt19937 gen(99);
    std::uniform_int_distribution<int64_t> dim(1, 13);
    std::vector<dims_t> shapes = {{2, 3, 7}, {4, 1, 33}, {2, 5, 3, 7}};
    for (int k = 0; k < 6; ++k) {
        dims_t d(size_t(2 + k % 3));
        for (auto &v : d)
            v = dim(gen);
        shapes.push_back(d);
    }
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        for (const dims_t &d : shapes)
            for (int64_t b = -int64_t(d.size()); b < int64_t(d.size()); ++b)
                for (data_type_t t : k_types) {
                    const auto v = uniform(size_t(count(d)), -2, 2,
                            unsigned(count(d) + b));
                    check_ln(isa, d, b, t, t, true, true, v);
                }
    }
}

TEST_F(CpuLayerNorm, OffsetsAndMagnitudes) {
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        for (data_type_t t : k_types) {
            // Large mean relative to the spread (cancellation check), huge
            // and tiny magnitudes (f16 has a narrow range).
            const double big = t == dnnl_f16 ? 3e4 : 1e15;
            const double tiny = t == dnnl_f16 ? 1e-3 : 1e-20;
            auto off = uniform(4 * 1000, 99, 101, 1);
            check_ln(isa, {4, 1000}, -1, t, t, true, true, off);
            check_ln(isa, {4, 1000}, -1, t, t, true, true,
                    uniform(4 * 1000, -big, big, 2));
            check_ln(isa, {4, 33}, -1, t, t, false, true,
                    uniform(4 * 33, -tiny, tiny, 3));
            // A constant row: variance 0, output 0 (times gamma) + beta.
            check_ln(isa, {2, 17}, -1, t, t, true, true,
                    std::vector<float>(34, 1.5f));
        }
    }
}

// Rows far longer than the statistics block (2048): blocks are merged in
// double, so the f32 tolerances hold; an offset mean checks the merge.
TEST_F(CpuLayerNorm, LongRows) {
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        check_ln(isa, {2, 300001}, -1, dnnl_f32, dnnl_f32, true, true,
                uniform(600002, 10, 14, 41));
        check_ln(isa, {1, 5000}, -1, dnnl_bf16, dnnl_bf16, false, true,
                uniform(5000, -2, 2, 42));
    }
}

TEST_F(CpuLayerNorm, LargeTensorThreadedAndF32ToLowDst) {
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        const dims_t d = {512, 768};
        const auto v = uniform(size_t(count(d)), -4, 4, 8);
        check_ln(isa, d, -1, dnnl_f32, dnnl_f32, true, true, v);
        check_ln(isa, d, -1, dnnl_bf16, dnnl_bf16, true, false, v);
    }
}

ir::op_t make_gn(const dims_t &d, int64_t groups, bool nxc, data_type_t t,
        bool affine, bool stats, float eps, data_type_t pdt = dnnl_f32) {
    ir::op_t op;
    op.kind = dnnl_graph_op_group_norm;
    op.id = 1;
    op.name = "jit_test";
    op.inputs.push_back(ir::make_lt(10, t, d));
    const int64_t c = nxc ? d.back() : d[1];
    if (affine) {
        op.inputs.push_back(ir::make_lt(11, pdt, {c}));
        op.inputs.push_back(ir::make_lt(12, pdt, {c}));
    }
    op.outputs.push_back(ir::make_lt(13, t, d));
    if (stats) {
        op.outputs.push_back(ir::make_lt(14, pdt, {d[0], groups}));
        op.outputs.push_back(ir::make_lt(15, pdt, {d[0], groups}));
    }
    op.set_attr(dnnl_graph_op_attr_groups, attr_value_t::make_s64(groups));
    op.set_attr(dnnl_graph_op_attr_use_affine, attr_value_t::make_bool(affine));
    op.set_attr(dnnl_graph_op_attr_keep_stats, attr_value_t::make_bool(stats));
    op.set_attr(dnnl_graph_op_attr_epsilon, attr_value_t::make_f32(eps));
    op.set_attr(dnnl_graph_op_attr_data_format,
            attr_value_t::make_str(nxc ? "NXC" : "NCX"));
    return op;
}

// Both layouts: NCX (contiguous group slices) and NXC (groupnorm.cpp's
// per-position channel rows; C = 70 and 33 give vector tails; 1x48x40x41
// NXC spreads one batch item over several position chunks and threads).
TEST_F(CpuLayerNorm, GroupNormNcxNxc) {
    const std::vector<std::pair<dims_t, int64_t>> cases = {{{2, 6, 5, 7}, 3},
            {{1, 8, 33}, 2}, {{3, 4, 1, 1}, 4}, {{2, 32, 4, 4}, 8},
            {{2, 5, 17}, 1}, {{2, 6}, 3}, {{2, 70, 9, 3}, 7},
            {{1, 33, 130}, 11}, {{1, 48, 40, 41}, 6}};
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        for (const auto &cs : cases)
            for (bool nxc : {false, true})
            for (data_type_t t : k_types)
                for (bool affine : {false, true}) {
                    // Same logical sizes; NXC moves the channel dim last.
                    dims_t d = cs.first;
                    const int64_t G = cs.second, C = d[1];
                    if (nxc) {
                        d.erase(d.begin() + 1);
                        d.push_back(C);
                    }
                    const int64_t sp = count(d) / (d[0] * C), cg = C / G;
                    const float eps = 1e-5f;
                    // bf16 data also runs with bf16 gamma/beta/stats.
                    const data_type_t pdt
                            = t == dnnl_bf16 && affine ? dnnl_bf16 : dnnl_f32;
                    const ir::op_t op
                            = make_gn(d, G, nxc, t, affine, true, eps, pdt);
                    std::vector<std::vector<size_t>> sl, aff;
                    for (int64_t n = 0; n < d[0]; ++n)
                        for (int64_t gi = 0; gi < G; ++gi) {
                            sl.emplace_back();
                            aff.emplace_back();
                            for (int64_t cc = 0; cc < cg; ++cc)
                                for (int64_t s = 0; s < sp; ++s) {
                                    const int64_t c = gi * cg + cc;
                                    sl.back().push_back(size_t(nxc
                                                    ? (n * sp + s) * C + c
                                                    : (n * C + c) * sp + s));
                                    aff.back().push_back(size_t(c));
                                }
                        }
                    const auto v = uniform(size_t(count(d)), -3, 3,
                            unsigned(count(d)));
                    check(isa, op, v, sl, aff, affine, eps,
                            "GroupNorm " + ir::dims_to_string(d) + " G "
                                    + std::to_string(G) + (nxc ? " NXC " : " NCX ")
                                    + dt_str(t) + " " + isa_suffix(isa));
                }
    }
}

// A src stored in another dense order than the (row-major) dst — the
// corpus bf16 GroupNorm gets a channel-last src under data_format NCX — is
// copied row-major first: every output byte equals the run on the same
// values stored row-major.
TEST_F(CpuLayerNorm, SrcInAnotherOrderIsCopiedFirst) {
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        for (data_type_t t : k_types)
            for (bool group : {true, false}) {
                const dims_t d = {2, 8, 5, 6}; // N, C, H, W (logical)
                const ir::op_t rm = group
                        ? make_gn(d, 4, false, t, true, true, 1e-5f)
                        : make_ln(d, -2, t, t, true, true, 1e-5f);
                ir::op_t cl = rm;
                // Channel-last storage: (n, c, h, w) at n*240 + (h*6+w)*8 + c.
                const int64_t st[4] = {240, 1, 48, 8};
                for (int k = 0; k < 4; ++k)
                    cl.inputs[0].layout.strides[k] = st[k];
                const auto v = uniform(240 * 2, -3, 3, 99);
                buf_t x_rm(t, v.size()), x_cl(t, v.size());
                for (int64_t n = 0; n < 2; ++n)
                    for (int64_t c = 0; c < 8; ++c)
                        for (int64_t h = 0; h < 5; ++h)
                            for (int64_t w = 0; w < 6; ++w) {
                                const size_t i = size_t(((n * 8 + c) * 5 + h) * 6 + w);
                                x_rm.set(i, v[i]);
                                x_cl.set(size_t(n * 240 + (h * 6 + w) * 8 + c), v[i]);
                            }
                std::vector<buf_t> in_rm = {x_rm}, in_cl = {x_cl};
                for (size_t k = 1; k < rm.inputs.size(); ++k) {
                    const auto p = uniform(size_t(ir::nelems(rm.inputs[k])),
                            0.5, 1.5, unsigned(k));
                    buf_t b(rm.inputs[k].data_type, p.size());
                    for (size_t i = 0; i < p.size(); ++i)
                        b.set(i, p[i]);
                    in_rm.push_back(b);
                    in_cl.push_back(b);
                }
                std::string kname;
                const auto want = run_jit(rm, in_rm, nullptr);
                const auto got = run_jit(cl, in_cl, &kname);
                ASSERT_EQ(got.size(), want.size()) << kname;
                for (size_t k = 0; k < got.size(); ++k)
                    EXPECT_EQ(got[k].bytes, want[k].bytes)
                            << (group ? "GroupNorm " : "LayerNorm ") << dt_str(t)
                            << " output " << k << " " << kname;
            }
    }
}

TEST_F(CpuLayerNorm, Declines) {
    const compiler::backend_t &be = cpu_backend();
    // GroupNorm whose groups do not divide C (the op verifier rejects it
    // too; the kernel must not assume it).
    EXPECT_FALSE(be.supports(plan_of(
            make_gn({2, 4, 4, 8}, 3, true, dnnl_f32, true, true, 1e-5f))));
    // gamma and beta of different types are not handled by this kernel
    // (the staged kernel then runs its f32 form).
    ir::op_t op = make_ln({4, 8}, -1, dnnl_bf16, dnnl_bf16, true, false, 1e-5f);
    op.inputs[1].data_type = dnnl_bf16;
    EXPECT_FALSE(layernorm::accepts(plan_of(op), isa_t::avx2, nullptr));
    // Nor is a non-dense gamma.
    ir::op_t op2 = make_ln({4, 8}, -1, dnnl_f32, dnnl_f32, true, false, 1e-5f);
    op2.inputs[1].layout.strides[0] = 2;
    EXPECT_FALSE(be.supports(plan_of(op2)));
}

// Through the public C++ API: LayerNorm (with stats) and GroupNorm with the
// default data_format (NXC) compile to the JIT kernels — the verbose exec
// line names them — and match the plain-loop values.
TEST_F(CpuLayerNorm, PublicApi) {
    using namespace dnnl::graph;
    using ldt = logical_tensor::data_type;
    using lay = logical_tensor::layout_type;
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        // The compiled-partition cache key does not include the maximum ISA,
        // so each level uses its own sizes.
        const int64_t C = isa == isa_t::avx2 ? 40 : 48;
        for (bool group : {false, true}) {
            const logical_tensor::dims d = {2, 5, C};
            logical_tensor src(0, ldt::f32, d, lay::strided);
            logical_tensor gam(
                    1, ldt::f32, logical_tensor::dims {C}, lay::strided);
            logical_tensor bet(
                    2, ldt::f32, logical_tensor::dims {C}, lay::strided);
            logical_tensor dst(3, ldt::f32, d, lay::strided);
            const logical_tensor::dims sd = group ? logical_tensor::dims {2, 4}
                                                  : logical_tensor::dims {2, 5};
            logical_tensor mean(4, ldt::f32, sd, lay::strided);
            logical_tensor var(5, ldt::f32, sd, lay::strided);
            op o(0, group ? op::kind::GroupNorm : op::kind::LayerNorm,
                    {src, gam, bet}, {dst, mean, var}, "norm");
            if (group) o.set_attr<int64_t>(op::attr::groups, 4);
            graph gr(engine::kind::cpu);
            gr.add_op(o);
            gr.finalize();
            auto parts = gr.get_partitions();
            ASSERT_EQ(parts.size(), 1u);
            compiled_partition cp = parts[0].compile(
                    {src, gam, bet}, {dst, mean, var}, eng);
            const size_t n = size_t(2 * 5 * C);
            const auto x = uniform(n, -3, 3, 5);
            const auto gv = uniform(size_t(C), 0.5, 2, 6);
            const auto bv = uniform(size_t(C), -1, 1, 7);
            std::vector<float> y(n), mv(size_t(sd[0] * sd[1])), vv(mv.size());
            std::vector<tensor> ins = {
                    tensor(src, eng, const_cast<float *>(x.data())),
                    tensor(gam, eng, const_cast<float *>(gv.data())),
                    tensor(bet, eng, const_cast<float *>(bv.data()))};
            std::vector<tensor> outs = {tensor(dst, eng, y.data()),
                    tensor(mean, eng, mv.data()), tensor(var, eng, vv.data())};
            const int old = verbose_level();
            set_verbose_level(1);
            ::testing::internal::CaptureStdout();
            cp.execute(strm, ins, outs);
            strm.wait();
            const std::string out = ::testing::internal::GetCapturedStdout();
            set_verbose_level(old);
            const std::string kname = std::string(group ? "groupnorm_nxc_"
                                                        : "layernorm_")
                    + "f32_f32_" + isa_suffix(isa);
            EXPECT_NE(out.find(kname), std::string::npos) << out;
            // Plain loops: LayerNorm over the last dim; GroupNorm NXC with 4
            // groups of C/4 channels over the 5 positions.
            const int64_t slices = sd[0] * sd[1];
            for (int64_t sl = 0; sl < slices; ++sl) {
                std::vector<size_t> idx;
                if (!group) {
                    for (int64_t c = 0; c < C; ++c)
                        idx.push_back(size_t(sl * C + c));
                } else {
                    const int64_t b = sl / 4, gi = sl % 4, cg = C / 4;
                    for (int64_t p = 0; p < 5; ++p)
                        for (int64_t c = gi * cg; c < (gi + 1) * cg; ++c)
                            idx.push_back(size_t((b * 5 + p) * C + c));
                }
                const slice_ref_t st = stats_of(x, idx);
                const double inv = 1.0 / std::sqrt(st.var + 1e-5);
                EXPECT_NEAR(mv[size_t(sl)], st.mean, 1e-6);
                EXPECT_NEAR(vv[size_t(sl)], st.var, 1e-5 * st.var);
                for (size_t i : idx) {
                    const size_t c = i % size_t(C);
                    const double w = (x[i] - st.mean) * inv * gv[c] + bv[c];
                    EXPECT_NEAR(y[i], w, 2e-5 * (1 + std::fabs(w)));
                }
            }
        }
    }
}

} // namespace
} // namespace cpu
} // namespace llga
