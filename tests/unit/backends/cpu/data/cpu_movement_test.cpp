// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/data/cpu_movement_test.cpp — the data-movement family
// (backends/cpu/kernels/movement.cpp): copy simplification against
// hand-derived results, strided_copy against an index-by-index loop written
// here (random ranks, sizes, permuted and padded layouts, every element
// size, threaded sizes that split runs and tiles), the streaming copy of
// very large runs against memcpy, a channel-last Concat's whole output
// rows (streamed and not), and Reorder,
// StaticReshape, StaticTranspose and Concat partitions through the cpu
// backend against the reference ops, byte for byte.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <immintrin.h>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/data/movement.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/logical_tensor.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using movement::copy_desc_t;
using plan_test::bytes_t;
using plan_test::plan_builder_t;

class CpuMovement : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

copy_desc_t desc(size_t es, std::vector<int64_t> d, std::vector<int64_t> s,
        std::vector<int64_t> t) {
    copy_desc_t c;
    c.es = es;
    c.dims = std::move(d);
    c.src_strides = std::move(s);
    c.dst_strides = std::move(t);
    return c;
}

TEST_F(CpuMovement, SimplifyDropsUnitDimsAndMergesContiguousRuns) {
    // Dense to dense: one run of 2*3*4 elements.
    copy_desc_t r = movement::simplify(
            desc(4, {2, 1, 3, 4}, {12, 12, 4, 1}, {12, 12, 4, 1}));
    EXPECT_EQ(r.dims, (std::vector<int64_t> {24}));
    EXPECT_EQ(r.src_strides, (std::vector<int64_t> {1}));
    // 2D transpose of a 3x4 source into a 4x3 destination (viewed as the
    // destination's shape): nothing merges; the destination's unit dim is
    // innermost.
    r = movement::simplify(desc(4, {4, 3}, {1, 4}, {3, 1}));
    EXPECT_EQ(r.dims, (std::vector<int64_t> {4, 3}));
    EXPECT_EQ(r.src_strides, (std::vector<int64_t> {1, 4}));
    EXPECT_EQ(r.dst_strides, (std::vector<int64_t> {3, 1}));
    // Dims listed inner-first are put in destination order, then the two
    // contiguous ones merge: [a=5 s1 d1][b=2 s5 d5][c=3 s100 d10].
    r = movement::simplify(desc(2, {5, 3, 2}, {1, 100, 5}, {1, 10, 5}));
    EXPECT_EQ(r.dims, (std::vector<int64_t> {3, 10}));
    EXPECT_EQ(r.src_strides, (std::vector<int64_t> {100, 1}));
    EXPECT_EQ(r.dst_strides, (std::vector<int64_t> {10, 1}));
    // A zero dim: nothing to copy. No dims: one element.
    EXPECT_EQ(movement::simplify(desc(4, {3, 0}, {1, 1}, {1, 1})).dims,
            (std::vector<int64_t> {0}));
    EXPECT_EQ(movement::simplify(desc(4, {}, {}, {})).dims,
            (std::vector<int64_t> {1}));
}

// Strides of a layout that stores `dims` in the dim order `perm`
// (outermost first), with `pad` extra elements on each dim's stride.
std::vector<int64_t> layout(const std::vector<int64_t> &dims,
        const std::vector<int> &perm, int64_t pad) {
    std::vector<int64_t> s(dims.size());
    int64_t acc = 1;
    for (size_t k = perm.size(); k-- > 0;) {
        s[static_cast<size_t>(perm[k])] = acc;
        acc = acc * dims[static_cast<size_t>(perm[k])] + pad;
    }
    return s;
}

int64_t span(const std::vector<int64_t> &dims, const std::vector<int64_t> &s) {
    int64_t last = 0;
    for (size_t k = 0; k < dims.size(); ++k) {
        if (dims[k] == 0) return 1;
        last += (dims[k] - 1) * s[k];
    }
    return last + 1;
}

// The oracle: every index of the shape, offsets from the strides.
std::vector<char> naive_copy(const copy_desc_t &c, const std::vector<char> &src,
        size_t dst_bytes) {
    std::vector<char> out(dst_bytes, 0);
    int64_t n = 1;
    for (int64_t d : c.dims)
        n *= d;
    for (int64_t flat = 0; flat < n; ++flat) {
        int64_t rest = flat, so = 0, dof = 0;
        for (size_t k = c.dims.size(); k-- > 0;) {
            const int64_t i = rest % c.dims[k];
            rest /= c.dims[k];
            so += i * c.src_strides[k];
            dof += i * c.dst_strides[k];
        }
        std::memcpy(&out[static_cast<size_t>(dof) * c.es],
                &src[static_cast<size_t>(so) * c.es], c.es);
    }
    return out;
}

void check_copy(const copy_desc_t &c, std::mt19937 &gen, const std::string &what) {
    std::vector<char> src(static_cast<size_t>(span(c.dims, c.src_strides)) * c.es);
    for (char &b : src)
        b = static_cast<char>(gen());
    const size_t dst_bytes
            = static_cast<size_t>(span(c.dims, c.dst_strides)) * c.es;
    const std::vector<char> want = naive_copy(c, src, dst_bytes);
    std::vector<char> got(dst_bytes, 0);
    movement::strided_copy(c, src.data(), got.data());
    EXPECT_TRUE(got == want) << what;
}

TEST_F(CpuMovement, StridedCopyMatchesIndexLoop) {
    std::mt19937 gen(7);
    for (int trial = 0; trial < 300; ++trial) {
        const int rank = 1 + static_cast<int>(gen() % 5);
        std::vector<int64_t> dims;
        for (int k = 0; k < rank; ++k)
            dims.push_back(static_cast<int64_t>(gen() % 9) + (trial % 37 == 0 ? 0 : 1));
        std::vector<int> ps(static_cast<size_t>(rank)), pd(ps.size());
        std::iota(ps.begin(), ps.end(), 0);
        std::iota(pd.begin(), pd.end(), 0);
        std::shuffle(ps.begin(), ps.end(), gen);
        if (gen() % 2) std::shuffle(pd.begin(), pd.end(), gen);
        const size_t es = size_t(1) << (gen() % 4);
        const copy_desc_t c = desc(es, dims, layout(dims, ps, gen() % 3),
                layout(dims, pd, gen() % 2));
        check_copy(c, gen, "trial " + std::to_string(trial));
    }
}

TEST_F(CpuMovement, LargeCopiesSplitRunsAndTiles) {
    std::mt19937 gen(11);
    // One contiguous run longer than a task (split into pieces).
    check_copy(desc(4, {3, 70001}, {70001, 1}, {70001, 1}), gen, "runs");
    // A transpose with tails on both tile dims, several threads' worth.
    check_copy(desc(4, {300, 257}, {1, 300}, {257, 1}), gen, "tiles");
    check_copy(desc(2, {5, 129, 67}, {129 * 67, 1, 129}, {129 * 67, 67, 1}),
            gen, "batched tiles");
    // No unit stride on the source: element loop.
    check_copy(desc(8, {40, 1000}, {2000, 2}, {1000, 1}), gen, "elements");
}

// A partition through the cpu backend against the reference, byte for
// byte (padded outputs included: neither writes the gaps). Finite values
// (the reference moves values, which would quiet a signalling NaN).
void expect_like_reference(const compiler::plan_t &p, const std::string &kind) {
    std::mt19937 gen(3);
    std::vector<bytes_t> in;
    for (const auto &lt : p.inputs)
        in.push_back(plan_test::random_bytes(lt, gen, -100.f, 200.f));
    const auto want = plan_test::run_ref(p, in);
    for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
        test_isa::isa_guard_t guard(isa);
        bytes_t got;
        std::string kname;
        ASSERT_TRUE(plan_test::run_jit(p, in, got, &kname)) << kind;
        EXPECT_EQ(kname.rfind("movement_" + kind, 0), 0u) << kname;
        EXPECT_TRUE(got == want.at(p.outputs[0].id)) << kind << " at "
                                                     << isa_name(isa);
    }
}

// The streaming copy of the very large runs: every destination alignment
// against every length class (shorter than the alignment head, one
// block, blocks and a tail), byte for byte, with the bytes around the
// destination untouched.
TEST_F(CpuMovement, StreamingCopyMatchesMemcpy) {
    if (!host_supports(isa_t::avx2)) GTEST_SKIP() << "no AVX2";
    std::mt19937 gen(3);
    std::vector<char> src(4096 + 64), dst(4096 + 128), want;
    for (char &c : src)
        c = static_cast<char>(gen());
    for (size_t off = 0; off < 40; ++off)
        for (size_t n : {size_t(0), size_t(5), size_t(31), size_t(128),
                     size_t(200), size_t(1000), size_t(4096)}) {
            std::fill(dst.begin(), dst.end(), char(0x5a));
            want = dst;
            std::memcpy(want.data() + off, src.data() + 3, n);
            movement::copy_bytes_stream(dst.data() + off, src.data() + 3, n);
            _mm_sfence();
            EXPECT_EQ(dst, want) << "offset " << off << ", " << n << " bytes";
        }
}

TEST_F(CpuMovement, ReorderReshapeTransposeConcatLikeTheReference) {
    for (data_type_t dt : {dnnl_f32, dnnl_bf16, dnnl_u8}) {
        {
            plan_builder_t g; // NCHW -> NHWC with a padded row
            const logical_tensor_t a = g.in({2, 5, 7, 9}, dt);
            g.add(dnnl_graph_op_reorder, {a}, {2, 5, 7, 9}, dt);
            expect_like_reference(g.plan({5 * 7 * 12, 1, 12 * 5, 5}), "reorder");
        }
        {
            plan_builder_t g; // transposed source read as a new shape
            const logical_tensor_t a = g.in({6, 10}, dt, {1, 6});
            g.add(dnnl_graph_op_static_reshape, {a}, {3, 4, 5}, dt,
                    [](ir::op_t &op) {
                        op.set_attr(dnnl_graph_op_attr_shape,
                                ir::attr_value_t::make_s64s({3, 4, 5}));
                        op.set_attr(dnnl_graph_op_attr_special_zero,
                                ir::attr_value_t::make_bool(false));
                    });
            expect_like_reference(g.plan(), "reshape");
        }
        {
            plan_builder_t g; // attention's [B, S, H, D] -> [B, H, S, D]
            const logical_tensor_t a = g.in({2, 33, 4, 16}, dt);
            g.add(dnnl_graph_op_static_transpose, {a}, {2, 4, 33, 16}, dt,
                    [](ir::op_t &op) {
                        op.set_attr(dnnl_graph_op_attr_order,
                                ir::attr_value_t::make_s64s({0, -2, 1, 3}));
                    });
            expect_like_reference(g.plan(), "transpose");
        }
        {
            plan_builder_t g; // empty order: all dims reversed
            const logical_tensor_t a = g.in({3, 40, 37}, dt);
            g.add(dnnl_graph_op_static_transpose, {a}, {37, 40, 3}, dt,
                    [](ir::op_t &op) {
                        op.set_attr(dnnl_graph_op_attr_order,
                                ir::attr_value_t::make_s64s({}));
                    });
            expect_like_reference(g.plan(), "transpose");
        }
        {
            plan_builder_t g; // three inputs on a middle axis, one strided
            const logical_tensor_t a = g.in({2, 3, 5}, dt);
            const logical_tensor_t b = g.in({2, 1, 5}, dt, {1, 10, 2});
            const logical_tensor_t c = g.in({2, 4, 5}, dt);
            g.add(dnnl_graph_op_concat, {a, b, c}, {2, 8, 5}, dt,
                    [](ir::op_t &op) {
                        op.set_attr(dnnl_graph_op_attr_axis,
                                ir::attr_value_t::make_s64(-2));
                    });
            expect_like_reference(g.plan(), "concat");
        }
    }
}

// A channel-last Concat along C: each pixel's output row is the inputs'
// runs side by side, copied in one walk over the rows (one input with
// padded rows). With the streaming threshold at 0, an f32 destination on
// a 64-byte boundary takes the non-temporal stores (every run whole
// lines: 16, 48 and 64 channels), one a float off it and bf16 / u8 (runs
// of partial lines) the plain ones; all byte for byte like the reference,
// with the bytes past the destination untouched.
TEST_F(CpuMovement, ChannelLastConcatCopiesWholeRows) {
    const std::vector<int64_t> chans = {16, 48, 64};
    const int64_t N = 2, H = 5, W = 7, C = 128;
    for (data_type_t dt : {dnnl_f32, dnnl_bf16, dnnl_u8})
        for (int shift : {0, 1}) {
            plan_builder_t g;
            std::vector<logical_tensor_t> ins;
            for (size_t i = 0; i < chans.size(); ++i) {
                const int64_t c = chans[i], row = c + (i == 1 ? 3 : 0);
                ins.push_back(g.in({N, c, H, W}, dt, {H * W * row, 1, W * row, row}));
            }
            g.add(dnnl_graph_op_concat, ins, {N, C, H, W}, dt, [](ir::op_t &op) {
                op.set_attr(dnnl_graph_op_attr_axis, ir::attr_value_t::make_s64(1));
            });
            const compiler::plan_t p = g.plan({H * W * C, 1, W * C, C});
            std::mt19937 gen(7);
            std::vector<bytes_t> in;
            for (const auto &lt : p.inputs)
                in.push_back(plan_test::random_bytes(lt, gen, -100.f, 200.f));
            const bytes_t want = plan_test::run_ref(p, in).at(p.outputs[0].id);
            movement::set_stream_bytes_for_testing(0);
            std::shared_ptr<const compiler::kernel_t> k;
            ASSERT_EQ(cpu_backend().compile(p, k), dnnl_success) << last_error();
            const size_t es = want.size() / (N * C * H * W);
            std::vector<char> buf(want.size() + 2 * 64 + 8, char(0x5a));
            char *base = buf.data();
            while (reinterpret_cast<uintptr_t>(base) % 64 != 0)
                ++base;
            char *dst = base + shift * es;
            compiler::exec_ctx_t ctx;
            for (const bytes_t &b : in)
                ctx.inputs.push_back(b.data());
            ctx.outputs.push_back(dst);
            ASSERT_EQ(k->execute(ctx), dnnl_success) << last_error();
            movement::set_stream_bytes_for_testing(-1);
            EXPECT_EQ(0, std::memcmp(dst, want.data(), want.size()))
                    << ir::dtype_name(dt) << " shift " << shift;
            EXPECT_EQ(dst[want.size()], char(0x5a)) << ir::dtype_name(dt);
        }
}

TEST_F(CpuMovement, DeclinesWhatItDoesNotCover) {
    std::string why;
    {
        plan_builder_t g; // reshape between two non-dense layouts
        const logical_tensor_t a = g.in({4, 6}, dnnl_f32, {1, 4});
        g.add(dnnl_graph_op_static_reshape, {a}, {6, 4}, dnnl_f32,
                [](ir::op_t &op) {
                    op.set_attr(dnnl_graph_op_attr_shape,
                            ir::attr_value_t::make_s64s({6, 4}));
                    op.set_attr(dnnl_graph_op_attr_special_zero,
                            ir::attr_value_t::make_bool(false));
                });
        EXPECT_FALSE(movement::accepts(g.plan({1, 6}), isa_t::avx2, &why));
        EXPECT_NE(why.find("dense"), std::string::npos) << why;
    }
    {
        plan_builder_t g; // 4-bit elements
        const logical_tensor_t a = g.in({4, 8}, dnnl_u4);
        g.add(dnnl_graph_op_reorder, {a}, {4, 8}, dnnl_u4);
        EXPECT_FALSE(movement::accepts(g.plan(), isa_t::avx2, &why));
        EXPECT_NE(why.find("whole bytes"), std::string::npos) << why;
    }
}

} // namespace
} // namespace cpu
} // namespace llga
