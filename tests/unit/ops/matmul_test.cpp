// SPDX-License-Identifier: Apache-2.0
// tests/unit/ops/matmul_test.cpp — MatMul: schema, shape inference (rank-1
// promotion, transposes, batch and bias broadcasting) and reference values
// checked against hand-computed results or a naive loop written here.
#include <cmath>

#include "ops/op_test_util.hpp"

namespace llga {
namespace test {

namespace {

std::vector<double> iota_vals(size_t n, double start = 1, double step = 1) {
    std::vector<double> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = start + step * static_cast<double>(i);
    return v;
}

// Naive batched product of row-major a [B, M, K] and b [B, K, N].
std::vector<double> naive_bmm(const std::vector<double> &a,
        const std::vector<double> &b, int B, int M, int K, int N) {
    std::vector<double> c(static_cast<size_t>(B * M * N), 0.0);
    for (int bb = 0; bb < B; ++bb)
        for (int m = 0; m < M; ++m)
            for (int n = 0; n < N; ++n)
                for (int k = 0; k < K; ++k)
                    c[(bb * M + m) * N + n] += a[(bb * M + m) * K + k]
                            * b[(bb * K + k) * N + n];
    return c;
}

} // namespace

TEST(MatMul, TwoByThreeTimesThreeByTwo) {
    // [[1 2 3] [4 5 6]] x [[7 8] [9 10] [11 12]] = [[58 64] [139 154]]
    op_runner_t r(dnnl_graph_op_matmul);
    r.input(dnnl_f32, {2, 3}, {1, 2, 3, 4, 5, 6})
            .input(dnnl_f32, {3, 2}, {7, 8, 9, 10, 11, 12})
            .output(dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {2, 2}));
    expect_near_all(r.out_values(), {58, 64, 139, 154});
}

TEST(MatMul, TransposeFlagsAndBias) {
    // Same product with src given as [3,2] and transpose_a, weights as [2,3]
    // and transpose_b, plus bias [N] = {1, -1}.
    op_runner_t r(dnnl_graph_op_matmul);
    r.input(dnnl_f32, {3, 2}, {1, 4, 2, 5, 3, 6})
            .input(dnnl_f32, {2, 3}, {7, 9, 11, 8, 10, 12})
            .input(dnnl_f32, {2}, {1, -1})
            .output(dnnl_f32)
            .boolean(dnnl_graph_op_attr_transpose_a, true)
            .boolean(dnnl_graph_op_attr_transpose_b, true);
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {2, 2}));
    expect_near_all(r.out_values(), {59, 63, 140, 153});
}

TEST(MatMul, BiasShapes) {
    // [M, N] bias and [1, N] bias; a bias that does not broadcast fails.
    op_runner_t mn(dnnl_graph_op_matmul);
    mn.input(dnnl_f32, {2, 2}, {1, 0, 0, 1})
            .input(dnnl_f32, {2, 2}, {1, 2, 3, 4})
            .input(dnnl_f32, {2, 2}, {10, 20, 30, 40})
            .output(dnnl_f32);
    ASSERT_EQ(mn.run(), dnnl_success);
    expect_near_all(mn.out_values(), {11, 22, 33, 44});

    op_runner_t one_n(dnnl_graph_op_matmul);
    one_n.input(dnnl_f32, {2, 2}, {1, 0, 0, 1})
            .input(dnnl_f32, {2, 2}, {1, 2, 3, 4})
            .input(dnnl_f32, {1, 2}, {10, 20})
            .output(dnnl_f32);
    ASSERT_EQ(one_n.run(), dnnl_success);
    expect_near_all(one_n.out_values(), {11, 22, 13, 24});

    op_runner_t bad(dnnl_graph_op_matmul);
    bad.input(dnnl_f32, {2, 2}).input(dnnl_f32, {2, 2}).input(dnnl_f32, {3})
            .output(dnnl_f32);
    EXPECT_EQ(bad.infer(), dnnl_invalid_shape);
}

TEST(MatMul, BatchBroadcast) {
    // src [2,1,2,3] x weights [3,3,2] -> [2,3,2,2].
    const auto a = iota_vals(2 * 1 * 2 * 3, -3, 0.5);
    const auto b = iota_vals(3 * 3 * 2, 1, -0.25);
    op_runner_t r(dnnl_graph_op_matmul);
    r.input(dnnl_f32, {2, 1, 2, 3}, a).input(dnnl_f32, {3, 3, 2}, b)
            .output(dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    ASSERT_EQ(r.out_dims(), (dims_t {2, 3, 2, 2}));
    // Expand the broadcast by hand into 6 explicit batches.
    std::vector<double> ea, eb;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) {
            ea.insert(ea.end(), a.begin() + i * 6, a.begin() + i * 6 + 6);
            eb.insert(eb.end(), b.begin() + j * 6, b.begin() + j * 6 + 6);
        }
    expect_near_all(r.out_values(), naive_bmm(ea, eb, 6, 2, 3, 2));
}

TEST(MatMul, RankOnePromotion) {
    op_runner_t dot(dnnl_graph_op_matmul);
    dot.input(dnnl_f32, {3}, {1, 2, 3}).input(dnnl_f32, {3}, {4, 5, 6})
            .output(dnnl_f32);
    ASSERT_EQ(dot.run(), dnnl_success);
    EXPECT_EQ(dot.out_dims(), dims_t {});
    expect_near_all(dot.out_values(), {32});

    // [K] x [B, K, N] -> [B, N]; transpose_a on a vector is ignored.
    op_runner_t vm(dnnl_graph_op_matmul);
    vm.input(dnnl_f32, {2}, {1, 2})
            .input(dnnl_f32, {2, 2, 3}, iota_vals(12))
            .output(dnnl_f32)
            .boolean(dnnl_graph_op_attr_transpose_a, true);
    ASSERT_EQ(vm.run(), dnnl_success);
    EXPECT_EQ(vm.out_dims(), (dims_t {2, 3}));
    // batch 0: [1 2]x[[1 2 3][4 5 6]] = 9 12 15; batch 1 rows 7..12: 27 30 33
    expect_near_all(vm.out_values(), {9, 12, 15, 27, 30, 33});

    op_runner_t mv(dnnl_graph_op_matmul);
    mv.input(dnnl_f32, {2, 3}, {1, 2, 3, 4, 5, 6})
            .input(dnnl_f32, {3}, {1, 0, -1})
            .output(dnnl_f32);
    ASSERT_EQ(mv.run(), dnnl_success);
    EXPECT_EQ(mv.out_dims(), (dims_t {2}));
    expect_near_all(mv.out_values(), {-2, -2});
}

TEST(MatMul, StridedSource) {
    // src logical [2,3] stored column-major (strides {1,2}).
    op_runner_t r(dnnl_graph_op_matmul);
    r.input_strided(dnnl_f32, {2, 3}, {1, 2}, {1, 2, 3, 4, 5, 6})
            .input_strided(dnnl_f32, {3, 2}, {1, 3}, {7, 8, 9, 10, 11, 12})
            .output(dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {58, 64, 139, 154});
}

TEST(MatMul, Bf16InputsF32AndBf16Outputs) {
    // Values and products exact in bf16 (small integers / halves).
    const std::vector<double> a {0.5, 1, -2, 3, 4, -0.5};
    const std::vector<double> b {1, 2, -1, 0.5, 2, 4};
    const auto want = naive_bmm(a, b, 1, 2, 3, 2);
    for (data_type_t dst_dt : {dnnl_f32, dnnl_bf16}) {
        op_runner_t r(dnnl_graph_op_matmul);
        r.input(dnnl_bf16, {2, 3}, a).input(dnnl_bf16, {3, 2}, b)
                .output(dst_dt);
        ASSERT_EQ(r.run(), dnnl_success);
        expect_near_all(r.out_values(), want, 1e-2, 1e-2);
    }
    // A sum that bf16 cannot represent: 256 + 1 stays 257 in f32 and
    // rounds to 256 in bf16 (8 significant bits).
    op_runner_t f(dnnl_graph_op_matmul);
    f.input(dnnl_bf16, {1, 2}, {256, 1}).input(dnnl_bf16, {2, 1}, {1, 1})
            .output(dnnl_f32);
    ASSERT_EQ(f.run(), dnnl_success);
    expect_near_all(f.out_values(), {257});
    op_runner_t h(dnnl_graph_op_matmul);
    h.input(dnnl_bf16, {1, 2}, {256, 1}).input(dnnl_bf16, {2, 1}, {1, 1})
            .output(dnnl_bf16);
    ASSERT_EQ(h.run(), dnnl_success);
    expect_near_all(h.out_values(), {256});
}

TEST(MatMul, SchemaViolations) {
    op_runner_t one_in(dnnl_graph_op_matmul);
    one_in.input(dnnl_f32, {2, 2}).output(dnnl_f32);
    EXPECT_EQ(one_in.verify(), dnnl_invalid_graph_op);

    op_runner_t mixed(dnnl_graph_op_matmul);
    mixed.input(dnnl_f32, {2, 2}).input(dnnl_bf16, {2, 2}).output(dnnl_f32);
    EXPECT_EQ(mixed.verify(), dnnl_invalid_graph_op);

    op_runner_t bad_dst(dnnl_graph_op_matmul);
    bad_dst.input(dnnl_bf16, {2, 2}).input(dnnl_bf16, {2, 2}).output(dnnl_f16);
    EXPECT_EQ(bad_dst.verify(), dnnl_invalid_graph_op);

    op_runner_t int_in(dnnl_graph_op_matmul);
    int_in.input(dnnl_s8, {2, 2}).input(dnnl_s8, {2, 2}).output(dnnl_f32);
    EXPECT_EQ(int_in.verify(), dnnl_invalid_graph_op);

    op_runner_t unknown_attr(dnnl_graph_op_matmul);
    unknown_attr.input(dnnl_f32, {2, 2}).input(dnnl_f32, {2, 2})
            .output(dnnl_f32)
            .s64(dnnl_graph_op_attr_axis, 0);
    EXPECT_EQ(unknown_attr.verify(), dnnl_invalid_graph_op);

    op_runner_t ok(dnnl_graph_op_matmul);
    ok.input(dnnl_f16, {2, 2}).input(dnnl_f16, {2, 2}).output(dnnl_f32);
    EXPECT_EQ(ok.verify(), dnnl_success);
    // Defaults are injected.
    EXPECT_FALSE(ok.op().get_bool(dnnl_graph_op_attr_transpose_a, true));
}

TEST(MatMul, ShapeErrors) {
    op_runner_t k_mismatch(dnnl_graph_op_matmul);
    k_mismatch.input(dnnl_f32, {2, 3}).input(dnnl_f32, {4, 2}).output(dnnl_f32);
    EXPECT_EQ(k_mismatch.infer(), dnnl_invalid_shape);

    op_runner_t batch(dnnl_graph_op_matmul);
    batch.input(dnnl_f32, {2, 2, 3}).input(dnnl_f32, {3, 3, 2}).output(dnnl_f32);
    EXPECT_EQ(batch.infer(), dnnl_invalid_shape);

    op_runner_t declared(dnnl_graph_op_matmul);
    declared.input(dnnl_f32, {2, 3}).input(dnnl_f32, {3, 5})
            .output(dnnl_f32, {2, 4});
    EXPECT_EQ(declared.infer(), dnnl_invalid_shape);

    op_runner_t rank(dnnl_graph_op_matmul);
    rank.input(dnnl_f32, {2, 3}).input(dnnl_f32, {3, 5})
            .output(dnnl_f32, {1, 2, 5});
    EXPECT_EQ(rank.infer(), dnnl_invalid_shape);

    op_runner_t tb(dnnl_graph_op_matmul);
    tb.input(dnnl_f32, {4, 2, 3}).input(dnnl_f32, {5, 3})
            .output(dnnl_f32)
            .boolean(dnnl_graph_op_attr_transpose_b, true);
    ASSERT_EQ(tb.infer(), dnnl_success);
    EXPECT_EQ(tb.out_dims(), (dims_t {4, 2, 5}));
}

} // namespace test
} // namespace llga

namespace llga {
namespace test {

// fpmath permits down-conversion of f32 operands. With src = 1 + 2^-12 and
// wei = 1 + 2^-9: strict keeps both; bf16 (7 mantissa bits) rounds both to
// 1; tf32 and f16 (10 bits) round src to 1 and keep wei.
TEST(MatMul, FpmathModeRoundsF32Operands) {
    const double a = 1.0 + std::ldexp(1.0, -12), b = 1.0 + std::ldexp(1.0, -9);
    const struct {
        fpmath_mode_t mode;
        double want;
    } cases[] = {{dnnl_fpmath_mode_strict, static_cast<float>(a * b)},
            {dnnl_fpmath_mode_any, static_cast<float>(a * b)},
            {dnnl_fpmath_mode_bf16, 1.0},
            {dnnl_fpmath_mode_tf32, b},
            {dnnl_fpmath_mode_f16, b}};
    for (const auto &c : cases) {
        op_runner_t mm(dnnl_graph_op_matmul);
        mm.input(dnnl_f32, {1, 1}, {a}).input(dnnl_f32, {1, 1}, {b}).output(dnnl_f32);
        mm.op().fpmath = c.mode;
        ASSERT_EQ(mm.run(), dnnl_success);
        EXPECT_EQ(mm.out_values()[0], c.want) << "fpmath mode " << c.mode;
    }
}

} // namespace test
} // namespace llga
