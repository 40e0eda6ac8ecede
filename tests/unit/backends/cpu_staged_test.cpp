// tests/unit/backends/cpu_staged_test.cpp — the staged f32 kernel
// (backends/cpu/kernels/staged.cpp): bf16/f16 MatMul run through the f32
// MatMul on hosts without bf16/f16 arithmetic, against the reference, and
// constant weights in different buffers for calls of one compiled kernel
// (each widened and packed once, keyed by the user's buffer).
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/isa.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "runtime/constant_cache.hpp"
#include "runtime/engine.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using plan_test::bytes_t;
using plan_test::plan_builder_t;

class CpuStaged : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

// Products of small integers (exact in f16/bf16 and f32) summed over K:
// every result is an integer, so the reference and the f32 kernel agree
// exactly whatever the summation order.
bytes_t small_ints(const logical_tensor_t &lt, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> u(-4, 4);
    bytes_t b(ir::mem_size(lt));
    for (int64_t i = 0; i < ir::nelems(lt); ++i)
        ir::store_value(lt.data_type, b.data(), i, u(gen));
    return b;
}

TEST_F(CpuStaged, HalfPrecisionMatmulRunsOnTheF32Kernel) {
    for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
        test_isa::isa_guard_t guard(isa);
        for (data_type_t dt : {dnnl_bf16, dnnl_f16}) {
            // 2 x 9 rows fold into M = 18: past the few rows the AVX2
            // MatMul reads 16-bit weights for in place.
            plan_builder_t g;
            const logical_tensor_t a = g.in({2, 9, 33}, dt);
            const logical_tensor_t b = g.in({33, 20}, dt);
            g.add(dnnl_graph_op_matmul, {a, b}, {2, 9, 20}, dt);
            const compiler::plan_t p = g.plan();
            const std::vector<bytes_t> in = {small_ints(a, 1), small_ints(b, 2)};
            bytes_t got;
            std::string kname;
            ASSERT_TRUE(plan_test::run_jit(p, in, got, &kname));
            EXPECT_EQ(kname.rfind("staged_f32(matmul_", 0), 0u) << kname;
            const bytes_t want = plan_test::run_ref(p, in).at(p.outputs[0].id);
            EXPECT_EQ(got, want) << ir::dtype_name(dt) << " at " << isa_name(isa);
        }
    }
}

// Constant half-precision weights are widened once per user buffer into
// the engine's constant cache: each distinct buffer gets its own f32 copy
// (a copy keyed by one scratch address would go stale when the weights
// change), and a repeated call with a buffer reuses its copy. The inner
// f32 kernel packs each copy once too, keyed by the user's buffer (not the
// copy's address, which another copy could reuse after an eviction).
TEST_F(CpuStaged, ConstantWeightsAreWidenedOncePerBuffer) {
    if (!host_supports(isa_t::avx2)) GTEST_SKIP();
    test_isa::isa_guard_t guard(isa_t::avx2);
    plan_builder_t g;
    // 17 rows: past the few rows the AVX2 MatMul reads 16-bit weights for
    // in place (those are never copied).
    const logical_tensor_t a = g.in({17, 64}, dnnl_f16);
    logical_tensor_t b = g.in({64, 48}, dnnl_f16);
    b.property = dnnl_graph_tensor_property_constant;
    g.ins.back() = b;
    g.add(dnnl_graph_op_matmul, {a, b}, {17, 48}, dnnl_f32);
    const compiler::plan_t p = g.plan();
    const compiler::backend_t &be = cpu_backend();
    std::shared_ptr<const compiler::kernel_t> k;
    ASSERT_EQ(be.compile(p, k), dnnl_success);
    ASSERT_EQ(std::string(k->name()).rfind("staged_f32(", 0), 0u) << k->name();
    // An engine of its own, so the counts below are this test's.
    rt::engine_t eng(dnnl_cpu, 12, rt::allocator_t());
    rt::constant_cache_t &cache = rt::constant_cache_t::get(dnnl_cpu, 12);
    cache.set_capacity(size_t(64) << 20);
    const bytes_t av = small_ints(a, 3);
    // Three live buffers (distinct addresses, as the constant contract
    // requires of different weights), the first and last with equal values,
    // then the first again.
    const std::vector<bytes_t> bvs
            = {small_ints(b, 4), small_ints(b, 5), small_ints(b, 4)};
    const size_t computed0 = cache.usage().computed;
    plan_test::expect_weight_calls(*k, p, eng, av, bvs, {0, 1, 2, 0});
    // One widening and one packing per distinct buffer, none for the
    // repeated one (which hits both).
    EXPECT_EQ(cache.usage().computed - computed0, 6u);
    EXPECT_EQ(cache.usage().entries, 6u);
    EXPECT_GE(cache.size(), 6 * 64 * 48 * sizeof(float));
    cache.flush();
}

} // namespace
} // namespace cpu
} // namespace llga
