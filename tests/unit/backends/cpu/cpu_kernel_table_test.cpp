// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/cpu_kernel_table_test.cpp — the table walk: for
// every row of kernels.def whose ISA this host has, a sample partition of
// that row's family, with the ISA limit set to the row's level, is taken by
// exactly that row. A row without a sample fails, so a new row needs one.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/isa.hpp"
#include "base/status.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace cpu {
namespace {

using av = ir::attr_value_t;
using attrs_fn = std::function<void(ir::op_t &)>;

// A partition built op by op; output shapes come from the library's own
// shape inference, every tensor dense in row-major order unless given.
struct sample_t {
    compiler::plan_t p;
    size_t next = 100;

    logical_tensor_t in(const dims_t &d, data_type_t dt = dnnl_f32,
            const dims_t &strides = {}) {
        logical_tensor_t lt = ir::make_lt(next++, dt, d);
        for (size_t i = 0; i < strides.size(); ++i)
            lt.layout.strides[i] = strides[i];
        p.inputs.push_back(lt);
        return lt;
    }
    // Adds an op with `n_out` outputs of type `dt` (output 0 only, when
    // `dt0` is given, of that type); returns output 0.
    logical_tensor_t op(op_kind_t k, std::vector<logical_tensor_t> ins,
            data_type_t dt = dnnl_f32, const attrs_fn &attrs = nullptr,
            size_t n_out = 1) {
        ir::op_t o;
        o.kind = k;
        o.id = p.ops.size() + 1;
        o.inputs = std::move(ins);
        for (size_t i = 0; i < n_out; ++i)
            o.outputs.push_back(ir::make_lt_unknown(next++, dt));
        if (attrs) attrs(o);
        EXPECT_EQ(ops::verify_op(o), dnnl_success)
                << ops::describe(o) << ": " << last_error();
        EXPECT_EQ(ops::infer_shapes(o), dnnl_success)
                << ops::describe(o) << ": " << last_error();
        for (auto &lt : o.outputs)
            lt = ir::make_lt(lt.id, lt.data_type, ir::dims_of(lt));
        p.ops.push_back(o);
        return o.outputs[0];
    }
    compiler::plan_t plan() {
        p.outputs = p.ops.back().outputs;
        return p;
    }
};

void quant(ir::op_t &o, float scale, int64_t zp) {
    plan_test::set_quant(o, scale, zp);
}

// Convolution attributes: stride 1, padding 1 (0 for 1x1), no dilation.
attrs_fn conv_attrs(bool nxc, int64_t groups, int64_t pad = 1) {
    return [=](ir::op_t &o) {
        o.set_attr(dnnl_graph_op_attr_strides, av::make_s64s({1, 1}));
        o.set_attr(dnnl_graph_op_attr_dilations, av::make_s64s({1, 1}));
        o.set_attr(dnnl_graph_op_attr_pads_begin, av::make_s64s({pad, pad}));
        o.set_attr(dnnl_graph_op_attr_pads_end, av::make_s64s({pad, pad}));
        o.set_attr(dnnl_graph_op_attr_groups, av::make_s64(groups));
        o.set_attr(dnnl_graph_op_attr_data_format,
                av::make_str(nxc ? "NXC" : "NCX"));
        o.set_attr(dnnl_graph_op_attr_weights_format,
                av::make_str(nxc ? "XIO" : "OIX"));
    };
}

// 8 -> 12 channels, 3x3 over 9x9, one image.
compiler::plan_t conv(data_type_t dt, bool nxc) {
    sample_t s;
    const auto x = nxc ? s.in({1, 9, 9, 8}, dt) : s.in({1, 8, 9, 9}, dt);
    const auto w = nxc ? s.in({3, 3, 8, 12}, dt) : s.in({12, 8, 3, 3}, dt);
    s.op(dnnl_graph_op_convolution, {x, w}, dt, conv_attrs(nxc, 1));
    return s.plan();
}

// Depthwise: 8 channels, 3x3, channel-first.
compiler::plan_t conv_dw(data_type_t dt) {
    sample_t s;
    const auto x = s.in({1, 8, 9, 9}, dt);
    const auto w = s.in({8, 1, 3, 3}, dt);
    s.op(dnnl_graph_op_convolution, {x, w}, dt, conv_attrs(false, 8));
    return s.plan();
}

compiler::plan_t matmul(data_type_t dt,
        fpmath_mode_t mode = dnnl_fpmath_mode_strict) {
    sample_t s;
    const auto a = s.in({16, 32}, dt);
    const auto b = s.in({32, 24}, dt);
    s.op(dnnl_graph_op_matmul, {a, b}, dt);
    s.p.ops.back().fpmath = mode;
    return s.plan();
}

compiler::plan_t single(op_kind_t k, const dims_t &d,
        const attrs_fn &attrs = nullptr, data_type_t dt = dnnl_f32) {
    sample_t s;
    const auto x = s.in(d, dt);
    s.op(k, {x}, dt, attrs);
    return s.plan();
}

attrs_fn axis(int64_t a) {
    return [a](ir::op_t &o) {
        o.set_attr(dnnl_graph_op_attr_axis, av::make_s64(a));
    };
}

attrs_fn pool_attrs(bool with_rounding = true) {
    return [=](ir::op_t &o) {
        o.set_attr(dnnl_graph_op_attr_kernel, av::make_s64s({2, 2}));
        o.set_attr(dnnl_graph_op_attr_strides, av::make_s64s({2, 2}));
        o.set_attr(dnnl_graph_op_attr_pads_begin, av::make_s64s({0, 0}));
        o.set_attr(dnnl_graph_op_attr_pads_end, av::make_s64s({0, 0}));
        o.set_attr(dnnl_graph_op_attr_data_format, av::make_str("NCX"));
        if (with_rounding)
            o.set_attr(dnnl_graph_op_attr_rounding_type, av::make_str("floor"));
    };
}

compiler::plan_t sdpa(data_type_t dt) {
    sample_t s;
    const auto q = s.in({1, 2, 16, 32}, dt);
    const auto k = s.in({1, 2, 16, 32}, dt);
    auto sc = s.op(dnnl_graph_op_matmul, {q, k}, dt, [](ir::op_t &o) {
        o.set_attr(dnnl_graph_op_attr_transpose_b, av::make_bool(true));
    });
    const auto scale = s.in({1}, dt);
    sc = s.op(dnnl_graph_op_multiply, {sc, scale}, dt);
    sc = s.op(dnnl_graph_op_softmax, {sc}, dt, axis(-1));
    const auto v = s.in({1, 2, 16, 32}, dt);
    s.op(dnnl_graph_op_matmul, {sc, v}, dt);
    return s.plan();
}

// Dequantize -> anchor -> Quantize over u8 data and s8 weights.
compiler::plan_t int8_anchor(bool is_conv) {
    sample_t s;
    const auto x = is_conv ? s.in({1, 8, 9, 9}, dnnl_u8) : s.in({16, 32}, dnnl_u8);
    const auto w = is_conv ? s.in({12, 8, 3, 3}, dnnl_s8) : s.in({32, 24}, dnnl_s8);
    const auto xf = s.op(dnnl_graph_op_dequantize, {x}, dnnl_f32,
            [](ir::op_t &o) { quant(o, 0.02f, 120); });
    const auto wf = s.op(dnnl_graph_op_dequantize, {w}, dnnl_f32,
            [](ir::op_t &o) { quant(o, 0.01f, 0); });
    const auto y = is_conv ? s.op(dnnl_graph_op_convolution, {xf, wf},
                                   dnnl_f32, conv_attrs(false, 1))
                           : s.op(dnnl_graph_op_matmul, {xf, wf});
    s.op(dnnl_graph_op_quantize, {y}, dnnl_u8,
            [](ir::op_t &o) { quant(o, 0.05f, 128); });
    return s.plan();
}

compiler::plan_t pool_int8() {
    sample_t s;
    const auto x = s.in({1, 8, 8, 8}, dnnl_u8);
    const auto xf = s.op(dnnl_graph_op_dequantize, {x}, dnnl_f32,
            [](ir::op_t &o) { quant(o, 0.03f, 17); });
    const auto y = s.op(dnnl_graph_op_max_pool, {xf}, dnnl_f32, pool_attrs());
    s.op(dnnl_graph_op_quantize, {y}, dnnl_u8,
            [](ir::op_t &o) { quant(o, 0.03f, 17); });
    return s.plan();
}

compiler::plan_t concat_quant() {
    sample_t s;
    const auto a = s.in({2, 3, 4}, dnnl_u8);
    const auto b = s.in({2, 5, 4}, dnnl_u8);
    const auto af = s.op(dnnl_graph_op_dequantize, {a}, dnnl_f32,
            [](ir::op_t &o) { quant(o, 0.5f, 3); });
    const auto bf = s.op(dnnl_graph_op_dequantize, {b}, dnnl_f32,
            [](ir::op_t &o) { quant(o, 0.25f, 1); });
    const auto c = s.op(dnnl_graph_op_concat, {af, bf}, dnnl_f32, axis(1));
    s.op(dnnl_graph_op_quantize, {c}, dnnl_u8,
            [](ir::op_t &o) { quant(o, 0.5f, 2); });
    return s.plan();
}

compiler::plan_t eltwise_chain() {
    sample_t s;
    const auto x = s.in({4, 64});
    const auto y = s.op(dnnl_graph_op_relu, {x});
    const auto z = s.in({4, 64});
    s.op(dnnl_graph_op_add, {y, z});
    return s.plan();
}

compiler::plan_t two_in(op_kind_t k, const dims_t &a, const dims_t &b,
        data_type_t out_dt = dnnl_f32, const attrs_fn &attrs = nullptr) {
    sample_t s;
    const auto x = s.in(a);
    const auto y = s.in(b);
    s.op(k, {x, y}, out_dt, attrs);
    return s.plan();
}

compiler::plan_t quant_dynamic() {
    sample_t s;
    const auto x = s.in({4, 16});
    const auto sc = s.in({1});
    s.op(dnnl_graph_op_dynamic_quantize, {x, sc}, dnnl_u8, [](ir::op_t &o) {
        o.set_attr(dnnl_graph_op_attr_qtype, av::make_str("per_tensor"));
        o.set_attr(dnnl_graph_op_attr_axis, av::make_s64(1));
    });
    return s.plan();
}

compiler::plan_t movement() {
    sample_t s;
    const auto x = s.in({4, 6}, dnnl_f32, {1, 4}); // column-major
    s.op(dnnl_graph_op_reorder, {x});
    return s.plan();
}

compiler::plan_t layernorm_bwd() {
    sample_t s;
    const auto x = s.in({4, 32});
    const auto dy = s.in({4, 32});
    const auto mean = s.in({4});
    const auto var = s.in({4});
    s.op(dnnl_graph_op_layer_norm_backward, {x, dy, mean, var}, dnnl_f32,
            [](ir::op_t &o) {
                o.set_attr(dnnl_graph_op_attr_use_affine, av::make_bool(false));
            });
    return s.plan();
}

compiler::plan_t batchnorm(bool training) {
    sample_t s;
    const auto x = s.in({2, 8, 4, 4});
    const auto gamma = s.in({8}), beta = s.in({8}), mean = s.in({8}),
               var = s.in({8});
    const attrs_fn attrs = [](ir::op_t &o) {
        o.set_attr(dnnl_graph_op_attr_epsilon, av::make_f32(1e-5f));
        o.set_attr(dnnl_graph_op_attr_data_format, av::make_str("NCX"));
    };
    if (training)
        s.op(dnnl_graph_op_batch_norm_forward_training,
                {x, mean, var, gamma, beta}, dnnl_f32, attrs, 5);
    else
        s.op(dnnl_graph_op_batch_norm_inference, {x, gamma, beta, mean, var},
                dnnl_f32, attrs);
    return s.plan();
}

compiler::plan_t batchnorm_bwd() {
    sample_t s;
    const auto x = s.in({2, 8, 4, 4});
    const auto dy = s.in({2, 8, 4, 4});
    const auto mean = s.in({8}), var = s.in({8}), gamma = s.in({8});
    s.op(dnnl_graph_op_batch_norm_backward, {x, dy, mean, var, gamma},
            dnnl_f32,
            [](ir::op_t &o) {
                o.set_attr(dnnl_graph_op_attr_epsilon, av::make_f32(1e-5f));
                o.set_attr(dnnl_graph_op_attr_data_format, av::make_str("NCX"));
            },
            3);
    return s.plan();
}

compiler::plan_t conv_bwd() {
    sample_t s;
    const auto dy = s.in({1, 4, 4, 4});
    const auto w = s.in({4, 3, 3, 3});
    s.op(dnnl_graph_op_convolution_backward_data, {dy, w}, dnnl_f32,
            [](ir::op_t &o) {
                conv_attrs(false, 1, 0)(o);
                o.set_attr(dnnl_graph_op_attr_dst_shape,
                        av::make_s64s({1, 3, 6, 6}));
            });
    return s.plan();
}

compiler::plan_t maxpool_bwd() {
    sample_t s;
    const auto dy = s.in({1, 8, 4, 4});
    const auto x = s.in({1, 8, 8, 8});
    s.op(dnnl_graph_op_max_pool_backward, {x, dy}, dnnl_f32,
            pool_attrs(false));
    return s.plan();
}

using sample_fn = std::function<compiler::plan_t()>;

// One sample per row of kernels.def (by row name).
const std::map<std::string, sample_fn> &samples() {
    static const std::map<std::string, sample_fn> m = {
            {"sdpa_avx512", [] { return sdpa(dnnl_f32); }},
            {"sdpa_avx2", [] { return sdpa(dnnl_f32); }},
            {"matmul_amx", [] { return matmul(dnnl_bf16); }},
            {"matmul_avx512_bf16", [] { return matmul(dnnl_bf16); }},
            {"matmul_avx512", [] { return matmul(dnnl_f32); }},
            {"matmul_avx2", [] { return matmul(dnnl_f32); }},
            {"matmul_int8", [] { return int8_anchor(false); }},
            {"conv_int8", [] { return int8_anchor(true); }},
            {"conv_dw_avx512_bf16", [] { return conv_dw(dnnl_bf16); }},
            {"conv_dw_avx512", [] { return conv_dw(dnnl_f32); }},
            {"conv_dw_avx2", [] { return conv_dw(dnnl_f32); }},
            // Direct convolutions take channel-last data; channel-first
            // falls through to the GEMM rows.
            {"conv_brg_amx", [] { return conv(dnnl_bf16, true); }},
            {"conv_gemm_amx", [] { return conv(dnnl_bf16, false); }},
            {"conv_brg_avx512_bf16", [] { return conv(dnnl_bf16, true); }},
            {"conv_gemm_avx512_bf16", [] { return conv(dnnl_bf16, false); }},
            {"conv_brg_avx512", [] { return conv(dnnl_f32, true); }},
            {"conv_gemm_avx512", [] { return conv(dnnl_f32, false); }},
            {"conv_gemm_avx2", [] { return conv(dnnl_f32, false); }},
            {"conv_bwd_avx512", conv_bwd},
            {"conv_bwd_avx2", conv_bwd},
            {"eltwise_chain_avx512", eltwise_chain},
            {"eltwise_chain_avx2", eltwise_chain},
            {"eltwise_avx512",
                    [] { return single(dnnl_graph_op_relu, {4, 64}); }},
            {"eltwise_avx2", [] { return single(dnnl_graph_op_relu, {4, 64}); }},
            {"quant_avx512",
                    [] {
                        sample_t s;
                        const auto x = s.in({4, 64});
                        s.op(dnnl_graph_op_quantize, {x}, dnnl_u8,
                                [](ir::op_t &o) { quant(o, 0.5f, 3); });
                        return s.plan();
                    }},
            {"quant_avx2",
                    [] {
                        sample_t s;
                        const auto x = s.in({4, 64});
                        s.op(dnnl_graph_op_quantize, {x}, dnnl_u8,
                                [](ir::op_t &o) { quant(o, 0.5f, 3); });
                        return s.plan();
                    }},
            {"quant_dynamic", quant_dynamic},
            {"softmax_avx512",
                    [] { return single(dnnl_graph_op_softmax, {4, 64}, axis(1)); }},
            {"softmax_avx2",
                    [] { return single(dnnl_graph_op_softmax, {4, 64}, axis(1)); }},
            {"layernorm_avx512",
                    [] {
                        return single(dnnl_graph_op_layer_norm, {4, 64},
                                [](ir::op_t &o) {
                                    o.set_attr(dnnl_graph_op_attr_keep_stats,
                                            av::make_bool(false));
                                    o.set_attr(dnnl_graph_op_attr_use_affine,
                                            av::make_bool(false));
                                });
                    }},
            {"layernorm_avx2",
                    [] {
                        return single(dnnl_graph_op_layer_norm, {4, 64},
                                [](ir::op_t &o) {
                                    o.set_attr(dnnl_graph_op_attr_keep_stats,
                                            av::make_bool(false));
                                    o.set_attr(dnnl_graph_op_attr_use_affine,
                                            av::make_bool(false));
                                });
                    }},
            {"groupnorm_avx512",
                    [] {
                        return single(dnnl_graph_op_group_norm, {2, 8, 4, 4},
                                [](ir::op_t &o) {
                                    o.set_attr(dnnl_graph_op_attr_groups,
                                            av::make_s64(4));
                                    o.set_attr(dnnl_graph_op_attr_keep_stats,
                                            av::make_bool(false));
                                    o.set_attr(dnnl_graph_op_attr_use_affine,
                                            av::make_bool(false));
                                });
                    }},
            {"groupnorm_avx2",
                    [] {
                        return single(dnnl_graph_op_group_norm, {2, 8, 4, 4},
                                [](ir::op_t &o) {
                                    o.set_attr(dnnl_graph_op_attr_groups,
                                            av::make_s64(4));
                                    o.set_attr(dnnl_graph_op_attr_keep_stats,
                                            av::make_bool(false));
                                    o.set_attr(dnnl_graph_op_attr_use_affine,
                                            av::make_bool(false));
                                });
                    }},
            {"eltwise_exact", [] { return single(dnnl_graph_op_log, {4, 64}); }},
            {"prelu",
                    [] { return two_in(dnnl_graph_op_prelu, {2, 8, 4}, {8, 1}); }},
            {"select_compare",
                    [] {
                        return two_in(dnnl_graph_op_greater_equal, {4, 8},
                                {4, 8}, dnnl_boolean);
                    }},
            {"gen_index",
                    [] {
                        sample_t s;
                        const auto x = s.in({4, 8});
                        s.op(dnnl_graph_op_gen_index, {x}, dnnl_s32, axis(1));
                        return s.plan();
                    }},
            {"concat_quant", concat_quant},
            {"movement", movement},
            {"layernorm_bwd", layernorm_bwd},
            {"softmax_bwd",
                    [] {
                        return two_in(dnnl_graph_op_softmax_backward, {4, 64},
                                {4, 64}, dnnl_f32, axis(1));
                    }},
            {"reduce",
                    [] {
                        return single(dnnl_graph_op_reduce_sum, {4, 64},
                                [](ir::op_t &o) {
                                    o.set_attr(dnnl_graph_op_attr_axes,
                                            av::make_s64s({1}));
                                });
                    }},
            {"batchnorm", [] { return batchnorm(false); }},
            {"batchnorm_training", [] { return batchnorm(true); }},
            {"batchnorm_bwd", batchnorm_bwd},
            {"pool_int8", pool_int8},
            {"pool",
                    [] {
                        return single(dnnl_graph_op_max_pool, {1, 8, 8, 8},
                                pool_attrs());
                    }},
            {"interpolate",
                    [] {
                        return single(dnnl_graph_op_interpolate, {1, 2, 4, 4},
                                [](ir::op_t &o) {
                                    o.set_attr(dnnl_graph_op_attr_mode,
                                            av::make_str("nearest"));
                                    o.set_attr(dnnl_graph_op_attr_sizes,
                                            av::make_s64s({8, 8}));
                                    o.set_attr(dnnl_graph_op_attr_data_format,
                                            av::make_str("NCX"));
                                });
                    }},
            {"maxpool_bwd", maxpool_bwd},
            {"fpmath_rounded",
                    [] { return matmul(dnnl_f32, dnnl_fpmath_mode_bf16); }},
            // Half-precision convolutions where no native row takes them.
            {"staged_f32_avx512", [] { return conv(dnnl_bf16, true); }},
            {"staged_f32_avx2", [] { return conv(dnnl_bf16, true); }},
    };
    return m;
}

TEST(CpuKernelTable, EveryRowTheHostCanRunIsPickedForItsSample) {
    const std::vector<candidate_row_t> rows = cpu::candidate_rows();
    ASSERT_FALSE(rows.empty());
    int walked = 0;
    for (const candidate_row_t &r : rows) {
        const auto it = samples().find(r.name);
        ASSERT_NE(it, samples().end())
                << "kernels.def row " << r.name << " has no sample here";
        if (!host_supports(r.isa)) continue;
        test_isa::isa_guard_t guard(r.isa);
        const compiler::plan_t p = it->second();
        const char *got = picked_candidate(p);
        EXPECT_STREQ(got ? got : "(none)", r.name)
                << "sample of " << r.name << " at " << isa_name(r.isa);
        ++walked;
    }
    // This suite runs where the JIT backend does: AVX2 at least.
    if (host_supports(isa_t::avx2)) {
        EXPECT_GE(walked, 30);
    }
}

// Names in the sample list that are no longer rows are stale.
TEST(CpuKernelTable, EverySampleNamesARow) {
    std::map<std::string, int> names;
    for (const candidate_row_t &r : cpu::candidate_rows())
        ++names[r.name];
    for (const auto &kv : samples())
        EXPECT_EQ(names.count(kv.first), 1u) << kv.first;
    for (const auto &kv : names)
        EXPECT_EQ(kv.second, 1) << "row name " << kv.first << " repeats";
}

} // namespace
} // namespace cpu
} // namespace llga
