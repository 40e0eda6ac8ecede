// SPDX-License-Identifier: Apache-2.0
// tests/ocl/ocl_rows_pool_test.cpp — the rows family (every Reduce op,
// LayerNorm, BatchNormInference, BatchNormForwardTraining) and pooling
// against the reference, with odd strides, keep_dims both ways, both data
// formats and AvgPool's exclude_pad both ways.
#include "ocl_test_util.hpp"

namespace llga {
namespace ocl_test {
namespace {

using ir::attr_value_t;

TEST(OclReduce, EveryOpAxesKeepDims) {
    LLGA_NEED_GPU();
    uint32_t seed = 800;
    for (op_kind_t k : {dnnl_graph_op_reduce_sum, dnnl_graph_op_reduce_mean,
                 dnnl_graph_op_reduce_max, dnnl_graph_op_reduce_min,
                 dnnl_graph_op_reduce_prod, dnnl_graph_op_reduce_l1,
                 dnnl_graph_op_reduce_l2}) {
        // keep_dims alternates between ops (each variant is a program build).
        const bool keep = seed % 2 == 1;
        {
            ir::op_t op = make_op(k, {make_t(1, dnnl_f32, {3, 5, 4, 7}, true)},
                    {{dnnl_graph_op_attr_axes, attr_value_t::make_s64s({1, -1})},
                            {dnnl_graph_op_attr_keep_dims,
                                    attr_value_t::make_bool(keep)}},
                    dnnl_f32, 2, true);
            SCOPED_TRACE(ops::op_kind_name(k));
            const float lo = k == dnnl_graph_op_reduce_prod ? 0.7f : -2.f;
            const float hi = k == dnnl_graph_op_reduce_prod ? 1.3f : 2.f;
            EXPECT_EQ(run_and_compare({op}, seed++, lo, hi), dnnl_success)
                    << llga_last_error_message();
        }
    }
}

TEST(OclReduce, LongRowsKeepFullPrecision) {
    // One row of 2^21 elements: accumulated in order in plain f32 the sums
    // drift by ~1e-4 relative (the corpus's global ReduceL2 over
    // 1x512x56x56 failed that way); compensated they match the reference.
    LLGA_NEED_GPU();
    const tol_t tight {1e-6, 2e-6};
    uint32_t seed = 830;
    for (op_kind_t k : {dnnl_graph_op_reduce_l2, dnnl_graph_op_reduce_sum,
                 dnnl_graph_op_reduce_l1}) {
        SCOPED_TRACE(ops::op_kind_name(k));
        ir::op_t op = make_op(k, {make_t(1, dnnl_f32, {1, 512, 64, 64})},
                {{dnnl_graph_op_attr_axes, attr_value_t::make_s64s({1, 2, 3})}},
                dnnl_f32, 2);
        const float lo = k == dnnl_graph_op_reduce_sum ? 0.f : -2.f;
        EXPECT_EQ(run_and_compare({op}, seed++, lo, 2.f, &tight), dnnl_success)
                << llga_last_error_message();
    }
}

TEST(OclNorm, LayerNormWithAndWithoutAffineAndStats) {
    LLGA_NEED_GPU();
    ir::op_t a = make_op(dnnl_graph_op_layer_norm,
            {make_t(1, dnnl_f32, {3, 4, 19}, true), make_t(2, dnnl_f32, {19}),
                    make_t(3, dnnl_f32, {19})},
            {{dnnl_graph_op_attr_begin_norm_axis, attr_value_t::make_s64(-1)}},
            dnnl_f32, 4, true, 3);
    EXPECT_EQ(run_and_compare({a}, 810), dnnl_success)
            << llga_last_error_message();
    ir::op_t b = make_op(dnnl_graph_op_layer_norm,
            {make_t(1, dnnl_bf16, {5, 6, 7})},
            {{dnnl_graph_op_attr_begin_norm_axis, attr_value_t::make_s64(1)},
                    {dnnl_graph_op_attr_use_affine,
                            attr_value_t::make_bool(false)},
                    {dnnl_graph_op_attr_keep_stats,
                            attr_value_t::make_bool(false)}},
            dnnl_bf16, 4);
    EXPECT_EQ(run_and_compare({b}, 811), dnnl_success)
            << llga_last_error_message();
}

TEST(OclNorm, BatchNormInferenceAndTraining) {
    LLGA_NEED_GPU();
    for (const char *fmt : {"NCX", "NXC"}) {
        const bool ncx = std::string(fmt) == "NCX";
        const dims_t dims = ncx ? dims_t {2, 6, 5, 3} : dims_t {2, 5, 3, 6};
        std::vector<logical_tensor_t> in = {make_t(1, dnnl_f32, dims, true)};
        for (size_t k = 2; k <= 5; ++k)
            in.push_back(make_t(k, dnnl_f32, {6}));
        ir::op_t inf = make_op(dnnl_graph_op_batch_norm_inference, in,
                {{dnnl_graph_op_attr_epsilon, attr_value_t::make_f32(1e-3f)},
                        {dnnl_graph_op_attr_data_format,
                                attr_value_t::make_str(fmt)}},
                dnnl_f32, 10);
        SCOPED_TRACE(fmt);
        // Variances must be >= 0: inputs in [0.1, 2).
        EXPECT_EQ(run_and_compare({inf}, 820, 0.1f, 2.f), dnnl_success)
                << llga_last_error_message();
        ir::op_t tr = make_op(dnnl_graph_op_batch_norm_forward_training, in,
                {{dnnl_graph_op_attr_epsilon, attr_value_t::make_f32(1e-3f)},
                        {dnnl_graph_op_attr_momentum,
                                attr_value_t::make_f32(0.3f)},
                        {dnnl_graph_op_attr_data_format,
                                attr_value_t::make_str(fmt)}},
                dnnl_f32, 10, false, 5);
        EXPECT_EQ(run_and_compare({tr}, 821, 0.1f, 2.f), dnnl_success)
                << llga_last_error_message();
    }
}

TEST(OclPool, MaxAndAvgBothFormats) {
    LLGA_NEED_GPU();
    uint32_t seed = 830;
    for (op_kind_t k : {dnnl_graph_op_max_pool, dnnl_graph_op_avg_pool})
        for (const char *fmt : {"NCX", "NXC"})
            for (bool excl : {false, true}) {
                if (k == dnnl_graph_op_max_pool && excl) continue;
                const bool ncx = std::string(fmt) == "NCX";
                const dims_t dims
                        = ncx ? dims_t {2, 3, 9, 10} : dims_t {2, 9, 10, 3};
                std::vector<std::pair<attr_id_t, attr_value_t>> attrs = {
                        {dnnl_graph_op_attr_strides,
                                attr_value_t::make_s64s({2, 3})},
                        {dnnl_graph_op_attr_kernel,
                                attr_value_t::make_s64s({3, 3})},
                        {dnnl_graph_op_attr_pads_begin,
                                attr_value_t::make_s64s({1, 1})},
                        {dnnl_graph_op_attr_pads_end,
                                attr_value_t::make_s64s({1, 2})},
                        {dnnl_graph_op_attr_data_format,
                                attr_value_t::make_str(fmt)}};
                if (k == dnnl_graph_op_avg_pool)
                    attrs.push_back({dnnl_graph_op_attr_exclude_pad,
                            attr_value_t::make_bool(excl)});
                ir::op_t op = make_op(k, {make_t(1, dnnl_f32, dims, true)},
                        attrs, dnnl_f32, 2, true);
                SCOPED_TRACE(std::string(ops::op_kind_name(k)) + fmt);
                EXPECT_EQ(run_and_compare({op}, seed++), dnnl_success)
                        << llga_last_error_message();
            }
}

} // namespace
} // namespace ocl_test
} // namespace llga
