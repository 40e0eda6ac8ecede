// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/matmul/cpu_matmul_test.cpp — the JIT GEMM MatMul
// kernels against the reference MatMul of ops/ at every ISA level the host has:
// randomized M/N/K with tails, transposes, strided and broadcast batches, bias
// shapes, bf16 inputs with f32 and bf16 outputs, rank-1 operands (GEMV),
// multiple K/N/M blocks, and what the family must decline.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
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
#include "ops/registry.hpp"
#include "runtime/constant_cache.hpp"
#include "runtime/engine.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using ir::attr_value_t;

// Every level the host runs, each exercising the best candidate below it.
std::vector<isa_t> levels() {
    return test_isa::host_levels({isa_t::avx2, isa_t::avx512_core, isa_t::avx512_core_bf16,
                 isa_t::avx512_core_amx});
}

using test_isa::isa_guard_t;

class CpuMatmul : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

// One MatMul test case. Dims are logical (before transposes); strides are
// optional physical strides (empty: dense).
struct mm_case_t {
    dims_t a, b, bias;
    bool ta = false, tb = false;
    data_type_t src = dnnl_f32, dst = dnnl_f32, bias_dt = dnnl_f32;
    dims_t sa, sb, sd; // custom strides for A, B and dst (empty: dense)
    bool has_bias = false;
};

logical_tensor_t lt_with(size_t id, data_type_t dt, const dims_t &d,
        const dims_t &strides) {
    logical_tensor_t lt = ir::make_lt(id, dt, d);
    for (size_t i = 0; i < strides.size(); ++i)
        lt.layout.strides[i] = strides[i];
    return lt;
}

// Output shape as the op defines it (used to build the op).
dims_t dst_dims(const mm_case_t &c) {
    dims_t a = c.a, b = c.b;
    const bool pa = a.size() == 1, pb = b.size() == 1;
    if (pa) a = {1, a[0]};
    if (pb) b = {b[0], 1};
    if (c.ta && !pa) std::swap(a[a.size() - 1], a[a.size() - 2]);
    if (c.tb && !pb) std::swap(b[b.size() - 1], b[b.size() - 2]);
    dims_t batch;
    const dims_t ab(a.begin(), a.end() - 2), bb(b.begin(), b.end() - 2);
    const size_t nb = std::max(ab.size(), bb.size());
    for (size_t i = 0; i < nb; ++i) {
        const int64_t x = i + ab.size() >= nb ? ab[i + ab.size() - nb] : 1;
        const int64_t y = i + bb.size() >= nb ? bb[i + bb.size() - nb] : 1;
        batch.push_back(std::max(x, y));
    }
    if (!pa) batch.push_back(a[a.size() - 2]);
    if (!pb) batch.push_back(b.back());
    return batch;
}

ir::op_t make_mm(const mm_case_t &c) {
    ir::op_t op;
    op.kind = dnnl_graph_op_matmul;
    op.id = 1;
    op.name = "mm_test";
    op.inputs.push_back(lt_with(10, c.src, c.a, c.sa));
    op.inputs.push_back(lt_with(11, c.src, c.b, c.sb));
    if (c.has_bias) op.inputs.push_back(ir::make_lt(12, c.bias_dt, c.bias));
    op.outputs.push_back(lt_with(13, c.dst, dst_dims(c), c.sd));
    op.set_attr(dnnl_graph_op_attr_transpose_a, attr_value_t::make_bool(c.ta));
    op.set_attr(dnnl_graph_op_attr_transpose_b, attr_value_t::make_bool(c.tb));
    return op;
}

using plan_test::plan_of;

// A buffer covering a tensor's strided span, as raw bytes.
struct buf_t {
    data_type_t dt = dnnl_f32;
    std::vector<char> bytes;
    size_t n() const { return bytes.size() / (dt == dnnl_f32 ? 4 : 2); }
    float get(size_t i) const {
        if (dt == dnnl_f32) {
            float v;
            std::memcpy(&v, bytes.data() + 4 * i, 4);
            return v;
        }
        uint16_t h;
        std::memcpy(&h, bytes.data() + 2 * i, 2);
        return dt == dnnl_f16 ? ir::f16_to_f32(h) : ir::bf16_to_f32(h);
    }
    void set(size_t i, float v) {
        if (dt == dnnl_f32) {
            std::memcpy(bytes.data() + 4 * i, &v, 4);
        } else {
            const uint16_t h = dt == dnnl_f16 ? ir::f32_to_f16(v)
                                              : ir::f32_to_bf16(v);
            std::memcpy(bytes.data() + 2 * i, &h, 2);
        }
    }
};

buf_t random_buf(const logical_tensor_t &lt, std::mt19937 &gen) {
    buf_t b {lt.data_type, std::vector<char>(ir::mem_size(lt))};
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    for (size_t i = 0; i < b.n(); ++i)
        b.set(i, u(gen));
    return b;
}

buf_t abs_buf(const buf_t &in) {
    buf_t b = in;
    for (size_t i = 0; i < b.n(); ++i)
        b.set(i, std::fabs(in.get(i)));
    return b;
}

buf_t run_ref(const ir::op_t &op, const std::vector<buf_t> &in) {
    buf_t out {op.outputs[0].data_type,
            std::vector<char>(ir::mem_size(op.outputs[0]))};
    std::vector<const void *> ip;
    for (const auto &b : in)
        ip.push_back(b.bytes.data());
    std::vector<void *> op_out = {out.bytes.data()};
    EXPECT_EQ(ops::find_op_def(op.kind)->ref(op, ip, op_out), dnnl_success)
            << last_error();
    return out;
}

// Runs through the cpu backend; false if it declined.
bool run_jit(const ir::op_t &op, const std::vector<buf_t> &in, buf_t &out,
        std::string *kname) {
    const compiler::plan_t plan = plan_of(op);
    const compiler::backend_t &be = cpu_backend();
    if (!be.supports(plan)) return false;
    std::shared_ptr<const compiler::kernel_t> k;
    EXPECT_EQ(be.compile(plan, k), dnnl_success) << last_error();
    if (!k) return false;
    *kname = k->name();
    out = buf_t {op.outputs[0].data_type,
            std::vector<char>(ir::mem_size(op.outputs[0]))};
    compiler::exec_ctx_t ctx;
    for (const auto &b : in)
        ctx.inputs.push_back(b.bytes.data());
    ctx.outputs.push_back(out.bytes.data());
    EXPECT_EQ(k->execute(ctx), dnnl_success) << last_error();
    return true;
}

std::string describe(const mm_case_t &c, isa_t isa) {
    std::string s = ir::dims_to_string(c.a) + (c.ta ? "^T" : "") + " x "
            + ir::dims_to_string(c.b) + (c.tb ? "^T" : "") + " "
            + ir::dtype_name(c.src) + "->" + ir::dtype_name(c.dst);
    if (c.has_bias)
        s += " bias " + ir::dims_to_string(c.bias) + " "
                + ir::dtype_name(c.bias_dt);
    if (!c.sa.empty()) s += " sa " + ir::dims_to_string(c.sa);
    if (!c.sb.empty()) s += " sb " + ir::dims_to_string(c.sb);
    return s + " @" + isa_name(isa);
}

// Runs one case at the current max ISA and checks it against the
// reference. The error bound is the one of f32 summation: (K + 4) unit
// roundoffs of sum |a||b| + |bias| (the reference run on absolute values),
// plus one bf16 rounding of the result when dst is bf16 (the two sides
// round slightly different sums). Returns whether the JIT ran.
bool check_case(const mm_case_t &c, isa_t isa, unsigned seed,
        bool expect_jit) {
    const ir::op_t op = make_mm(c);
    std::mt19937 gen(seed);
    std::vector<buf_t> in;
    for (const auto &lt : op.inputs)
        in.push_back(random_buf(lt, gen));
    std::vector<buf_t> in_abs;
    for (const auto &b : in)
        in_abs.push_back(abs_buf(b));
    buf_t got;
    std::string kname;
    const std::string what = describe(c, isa);
    const bool ran = run_jit(op, in, got, &kname);
    EXPECT_EQ(ran, expect_jit) << what;
    if (!ran) return false;
    const bool avx512 = isa >= isa_t::avx512_core;
    EXPECT_NE(kname.find(avx512 ? "avx512" : "avx2"), std::string::npos)
            << what << " ran " << kname;
    const buf_t want = run_ref(op, in);
    // Magnitudes in f32 whatever the dst type.
    ir::op_t op_mag = op;
    op_mag.outputs[0].data_type = dnnl_f32;
    const buf_t mag = run_ref(op_mag, in_abs);
    const int64_t K = c.ta ? c.a[c.a.size() - 2] : c.a.back();
    const double u = std::ldexp(1.0, -24);
    const double rel = (K + 4) * u * (c.src != dnnl_f32 ? 2 : 1);
    int bad = 0;
    for (size_t i = 0; i < want.n(); ++i) {
        const double g = got.get(i), w = want.get(i), m = mag.get(i);
        double tol = rel * m + 1e-30;
        if (c.dst == dnnl_bf16) tol += std::ldexp(std::fabs(w), -7);
        if (c.dst == dnnl_f16) tol += std::ldexp(std::fabs(w), -10);
        if (!(std::fabs(g - w) <= tol) && bad++ < 5)
            ADD_FAILURE() << what << ": element " << i << " got " << g
                          << " want " << w << " (tol " << tol << ")";
    }
    return bad == 0;
}

const int64_t k_edge[] = {1, 3, 16, 17, 33, 64, 100, 257};

// Random (M, N, K) from the edge list, capped so the reference stays fast;
// always includes the 1s and a 257 in each dim.
std::vector<std::array<int64_t, 3>> shape_panel(unsigned seed, int count) {
    std::vector<std::array<int64_t, 3>> v = {{1, 1, 1}, {257, 3, 17},
            {3, 257, 33}, {17, 33, 257}, {1, 100, 257}, {100, 64, 1}};
    std::mt19937 gen(seed);
    while (static_cast<int>(v.size()) < count) {
        std::array<int64_t, 3> s;
        for (auto &x : s)
            x = k_edge[gen() % 8];
        if (s[0] * s[1] * s[2] <= 700000) v.push_back(s);
    }
    return v;
}

TEST_F(CpuMatmul, F32ShapesWithTailsAtEveryIsa) {
    const auto lv = levels();
    if (lv.empty()) GTEST_SKIP() << "no AVX2";
    for (isa_t isa : lv) {
        isa_guard_t g(isa);
        unsigned seed = 1;
        for (const auto &s : shape_panel(7, 30)) {
            mm_case_t c;
            c.a = {s[0], s[2]};
            c.b = {s[2], s[1]};
            if (!check_case(c, isa, seed++, true)) return;
        }
    }
}

TEST_F(CpuMatmul, Bf16ShapesWithTailsAtEveryIsa) {
    const auto lv = levels();
    if (lv.empty()) GTEST_SKIP() << "no AVX2";
    for (isa_t isa : lv) {
        isa_guard_t g(isa);
        // Below avx512_core_bf16 the staged kernel widens the operands
        // to f32 around the f32 MatMul (backends/cpu/kernels/staged.cpp).
        unsigned seed = 100;
        for (const auto &s : shape_panel(11, 24))
            for (data_type_t dt : {dnnl_f32, dnnl_bf16}) {
                mm_case_t c;
                c.a = {s[0], s[2]};
                c.b = {s[2], s[1]};
                c.src = dnnl_bf16;
                c.dst = dt;
                if (!check_case(c, isa, seed++, true)) return;
            }
    }
}

// Transposes, strided operands, batches with broadcast, biases, rank-1
// operands and multi-block shapes, for f32 and (where the host has it) bf16.
std::vector<mm_case_t> layout_cases(data_type_t src, data_type_t dst) {
    std::vector<mm_case_t> v;
    auto add = [&](mm_case_t c) {
        c.src = src;
        c.dst = dst;
        c.bias_dt = src;
        v.push_back(c);
    };
    mm_case_t c;
    for (bool ta : {false, true})
        for (bool tb : {false, true}) {
            c = {};
            c.a = ta ? dims_t {33, 17} : dims_t {17, 33};
            c.b = tb ? dims_t {40, 33} : dims_t {33, 40};
            c.ta = ta;
            c.tb = tb;
            add(c);
        }
    // B stored column-major through strides (no transpose flag), A with a
    // padded row stride.
    c = {};
    c.a = {19, 45};
    c.sa = {50, 1};
    c.b = {45, 37};
    c.sb = {1, 45};
    add(c);
    // Broadcast batches: [2,1,M,K] x [1,3,K,N] and [3,M,K] x [K,N] (folded
    // into one tall GEMM), plus a batch where A repeats.
    c = {};
    c.a = {2, 1, 5, 20};
    c.b = {1, 3, 20, 35};
    add(c);
    c = {};
    c.a = {3, 7, 20};
    c.b = {20, 35};
    add(c);
    c = {};
    c.a = {7, 20};
    c.b = {4, 20, 35};
    add(c);
    // Strided batch: A's batch stride leaves a gap.
    c = {};
    c.a = {3, 6, 10};
    c.sa = {100, 10, 1};
    c.b = {3, 10, 18};
    c.tb = false;
    add(c);
    // Bias: per column, [1, N], one value.
    for (const dims_t &bd : {dims_t {35}, dims_t {1, 35}, dims_t {1}}) {
        c = {};
        c.a = {13, 22};
        c.b = {22, 35};
        c.has_bias = true;
        c.bias = bd;
        add(c);
    }
    // GEMV: rank-1 src, [1, K] src, rank-1 weights; with bias.
    c = {};
    c.a = {300};
    c.b = {300, 70};
    c.has_bias = true;
    c.bias = {70};
    add(c);
    c = {};
    c.a = {1, 300};
    c.b = {300, 70};
    add(c);
    c = {};
    c.a = {9, 300};
    c.b = {300};
    add(c);
    c = {};
    c.a = {2, 1, 64};
    c.b = {2, 64, 50};
    c.tb = false;
    add(c);
    // Several K blocks (f32 KC 256, bf16 KC 512), N blocks (NC <= 512) and
    // M blocks (MC <= 384).
    c = {};
    c.a = {20, 600};
    c.b = {600, 40};
    c.has_bias = true;
    c.bias = {40};
    add(c);
    c = {};
    c.a = {400, 20};
    c.b = {20, 600};
    add(c);
    // Whole 32-row panels and 32-k chunks: AMX reads A in place for the
    // first K block and packs the 88-k remainder.
    c = {};
    c.a = {64, 600};
    c.b = {600, 40};
    c.has_bias = true;
    c.bias = {40};
    add(c);
    return v;
}

TEST_F(CpuMatmul, LayoutsBatchesBiasAndGemv) {
    const auto lv = levels();
    if (lv.empty()) GTEST_SKIP() << "no AVX2";
    for (isa_t isa : lv) {
        isa_guard_t g(isa);
        unsigned seed = 500;
        for (const auto &c : layout_cases(dnnl_f32, dnnl_f32))
            if (!check_case(c, isa, seed++, true)) return;
        if (isa < isa_t::avx512_core_bf16) continue;
        for (data_type_t dst : {dnnl_f32, dnnl_bf16})
            for (const auto &c : layout_cases(dnnl_bf16, dst))
                if (!check_case(c, isa, seed++, true)) return;
    }
}

// bf16 and f16 MatMuls on AVX2 (matmul_gemm_<dt>_avx2: the f32 GEMM with
// the weights widened in registers where a few rows read them in place,
// else as they are packed): every dst type, bias, batches folded into M
// or with their own weights, a strided src and weights with padded rows,
// the row counts around the few-row limit (16) and past one M block, K
// past one K block, transposed weights, and weights with neither
// direction contiguous.
TEST_F(CpuMatmul, HalfWeightsWidenedOnAvx2) {
    if (!host_supports(isa_t::avx2)) GTEST_SKIP() << "no AVX2";
    isa_guard_t g(isa_t::avx2);
    unsigned seed = 300;
    for (data_type_t src : {dnnl_bf16, dnnl_f16})
        for (data_type_t dst : {dnnl_f32, src}) {
            std::vector<mm_case_t> cs;
            mm_case_t c;
            c.src = src;
            c.dst = dst;
            for (int64_t m : {1, 2, 7, 16, 17, 100}) {
                c.a = {m, 100};
                c.b = {100, 77};
                cs.push_back(c);
            }
            c.a = {40, 600}; // three K blocks
            c.b = {600, 50};
            cs.push_back(c);
            c.a = {3, 12, 33}; // shared weights: folds into M = 36
            c.b = {33, 20};
            cs.push_back(c);
            c.a = {3, 4, 33}; // shared weights: folds into M = 12
            c.b = {33, 300};
            c.has_bias = true;
            c.bias = {300};
            c.bias_dt = dnnl_f32;
            cs.push_back(c);
            c.a = {2, 5, 40}; // weights per batch, padded dst rows
            c.b = {2, 40, 19};
            c.bias = {19};
            c.bias_dt = dnnl_bf16;
            c.sd = {120, 21, 1};
            cs.push_back(c);
            c.sd.clear();
            c.has_bias = false;
            c.a = {6, 50};
            c.b = {50, 20};
            c.sa = {64, 1}; // padded rows
            c.sb = {24, 1};
            cs.push_back(c);
            c.sa.clear();
            c.sb.clear();
            c.tb = true; // [N, K] weights: dot kernels, then packing
            for (int64_t m : {1, 2, 16, 17, 70}) {
                c.a = {m, 1031};
                c.b = {45, 1031};
                cs.push_back(c);
            }
            c.tb = false; // [K, N] weights stored column by column, padded
            c.a = {30, 20};
            c.b = {20, 9};
            c.sb = {2, 48};
            cs.push_back(c);
            c.sb.clear();
            for (const mm_case_t &x : cs) {
                const ir::op_t op = make_mm(x);
                const compiler::plan_t p = plan_of(op);
                std::shared_ptr<const compiler::kernel_t> k;
                ASSERT_EQ(cpu_backend().compile(p, k), dnnl_success);
                const std::string want = std::string("matmul_gemm_")
                        + ir::dtype_name(src) + "_avx2";
                EXPECT_EQ(std::string(k->name()).rfind(want, 0), 0u)
                        << describe(x, isa_t::avx2) << " ran " << k->name();
                if (!check_case(x, isa_t::avx2, seed++, true)) return;
            }
        }
}

// Constant f16 weights past the few-row limit on AVX2 are widened while
// they are packed, once per user buffer, into the constant cache (no f32
// copy besides the packed one); a repeated buffer reuses its packing.
// Small integers: every product and sum is exact, so results must equal
// the reference bit for bit.
TEST_F(CpuMatmul, ConstantHalfWeightsArePackedOncePerBuffer) {
    if (!host_supports(isa_t::avx2)) GTEST_SKIP() << "no AVX2";
    isa_guard_t guard(isa_t::avx2);
    plan_test::plan_builder_t g;
    const logical_tensor_t a = g.in({40, 64}, dnnl_f16);
    logical_tensor_t b = g.in({64, 48}, dnnl_f16);
    b.property = dnnl_graph_tensor_property_constant;
    g.ins.back() = b;
    g.add(dnnl_graph_op_matmul, {a, b}, {40, 48}, dnnl_f32);
    const compiler::plan_t p = g.plan();
    std::shared_ptr<const compiler::kernel_t> k;
    ASSERT_EQ(cpu_backend().compile(p, k), dnnl_success);
    ASSERT_EQ(std::string(k->name()).rfind("matmul_gemm_f16_avx2", 0), 0u)
            << k->name();
    const auto ints = [](const logical_tensor_t &lt, unsigned seed) {
        std::mt19937 gen(seed);
        std::uniform_int_distribution<int> u(-4, 4);
        plan_test::bytes_t v(ir::mem_size(lt));
        for (int64_t i = 0; i < ir::nelems(lt); ++i)
            ir::store_value(lt.data_type, v.data(), i, u(gen));
        return v;
    };
    rt::engine_t eng(dnnl_cpu, 13, rt::allocator_t());
    rt::constant_cache_t &cache = rt::constant_cache_t::get(dnnl_cpu, 13);
    cache.set_capacity(size_t(64) << 20);
    const size_t computed0 = cache.usage().computed;
    plan_test::expect_weight_calls(*k, p, eng, ints(a, 3),
            {ints(b, 4), ints(b, 5), ints(b, 4)}, {0, 1, 2, 0});
    EXPECT_EQ(cache.usage().computed - computed0, 3u);
    EXPECT_EQ(cache.usage().entries, 3u);
    // Each entry holds the weights as packed f32.
    EXPECT_GE(cache.size(), 3 * 64 * 48 * sizeof(float));
    cache.flush();
}

TEST_F(CpuMatmul, F32BiasWithBf16SrcIsAccepted) {
    if (!host_supports(isa_t::avx512_core_bf16)) GTEST_SKIP();
    isa_guard_t g(isa_t::avx512_core_bf16);
    mm_case_t c;
    c.a = {5, 40};
    c.b = {40, 24};
    c.src = dnnl_bf16;
    c.dst = dnnl_bf16;
    c.has_bias = true;
    c.bias = {24};
    c.bias_dt = dnnl_f32;
    check_case(c, isa_t::avx512_core_bf16, 9, true);
}

TEST_F(CpuMatmul, DeclinesWhatItCannotRun) {
    const compiler::backend_t &be = cpu_backend();
    mm_case_t c;
    c.a = {4, 8};
    c.b = {8, 6};
    // Full [M, N] bias: not one value per column.
    c.has_bias = true;
    c.bias = {4, 6};
    EXPECT_FALSE(be.supports(plan_of(make_mm(c))));
    c.has_bias = false;
    // f32 math rounded to bf16 by the graph's fpmath mode: not this
    // family's (the fpmath_rounded line rounds the inputs and calls it).
    ir::op_t op = make_mm(c);
    op.fpmath = dnnl_fpmath_mode_bf16;
    EXPECT_FALSE(matmul::accepts(plan_of(op), isa_t::avx2, nullptr));
    if (host_supports(isa_t::avx2)) {
        std::shared_ptr<const compiler::kernel_t> k;
        ASSERT_EQ(be.compile(plan_of(op), k), dnnl_success);
        EXPECT_EQ(std::string(k->name()).rfind("fpmath_bf16(matmul_", 0), 0u)
                << k->name();
    }
    // f16 inputs: the AVX2 line widens them for any rows and either
    // weight layout; the AVX-512 f32 line has no f16 path (a host without
    // f16 arithmetic runs them staged, f32 around the f32 MatMul).
    c.src = c.dst = dnnl_f16;
    for (int64_t m : {4, 17}) {
        c.a = {m, 8};
        c.tb = false;
        c.b = {8, 6};
        EXPECT_TRUE(matmul::accepts(plan_of(make_mm(c)), isa_t::avx2, nullptr));
        EXPECT_FALSE(matmul::accepts(plan_of(make_mm(c)), isa_t::avx512_core,
                nullptr));
        c.tb = true;
        c.b = {6, 8};
        EXPECT_TRUE(matmul::accepts(plan_of(make_mm(c)), isa_t::avx2, nullptr));
    }
    // ... but an f32 dst only, or its own type.
    c.dst = dnnl_bf16;
    EXPECT_FALSE(matmul::accepts(plan_of(make_mm(c)), isa_t::avx2, nullptr));
    c.a = {4, 8};
    c.tb = false;
    c.b = {8, 6};
    // dst columns not contiguous.
    c.src = c.dst = dnnl_f32;
    op = make_mm(c);
    op.outputs[0].layout.strides[0] = 1;
    op.outputs[0].layout.strides[1] = 4;
    EXPECT_FALSE(be.supports(plan_of(op)));
    // No JIT level allowed.
    {
        isa_guard_t g(isa_t::avx);
        EXPECT_FALSE(be.supports(plan_of(make_mm(c))));
    }
}

} // namespace
} // namespace cpu
} // namespace llga
