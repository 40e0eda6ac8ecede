// SPDX-License-Identifier: Apache-2.0
// tests/api/capi_nonfinite_test.cpp — how NaN and ±Inf propagate through
// each op family (the expectations docs/runner.md "NaN and Inf" states):
// elementwise ops map a non-finite element to the IEEE result of their
// formula at that element only; binary ops follow IEEE arithmetic; MatMul
// poisons exactly the outputs whose dot product reads the value; SoftMax and
// LayerNorm poison exactly the row (normalization group) that holds a NaN;
// reductions poison exactly the reduced slice. Other elements stay finite.
#include <cmath>
#include <limits>

#include "capi_test_util.hpp"

using namespace capi_test;

namespace {

const float k_nan = std::numeric_limits<float>::quiet_NaN();
const float k_inf = std::numeric_limits<float>::infinity();

// Runs one op on f32 tensors (attributes s64 only) and returns output 0.
std::vector<float> run(dnnl_graph_op_kind_t kind,
        std::vector<std::vector<int64_t>> in_dims,
        std::vector<std::vector<float>> in_data, std::vector<int64_t> out_dims,
        std::vector<std::pair<dnnl_graph_op_attr_t, std::vector<int64_t>>> attrs
        = {}) {
    cpu_env_t env;
    dnnl_graph_graph_t g = nullptr;
    dnnl_graph_op_t op = nullptr;
    EXPECT_EQ(dnnl_graph_graph_create(&g, dnnl_cpu), dnnl_success);
    EXPECT_EQ(dnnl_graph_op_create(&op, 1, kind, "op"), dnnl_success);
    std::vector<dnnl_graph_logical_tensor_t> ins;
    for (size_t k = 0; k < in_dims.size(); ++k)
        ins.push_back(lt(k, dnnl_f32, in_dims[k]));
    auto out = lt(100, dnnl_f32, out_dims);
    for (auto &t : ins)
        dnnl_graph_op_add_input(op, &t);
    dnnl_graph_op_add_output(op, &out);
    for (auto &a : attrs)
        dnnl_graph_op_set_attr_s64(op, a.first, a.second.data(), a.second.size());
    EXPECT_EQ(dnnl_graph_add_op(g, op), dnnl_success) << last_error();
    dnnl_graph_op_destroy(op);
    dnnl_graph_graph_finalize(g);
    dnnl_graph_graph_filter(g, dnnl_graph_partition_policy_fusion);
    dnnl_graph_partition_t part = nullptr;
    EXPECT_EQ(dnnl_graph_graph_get_partitions(g, 1, &part), dnnl_success);
    dnnl_graph_compiled_partition_t cp = nullptr;
    dnnl_graph_compiled_partition_create(&cp, part);
    std::vector<const dnnl_graph_logical_tensor_t *> pi;
    for (auto &t : ins)
        pi.push_back(&t);
    const dnnl_graph_logical_tensor_t *po = &out;
    EXPECT_EQ(dnnl_graph_partition_compile(
                      part, cp, pi.size(), pi.data(), 1, &po, env.engine),
            dnnl_success)
            << last_error();
    size_t n = 1;
    for (auto d : out_dims)
        n *= static_cast<size_t>(d);
    std::vector<float> result(n, 12345.f);
    std::vector<dnnl_graph_tensor_t> ts;
    std::vector<const_dnnl_graph_tensor_t> ti;
    for (size_t k = 0; k < ins.size(); ++k) {
        dnnl_graph_tensor_t t = nullptr;
        dnnl_graph_tensor_create(&t, &ins[k], env.engine, in_data[k].data());
        ts.push_back(t);
        ti.push_back(t);
    }
    dnnl_graph_tensor_t to = nullptr;
    dnnl_graph_tensor_create(&to, &out, env.engine, result.data());
    const_dnnl_graph_tensor_t cto = to;
    EXPECT_EQ(dnnl_graph_compiled_partition_execute(
                      cp, env.stream, ti.size(), ti.data(), 1, &cto),
            dnnl_success)
            << last_error();
    for (auto t : ts)
        dnnl_graph_tensor_destroy(t);
    dnnl_graph_tensor_destroy(to);
    dnnl_graph_compiled_partition_destroy(cp);
    dnnl_graph_partition_destroy(part);
    dnnl_graph_graph_destroy(g);
    return result;
}

// 16 elements: NaN, +Inf, -Inf at 0..2, ordinary values elsewhere (enough
// for the vector loops' full-width bodies and their tails).
std::vector<float> specials16() {
    std::vector<float> v(16);
    for (int k = 0; k < 16; ++k)
        v[k] = 0.25f * static_cast<float>(k - 8);
    v[0] = k_nan;
    v[1] = k_inf;
    v[2] = -k_inf;
    return v;
}

} // namespace

TEST(NonFinite, UnaryEltwiseMapsEachElementByItsFormula) {
    const auto x = specials16();
    struct expect_t {
        dnnl_graph_op_kind_t kind;
        float at_pinf, at_ninf;
    };
    const expect_t cases[] = {{dnnl_graph_op_relu, k_inf, 0.f},
            {dnnl_graph_op_sigmoid, 1.f, 0.f}, {dnnl_graph_op_tanh, 1.f, -1.f},
            {dnnl_graph_op_exp, k_inf, 0.f}, {dnnl_graph_op_abs, k_inf, k_inf},
            // x * Phi(x) at -Inf is -Inf * 0: NaN in IEEE arithmetic (as
            // frameworks compute it), not the limit 0.
            {dnnl_graph_op_gelu, k_inf, k_nan}};
    for (const auto &c : cases) {
        const auto y = run(c.kind, {{16}}, {x}, {16});
        EXPECT_TRUE(std::isnan(y[0])) << "kind " << c.kind << " NaN -> " << y[0];
        EXPECT_EQ(y[1], c.at_pinf) << "kind " << c.kind;
        if (std::isnan(c.at_ninf))
            EXPECT_TRUE(std::isnan(y[2])) << "kind " << c.kind;
        else
            EXPECT_EQ(y[2], c.at_ninf) << "kind " << c.kind;
        for (int k = 3; k < 16; ++k)
            EXPECT_TRUE(std::isfinite(y[k])) << "kind " << c.kind << " at " << k;
    }
}

TEST(NonFinite, BinaryOpsFollowIeee) {
    std::vector<float> a = {k_nan, k_inf, k_inf, 0.f, 1.f, -k_inf, 2.f, 3.f},
                       b = {1.f, -k_inf, k_inf, k_inf, k_nan, 5.f, 1.f, 1.f};
    const auto add = run(dnnl_graph_op_add, {{8}, {8}}, {a, b}, {8});
    EXPECT_TRUE(std::isnan(add[0]));
    EXPECT_TRUE(std::isnan(add[1])); // inf + -inf
    EXPECT_EQ(add[2], k_inf);
    EXPECT_EQ(add[3], k_inf);
    EXPECT_TRUE(std::isnan(add[4]));
    EXPECT_EQ(add[5], -k_inf);
    EXPECT_EQ(add[6], 3.f);
    const auto mul = run(dnnl_graph_op_multiply, {{8}, {8}}, {a, b}, {8});
    EXPECT_TRUE(std::isnan(mul[0]));
    EXPECT_EQ(mul[1], -k_inf);
    EXPECT_TRUE(std::isnan(mul[3])); // 0 * inf
    EXPECT_TRUE(std::isnan(mul[4]));
    EXPECT_EQ(mul[7], 3.f);
}

// out[i][j] = sum_k a[i][k] b[k][j]: a NaN at a[1][2] reaches row 1 only;
// an Inf at b[0][3] makes column 3 infinite where the dot products read it
// with a non-zero weight.
TEST(NonFinite, MatMulPoisonsExactlyTheDotProductsThatReadIt) {
    const int m = 4, k = 8, n = 8;
    std::vector<float> a(m * k), b(k * n);
    for (int i = 0; i < m * k; ++i)
        a[i] = 0.125f * static_cast<float>(i % 7 + 1);
    for (int i = 0; i < k * n; ++i)
        b[i] = 0.25f * static_cast<float>(i % 5 - 2);
    a[1 * k + 2] = k_nan;
    b[0 * n + 3] = k_inf;
    const auto y = run(dnnl_graph_op_matmul, {{m, k}, {k, n}}, {a, b}, {m, n});
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            const float v = y[i * n + j];
            if (i == 1)
                EXPECT_TRUE(std::isnan(v)) << i << "," << j;
            else if (j == 3)
                EXPECT_EQ(v, k_inf) << i << "," << j; // a[i][0] > 0
            else
                EXPECT_TRUE(std::isfinite(v)) << i << "," << j;
        }
}

// A NaN or +Inf in a row makes that row NaN (max subtraction gives
// inf - inf); -Inf elements get probability 0; other rows are untouched.
TEST(NonFinite, SoftMaxPoisonsTheRow) {
    const int rows = 4, cols = 16;
    std::vector<float> x(rows * cols);
    for (int i = 0; i < rows * cols; ++i)
        x[i] = 0.125f * static_cast<float>(i % 9);
    x[0 * cols + 5] = k_nan;
    x[1 * cols + 7] = k_inf;
    x[2 * cols + 3] = -k_inf;
    const auto y = run(dnnl_graph_op_softmax, {{rows, cols}}, {x}, {rows, cols},
            {{dnnl_graph_op_attr_axis, {1}}});
    for (int j = 0; j < cols; ++j) {
        EXPECT_TRUE(std::isnan(y[0 * cols + j])) << j;
        EXPECT_TRUE(std::isnan(y[1 * cols + j])) << j;
        if (j == 3)
            EXPECT_EQ(y[2 * cols + j], 0.f);
        else
            EXPECT_TRUE(std::isfinite(y[2 * cols + j]) && y[2 * cols + j] > 0);
        EXPECT_TRUE(std::isfinite(y[3 * cols + j]));
    }
}

TEST(NonFinite, ReduceSumPoisonsTheReducedSlice) {
    const int rows = 4, cols = 16;
    std::vector<float> x(rows * cols, 0.5f);
    x[2 * cols + 9] = k_nan;
    x[3 * cols + 1] = k_inf;
    const auto y = run(dnnl_graph_op_reduce_sum, {{rows, cols}}, {x}, {rows},
            {{dnnl_graph_op_attr_axes, {1}}});
    EXPECT_EQ(y[0], 8.f);
    EXPECT_EQ(y[1], 8.f);
    EXPECT_TRUE(std::isnan(y[2]));
    EXPECT_EQ(y[3], k_inf);
}
