// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/eltwise/cpu_eltwise_half_test.cpp — the elementwise
// JIT kernels on bf16 and f16 tensors (f32 math, the values widened as loaded
// and rounded to nearest even as stored) against the reference at every JIT
// level the host has: every binary op and the exact unary ops byte for byte
// (NaN, infinities and signed zeros among the inputs), the transcendental ones
// within one unit in the last place of the storage type, sizes with every
// vector tail, scalar and row broadcasts, BiasAdd, chains (every intermediate
// rounded to the type), and a 2-byte scalar operand at the very end of its
// allocation.
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/isa.hpp"
#include "base/status.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using ir::attr_value_t;
using bytes_t = std::vector<char>;

class CpuEltwiseHalf : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

const int64_t k_sizes[] = {1, 7, 8, 9, 15, 16, 17, 33, 1000, 40001};

uint16_t to_16(data_type_t dt, float v) {
    return dt == dnnl_bf16 ? ir::f32_to_bf16(v) : ir::f32_to_f16(v);
}
float from_16(data_type_t dt, uint16_t h) {
    return dt == dnnl_bf16 ? ir::bf16_to_f32(h) : ir::f16_to_f32(h);
}

// n values of the type: mostly uniform in [-lo_hi, lo_hi], with NaN, both
// infinities and both zeros among the first ones when `specials`.
bytes_t values(data_type_t dt, int64_t n, float lo_hi, unsigned seed,
        bool specials) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> u(-lo_hi, lo_hi);
    bytes_t b(static_cast<size_t>(n) * 2);
    uint16_t *h = reinterpret_cast<uint16_t *>(b.data());
    const float sp[] = {std::nanf(""), INFINITY, -INFINITY, 0.f, -0.f};
    for (int64_t i = 0; i < n; ++i)
        h[i] = to_16(dt, specials && i < 5 ? sp[i] : u(gen));
    return b;
}

ir::op_t make_op(op_kind_t kind, data_type_t dt,
        const std::vector<dims_t> &in_dims, const dims_t &out_dims) {
    ir::op_t op;
    op.kind = kind;
    op.id = 1;
    op.name = "half_test";
    size_t id = 10;
    for (const auto &d : in_dims)
        op.inputs.push_back(ir::make_lt(id++, dt, d));
    op.outputs.push_back(ir::make_lt(id++, dt, out_dims));
    if (in_dims.size() == 2)
        op.set_attr(dnnl_graph_op_attr_auto_broadcast,
                attr_value_t::make_str("numpy"));
    return op;
}

bytes_t run_ref(const ir::op_t &op, const std::vector<const void *> &in) {
    bytes_t out(ir::mem_size(op.outputs[0]));
    std::vector<void *> o = {out.data()};
    EXPECT_EQ(ops::find_op_def(op.kind)->ref(op, in, o), dnnl_success)
            << last_error();
    return out;
}

bytes_t run_jit(const ir::op_t &op, const std::vector<const void *> &in,
        std::string *kname) {
    const compiler::plan_t plan = plan_test::plan_of(op);
    std::shared_ptr<const compiler::kernel_t> k;
    EXPECT_EQ(cpu_backend().compile(plan, k), dnnl_success) << last_error();
    bytes_t out(ir::mem_size(op.outputs[0]));
    if (!k) return out;
    *kname = k->name();
    compiler::exec_ctx_t ctx;
    for (const void *p : in)
        ctx.inputs.push_back(p);
    ctx.outputs.push_back(out.data());
    EXPECT_EQ(k->execute(ctx), dnnl_success) << last_error();
    return out;
}

// Whether the two 16-bit patterns are equal or adjacent values (one unit
// in the last place): ordered as sign-magnitude integers. Both NaN counts
// as equal; +0 and -0 too.
bool within_ulp(uint16_t g, uint16_t w, data_type_t dt) {
    const float fg = from_16(dt, g), fw = from_16(dt, w);
    if (std::isnan(fg) || std::isnan(fw)) return std::isnan(fg) && std::isnan(fw);
    if (fg == fw) return true;
    const auto key = [](uint16_t h) {
        return h & 0x8000 ? -int32_t(h & 0x7fff) : int32_t(h);
    };
    return std::abs(key(g) - key(w)) <= 1;
}

std::string isa_suffix(isa_t i) {
    return i == isa_t::avx512_core ? "avx512" : "avx2";
}

// Checks the kernel's name and its output against the reference: byte
// for byte, or (tolerant) within one ulp per element.
void check(const ir::op_t &op, const std::vector<const void *> &in, isa_t isa,
        bool tolerant, const std::string &what) {
    std::string kname;
    const bytes_t got = run_jit(op, in, &kname);
    const bytes_t want = run_ref(op, in);
    const data_type_t dt = op.outputs[0].data_type;
    const std::string type = dt == dnnl_bf16 ? "_bf16_" : "_f16_";
    EXPECT_NE(kname.find(type + isa_suffix(isa)), std::string::npos)
            << what << " ran " << kname;
    const uint16_t *g = reinterpret_cast<const uint16_t *>(got.data());
    const uint16_t *w = reinterpret_cast<const uint16_t *>(want.data());
    int bad = 0;
    for (size_t i = 0; i < got.size() / 2; ++i) {
        const bool ok = tolerant ? within_ulp(g[i], w[i], dt) : g[i] == w[i];
        if (!ok && bad++ < 3)
            ADD_FAILURE() << what << " @" << isa_name(isa) << " element " << i
                          << ": got 0x" << std::hex << g[i] << " want 0x"
                          << w[i] << std::dec << " (" << from_16(dt, g[i])
                          << " vs " << from_16(dt, w[i]) << ")";
    }
}

std::vector<isa_t> levels() {
    return test_isa::host_levels({isa_t::avx512_core, isa_t::avx2});
}

TEST_F(CpuEltwiseHalf, BinaryOpsMatchTheReferenceByteForByte) {
    if (levels().empty()) GTEST_SKIP() << "no JIT level";
    const op_kind_t kinds[] = {dnnl_graph_op_add, dnnl_graph_op_subtract,
            dnnl_graph_op_multiply, dnnl_graph_op_divide,
            dnnl_graph_op_maximum, dnnl_graph_op_minimum};
    unsigned seed = 1;
    for (isa_t isa : levels()) {
        test_isa::isa_guard_t guard(isa);
        for (data_type_t dt : {dnnl_bf16, dnnl_f16})
            for (op_kind_t k : kinds)
                for (int64_t n : k_sizes) {
                    const std::string what = std::string(ops::op_kind_name(k))
                            + " " + ir::dtype_name(dt) + " n=" + std::to_string(n);
                    // NaN and the other specials in a only: which NaN a
                    // two-NaN operation returns is not specified.
                    const bytes_t a = values(dt, n, 50.f, seed++, true);
                    const bytes_t b = values(dt, n, 50.f, seed++, false);
                    check(make_op(k, dt, {{n}, {n}}, {n}), {a.data(), b.data()},
                            isa, false, what);
                    // A scalar on either side; a row broadcast.
                    check(make_op(k, dt, {{n}, {1}}, {n}), {a.data(), b.data()},
                            isa, false, what + " x scalar");
                    check(make_op(k, dt, {{1}, {n}}, {n}), {b.data(), a.data()},
                            isa, false, what + " scalar x");
                    const bytes_t m = values(dt, 3 * n, 50.f, seed++, true);
                    check(make_op(k, dt, {{3, n}, {n}}, {3, n}),
                            {m.data(), b.data()}, isa, false, what + " rows");
                }
    }
}

TEST_F(CpuEltwiseHalf, UnaryOpsMatchTheReference) {
    if (levels().empty()) GTEST_SKIP() << "no JIT level";
    struct unary_t {
        op_kind_t kind;
        bool tolerant; // vector math: within one ulp of the storage type
        float range;
        void (*attrs)(ir::op_t &);
    };
    const unary_t ops_[] = {{dnnl_graph_op_relu, false, 10.f, nullptr},
            {dnnl_graph_op_abs, false, 10.f, nullptr},
            {dnnl_graph_op_square, false, 10.f, nullptr},
            {dnnl_graph_op_round, false, 10.f, nullptr},
            {dnnl_graph_op_clamp, false, 10.f,
                    [](ir::op_t &op) {
                        op.set_attr(dnnl_graph_op_attr_min,
                                attr_value_t::make_f32(-2.5f));
                        op.set_attr(dnnl_graph_op_attr_max,
                                attr_value_t::make_f32(3.f));
                    }},
            {dnnl_graph_op_leaky_relu, false, 10.f,
                    [](ir::op_t &op) {
                        op.set_attr(dnnl_graph_op_attr_alpha,
                                attr_value_t::make_f32(0.125f));
                    }},
            {dnnl_graph_op_exp, true, 8.f, nullptr},
            {dnnl_graph_op_tanh, true, 5.f, nullptr},
            {dnnl_graph_op_sigmoid, true, 10.f, nullptr},
            {dnnl_graph_op_gelu, true, 6.f, nullptr},
            {dnnl_graph_op_sqrt, true, 100.f, nullptr},
            {dnnl_graph_op_hard_swish, true, 6.f, nullptr}};
    unsigned seed = 100;
    for (isa_t isa : levels()) {
        test_isa::isa_guard_t guard(isa);
        for (data_type_t dt : {dnnl_bf16, dnnl_f16})
            for (const unary_t &u : ops_)
                for (int64_t n : k_sizes) {
                    ir::op_t op = make_op(u.kind, dt, {{n}}, {n});
                    if (u.attrs) u.attrs(op);
                    const bytes_t x = values(dt, n, u.range, seed++, true);
                    check(op, {x.data()}, isa, u.tolerant,
                            std::string(ops::op_kind_name(u.kind)) + " "
                                    + ir::dtype_name(dt) + " n="
                                    + std::to_string(n));
                }
    }
}

// BiasAdd: the bias along the channel axis (channels first and last).
TEST_F(CpuEltwiseHalf, BiasAddAlongTheChannelAxis) {
    if (levels().empty()) GTEST_SKIP() << "no JIT level";
    for (isa_t isa : levels()) {
        test_isa::isa_guard_t guard(isa);
        for (data_type_t dt : {dnnl_bf16, dnnl_f16})
            for (const char *fmt : {"NCX", "NXC"}) {
                const bool last = std::string(fmt) == "NXC";
                const dims_t d = last ? dims_t {2, 5, 7, 3} : dims_t {2, 3, 5, 7};
                ir::op_t op = make_op(dnnl_graph_op_bias_add, dt, {d, {3}}, d);
                op.attrs.clear();
                op.set_attr(dnnl_graph_op_attr_data_format,
                        attr_value_t::make_str(fmt));
                const bytes_t x = values(dt, 210, 9.f, 3, true);
                const bytes_t b = values(dt, 3, 9.f, 4, false);
                check(op, {x.data(), b.data()}, isa, false,
                        std::string("BiasAdd ") + fmt);
            }
    }
}

// Chains (eltwise_chain): every intermediate is rounded to the type, as
// the reference stores it, so a chain of exact ops matches the reference
// run op by op byte for byte: Add -> ReLU -> Multiply by a scalar ->
// Maximum with a dense operand -> Clamp, every vector tail.
TEST_F(CpuEltwiseHalf, ChainsRoundEveryIntermediate) {
    if (levels().empty()) GTEST_SKIP() << "no JIT level";
    unsigned seed = 500;
    for (isa_t isa : levels()) {
        test_isa::isa_guard_t guard(isa);
        for (data_type_t dt : {dnnl_bf16, dnnl_f16})
            for (int64_t n : k_sizes) {
                plan_test::plan_builder_t g;
                const dims_t d = {n};
                const logical_tensor_t a = g.in(d, dt), b = g.in(d, dt),
                                       s = g.in({1}, dt), c = g.in(d, dt);
                auto v = g.add(dnnl_graph_op_add, {a, b}, d, dt, [](ir::op_t &op) {
                    op.set_attr(dnnl_graph_op_attr_auto_broadcast,
                            attr_value_t::make_str("numpy"));
                });
                v = g.add(dnnl_graph_op_relu, {v}, d, dt);
                v = g.add(dnnl_graph_op_multiply, {v, s}, d, dt, [](ir::op_t &op) {
                    op.set_attr(dnnl_graph_op_attr_auto_broadcast,
                            attr_value_t::make_str("numpy"));
                });
                v = g.add(dnnl_graph_op_maximum, {v, c}, d, dt, [](ir::op_t &op) {
                    op.set_attr(dnnl_graph_op_attr_auto_broadcast,
                            attr_value_t::make_str("numpy"));
                });
                g.add(dnnl_graph_op_clamp, {v}, d, dt, [](ir::op_t &op) {
                    op.set_attr(dnnl_graph_op_attr_min, attr_value_t::make_f32(-1.f));
                    op.set_attr(dnnl_graph_op_attr_max, attr_value_t::make_f32(30.f));
                });
                const compiler::plan_t p = g.plan();
                const std::vector<bytes_t> in = {values(dt, n, 20.f, seed++, true),
                        values(dt, n, 20.f, seed++, false),
                        values(dt, 1, 2.f, seed++, false),
                        values(dt, n, 20.f, seed++, false)};
                bytes_t got;
                std::string kname;
                ASSERT_TRUE(plan_test::run_jit(p, in, got, &kname));
                const std::string type = dt == dnnl_bf16 ? "_bf16_" : "_f16_";
                EXPECT_EQ(kname.rfind("eltwise_chain_", 0), 0u) << kname;
                EXPECT_NE(kname.find(type + isa_suffix(isa)), std::string::npos)
                        << kname;
                EXPECT_EQ(got, plan_test::run_ref(p, in).at(p.outputs[0].id))
                        << ir::dtype_name(dt) << " n=" << n << " @"
                        << isa_name(isa);
            }
    }
}

// The scalar side of a binary op is read as its 2 bytes, never as a whole
// vector: here it is the last 2 bytes before an unreadable page.
TEST_F(CpuEltwiseHalf, ScalarOperandIsReadAsTwoBytes) {
    if (levels().empty()) GTEST_SKIP() << "no JIT level";
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    char *mem = static_cast<char *>(mmap(nullptr, 2 * page,
            PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    ASSERT_NE(mem, MAP_FAILED);
    ASSERT_EQ(mprotect(mem + page, page, PROT_NONE), 0);
    uint16_t *s = reinterpret_cast<uint16_t *>(mem + page - 2);
    for (isa_t isa : levels()) {
        test_isa::isa_guard_t guard(isa);
        for (data_type_t dt : {dnnl_bf16, dnnl_f16}) {
            *s = to_16(dt, 1.5f);
            const int64_t n = 37;
            const bytes_t a = values(dt, n, 4.f, 7, false);
            check(make_op(dnnl_graph_op_multiply, dt, {{n}, {1}}, {n}),
                    {a.data(), s}, isa, false, "multiply by a scalar");
        }
    }
    munmap(mem, 2 * page);
}

} // namespace
} // namespace cpu
} // namespace llga
