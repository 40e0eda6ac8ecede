// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/norm/cpu_softmax_test.cpp — the SoftMax / LogSoftmax
// JIT kernels at every JIT ISA level the host has, against a double-precision
// plain-loop formula written here: contiguous and strided axes (every axis of
// rank-2..4 shapes, negative axes), row lengths 1..1000 with tails, odd inner
// sizes, f32/bf16/f16 data, the stats output, large magnitudes, -inf slices
// with and without mode "inf_as_zero", NaN, and declines; and the
// row-block function of the fused attention kernel against the row
// functions, bit for bit.
//
// Tolerances (|got - want| <= rtol*|want| + atol):
//   SoftMax f32 dst     rtol 5e-6, atol 1e-37 (exp is 1.14 ulp; the rest
//                       is the f32 sum, 1/s and the product)
//   LogSoftmax f32 dst  rtol 2e-6, atol 4e-6 (f32 rounding of x - m, ln s
//                       and the sum)
//   bf16 dst            rtol 8e-3 (one bf16 ulp: the f32 result may round
//                       to the other neighbour), atol as f32
//   f16 dst             rtol 1.5e-3, atol 6e-8 (f16 subnormal spacing), plus
//                       for LogSoftmax the f32 atol
//   stats (f32)         rtol 2e-6, atol 4e-6
#include <cmath>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <limits>
#include <random>

#include "backends/cpu/kernels/norm/softmax_jit.hpp"
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

constexpr double k_inf = std::numeric_limits<double>::infinity();

class CpuSoftmax : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

ir::op_t make_op(bool log, const dims_t &d, int64_t axis, data_type_t sdt,
        data_type_t ddt, bool stats, bool inf_as_zero) {
    ir::op_t op;
    op.kind = log ? dnnl_graph_op_log_softmax : dnnl_graph_op_softmax;
    op.id = 1;
    op.name = "jit_test";
    op.inputs.push_back(ir::make_lt(10, sdt, d));
    op.outputs.push_back(ir::make_lt(11, ddt, d));
    if (stats) {
        dims_t sd = d;
        sd[static_cast<size_t>(axis < 0 ? axis + int64_t(d.size()) : axis)]
                = 1;
        op.outputs.push_back(ir::make_lt(12, dnnl_f32, sd));
    }
    op.set_attr(dnnl_graph_op_attr_axis, attr_value_t::make_s64(axis));
    if (!log)
        op.set_attr(dnnl_graph_op_attr_mode,
                attr_value_t::make_str(inf_as_zero ? "inf_as_zero" : "none"));
    return op;
}

// Plain-loop softmax in double over x (already rounded to the src type).
void reference(bool log, bool inf_as_zero, const dims_t &d, int64_t axis,
        const std::vector<float> &x, std::vector<double> &y,
        std::vector<double> &lse_out) {
    const size_t r = d.size();
    const size_t ax = static_cast<size_t>(axis < 0 ? axis + int64_t(r) : axis);
    int64_t outer = 1, inner = 1;
    for (size_t k = 0; k < ax; ++k)
        outer *= d[k];
    for (size_t k = ax + 1; k < r; ++k)
        inner *= d[k];
    const int64_t n = d[ax];
    y.assign(x.size(), 0);
    lse_out.assign(static_cast<size_t>(outer * inner), 0);
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t c = 0; c < inner; ++c) {
            auto at = [&](int64_t k) {
                return static_cast<size_t>((o * n + k) * inner + c);
            };
            double m = -k_inf;
            bool nan = false;
            for (int64_t k = 0; k < n; ++k) {
                nan = nan || std::isnan(x[at(k)]);
                m = std::max(m, double(x[at(k)]));
            }
            if (nan) m = std::nan("");
            const size_t si = static_cast<size_t>(o * inner + c);
            if (inf_as_zero && m == -k_inf) {
                for (int64_t k = 0; k < n; ++k)
                    y[at(k)] = 0;
                lse_out[si] = m;
                continue;
            }
            double s = 0;
            for (int64_t k = 0; k < n; ++k)
                s += std::exp(double(x[at(k)]) - m);
            const double lse = std::log(s);
            for (int64_t k = 0; k < n; ++k) {
                const double v = double(x[at(k)]) - m;
                y[at(k)] = log ? v - lse : std::exp(v) / s;
            }
            lse_out[si] = m + lse;
        }
}

struct dt_pair_t {
    data_type_t src, dst;
};

// SoftMax allows an f32 src with any dst; LogSoftmax needs src == dst.
const dt_pair_t k_dts[] = {{dnnl_f32, dnnl_f32}, {dnnl_f32, dnnl_bf16},
        {dnnl_f32, dnnl_f16}, {dnnl_bf16, dnnl_bf16}, {dnnl_f16, dnnl_f16}};

void tolerances(bool log, data_type_t ddt, double *rtol, double *atol) {
    *rtol = log ? 2e-6 : 5e-6;
    *atol = log ? 4e-6 : 1e-37;
    if (ddt == dnnl_bf16) *rtol = 8e-3;
    if (ddt == dnnl_f16) {
        *rtol = 1.5e-3;
        *atol += 6e-8;
    }
}

// One case on one ISA: runs, checks the kernel chosen and the values.
void check(isa_t isa, bool log, const dims_t &d, int64_t axis, dt_pair_t dt,
        bool stats, bool inf_as_zero, const std::vector<float> &values) {
    const ir::op_t op = make_op(log, d, axis, dt.src, dt.dst, stats,
            inf_as_zero);
    const buf_t src = buf_t::from(dt.src, values);
    std::string kname;
    const std::vector<buf_t> out = run_jit(op, {src}, &kname);
    const std::string what = std::string(log ? "LogSoftmax " : "SoftMax ")
            + ir::dims_to_string(d) + " axis " + std::to_string(axis) + " "
            + dt_str(dt.src) + "->" + dt_str(dt.dst) + " "
            + isa_suffix(isa);
    ASSERT_FALSE(out.empty()) << what;
    EXPECT_EQ(kname.rfind(log ? "logsoftmax_" : "softmax_", 0), 0u) << kname;
    EXPECT_NE(kname.find(isa_suffix(isa)), std::string::npos) << kname;
    std::vector<double> want, lse;
    reference(log, inf_as_zero, d, axis, src.f32(), want, lse);
    // f16 overflows at 65520 (LogSoftmax of large inputs gets there).
    if (dt.dst == dnnl_f16)
        for (auto &w : want)
            if (std::fabs(w) >= 65520) w = w < 0 ? -k_inf : k_inf;
    double rtol, atol;
    tolerances(log, dt.dst, &rtol, &atol);
    expect_close(out[0], want, rtol, atol, what);
    if (stats) expect_close(out[1], lse, 2e-6, 4e-6, what + " stats");
}

std::vector<float> uniform(size_t n, double lo, double hi, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<float> v(n);
    for (auto &x : v)
        x = static_cast<float>(u(gen));
    return v;
}

int64_t count(const dims_t &d) {
    int64_t n = 1;
    for (auto v : d)
        n *= v;
    return n;
}

TEST_F(CpuSoftmax, ContiguousAxisAllLengthsAndTypes) {
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        for (bool log : {false, true})
            for (const dt_pair_t &dt : k_dts) {
                if (log && dt.src != dt.dst) continue;
                for (int64_t n : {1, 7, 15, 16, 17, 33, 64, 100, 1000})
                    for (int64_t rows : {1, 5}) {
                        const dims_t d = {rows, n};
                        const auto v = uniform(size_t(rows * n), -8, 8,
                                unsigned(n * 31 + rows));
                        check(isa, log, d, -1, dt, !log && rows == 5, false,
                                v);
                    }
            }
    }
}

TEST_F(CpuSoftmax, EveryAxisStridedAndRandomShapes) {
    std::mt19937 gen(1234);
    std::uniform_int_distribution<int64_t> dim(1, 19);
    // Inner sizes >= 64 take the streaming path (130: tail; 1500: two
    // column chunks).
    std::vector<dims_t> shapes = {{2, 7, 3}, {3, 1, 16}, {2, 33, 17},
            {2, 5, 3, 7}, {1, 3, 40}, {4, 9}, {1000, 3}, {6, 2, 2, 9},
            {3, 5, 64}, {2, 9, 130}, {2, 3, 1500}, {2, 3, 5, 17}};
    for (int k = 0; k < 6; ++k) {
        dims_t d(size_t(2 + k % 3));
        for (auto &v : d)
            v = dim(gen);
        shapes.push_back(d);
    }
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        for (const dims_t &d : shapes)
            for (int64_t axis = -int64_t(d.size()); axis < int64_t(d.size());
                    ++axis)
                for (bool log : {false, true})
                    for (const dt_pair_t &dt : k_dts) {
                        if (log && dt.src != dt.dst) continue;
                        const auto v = uniform(size_t(count(d)), -10, 10,
                                unsigned(count(d) + axis * 7));
                        check(isa, log, d, axis, dt, !log, false, v);
                    }
    }
}

TEST_F(CpuSoftmax, LargeMagnitudes) {
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        for (const dt_pair_t &dt : k_dts)
            for (bool log : {false, true}) {
                if (log && dt.src != dt.dst) continue;
                // f16 tops out at 65504.
                const double big = dt.src == dnnl_f16 ? 6e4 : 1e30;
                for (const dims_t &d : {dims_t {3, 1000}, dims_t {2, 33, 5}}) {
                    auto v = uniform(size_t(count(d)), -big, big, 7);
                    // Some values near each slice's max so that more than
                    // one term survives, and a small-magnitude slice.
                    for (size_t i = 0; i < v.size(); i += 3)
                        v[i] = static_cast<float>(i % 5);
                    check(isa, log, d, 1, dt, !log, false, v);
                    auto w = uniform(size_t(count(d)), -1e4, 1e4, 9);
                    if (dt.src == dnnl_f16)
                        for (auto &x : w)
                            x *= 0.5f;
                    check(isa, log, d, 1, dt, !log, false, w);
                }
            }
    }
}

TEST_F(CpuSoftmax, NegInfSlicesNaNAndInfAsZero) {
    const float ninf = -std::numeric_limits<float>::infinity();
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        for (const dt_pair_t &dt : k_dts)
            for (const dims_t &d : {dims_t {4, 33}, dims_t {4, 7, 5},
                         dims_t {4, 16}, dims_t {4, 6, 70}})
                for (bool zero : {false, true}) {
                    auto v = uniform(size_t(count(d)), -5, 5, 3);
                    const int64_t inner = d.size() == 3 ? d[2] : 1;
                    const int64_t n = d[1];
                    // Slice (o = 1, every column): all -inf. Slice o = 2:
                    // half -inf (must give exact zeros there).
                    for (int64_t k = 0; k < n; ++k)
                        for (int64_t c = 0; c < inner; ++c) {
                            v[size_t((1 * n + k) * inner + c)] = ninf;
                            if (k % 2)
                                v[size_t((2 * n + k) * inner + c)] = ninf;
                        }
                    // Slice o = 3 holds a NaN: the whole slice is NaN.
                    v[size_t((3 * n + n / 2) * inner)]
                            = std::numeric_limits<float>::quiet_NaN();
                    check(isa, false, d, 1, dt, true, zero, v);
                    if (dt.src == dt.dst)
                        check(isa, true, d, 1, dt, false, false, v);
                }
    }
}

// The exponential on its own: rows [0, x] give e^x / (1 + e^x), and for
// x <= -17 the 1 + e^x rounds to 1 in f32, so element 1 is the kernel's
// e^x times 1. Sweep x over [-103, -17] (results down into subnormals)
// and check the error in ulp of the exact f32-rounded value.
TEST_F(CpuSoftmax, ExpAccuracy) {
    const int64_t rows = 20000;
    std::vector<float> v(size_t(2 * rows));
    for (int64_t r = 0; r < rows; ++r) {
        v[size_t(2 * r)] = 0.f;
        v[size_t(2 * r + 1)] = static_cast<float>(-17.0 - 86.0 * r / rows);
    }
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        const ir::op_t op = make_op(false, {rows, 2}, 1, dnnl_f32, dnnl_f32,
                false, false);
        const std::vector<buf_t> out
                = run_jit(op, {buf_t::from(dnnl_f32, v)}, nullptr);
        ASSERT_FALSE(out.empty());
        double worst = 0;
        for (int64_t r = 0; r < rows; ++r) {
            const double x = v[size_t(2 * r + 1)];
            const double want = std::exp(x) / (1 + std::exp(x));
            const float wf = static_cast<float>(want);
            // ulp of the f32 result (subnormal spacing at the bottom).
            const double ulp = std::max(
                    double(std::nextafter(wf, 1.f) - wf), 1.401298464e-45);
            worst = std::max(worst,
                    std::fabs(out[0].at(size_t(2 * r + 1)) - want) / ulp);
        }
        EXPECT_LE(worst, 2.0) << isa_suffix(isa);
        std::printf("[ info ] softmax exp %s: max error %.2f ulp\n",
                isa_suffix(isa), worst);
    }
}

// The row-block function (several rows per call, as the fused attention
// kernel runs its short score rows) against the row functions it is made
// of, called one row at a time with the wrapper arithmetic of
// sdpa::score_rows_t::softmax_row (1 / s in double, all -inf rows): the
// same bits, maxima included. Lengths around the vector widths and the
// unroll of 4, a padded row stride, rows of -inf, one with a NaN and one
// with +inf, with and without inf_as_zero.
TEST_F(CpuSoftmax, RowBlockMatchesTheRowFunctions) {
    const float ninf = -std::numeric_limits<float>::infinity();
    std::mt19937 gen(17);
    std::uniform_real_distribution<float> u(-30.f, 30.f);
    int runs = 0;
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        const bool z = isa == isa_t::avx512_core;
        for (const bool zero_empty : {false, true}) {
            softmax::spec_t sp {softmax::fkind_t::row_reduce, norm::dt_t::f32,
                    norm::dt_t::f32, false, false, z, true};
            norm::fn_t reduce = nullptr, apply = nullptr, block = nullptr;
            ASSERT_EQ(softmax::get_fn(isa, sp, &reduce), dnnl_success);
            sp.kind = softmax::fkind_t::row_apply;
            ASSERT_EQ(softmax::get_fn(isa, sp, &apply), dnnl_success);
            sp.kind = softmax::fkind_t::row_block;
            sp.zero_empty = zero_empty;
            ASSERT_EQ(softmax::get_fn(isa, sp, &block), dnnl_success);
            for (const int64_t len : {1, 7, 8, 9, 16, 33, 77, 100, 1024}) {
                const int64_t rows = 7, ld = len + 5;
                std::vector<float> x(size_t(rows * ld));
                for (float &v : x) v = u(gen);
                for (int64_t c = 0; c < len; ++c) x[size_t(2 * ld + c)] = ninf;
                x[size_t(3 * ld + len / 2)]
                        = std::numeric_limits<float>::quiet_NaN();
                x[size_t(4 * ld + len - 1)]
                        = std::numeric_limits<float>::infinity();
                for (int64_t c = 0; c < len; ++c) // -inf then finite
                    if (c % 3 == 0) x[size_t(5 * ld + c)] = ninf;
                std::vector<float> want = x, got = x;
                std::vector<float> want_m(static_cast<size_t>(rows)),
                        got_m(static_cast<size_t>(rows));
                for (int64_t r = 0; r < rows; ++r) {
                    float *row = want.data() + r * ld;
                    float st[2], pr[2];
                    norm::args_t a {};
                    a.src = row;
                    a.tmp = row;
                    a.dst = row;
                    a.len = len;
                    a.stats = st;
                    a.params = pr;
                    reduce(&a);
                    const float m = st[0];
                    float s = st[1];
                    if (std::isnan(m) || m == ninf)
                        s = std::isnan(m) ? m
                                          : std::numeric_limits<float>::quiet_NaN();
                    const float p1 = zero_empty && m == ninf
                            ? 0.f
                            : static_cast<float>(1.0 / static_cast<double>(s));
                    if (zero_empty && m == ninf) std::fill(row, row + len, 0.f);
                    pr[0] = m;
                    pr[1] = p1;
                    apply(&a);
                    want_m[size_t(r)] = m;
                }
                norm::args_t a {};
                a.src = got.data();
                a.len = len;
                a.inner = ld;
                a.lanes = rows;
                a.stats = got_m.data();
                block(&a);
                const auto same = [](float p, float q) {
                    uint32_t bp, bq;
                    std::memcpy(&bp, &p, 4);
                    std::memcpy(&bq, &q, 4);
                    return bp == bq || (std::isnan(p) && std::isnan(q));
                };
                int bad = 0;
                for (size_t i = 0; i < got.size(); ++i)
                    if (!same(got[i], want[i]) && bad++ < 3)
                        ADD_FAILURE() << isa_suffix(isa) << " len " << len
                                      << " zero_empty " << zero_empty
                                      << " element " << i << ": " << got[i]
                                      << " vs " << want[i];
                for (size_t r = 0; r < got_m.size(); ++r)
                    EXPECT_TRUE(same(got_m[r], want_m[r]))
                            << isa_suffix(isa) << " len " << len << " row " << r;
                ++runs;
            }
        }
    }
    std::printf("[ info ] softmax row blocks: %d runs\n", runs);
}

// Long slices are reduced in blocks (1024 elements of a row, 64 rows of a
// column block): blocks that are entirely -inf inside a finite slice must
// contribute exact zeros, and all -inf slices still give NaN or (with
// inf_as_zero) 0.
TEST_F(CpuSoftmax, NegInfBlocksInLongSlices) {
    const float ninf = -std::numeric_limits<float>::infinity();
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        for (const dims_t &d : {dims_t {3, 3000}, dims_t {3, 200, 5},
                     dims_t {3, 150, 70}})
            for (bool zero : {false, true})
                for (const dt_pair_t &dt : {dt_pair_t {dnnl_f32, dnnl_f32},
                             dt_pair_t {dnnl_f32, dnnl_bf16}}) {
                    auto v = uniform(size_t(count(d)), -5, 5, 13);
                    const int64_t n = d[1], inner = count(d) / (3 * n);
                    for (int64_t k = 0; k < n; ++k)
                        for (int64_t c = 0; c < inner; ++c) {
                            // slice 0: first 2/3 -inf; slice 1: all -inf.
                            if (3 * k < 2 * n)
                                v[size_t(k * inner + c)] = ninf;
                            v[size_t((n + k) * inner + c)] = ninf;
                        }
                    check(isa, false, d, 1, dt, true, zero, v);
                    if (dt.dst == dnnl_f32)
                        check(isa, true, d, 1, dt, false, false, v);
                }
    }
}

TEST_F(CpuSoftmax, LargeTensorThreaded) {
    // Enough rows/blocks to be split across threads.
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        const dims_t d = {64, 512, 3};
        const auto v = uniform(size_t(count(d)), -20, 20, 5);
        check(isa, false, d, 2, {dnnl_f32, dnnl_f32}, true, false, v);
        check(isa, false, d, 1, {dnnl_bf16, dnnl_bf16}, true, false, v);
        check(isa, true, d, 0, {dnnl_f32, dnnl_f32}, false, false, v);
    }
}

// Slices too long to keep e^(x-m) in a task's scratch (2^18 floats):
// apply recomputes the exponentials. One case per layout (row with a
// non-f32 dst, W-column blocks, streaming segments). All of them also check
// the blocked sums of long slices.
TEST_F(CpuSoftmax, LongSlicesRecomputeExp) {
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        const dims_t row = {1, 270000}, col = {1, 34000, 3},
                     strm = {1, 4200, 70};
        check(isa, false, row, 1, {dnnl_f32, dnnl_bf16}, true, false,
                uniform(size_t(count(row)), -9, 9, 31));
        // Long slices with an f32 dst keep the f32 tolerance: the sums are
        // blocked (f32 dst rows keep the exponentials in dst itself).
        check(isa, false, row, 1, {dnnl_f32, dnnl_f32}, true, false,
                uniform(size_t(count(row)), -9, 9, 34));
        check(isa, true, row, 1, {dnnl_f32, dnnl_f32}, false, false,
                uniform(size_t(count(row)), -9, 9, 35));
        check(isa, false, col, 1, {dnnl_f32, dnnl_f32}, true, false,
                uniform(size_t(count(col)), -9, 9, 32));
        check(isa, false, strm, 1, {dnnl_f16, dnnl_f16}, true, false,
                uniform(size_t(count(strm)), -9, 9, 33));
    }
}

TEST_F(CpuSoftmax, DeclinesUnsupported) {
    const compiler::backend_t &be = cpu_backend();
    // Non-dense src.
    ir::op_t op = make_op(false, {4, 8}, 1, dnnl_f32, dnnl_f32, false, false);
    op.inputs[0].layout.strides[0] = 16;
    EXPECT_FALSE(be.supports(plan_of(op)));
    // f64 is not a type this family handles.
    ir::op_t op2 = make_op(true, {4, 8}, 1, dnnl_f32, dnnl_f32, false, false);
    op2.inputs[0].data_type = dnnl_s8;
    op2.outputs[0].data_type = dnnl_s8;
    EXPECT_FALSE(be.supports(plan_of(op2)));
}

// Through the public C++ API: a graph with one SoftMax (with stats) and one
// LogSoftmax compiles to the JIT kernels (the verbose exec line names
// them) and produces the plain-loop values.
TEST_F(CpuSoftmax, PublicApi) {
    using namespace dnnl::graph;
    using ldt = logical_tensor::data_type;
    using lay = logical_tensor::layout_type;
    for (isa_t isa : jit_levels()) {
        isa_guard_t g(isa);
        // The compiled-partition cache key does not include the maximum ISA
        // (the cpu backend has no config_key), so each level gets its own
        // shape to force a fresh compile.
        const int64_t b = isa == isa_t::avx2 ? 4 : 3;
        const dims_t d = {b, 5, 33};
        const logical_tensor::dims ld = {b, 5, 33}, ls = {b, 1, 33};
        engine eng(engine::kind::cpu, 0);
        stream strm(eng);
        for (bool log : {false, true}) {
            logical_tensor src(0, ldt::f32, ld, lay::strided);
            logical_tensor dst(1, ldt::f32, ld, lay::strided);
            logical_tensor st(2, ldt::f32, ls, lay::strided);
            op o(0, log ? op::kind::LogSoftmax : op::kind::SoftMax, {src},
                    log ? std::vector<logical_tensor> {dst}
                        : std::vector<logical_tensor> {dst, st},
                    "sm");
            o.set_attr<int64_t>(op::attr::axis, -2);
            graph gr(engine::kind::cpu);
            gr.add_op(o);
            gr.finalize();
            auto parts = gr.get_partitions();
            ASSERT_EQ(parts.size(), 1u);
            std::vector<logical_tensor> outs_lt = {dst};
            if (!log) outs_lt.push_back(st);
            compiled_partition cp = parts[0].compile({src}, outs_lt, eng);
            const auto x = uniform(size_t(count(d)), -6, 6, 21);
            std::vector<float> y(x.size()), s(size_t(b * 33));
            std::vector<tensor> outs = {tensor(dst, eng, y.data())};
            if (!log) outs.emplace_back(st, eng, s.data());
            const int old = verbose_level();
            set_verbose_level(1);
            ::testing::internal::CaptureStdout();
            cp.execute(strm, {tensor(src, eng, const_cast<float *>(x.data()))},
                    outs);
            strm.wait();
            const std::string log_out = ::testing::internal::GetCapturedStdout();
            set_verbose_level(old);
            const std::string kname = std::string(log ? "logsoftmax" : "softmax")
                    + "_col_f32_f32_" + isa_suffix(isa); // inner 33 < 64
            EXPECT_NE(log_out.find(kname), std::string::npos) << log_out;
            std::vector<double> want, lse;
            reference(log, false, d, -2, x, want, lse);
            double rtol, atol;
            tolerances(log, dnnl_f32, &rtol, &atol);
            expect_close(buf_t::from(dnnl_f32, y), want, rtol, atol, "api");
            if (!log)
                expect_close(buf_t::from(dnnl_f32, s), lse, 2e-6, 4e-6,
                        "api stats");
        }
    }
}

} // namespace
} // namespace cpu
} // namespace llga
