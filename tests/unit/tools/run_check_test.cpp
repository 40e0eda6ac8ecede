// SPDX-License-Identifier: Apache-2.0
// tests/unit/tools/run_check_test.cpp — llga-run's checking half
// (tools/run/): the softmax-statistics fill and the output comparison bound.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "compare.hpp"
#include "fill.hpp"
#include "prepare.hpp"
#include "stats_fill.hpp"

using namespace llga_run;

namespace {

float at(const buffer_t &b, size_t i) {
    return static_cast<const float *>(b.data())[i];
}

buffer_t f32_buffer(const std::vector<float> &v) {
    buffer_t b;
    b.lt.id = 1;
    b.lt.ndims = 1;
    b.lt.dims[0] = static_cast<int64_t>(v.size());
    b.lt.data_type = dnnl_f32;
    b.lt.layout_type = dnnl_graph_layout_type_strided;
    b.lt.layout.strides[0] = 1;
    b.resize(v.size() * sizeof(float));
    std::memcpy(b.data(), v.data(), v.size() * sizeof(float));
    return b;
}

} // namespace

// tests/inputs/softmax_stats_recompute.json: S = Q K^T over 512 values,
// exp(S - stats) V. Every statistic must become the maximum of its row of S,
// computed here from Q and K directly.
TEST(RunCheck, SoftmaxStatisticsAreRowMaxima) {
    prepared_t g;
    std::string error;
    ASSERT_EQ(prepare_case(LLGA_TEST_INPUTS "/softmax_stats_recompute.json",
                      case_opts_t(), g, error),
            prep_status_t::ok)
            << error;
    EXPECT_TRUE(is_softmax_stat(g, 3));
    EXPECT_FALSE(is_softmax_stat(g, 0));
    EXPECT_FALSE(is_softmax_stat(g, 6));
    buffers_t bufs;
    fill_inputs(g, bufs);
    ASSERT_TRUE(fill_softmax_stats(g, bufs, error)) << error;
    const buffer_t &q = bufs.at(0), &k = bufs.at(1), &st = bufs.at(3);
    const int H = 2, S = 32, D = 512;
    double largest = 0;
    for (int h = 0; h < H; ++h)
        for (int i = 0; i < S; ++i) {
            double best = -std::numeric_limits<double>::infinity();
            for (int j = 0; j < S; ++j) {
                double s = 0;
                for (int d = 0; d < D; ++d)
                    s += double(at(q, (h * S + i) * D + d)) * at(k, (h * S + j) * D + d);
                best = std::max(best, s);
            }
            EXPECT_FLOAT_EQ(at(st, h * S + i), static_cast<float>(best))
                    << "head " << h << " row " << i;
            largest = std::max(largest, best);
        }
    // The fill would overflow exp() without the second pass: scores this
    // large are what the data ranges give over 512 products.
    EXPECT_GT(largest, 88.0);
}

// "--in-shapes=ID:*TAG" keeps the input's shape and only reorders it in
// memory: [1, 2, 32, 512] as acbd has strides [32768, 512, 1024, 1].
TEST(RunCheck, InShapesTagAloneKeepsTheShape) {
    prepared_t g;
    std::string error;
    case_opts_t o;
    o.in_shapes = "0:*acbd";
    ASSERT_EQ(prepare_case(LLGA_TEST_INPUTS "/softmax_stats_recompute.json", o,
                      g, error),
            prep_status_t::ok)
            << error;
    const llga::logical_tensor_t &q = g.tensors.at(0);
    ASSERT_EQ(q.ndims, 4);
    const int64_t dims[4] = {1, 2, 32, 512}, strides[4] = {32768, 512, 1024, 1};
    for (int d = 0; d < 4; ++d) {
        EXPECT_EQ(q.dims[d], dims[d]) << d;
        EXPECT_EQ(q.layout.strides[d], strides[d]) << d;
    }
    o.in_shapes = "0:*";
    EXPECT_EQ(prepare_case(LLGA_TEST_INPUTS "/softmax_stats_recompute.json", o,
                      g, error),
            prep_status_t::bad_option);
}

// As benchdnn does, --in-shapes naming a tensor that is not a graph input
// is ignored (with a note); the other items still apply, and a malformed
// item is still an error.
TEST(RunCheck, InShapesOfANonInputIsIgnored) {
    prepared_t g;
    std::string error;
    case_opts_t o;
    o.in_shapes = "4:1x1+0:*acbd"; // 4 is an intermediate
    ASSERT_EQ(prepare_case(LLGA_TEST_INPUTS "/softmax_stats_recompute.json", o,
                      g, error),
            prep_status_t::ok)
            << error;
    ASSERT_EQ(g.notes.size(), 1u);
    EXPECT_NE(g.notes[0].find("'4:1x1' ignored"), std::string::npos) << g.notes[0];
    EXPECT_EQ(g.tensors.at(0).layout.strides[2], 1024); // acbd still applied
    o.in_shapes = "x:1x1";
    EXPECT_EQ(prepare_case(LLGA_TEST_INPUTS "/softmax_stats_recompute.json", o,
                      g, error),
            prep_status_t::bad_option);
}

// tests/inputs/mb_rewrite.json: MatMul [6,8]x[8,4] -> Add (no broadcast)
// with a Dequantize'd u8 [6,4] -> Multiply by [1,4] -> Add [6,1] ->
// StaticReshape to [6,2,2]; intermediate shapes are unknown in the file.
// --mb=3 must reach every batch-carrying input and the reshape target, and
// leave the weights and the broadcast row alone.
TEST(RunCheck, MinibatchFollowsTheBatchThroughTheGraph) {
    prepared_t g;
    std::string error;
    case_opts_t o;
    o.mb = 3;
    ASSERT_EQ(prepare_case(LLGA_TEST_INPUTS "/mb_rewrite.json", o, g, error),
            prep_status_t::ok)
            << error;
    const std::vector<std::pair<size_t, std::vector<int64_t>>> want {
            {0, {3, 8}}, // MatMul src (port 0)
            {1, {8, 4}}, // weights: never
            {3, {3, 4}}, // through Dequantize, same shape as the batch side
            {6, {1, 4}}, // broadcast row: stays
            {9, {3, 1}}, // per-sample column of a binary op
            {11, {3, 2, 2}}}; // StaticReshape's shape attribute followed
    for (const auto &w : want) {
        const llga::logical_tensor_t &t = g.tensors.at(w.first);
        ASSERT_EQ(t.ndims, static_cast<int>(w.second.size())) << w.first;
        for (size_t d = 0; d < w.second.size(); ++d)
            EXPECT_EQ(t.dims[d], w.second[d]) << "tensor " << w.first;
    }
    // The file's own batch changes nothing.
    o.mb = 6;
    ASSERT_EQ(prepare_case(LLGA_TEST_INPUTS "/mb_rewrite.json", o, g, error),
            prep_status_t::ok)
            << error;
    EXPECT_EQ(g.tensors.at(11).dims[0], 6);
    EXPECT_EQ(g.tensors.at(9).dims[0], 6);
}

// --dt=bf16 retypes SoftMax's data but not its statistics output, which
// the op only defines in f32 (tests/inputs/softmax_training_stats.json).
TEST(RunCheck, WholeGraphDtKeepsSoftmaxStatisticsF32) {
    prepared_t g;
    std::string error;
    case_opts_t o;
    o.dt = "bf16";
    ASSERT_EQ(prepare_case(LLGA_TEST_INPUTS "/softmax_training_stats.json", o,
                      g, error),
            prep_status_t::ok)
            << error;
    EXPECT_EQ(g.tensors.at(0).data_type, dnnl_bf16);
    EXPECT_EQ(g.tensors.at(1).data_type, dnnl_bf16);
    EXPECT_EQ(g.tensors.at(2).data_type, dnnl_f32);
}

// Re-inferred tensors keep the memory order the file gives them
// (tests/inputs/channel_last_gelu_sub.json: every tensor channel-last), also
// when --mb changes the shape; row-major outputs would turn the partition
// into a transposition the graph never had.
TEST(RunCheck, InferredTensorsKeepTheFilesMemoryOrder) {
    for (int64_t mb : {0, 3}) {
        prepared_t g;
        std::string error;
        case_opts_t o;
        o.mb = mb;
        ASSERT_EQ(prepare_case(LLGA_TEST_INPUTS "/channel_last_gelu_sub.json",
                          o, g, error),
                prep_status_t::ok)
                << error;
        const int64_t n = mb ? mb : 2;
        const int64_t want[4] = {60, 1, 15, 3}; // C=3, H=4, W=5 channel-last
        for (size_t id : {size_t(0), size_t(2), size_t(3)}) {
            const llga::logical_tensor_t &t = g.tensors.at(id);
            ASSERT_EQ(t.dims[0], n) << id;
            for (int d = 0; d < 4; ++d)
                EXPECT_EQ(t.layout.strides[d], want[d]) << "tensor " << id;
        }
    }
}

TEST(RunCheck, FractionalInterpolateSizesAreScales) {
    // The corpus's bf16/f16 InterpolateBackward lines write output/input
    // ratios under `sizes`; they become `scales` (one of the two only).
    prepared_t g;
    std::string error;
    case_opts_t o;
    o.in_shapes = "0:2x16x3x11+1:2x16x5x11";
    o.op_attrs = "0:sizes:1.666667x1";
    ASSERT_EQ(prepare_case(LLGA_CORPUS_DIR "/graphs/op/f32/interpolate_bwd.json",
                      o, g, error),
            prep_status_t::ok)
            << error;
    ASSERT_EQ(g.ops.size(), 1u);
    const llga::ir::op_t &op = g.ops[0];
    EXPECT_FALSE(op.has_attr(dnnl_graph_op_attr_sizes));
    const std::vector<float> want = {1.666667f, 1.f};
    EXPECT_EQ(op.get_f32s(dnnl_graph_op_attr_scales), want);
    EXPECT_EQ(op.outputs[0].dims[2], 3); // diff_src keeps src's shape
    // Whole numbers stay sizes; garbage stays an error.
    o.op_attrs = "0:sizes:5x11";
    ASSERT_EQ(prepare_case(LLGA_CORPUS_DIR "/graphs/op/f32/interpolate_bwd.json",
                      o, g, error),
            prep_status_t::ok)
            << error;
    EXPECT_EQ(g.ops[0].get_s64s(dnnl_graph_op_attr_sizes),
            std::vector<int64_t>({5, 11}));
    o.op_attrs = "0:sizes:1.5xq";
    EXPECT_EQ(prepare_case(LLGA_CORPUS_DIR "/graphs/op/f32/interpolate_bwd.json",
                      o, g, error),
            prep_status_t::bad_option);
}

TEST(RunCheck, GroupShapeAndScaleShapesFollowEachOther) {
    // benchdnn's rule for per-group DynamicDequantize: overriding only
    // group_shape reshapes scales and zero points to src / group_shape;
    // overriding only their shapes derives group_shape.
    const std::string file = LLGA_CORPUS_DIR
            "/graphs/complex_fusion/mha/sdpa-compressed-k-int8-gs32.json";
    const size_t dq = 34107656704u;
    auto op_of = [&](const prepared_t &g) -> const llga::ir::op_t * {
        for (const auto &op : g.ops)
            if (op.id == dq) return &op;
        return nullptr;
    };
    prepared_t g;
    std::string error;
    case_opts_t o;
    o.op_attrs = "34107656704:group_shape:1x1x128x1";
    ASSERT_EQ(prepare_case(file, o, g, error), prep_status_t::ok) << error;
    for (size_t id : {size_t(1), size_t(2)}) {
        const llga::logical_tensor_t &t = g.tensors.at(id);
        ASSERT_EQ(t.ndims, 4);
        const int64_t want[4] = {1, 32, 1, 32};
        for (int d = 0; d < 4; ++d)
            EXPECT_EQ(t.dims[d], want[d]) << "tensor " << id << " dim " << d;
    }
    o = case_opts_t();
    o.in_shapes = "1:1x32x2x32+2:1x32x2x32";
    ASSERT_EQ(prepare_case(file, o, g, error), prep_status_t::ok) << error;
    ASSERT_NE(op_of(g), nullptr);
    EXPECT_EQ(op_of(g)->get_s64s(dnnl_graph_op_attr_group_shape),
            std::vector<int64_t>({1, 1, 64, 1}));
    // A group that does not divide src is an error naming the op.
    o = case_opts_t();
    o.op_attrs = "34107656704:group_shape:1x1x48x1";
    EXPECT_EQ(prepare_case(file, o, g, error), prep_status_t::bad_option);
    EXPECT_NE(error.find("34107656704"), std::string::npos) << error;
}

TEST(RunCheck, ToleranceIsElementwiseOrNormwise) {
    // Reference with a large element: small values may carry errors up to
    // norm * max|ref| (cancellation in long sums), not more.
    const tolerance_t t = tolerance_for(dnnl_f32);
    const float big = 1e5f;
    const float small_err = static_cast<float>(0.5 * t.norm * big);
    const float large_err = static_cast<float>(4 * t.norm * big);
    buffer_t ref = f32_buffer({big, 34.0f, -2.0f});
    compare_result_t ok = compare_outputs(f32_buffer({big, 34.0f + small_err, -2.0f}), ref);
    EXPECT_TRUE(ok.ok);
    EXPECT_DOUBLE_EQ(ok.scale, big);
    compare_result_t bad = compare_outputs(f32_buffer({big, 34.0f + large_err, -2.0f}), ref);
    EXPECT_FALSE(bad.ok);
    EXPECT_EQ(bad.mismatches, 1);
    EXPECT_EQ(bad.first_bad, 1);
    // Without a large element the element-wise bound alone decides.
    buffer_t ref2 = f32_buffer({1.0f, 34.0f});
    EXPECT_FALSE(compare_outputs(f32_buffer({1.0f, 34.01f}), ref2).ok);
    EXPECT_TRUE(compare_outputs(f32_buffer({1.0f, 34.001f}), ref2).ok);
    // Non-finite values must agree exactly.
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_FALSE(compare_outputs(f32_buffer({inf}), f32_buffer({std::nanf("")})).ok);
    EXPECT_TRUE(compare_outputs(f32_buffer({inf}), f32_buffer({inf})).ok);
}
