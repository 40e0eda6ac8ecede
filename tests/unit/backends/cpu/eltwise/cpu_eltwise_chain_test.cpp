// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/eltwise/cpu_eltwise_chain_test.cpp — the fused
// elementwise chain kernel at every JIT ISA level the host has: each unary and
// binary op inside chains (dense, scalar and commuted operands), 2..5-op
// chains, lengths with tails, in place, and the partitions it must decline.
// Each result is checked twice: bit for bit against the same ops run one by one
// on the single-op JIT kernels, and against the reference ops of ops/ with the
// per-op tolerances of cpu_eltwise_test.cpp composed along the chain.
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

#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using ir::attr_value_t;
using plan_test::bytes_t;

const std::vector<int64_t> k_sizes = {1, 7, 8, 9, 1000, 100003};

std::vector<isa_t> levels() {
    return test_isa::host_levels({isa_t::avx512_core, isa_t::avx2});
}
const char *isa_suffix(isa_t i) {
    return i == isa_t::avx512_core ? "_avx512" : "_avx2";
}

class CpuEltwiseChain : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

using attrs_t = std::function<void(ir::op_t &)>;
attrs_t f32_attr(dnnl_graph_op_attr_t a, float v) {
    return [a, v](ir::op_t &op) { op.set_attr(a, attr_value_t::make_f32(v)); };
}

// A chain partition built op by op; inputs carry their value range.
struct graph_t {
    dims_t shape;
    std::vector<ir::op_t> ops;
    std::vector<logical_tensor_t> ins;
    std::vector<std::pair<float, float>> ranges;
    size_t next = 100;

    explicit graph_t(dims_t d) : shape(std::move(d)) {}
    logical_tensor_t in(float lo, float hi, const dims_t &d = {},
            data_type_t dt = dnnl_f32) {
        ins.push_back(ir::make_lt(next++, dt, d.empty() ? shape : d));
        ranges.push_back({lo, hi});
        return ins.back();
    }
    logical_tensor_t add(op_kind_t k, std::vector<logical_tensor_t> inputs,
            const attrs_t &attrs = nullptr, data_type_t dt = dnnl_f32) {
        ir::op_t op;
        op.kind = k;
        op.id = ops.size() + 1;
        op.inputs = std::move(inputs);
        op.outputs.push_back(ir::make_lt(next++, dt, shape));
        if (op.inputs.size() == 2)
            op.set_attr(dnnl_graph_op_attr_auto_broadcast,
                    attr_value_t::make_str("numpy"));
        if (attrs) attrs(op);
        ops.push_back(op);
        return op.outputs[0];
    }
    compiler::plan_t plan() const {
        compiler::plan_t p;
        p.ops = ops;
        p.inputs = ins;
        p.outputs = {ops.back().outputs[0]};
        return p;
    }
};

float value_at(const bytes_t &b, int64_t i) {
    float v;
    std::memcpy(&v, b.data() + 4 * (b.size() / 4 == 1 ? 0 : i), 4);
    return v;
}

// The per-op bounds of cpu_eltwise_test.cpp: exact ops (ReLU ... Sqrt and
// the six binary ops) 0; exp, sigmoid, tanh, Elu rel 5e-7; GELU-tanh rel
// 2e-6 abs 1e-10; GELU-erf rel 1e-6 abs 1e-14. Every op also gets 2^-23
// relative: once its input differs from the reference's (error from an
// earlier op), even an exact op may round to the neighbouring float.
void op_tol(const ir::op_t &op, double *rtol, double *atol) {
    *rtol = std::ldexp(1.0, -23);
    *atol = 0;
    switch (op.kind) {
        case dnnl_graph_op_exp:
        case dnnl_graph_op_sigmoid:
        case dnnl_graph_op_tanh:
        case dnnl_graph_op_elu:
        case dnnl_graph_op_hard_sigmoid:
        case dnnl_graph_op_hard_swish: *rtol += 5e-7, *atol = 1e-38; break;
        case dnnl_graph_op_gelu:
            if (op.get_str(dnnl_graph_op_attr_mode, "gelu_erf") == "gelu_tanh")
                *rtol += 2e-6, *atol = 1e-10;
            else
                *rtol += 1e-6, *atol = 1e-14;
            break;
        default: break;
    }
}

// Bound on |d op / d chain value| near x (o: the other operand): how much
// an error already in the chain value grows through this op.
double gain(const ir::op_t &op, double x, double o) {
    switch (op.kind) {
        case dnnl_graph_op_multiply: return std::fabs(o);
        case dnnl_graph_op_divide: return 1 / std::fabs(o);
        case dnnl_graph_op_square: return 2 * std::fabs(x);
        case dnnl_graph_op_sqrt: return x > 0 ? 0.5 / std::sqrt(x) : INFINITY;
        case dnnl_graph_op_exp: return std::exp(x);
        case dnnl_graph_op_gelu: return 1.2;
        case dnnl_graph_op_elu:
        case dnnl_graph_op_leaky_relu:
            return std::max(1.0,
                    std::fabs(double(op.get_f32(dnnl_graph_op_attr_alpha, 1.f))));
        default: return 1; // the rest are 1-Lipschitz
    }
}

// Composition: the chain's error at element i is the sum over ops of what
// op k adds (rtol_k |v_k| + atol_k, the reference's own value v_k) times the
// gains of the ops after it; a factor 2 covers evaluating the gains at the
// reference's values rather than at the kernel's.
double chain_tol(const compiler::plan_t &p,
        const std::map<size_t, bytes_t> &ref, int64_t i) {
    double err = 0;
    for (size_t k = 0; k < p.ops.size(); ++k) {
        const ir::op_t &op = p.ops[k];
        if (k > 0) {
            const size_t prev = p.ops[k - 1].outputs[0].id;
            const bool side1 = op.inputs.size() == 2 && op.inputs[1].id == prev;
            const double x = value_at(ref.at(prev), i);
            const double o = op.inputs.size() == 2
                    ? value_at(ref.at(op.inputs[side1 ? 0 : 1].id), i)
                    : 0;
            err *= gain(op, x, o);
        }
        double r, a;
        op_tol(op, &r, &a);
        err += r * std::fabs(value_at(ref.at(op.outputs[0].id), i)) + a;
    }
    return 2 * err;
}

// The same ops one by one on the single-op JIT kernels.
bytes_t run_op_by_op_jit(const compiler::plan_t &p,
        const std::vector<bytes_t> &in) {
    std::map<size_t, bytes_t> v;
    for (size_t k = 0; k < p.inputs.size(); ++k)
        v[p.inputs[k].id] = in[k];
    for (const ir::op_t &op : p.ops) {
        compiler::plan_t one;
        one.ops = {op};
        one.inputs = op.inputs;
        one.outputs = op.outputs;
        std::vector<bytes_t> ins;
        for (const auto &lt : op.inputs)
            ins.push_back(v.at(lt.id));
        std::string kname;
        EXPECT_TRUE(plan_test::run_jit(one, ins, v[op.outputs[0].id], &kname))
                << ops::describe(op);
    }
    return v.at(p.outputs[0].id);
}

// Runs the chain fused at `isa` and checks it; `name` is the expected
// kernel name without its ISA suffix.
void check(const graph_t &g, isa_t isa, const std::string &name, unsigned seed,
        bool in_place = false) {
    test_isa::isa_guard_t guard(isa);
    const compiler::plan_t p = g.plan();
    std::mt19937 gen(seed);
    std::vector<bytes_t> in;
    for (size_t k = 0; k < g.ins.size(); ++k)
        in.push_back(plan_test::random_bytes(
                g.ins[k], gen, g.ranges[k].first, g.ranges[k].second));
    // A NaN in the first input must come out as NaN wherever the reference
    // has one (max/min/clamp/relu pass it through in both).
    if (in[0].size() / 4 > 4) {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        std::memcpy(in[0].data() + 12, &nan, 4);
    }
    const std::string what = name + " " + ir::dims_to_string(g.shape) + " "
            + isa_name(isa) + (in_place ? " inplace" : "");
    bytes_t got;
    std::string kname;
    const compiler::backend_t &be = cpu_backend();
    ASSERT_TRUE(be.supports(p)) << what;
    std::shared_ptr<const compiler::kernel_t> k;
    ASSERT_EQ(be.compile(p, k), dnnl_success) << last_error();
    kname = k->name();
    std::vector<bytes_t> bufs = in;
    got.assign(ir::mem_size(p.outputs[0]), 0);
    compiler::exec_ctx_t ctx;
    for (const auto &b : bufs)
        ctx.inputs.push_back(b.data());
    ctx.outputs.push_back(in_place ? bufs[0].data() : got.data());
    ASSERT_EQ(k->execute(ctx), dnnl_success) << last_error();
    if (in_place) got = bufs[0];
    EXPECT_EQ(kname, name + "_f32" + isa_suffix(isa)) << what;

    const bytes_t seq = run_op_by_op_jit(p, in);
    const auto ref = plan_test::run_ref(p, in);
    const bytes_t &want = ref.at(p.outputs[0].id);
    int bad = 0;
    for (int64_t i = 0; i < static_cast<int64_t>(got.size() / 4); ++i) {
        const float gv = value_at(got, i), sv = value_at(seq, i),
                    wv = value_at(want, i);
        // Fused = one by one, bit for bit: the same emitters, and every
        // intermediate is an f32 in a register instead of in memory.
        const bool same = std::memcmp(&gv, &sv, 4) == 0
                || (std::isnan(gv) && std::isnan(sv));
        bool ok;
        if (std::isnan(wv) || std::isnan(gv))
            ok = std::isnan(wv) && std::isnan(gv);
        else if (std::isinf(wv))
            ok = gv == wv;
        else
            ok = std::fabs(double(gv) - wv) <= chain_tol(p, ref, i);
        if ((!same || !ok) && bad++ < 5)
            ADD_FAILURE() << what << ": element " << i << " got " << gv
                          << " one-by-one " << sv << " reference " << wv
                          << " tol " << chain_tol(p, ref, i);
    }
}

struct unary_t {
    const char *label;
    op_kind_t kind;
    attrs_t attrs;
    float lo, hi; // input range of the chain's first value
};

const std::vector<unary_t> &unaries() {
    static const std::vector<unary_t> u = {
            {"relu", dnnl_graph_op_relu, nullptr, -2, 2},
            {"leaky_relu", dnnl_graph_op_leaky_relu,
                    f32_attr(dnnl_graph_op_attr_alpha, 0.1f), -2, 2},
            {"clamp", dnnl_graph_op_clamp,
                    [](ir::op_t &op) {
                        op.set_attr(dnnl_graph_op_attr_min,
                                attr_value_t::make_f32(-0.5f));
                        op.set_attr(dnnl_graph_op_attr_max,
                                attr_value_t::make_f32(0.7f));
                    },
                    -2, 2},
            {"abs", dnnl_graph_op_abs, nullptr, -2, 2},
            {"square", dnnl_graph_op_square, nullptr, -2, 2},
            {"sqrt", dnnl_graph_op_sqrt, nullptr, 0.1f, 2},
            {"exp", dnnl_graph_op_exp, nullptr, -3, 3},
            {"sigmoid", dnnl_graph_op_sigmoid, nullptr, -6, 6},
            {"tanh", dnnl_graph_op_tanh, nullptr, -3, 3},
            {"gelu_tanh", dnnl_graph_op_gelu,
                    [](ir::op_t &op) {
                        op.set_attr(dnnl_graph_op_attr_mode,
                                attr_value_t::make_str("gelu_tanh"));
                    },
                    -4, 4},
            {"gelu_erf", dnnl_graph_op_gelu, nullptr, -4, 4},
            {"elu", dnnl_graph_op_elu, f32_attr(dnnl_graph_op_attr_alpha, 0.7f),
                    -4, 2},
            {"hard_sigmoid", dnnl_graph_op_hard_sigmoid,
                    [](ir::op_t &op) {
                        op.set_attr(dnnl_graph_op_attr_alpha,
                                attr_value_t::make_f32(0.2f));
                        op.set_attr(dnnl_graph_op_attr_beta,
                                attr_value_t::make_f32(0.5f));
                    },
                    -4, 4},
            {"hard_swish", dnnl_graph_op_hard_swish, nullptr, -5, 5},
            {"round", dnnl_graph_op_round, nullptr, -9, 9},
    };
    return u;
}

struct binary_t {
    const char *label;
    op_kind_t kind;
};
const binary_t k_binaries[] = {{"add", dnnl_graph_op_add},
        {"sub", dnnl_graph_op_subtract}, {"mul", dnnl_graph_op_multiply},
        {"div", dnnl_graph_op_divide}, {"max", dnnl_graph_op_maximum},
        {"min", dnnl_graph_op_minimum}};

bool commutes(op_kind_t k) {
    return k == dnnl_graph_op_add || k == dnnl_graph_op_multiply
            || k == dnnl_graph_op_maximum || k == dnnl_graph_op_minimum;
}

// Each unary inside a chain: after a binary head (fp_binary_post_ops) and
// as the head of a unary -> binary chain (fp_eltwise_binary), whose
// operand is a scalar in one case.
TEST_F(CpuEltwiseChain, EachUnaryMatchesReference) {
    if (levels().empty()) GTEST_SKIP() << "no AVX2";
    unsigned seed = 1;
    for (isa_t isa : levels())
        for (const unary_t &u : unaries())
            for (int64_t n : k_sizes) {
                graph_t a({n});
                // x + y lands in [lo, hi] (each half of the range).
                auto s = a.add(dnnl_graph_op_add,
                        {a.in(u.lo / 2, u.hi / 2), a.in(u.lo / 2, u.hi / 2)});
                a.add(u.kind, {s}, u.attrs);
                check(a, isa, std::string("eltwise_chain_add+") + u.label,
                        seed++);

                graph_t b({n, 1});
                auto x = b.add(u.kind, {b.in(u.lo, u.hi)}, u.attrs);
                x = b.add(dnnl_graph_op_multiply, {x, b.in(-2, 2)});
                b.add(dnnl_graph_op_add, {b.in(-1, 1, {1}), x});
                check(b, isa, std::string("eltwise_chain_") + u.label
                                + "+mul+add",
                        seed++);
            }
}

// Each binary op as the head and as a post-op, with its operand dense or
// scalar, and the running value on input 1 where the op commutes.
TEST_F(CpuEltwiseChain, EachBinaryMatchesReference) {
    if (levels().empty()) GTEST_SKIP() << "no AVX2";
    unsigned seed = 1000;
    for (isa_t isa : levels())
        for (const binary_t &b : k_binaries)
            for (int64_t n : k_sizes)
                for (bool scalar : {false, true})
                    for (bool side1 : {false, true}) {
                        if (side1 && !commutes(b.kind)) continue;
                        const bool div = b.kind == dnnl_graph_op_divide;
                        // Divisors stay in [0.5, 2]: no 0, bounded gain.
                        const float lo = div ? 0.5f : -2.f;
                        graph_t g({2, n});
                        const dims_t od = scalar ? dims_t {1} : dims_t {};
                        // Head: B(x, y), then the same B as a post-op.
                        auto x = g.in(-2, 2), y = g.in(lo, 2, od);
                        auto v = g.add(b.kind,
                                side1 ? std::vector<logical_tensor_t> {y, x}
                                      : std::vector<logical_tensor_t> {x, y});
                        v = g.add(dnnl_graph_op_tanh, {v});
                        auto o = g.in(lo, 2, od);
                        g.add(b.kind, side1 ? std::vector<logical_tensor_t> {o, v}
                                            : std::vector<logical_tensor_t> {v, o});
                        check(g, isa,
                                std::string("eltwise_chain_") + b.label
                                        + "+tanh+" + b.label,
                                seed++);
                    }
}

// 2..5-op chains mixing dense and scalar operands; the 5-op ones read six
// dense streams (every pointer register, rbx and r12 included).
TEST_F(CpuEltwiseChain, LongChainsMatchReference) {
    if (levels().empty()) GTEST_SKIP() << "no AVX2";
    unsigned seed = 5000;
    const auto gelu_tanh = unaries()[9].attrs;
    for (isa_t isa : levels())
        for (int64_t n : k_sizes) {
            graph_t a({n});
            a.add(dnnl_graph_op_relu,
                    {a.add(dnnl_graph_op_add, {a.in(-2, 2), a.in(-2, 2)})});
            check(a, isa, "eltwise_chain_add+relu", seed++);

            graph_t b({n});
            auto v = b.add(dnnl_graph_op_multiply, {b.in(-2, 2), b.in(-2, 2, {1})});
            v = b.add(dnnl_graph_op_add, {b.in(-2, 2), v});
            b.add(dnnl_graph_op_relu, {v});
            check(b, isa, "eltwise_chain_mul+add+relu", seed++);

            graph_t c({n});
            v = c.add(dnnl_graph_op_gelu, {c.in(-4, 4)}, gelu_tanh);
            v = c.add(dnnl_graph_op_multiply, {v, c.in(-2, 2)});
            v = c.add(dnnl_graph_op_add, {v, c.in(-2, 2, {1})});
            v = c.add(dnnl_graph_op_subtract, {v, c.in(-2, 2)});
            c.add(dnnl_graph_op_maximum, {c.in(-2, 2), v});
            check(c, isa, "eltwise_chain_gelu_tanh+mul+add+sub+max", seed++);

            graph_t d({n});
            v = d.add(dnnl_graph_op_add, {d.in(-2, 2), d.in(-2, 2)});
            v = d.add(dnnl_graph_op_minimum, {v, d.in(-2, 2)});
            v = d.add(dnnl_graph_op_multiply, {d.in(-2, 2), v});
            v = d.add(dnnl_graph_op_divide, {v, d.in(0.5f, 2)});
            d.add(dnnl_graph_op_add, {v, d.in(-2, 2)});
            check(d, isa, "eltwise_chain_add+min+mul+div+add", seed++);
            check(d, isa, "eltwise_chain_add+min+mul+div+add", seed++, true);
        }
}

// A chain whose tensors are all channel-last (dense in another order) runs
// as one flat loop; exact ops, so the result equals the reference's.
TEST_F(CpuEltwiseChain, ChannelLastChainRunsFlat) {
    if (levels().empty()) GTEST_SKIP() << "no AVX2";
    const dims_t cl = {60, 1, 15, 3}; // [2, 3, 4, 5] stored N, H, W, C
    graph_t g({2, 3, 4, 5});
    auto channel_last = [&](logical_tensor_t &lt) {
        for (int d = 0; d < 4; ++d)
            lt.layout.strides[d] = cl[static_cast<size_t>(d)];
    };
    g.in(-2, 2);
    g.in(-2, 2);
    const logical_tensor_t s = g.in(-1, 1, {1});
    channel_last(g.ins[0]);
    channel_last(g.ins[1]);
    auto v = g.add(dnnl_graph_op_relu, {g.ins[0]});
    v = g.add(dnnl_graph_op_add, {v, g.ins[1]});
    g.add(dnnl_graph_op_maximum, {v, s});
    for (auto &op : g.ops) {
        channel_last(op.outputs[0]);
        for (auto &lt : op.inputs)
            if (lt.ndims == 4) channel_last(lt);
    }
    const compiler::plan_t p = g.plan();
    std::mt19937 gen(8);
    std::vector<bytes_t> in;
    for (const auto &lt : p.inputs)
        in.push_back(plan_test::random_bytes(lt, gen, -2.f, 2.f));
    const auto want = plan_test::run_ref(p, in);
    for (isa_t isa : levels()) {
        test_isa::isa_guard_t guard(isa);
        bytes_t got;
        std::string kname;
        ASSERT_TRUE(plan_test::run_jit(p, in, got, &kname));
        EXPECT_EQ(kname.rfind("eltwise_chain", 0), 0u) << kname;
        EXPECT_TRUE(got == want.at(p.outputs[0].id)) << kname;
    }
}

TEST_F(CpuEltwiseChain, Declines) {
    const compiler::backend_t &be = cpu_backend();
    // Row broadcast (the single-op kernel takes it, the chain does not).
    graph_t a({4, 8});
    a.add(dnnl_graph_op_relu, {a.add(dnnl_graph_op_add, {a.in(-1, 1), a.in(-1, 1, {8})})});
    EXPECT_FALSE(be.supports(a.plan()));
    // Mixed types (bf16 inputs, f32 values after them); chains of one
    // type are taken (bf16/f16: cpu_eltwise_half_test.cpp).
    graph_t b({64});
    b.add(dnnl_graph_op_relu,
            {b.add(dnnl_graph_op_add,
                    {b.in(-1, 1, {}, dnnl_bf16), b.in(-1, 1, {}, dnnl_bf16)})});
    EXPECT_FALSE(be.supports(b.plan()));
    // Swish: the intermediate s feeds both Sigmoid and Multiply.
    graph_t c({64});
    auto s = c.add(dnnl_graph_op_add, {c.in(-1, 1), c.in(-1, 1)});
    c.add(dnnl_graph_op_multiply, {s, c.add(dnnl_graph_op_sigmoid, {s})});
    EXPECT_FALSE(be.supports(c.plan()));
    // Subtract with the running value on input 1.
    graph_t d({64});
    d.add(dnnl_graph_op_subtract,
            {d.in(-1, 1), d.add(dnnl_graph_op_relu, {d.in(-1, 1)})});
    EXPECT_FALSE(be.supports(d.plan()));
    // Seven dense operand streams (one more than the pointer registers).
    graph_t e({64});
    auto v = e.add(dnnl_graph_op_add, {e.in(-1, 1), e.in(-1, 1)});
    for (int k = 0; k < 5; ++k)
        v = e.add(dnnl_graph_op_add, {v, e.in(-1, 1)});
    EXPECT_FALSE(be.supports(e.plan()));
    // Not a chain: two independent ops.
    graph_t f({64});
    f.add(dnnl_graph_op_relu, {f.in(-1, 1)});
    f.add(dnnl_graph_op_abs, {f.in(-1, 1)});
    EXPECT_FALSE(be.supports(f.plan()));
    // A unary op outside the eltwise family (Log).
    graph_t h({64});
    h.add(dnnl_graph_op_log,
            {h.add(dnnl_graph_op_add, {h.in(1, 2), h.in(1, 2)})});
    EXPECT_FALSE(be.supports(h.plan()));
    // The intermediate is also a partition output.
    graph_t k({64});
    k.add(dnnl_graph_op_relu, {k.add(dnnl_graph_op_add, {k.in(-1, 1), k.in(-1, 1)})});
    compiler::plan_t kp = k.plan();
    kp.outputs.insert(kp.outputs.begin(), k.ops[0].outputs[0]);
    EXPECT_FALSE(be.supports(kp));
    // Sanity: a 6-dense-stream chain one op shorter is taken.
    e.ops.pop_back();
    e.ins.pop_back();
    e.ranges.pop_back();
    EXPECT_TRUE(be.supports(e.plan()));
}

} // namespace
} // namespace cpu
} // namespace llga
