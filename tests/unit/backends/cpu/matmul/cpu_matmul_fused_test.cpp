// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/matmul/cpu_matmul_fused_test.cpp — fused f32 MatMul
// chains (MatMul -> [BiasAdd] -> unary/binary post-ops) on the JIT GEMM
// epilogue, against the reference ops of ops/ run one by one, at every ISA
// level the host has: every eltwise, every binary op with every broadcast
// (batched, strided, commuted), 4-op chains with biases, x * sigmoid(x), and
// the partitions the kernel must decline (with their reasons).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/matmul/matmul.hpp"
#include "base/status.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using ir::attr_value_t;
using plan_test::bytes_t;
using plan_test::random_bytes;
using plan_test::run_jit;

std::vector<isa_t> levels() {
    return test_isa::host_levels({isa_t::avx2, isa_t::avx512_core, isa_t::avx512_core_bf16,
                 isa_t::avx512_core_amx});
}

using test_isa::isa_guard_t;

class CpuMatmulFused : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

using graph_t = plan_test::plan_builder_t;

dims_t mm_dims(const dims_t &a, const dims_t &b, bool tb) {
    dims_t ab(a.begin(), a.end() - 2), bb(b.begin(), b.end() - 2), d;
    EXPECT_TRUE(ir::broadcast_shapes(ab, bb, d));
    d.push_back(a[a.size() - 2]);
    d.push_back(tb ? b[b.size() - 2] : b.back());
    return d;
}

// Element offsets of every logical element of `lt` (row-major order).
std::vector<int64_t> offsets(const logical_tensor_t &lt) {
    const dims_t d = ir::dims_of(lt), s = ir::strides_of(lt);
    std::vector<int64_t> r(static_cast<size_t>(ir::nelems(lt)));
    int64_t idx[DNNL_MAX_NDIMS] = {};
    for (size_t i = 0; i < r.size(); ++i, ir::next_index(idx, d))
        r[i] = ir::offset_of(idx, s.data(), static_cast<int>(d.size()));
    return r;
}

// Inputs: operands of Divide stay away from 0; everything else in
// [-1, 1], weights scaled by 2/sqrt(K) so the MatMul values are O(1).
struct case_t {
    graph_t g;
    int64_t K = 1;
    size_t mm_out = 0;          // MatMul output id
    std::vector<size_t> wei_ids; // inputs scaled by 2/sqrt(K)
    std::vector<size_t> div_ids; // Divide operands
    dims_t out_strides;
};

// Compares the JIT with the reference. The MatMul value carries the f32
// summation error e = (K + 4) u sum|a||b| (u = 2^-24, the reference run on
// |a|, |b|, |bias|); the reference is run again with that value moved by
// +e and -e, which bounds what the rest of the chain makes of it (the ops
// are monotone over so short an interval, or flat). On top, each value may
// differ by 2e-4 (1 + |want|): the accuracy of the epilogue's vector math
// (exp, erf, tanh, log polynomials), as in cpu_gemm_postops_test.
void check(case_t &c, unsigned seed, const std::string &what) {
    const compiler::plan_t p = c.g.plan(c.out_strides);
    std::mt19937 gen(seed);
    std::vector<bytes_t> in;
    const float ws = 2.f / std::sqrt(static_cast<float>(c.K));
    for (const auto &lt : p.inputs) {
        auto has = [&](const std::vector<size_t> &v) {
            return std::find(v.begin(), v.end(), lt.id) != v.end();
        };
        if (has(c.wei_ids))
            in.push_back(random_bytes(lt, gen, -ws, ws));
        else if (has(c.div_ids))
            in.push_back(random_bytes(lt, gen, 0.5f, 1.5f));
        else
            in.push_back(random_bytes(lt, gen, -1.f, 1.f));
    }
    size_t mi = 0;
    while (p.ops[mi].kind != dnnl_graph_op_matmul)
        ++mi;
    const plan_test::anchor_bounds_t r
            = plan_test::reference_bounds(p, in, mi, c.mm_out, c.K);
    const logical_tensor_t &out = p.outputs[0];
    for (isa_t isa : levels()) {
        isa_guard_t guard(isa);
        bytes_t got;
        std::string kname;
        ASSERT_TRUE(run_jit(p, in, got, &kname)) << what << " declined @"
                                                 << isa_name(isa);
        EXPECT_NE(kname.find("matmul_gemm_"), std::string::npos) << kname;
        int bad = 0;
        for (int64_t o : offsets(out)) {
            const plan_test::bound_check_t e
                    = plan_test::check_element(r, out.id, got, o);
            if (!e.ok && bad++ < 5)
                ADD_FAILURE() << what << " @" << isa_name(isa) << " " << kname
                              << " offset " << o << ": got " << e.got
                              << " want " << e.want << " in [" << e.min
                              << ", " << e.max << "]";
        }
        EXPECT_EQ(bad, 0) << what << " @" << isa_name(isa);
    }
}

// MatMul [batch.., M, K] x [K, N] (or per-batch weights; [N, K] with
// `tb`), optional third input bias [N]. Returns the MatMul output.
logical_tensor_t add_matmul(case_t &c, const dims_t &a, const dims_t &b,
        bool tb = false, bool bias = false) {
    graph_t &g = c.g;
    std::vector<logical_tensor_t> in = {g.in(a), g.in(b)};
    c.wei_ids.push_back(in[1].id);
    const dims_t d = mm_dims(a, b, tb);
    if (bias) in.push_back(g.in({d.back()}));
    c.K = a.back();
    const logical_tensor_t y = g.add(dnnl_graph_op_matmul, in, d, dnnl_f32,
            [&](ir::op_t &op) {
                op.set_attr(dnnl_graph_op_attr_transpose_b,
                        attr_value_t::make_bool(tb));
            });
    c.mm_out = y.id;
    return y;
}

struct unary_t {
    op_kind_t kind;
    std::function<void(ir::op_t &)> attrs;
    const char *name;
};

std::vector<unary_t> supported_unary() {
    auto f = [](dnnl_graph_op_attr_t a, float v) {
        return [a, v](ir::op_t &op) { op.set_attr(a, attr_value_t::make_f32(v)); };
    };
    return {
            {dnnl_graph_op_relu, nullptr, "relu"},
            {dnnl_graph_op_leaky_relu, f(dnnl_graph_op_attr_alpha, 0.1f),
                    "leaky_relu"},
            {dnnl_graph_op_gelu, nullptr, "gelu_erf"},
            {dnnl_graph_op_gelu,
                    [](ir::op_t &op) {
                        op.set_attr(dnnl_graph_op_attr_mode,
                                attr_value_t::make_str("gelu_tanh"));
                    },
                    "gelu_tanh"},
            {dnnl_graph_op_sigmoid, nullptr, "sigmoid"},
            {dnnl_graph_op_tanh, nullptr, "tanh"},
            {dnnl_graph_op_clamp,
                    [](ir::op_t &op) {
                        op.set_attr(dnnl_graph_op_attr_min,
                                attr_value_t::make_f32(-0.3f));
                        op.set_attr(dnnl_graph_op_attr_max,
                                attr_value_t::make_f32(0.6f));
                    },
                    "clamp"},
            {dnnl_graph_op_elu, f(dnnl_graph_op_attr_alpha, 0.7f), "elu"},
            {dnnl_graph_op_exp, nullptr, "exp"},
            {dnnl_graph_op_square, nullptr, "square"},
            {dnnl_graph_op_abs, nullptr, "abs"},
            {dnnl_graph_op_hard_sigmoid,
                    [](ir::op_t &op) {
                        op.set_attr(dnnl_graph_op_attr_alpha,
                                attr_value_t::make_f32(0.25f));
                        op.set_attr(dnnl_graph_op_attr_beta,
                                attr_value_t::make_f32(0.4f));
                    },
                    "hardsigmoid"},
            {dnnl_graph_op_hard_swish, nullptr, "hardswish"},
            // Log and Sqrt get Abs in front (see EachEltwiseAlone).
            {dnnl_graph_op_log, nullptr, "log"},
            {dnnl_graph_op_sqrt, nullptr, "sqrt"},
    };
}

const op_kind_t k_binary[] = {dnnl_graph_op_add, dnnl_graph_op_subtract,
        dnnl_graph_op_multiply, dnnl_graph_op_divide, dnnl_graph_op_maximum,
        dnnl_graph_op_minimum};

bool commutes(op_kind_t k) {
    return k != dnnl_graph_op_subtract && k != dnnl_graph_op_divide;
}

// Appends `kind(x, operand)` (or `kind(operand, x)` when `swap`).
logical_tensor_t add_binary(case_t &c, op_kind_t kind,
        const logical_tensor_t &x, const dims_t &od, bool swap,
        const dims_t &ostrides = {}) {
    const logical_tensor_t y = c.g.in(od, dnnl_f32, ostrides);
    if (kind == dnnl_graph_op_divide) c.div_ids.push_back(y.id);
    std::vector<logical_tensor_t> in = {x, y};
    if (swap) std::swap(in[0], in[1]);
    return c.g.add(kind, in, ir::dims_of(x));
}

const int64_t k_ms[] = {1, 3, 16, 17, 33, 64};
const int64_t k_ns[] = {1, 3, 16, 17, 33, 100};
const int64_t k_ks[] = {1, 7, 16, 33, 129};

TEST_F(CpuMatmulFused, EachEltwiseAlone) {
    std::mt19937 gen(7);
    unsigned seed = 1;
    for (const unary_t &u : supported_unary()) {
        for (int rep = 0; rep < 3; ++rep) {
            const int64_t M = k_ms[gen() % 6], N = k_ns[gen() % 6],
                          K = k_ks[gen() % 5];
            case_t c;
            const bool batched = rep == 2;
            const dims_t a = batched ? dims_t {2, M, K} : dims_t {M, K};
            logical_tensor_t x = add_matmul(c, a, {K, N}, false, rep == 1);
            // Log and Sqrt are defined on x >= 0 only.
            if (u.kind == dnnl_graph_op_log || u.kind == dnnl_graph_op_sqrt)
                x = c.g.add(dnnl_graph_op_abs, {x}, ir::dims_of(x));
            c.g.add(u.kind, {x}, ir::dims_of(x), dnnl_f32, u.attrs);
            check(c, seed++,
                    std::string(u.name) + " " + ir::dims_to_string(a) + "x"
                            + std::to_string(N));
        }
    }
}

// Operand shapes relative to dst [B, M, N] and how the epilogue reads them.
struct bcast_t {
    const char *name;
    std::function<dims_t(int64_t B, int64_t M, int64_t N)> dims;
};

std::vector<bcast_t> broadcasts() {
    return {
            {"scalar", [](int64_t, int64_t, int64_t) { return dims_t {1}; }},
            {"col", [](int64_t, int64_t, int64_t N) { return dims_t {N}; }},
            {"col2", [](int64_t, int64_t, int64_t N) { return dims_t {1, N}; }},
            {"row", [](int64_t, int64_t M, int64_t) { return dims_t {M, 1}; }},
            {"full", [](int64_t, int64_t M, int64_t N) { return dims_t {M, N}; }},
            {"batch_full",
                    [](int64_t B, int64_t M, int64_t N) {
                        return dims_t {B, M, N};
                    }},
            {"batch_row",
                    [](int64_t B, int64_t M, int64_t) {
                        return dims_t {B, M, 1};
                    }},
            {"batch_col",
                    [](int64_t B, int64_t, int64_t N) {
                        return dims_t {B, 1, N};
                    }},
            {"batch_scalar",
                    [](int64_t B, int64_t, int64_t) { return dims_t {B, 1, 1}; }},
    };
}

TEST_F(CpuMatmulFused, BinaryEveryBroadcast) {
    std::mt19937 gen(11);
    unsigned seed = 100;
    for (op_kind_t kind : k_binary)
        for (const bcast_t &bc : broadcasts())
            for (int variant = 0; variant < 3; ++variant) {
                // 0: shared weights (batch folds into M); 1: weights per
                // batch (batched GEMM); 2: M = 1 (small-M kernels).
                const int64_t B = 2 + gen() % 2;
                const int64_t M = variant == 2 ? 1 : k_ms[1 + gen() % 5];
                const int64_t N = k_ns[gen() % 6], K = k_ks[gen() % 5];
                const bool swap = commutes(kind) && (gen() % 2 == 0);
                case_t c;
                const dims_t b = variant == 1 ? dims_t {B, K, N} : dims_t {K, N};
                const logical_tensor_t x = add_matmul(c, {B, M, K}, b);
                add_binary(c, kind, x, bc.dims(B, M, N), swap);
                check(c, seed++,
                        std::string(ops::op_kind_name(kind)) + " " + bc.name
                                + (swap ? " swapped" : "") + " variant "
                                + std::to_string(variant) + " B" + std::to_string(B)
                                + " M" + std::to_string(M) + " N"
                                + std::to_string(N) + " K" + std::to_string(K));
            }
}

TEST_F(CpuMatmulFused, StridedOperandsAndDst) {
    unsigned seed = 300;
    for (int64_t M : {5, 17, 64})
        for (int64_t N : {3, 16, 33}) {
            const int64_t K = 19, B = 2;
            case_t c;
            const logical_tensor_t x = add_matmul(c, {B, M, K}, {N, K}, true);
            // A full operand with padded rows and a gap between batches,
            // and a row operand with a row stride of 3.
            const logical_tensor_t y = add_binary(c, dnnl_graph_op_add, x,
                    {B, M, N}, false, {(M + 1) * (N + 5), N + 5, 1});
            add_binary(c, dnnl_graph_op_multiply, y, {M, 1}, true, {3, 1});
            // dst rows padded too.
            c.out_strides = {M * (N + 2) + 7, N + 2, 1};
            check(c, seed++,
                    "strided M" + std::to_string(M) + " N" + std::to_string(N));
        }
}

TEST_F(CpuMatmulFused, BiasAndFourOpChains) {
    std::mt19937 gen(23);
    const std::vector<unary_t> un = supported_unary();
    for (int rep = 0; rep < 24; ++rep) {
        const int64_t M = k_ms[gen() % 6], N = k_ns[gen() % 6],
                      K = k_ks[gen() % 5];
        const int64_t B = rep % 3 == 0 ? 2 : 1;
        case_t c;
        const dims_t a = B > 1 ? dims_t {B, M, K} : dims_t {M, K};
        const int bias_kind = rep % 4; // none, MatMul input, BiasAdd, both
        const bool tb = rep % 5 == 0; // weights stored [N, K]
        logical_tensor_t x = add_matmul(c, a, tb ? dims_t {N, K} : dims_t {K, N},
                tb, bias_kind == 1 || bias_kind == 3);
        std::string what = "chain";
        if (bias_kind >= 2) {
            const logical_tensor_t bias = c.g.in({N});
            x = c.g.add(dnnl_graph_op_bias_add, {x, bias}, ir::dims_of(x));
            what += "+biasadd";
        }
        for (int i = 0; i < 4; ++i) {
            const dims_t d = ir::dims_of(x);
            if (gen() % 2 == 0) {
                const unary_t &u = un[gen() % (un.size() - 2)]; // not log/sqrt
                x = c.g.add(u.kind, {x}, d, dnnl_f32, u.attrs);
                what += std::string("+") + u.name;
            } else {
                const op_kind_t k = k_binary[gen() % 6];
                const bcast_t bc = broadcasts()[gen() % 5];
                x = add_binary(c, k, x,
                        bc.dims(B, M, N), commutes(k) && gen() % 2 == 0);
                what += std::string("+") + ops::op_kind_name(k) + ":" + bc.name;
            }
        }
        check(c, 500 + rep, what + " " + ir::dims_to_string(a) + "x" + std::to_string(N));
    }
}

// The pattern stops at 4 post-ops; the epilogue itself has no such limit.
TEST_F(CpuMatmulFused, LongerChainsToo) {
    case_t c;
    logical_tensor_t x = add_matmul(c, {2, 33, 40}, {40, 17}, false, true);
    x = add_binary(c, dnnl_graph_op_multiply, x, {2, 33, 17}, true);
    x = c.g.add(dnnl_graph_op_tanh, {x}, ir::dims_of(x));
    x = add_binary(c, dnnl_graph_op_maximum, x, {33, 1}, false);
    x = c.g.add(dnnl_graph_op_gelu, {x}, ir::dims_of(x));
    x = add_binary(c, dnnl_graph_op_divide, x, {17}, false);
    x = c.g.add(dnnl_graph_op_abs, {x}, ir::dims_of(x));
    c.g.add(dnnl_graph_op_sqrt, {x}, ir::dims_of(x));
    check(c, 800, "7 post-ops");
}

TEST_F(CpuMatmulFused, SwishPair) {
    unsigned seed = 700;
    for (int64_t M : {1, 17})
        for (int64_t N : {16, 35}) {
            case_t c;
            const logical_tensor_t x = add_matmul(c, {M, 24}, {24, N}, false, true);
            const logical_tensor_t s
                    = c.g.add(dnnl_graph_op_sigmoid, {x}, ir::dims_of(x));
            const bool swap = M == 1;
            c.g.add(dnnl_graph_op_multiply, swap ? std::vector<logical_tensor_t> {s, x}
                                               : std::vector<logical_tensor_t> {x, s},
                    ir::dims_of(x));
            check(c, seed++, "swish");
        }
}

// Maximum/Minimum propagate a NaN from either side, as the reference's
// binary ops do: A's row 0 is NaN (so MatMul row 0 is NaN), and the
// operand is NaN in column 1 only. Every other element is finite.
TEST_F(CpuMatmulFused, MaximumAndMinimumPropagateNaN) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (op_kind_t k : {dnnl_graph_op_maximum, dnnl_graph_op_minimum})
        for (isa_t isa : levels()) {
            test_isa::isa_guard_t guard(isa);
            graph_t g;
            const int64_t M = 3, K = 4, N = 20; // N: a whole vector + tail
            const logical_tensor_t a = g.in({M, K}), b = g.in({K, N});
            const logical_tensor_t y = g.in({1, N});
            const logical_tensor_t x
                    = g.add(dnnl_graph_op_matmul, {a, b}, {M, N});
            g.add(k, {x, y}, {M, N});
            const compiler::plan_t p = g.plan();
            std::vector<bytes_t> in(3);
            std::vector<float> av(M * K, 1.f), bv(K * N, 0.5f), yv(N, 1.5f);
            for (int64_t i = 0; i < K; ++i)
                av[i] = nan;
            yv[1] = nan;
            for (const auto *v : {&av, &bv, &yv}) {
                const size_t idx = v == &av ? 0 : v == &bv ? 1 : 2;
                in[idx].resize(v->size() * sizeof(float));
                std::memcpy(in[idx].data(), v->data(), in[idx].size());
            }
            bytes_t out;
            std::string kname;
            ASSERT_TRUE(run_jit(p, in, out, &kname)) << isa_name(isa);
            const float *o = reinterpret_cast<const float *>(out.data());
            // Row sums are K * 0.5 = 2: max(2, 1.5) = 2, min = 1.5.
            const float fin = k == dnnl_graph_op_maximum ? 2.f : 1.5f;
            for (int64_t i = 0; i < M; ++i)
                for (int64_t j = 0; j < N; ++j) {
                    const bool want_nan = i == 0 || j == 1;
                    const float got = o[i * N + j];
                    if (want_nan)
                        EXPECT_TRUE(std::isnan(got))
                                << kname << " " << i << "," << j << " " << got;
                    else
                        EXPECT_EQ(got, fin) << kname << " " << i << "," << j;
                }
        }
}

// The analysis alone (no code generation), so the reasons are checked at
// levels the host may not have.
std::string decline_reason(const compiler::plan_t &p, isa_t isa) {
    std::string why;
    EXPECT_FALSE(matmul::accepts(p, isa, &why));
    return why;
}

TEST_F(CpuMatmulFused, DeclinesWhatTheEpilogueCannotDo) {
    auto base = [](case_t &c) { return add_matmul(c, {8, 16}, {16, 24}); };
    for (op_kind_t k : {dnnl_graph_op_mish, dnnl_graph_op_softplus,
                 dnnl_graph_op_round, dnnl_graph_op_reciprocal}) {
        case_t c;
        const logical_tensor_t x = base(c);
        c.g.add(k, {x}, {8, 24}, dnnl_f32, [&](ir::op_t &op) {
            if (k == dnnl_graph_op_softplus)
                op.set_attr(dnnl_graph_op_attr_beta, attr_value_t::make_f32(1.f));
        });
        EXPECT_NE(decline_reason(c.g.plan(), isa_t::avx2).find("no GEMM post-op"),
                std::string::npos);
        EXPECT_FALSE(cpu_backend().supports(c.g.plan()));
    }
    { // An operand computed inside the partition: x + relu(y).
        case_t c;
        const logical_tensor_t x = base(c);
        const logical_tensor_t y = c.g.in({8, 24});
        const logical_tensor_t r = c.g.add(dnnl_graph_op_relu, {y}, {8, 24});
        c.g.add(dnnl_graph_op_add, {x, r}, {8, 24});
        EXPECT_NE(decline_reason(c.g.plan(), isa_t::avx2).find("inside the partition"),
                std::string::npos);
    }
    for (op_kind_t k : {dnnl_graph_op_subtract, dnnl_graph_op_divide}) {
        case_t c; // y - x, y / x
        const logical_tensor_t x = base(c);
        add_binary(c, k, x, {24}, true);
        EXPECT_NE(decline_reason(c.g.plan(), isa_t::avx2).find("input 1"),
                std::string::npos);
    }
    { // bf16 values between the ops are rounded by the reference.
        graph_t g;
        const logical_tensor_t a = g.in({8, 16}, dnnl_bf16);
        const logical_tensor_t b = g.in({16, 24}, dnnl_bf16);
        const logical_tensor_t x
                = g.add(dnnl_graph_op_matmul, {a, b}, {8, 24}, dnnl_bf16);
        g.add(dnnl_graph_op_relu, {x}, {8, 24}, dnnl_bf16);
        EXPECT_NE(decline_reason(g.plan(), isa_t::avx512_core_bf16).find("f32"),
                std::string::npos);
    }
    { // An operand that grows the output, and one with strided columns.
        case_t c;
        const logical_tensor_t x = base(c);
        add_binary(c, dnnl_graph_op_add, x, {8, 24}, false, {1, 8});
        EXPECT_NE(decline_reason(c.g.plan(), isa_t::avx2).find("columns"),
                std::string::npos);
        case_t d;
        const logical_tensor_t y = base(d);
        const logical_tensor_t o = d.g.in({3, 8, 24});
        d.g.add(dnnl_graph_op_add, {y, o}, {3, 8, 24});
        EXPECT_NE(decline_reason(d.g.plan(), isa_t::avx2).find("shape"),
                std::string::npos);
    }
    { // The MatMul value read twice (not x * sigmoid(x)), and x * x.
        case_t c;
        const logical_tensor_t x = base(c);
        const logical_tensor_t t = c.g.add(dnnl_graph_op_tanh, {x}, {8, 24});
        c.g.add(dnnl_graph_op_add, {x, t}, {8, 24});
        EXPECT_NE(decline_reason(c.g.plan(), isa_t::avx2).find("read by"),
                std::string::npos);
        case_t d;
        const logical_tensor_t y = base(d);
        d.g.add(dnnl_graph_op_multiply, {y, y}, {8, 24});
        EXPECT_FALSE(matmul::accepts(d.g.plan(), isa_t::avx2, nullptr));
    }
    { // A Select tail, and a value that is also a partition output.
        case_t c;
        const logical_tensor_t x = base(c);
        const logical_tensor_t cond = c.g.in({8, 24}, dnnl_boolean);
        const logical_tensor_t o = c.g.in({8, 24});
        c.g.add(dnnl_graph_op_select, {cond, x, o}, {8, 24});
        EXPECT_FALSE(matmul::accepts(c.g.plan(), isa_t::avx2, nullptr));
        case_t d;
        const logical_tensor_t y = base(d);
        d.g.add(dnnl_graph_op_relu, {y}, {8, 24});
        compiler::plan_t p = d.g.plan();
        p.outputs.insert(p.outputs.begin(), y);
        EXPECT_NE(decline_reason(p, isa_t::avx2).find("partition output"),
                std::string::npos);
    }
    { // More operands than the epilogue's table holds (8).
        case_t c;
        logical_tensor_t x = base(c);
        for (int i = 0; i < 9; ++i)
            x = add_binary(c, dnnl_graph_op_add, x, {24}, false);
        EXPECT_NE(decline_reason(c.g.plan(), isa_t::avx2).find("operands"),
                std::string::npos);
    }
    { // BiasAdd over dim 1 of a 3-D NCX dst is not per column.
        case_t c;
        const logical_tensor_t x = add_matmul(c, {2, 8, 16}, {16, 24});
        const logical_tensor_t b = c.g.in({8});
        c.g.add(dnnl_graph_op_bias_add, {x, b}, {2, 8, 24}, dnnl_f32,
                [](ir::op_t &op) {
                    op.set_attr(dnnl_graph_op_attr_data_format,
                            attr_value_t::make_str("NCX"));
                });
        EXPECT_NE(decline_reason(c.g.plan(), isa_t::avx2).find("channel axis"),
                std::string::npos);
    }
}

} // namespace
} // namespace cpu
} // namespace llga
