// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/conv/cpu_conv_fused_test.cpp — fused f32 Convolution
// chains (Convolution [+ bias] -> unary/binary post-ops) on the GEMM conv
// kernels' epilogue, against the reference ops of ops/ run one by one, at
// every ISA level the host has: NXC and NCX, 1x1 (both direct modes) and
// im2col (3x3 with padding and stride, channel-first via the dense copy),
// groups, every supported eltwise, every binary op with per-channel /
// full / scalar / per-image operands (commuted where it commutes), 4-op
// chains, channel and pixel tails, batch > 1; and the partitions the
// kernel must decline, with their reasons.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/conv/conv.hpp"
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
using plan_test::bytes_t;
using plan_test::random_bytes;
using plan_test::run_jit;

std::vector<isa_t> levels() {
    return test_isa::host_levels({isa_t::avx2, isa_t::avx512_core});
}

class CpuConvFused : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

// One convolution layer; `o` (output spatial) is derived.
struct layer_t {
    bool nxc = true;
    int64_t N = 1, IC = 8, OC = 16, H = 6, W = 5, K = 1, S = 1, P = 0, G = 1;
    bool bias = true;
    int64_t OH() const { return (H + 2 * P - K) / S + 1; }
    int64_t OW() const { return (W + 2 * P - K) / S + 1; }
    dims_t dst() const {
        return nxc ? dims_t {N, OH(), OW(), OC} : dims_t {N, OC, OH(), OW()};
    }
    // Shape of a per-channel operand [1, OC, 1, 1] / [1, 1, 1, OC].
    dims_t per_channel() const {
        return nxc ? dims_t {1, 1, 1, OC} : dims_t {1, OC, 1, 1};
    }
    dims_t per_image_channel() const {
        return nxc ? dims_t {N, 1, 1, OC} : dims_t {N, OC, 1, 1};
    }
    std::string str() const { // "nxc N IC OC H W K S P G [bias]"
        std::string r = nxc ? "nxc" : "ncx";
        for (int64_t v : {N, IC, OC, H, W, K, S, P, G})
            r += " " + std::to_string(v);
        return r + (bias ? " bias" : "");
    }
};

// The conv_gemm layout the layer must take at `isa` (names as in
// conv_gemm.cpp; stacked rows: f32 on AVX2, 24+ pixel rows).
std::string expected_kernel(const layer_t &l, isa_t isa) {
    const bool dense_1x1 = l.K == 1 && l.S == 1 && l.P == 0;
    const bool stacked = isa == isa_t::avx2 && l.K > l.S && l.OW() >= 24;
    // A strided 1x1 on NCX data gathers its pixels for the direct GEMM.
    if (l.K == 1 && l.P == 0 && l.S > 1 && !l.nxc)
        return "conv_gemm_1x1s_ncx_f32";
    return std::string("conv_gemm_")
            + (dense_1x1 ? "1x1_"
                    : stacked ? "stacked_"
                              : "im2col_")
            + (l.nxc ? "f32" : "ncx_f32");
}

// A partition built op by op; every tensor dense.
struct case_t {
    std::vector<ir::op_t> ops;
    std::vector<logical_tensor_t> ins;
    size_t next = 100;
    size_t conv_out = 0, wei_id = 0;
    int64_t kdim = 1; // summation length of one output
    std::vector<size_t> div_ids;

    logical_tensor_t in(const dims_t &d) {
        ins.push_back(ir::make_lt(next++, dnnl_f32, d));
        return ins.back();
    }
    logical_tensor_t add(op_kind_t k, std::vector<logical_tensor_t> inputs,
            const dims_t &out,
            std::function<void(ir::op_t &)> attrs = nullptr) {
        ir::op_t op;
        op.kind = k;
        op.id = ops.size() + 1;
        op.inputs = std::move(inputs);
        op.outputs.push_back(ir::make_lt(next++, dnnl_f32, out));
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

logical_tensor_t add_conv(case_t &c, const layer_t &l) {
    const int64_t icg = l.IC / l.G;
    const logical_tensor_t x = c.in(l.nxc ? dims_t {l.N, l.H, l.W, l.IC}
                                          : dims_t {l.N, l.IC, l.H, l.W});
    // XIO with NXC data, OIX with NCX (what frameworks pair).
    const logical_tensor_t w = c.in(l.nxc ? dims_t {l.K, l.K, icg, l.OC}
                                          : dims_t {l.OC, icg, l.K, l.K});
    std::vector<logical_tensor_t> in = {x, w};
    if (l.bias) in.push_back(c.in({l.OC}));
    c.wei_id = w.id;
    c.kdim = icg * l.K * l.K;
    const logical_tensor_t y = c.add(dnnl_graph_op_convolution, in, l.dst(),
            [&](ir::op_t &op) {
                auto s64s = [&](dnnl_graph_op_attr_t a, int64_t v) {
                    op.set_attr(a, attr_value_t::make_s64s({v, v}));
                };
                s64s(dnnl_graph_op_attr_strides, l.S);
                s64s(dnnl_graph_op_attr_pads_begin, l.P);
                s64s(dnnl_graph_op_attr_pads_end, l.P);
                s64s(dnnl_graph_op_attr_dilations, 1);
                op.set_attr(dnnl_graph_op_attr_groups,
                        attr_value_t::make_s64(l.G));
                op.set_attr(dnnl_graph_op_attr_data_format,
                        attr_value_t::make_str(l.nxc ? "NXC" : "NCX"));
                op.set_attr(dnnl_graph_op_attr_weights_format,
                        attr_value_t::make_str(l.nxc ? "XIO" : "OIX"));
            });
    c.conv_out = y.id;
    return y;
}

// Appends `kind(x, operand)` (or `kind(operand, x)` when `swap`).
logical_tensor_t add_binary(case_t &c, op_kind_t kind,
        const logical_tensor_t &x, const dims_t &od, bool swap) {
    const logical_tensor_t y = c.in(od);
    if (kind == dnnl_graph_op_divide) c.div_ids.push_back(y.id);
    std::vector<logical_tensor_t> in = {x, y};
    if (swap) std::swap(in[0], in[1]);
    return c.add(kind, in, ir::dims_of(x));
}

// Compares the fused kernel with the reference. The conv value carries
// the f32 summation error e = (K + 4) u sum|x||w| + u|bias| (u = 2^-24,
// K = ICg*KH*KW; the GEMM sums in another order than the reference, in
// blocks); the reference is run again with the conv value moved by +e and
// -e, which bounds what the rest of the chain makes of it (the ops are
// monotone or flat over so short an interval). On top, each value may
// differ by 2e-4 (1 + |want|): the accuracy of the epilogue's vector math
// (exp, erf, tanh, log polynomials), as in cpu_matmul_fused_test.
void check(case_t &c, unsigned seed, const std::string &what_op,
        const layer_t &l) {
    const std::string what = what_op + " " + l.str();
    const compiler::plan_t p = c.plan();
    std::mt19937 gen(seed);
    std::vector<bytes_t> in;
    const float ws = 2.f / std::sqrt(static_cast<float>(c.kdim));
    for (const auto &lt : p.inputs) {
        auto has = [&](const std::vector<size_t> &v) {
            return std::find(v.begin(), v.end(), lt.id) != v.end();
        };
        if (lt.id == c.wei_id)
            in.push_back(random_bytes(lt, gen, -ws, ws));
        else if (has(c.div_ids))
            in.push_back(random_bytes(lt, gen, 0.5f, 1.5f));
        else
            in.push_back(random_bytes(lt, gen, -1.f, 1.f));
    }
    // The Convolution is the plan's first op.
    const plan_test::anchor_bounds_t r
            = plan_test::reference_bounds(p, in, 0, c.conv_out, c.kdim);
    const size_t oid = p.outputs[0].id;
    const size_t n = ir::mem_size(p.outputs[0]) / 4;
    for (isa_t isa : levels()) {
        test_isa::isa_guard_t guard(isa);
        bytes_t got;
        std::string kname;
        ASSERT_TRUE(run_jit(p, in, got, &kname)) << what << " declined @"
                                                 << isa_name(isa);
        EXPECT_NE(kname.find(expected_kernel(l, isa)), std::string::npos)
                << what << ": " << kname;
        EXPECT_NE(kname.find("_po:"), std::string::npos) << kname;
        int bad = 0;
        for (size_t j = 0; j < n; ++j) {
            const int64_t o = static_cast<int64_t>(j);
            const plan_test::bound_check_t e
                    = plan_test::check_element(r, oid, got, o);
            if (!e.ok && bad++ < 5)
                ADD_FAILURE() << what << " @" << isa_name(isa) << " " << kname
                              << " offset " << o << ": got " << e.got
                              << " want " << e.want << " in [" << e.min
                              << ", " << e.max << "]";
        }
        EXPECT_EQ(bad, 0) << what << " @" << isa_name(isa);
    }
}

// Layers covering the GEMM layouts in both formats: dense 1x1 (one
// GEMM per group, channel-last or channel-first), strided 1x1 and 3x3
// with padding (im2col; channel-first through the dense copy), wide rows
// (stacked rows), OC tails
// (not a multiple of 8 / 16 lanes), odd pixel counts, batch > 1, groups.
std::vector<layer_t> layers() {
    std::vector<layer_t> v;
    for (bool nxc : {true, false}) {
        layer_t l;
        l.nxc = nxc;
        v.push_back(l); // 1x1 dense, 6x5 pixels
        l.N = 2, l.IC = 13, l.OC = 19, l.H = 7, l.W = 3;
        v.push_back(l); // 1x1 dense, channel tails, batch 2
        l.K = 3, l.P = 1, l.OC = 21, l.H = 9, l.W = 11;
        v.push_back(l); // 3x3 pad 1: im2col
        l.S = 2, l.bias = false, l.OC = 40;
        v.push_back(l); // 3x3 stride 2, no bias
        l.K = 1, l.P = 0, l.IC = 16, l.OC = 24;
        v.push_back(l); // strided 1x1: im2col
        l.S = 1, l.G = 2, l.IC = 12, l.OC = 20, l.bias = true;
        v.push_back(l); // grouped 1x1 dense
        l.K = 3, l.P = 1;
        v.push_back(l); // grouped 3x3
        l.G = 1, l.N = 3, l.IC = 32, l.OC = 200, l.H = 20, l.W = 20;
        v.push_back(l); // several pixel and channel blocks (implicit tasks)
        l.N = 2, l.IC = 5, l.OC = 24, l.H = 5, l.W = 26;
        v.push_back(l); // 26-pixel rows: stacked rows on AVX2
    }
    return v;
}

struct unary_t {
    op_kind_t kind;
    std::function<void(ir::op_t &)> attrs;
    const char *name;
};

std::vector<unary_t> supported_unary() {
    using A = std::vector<std::pair<dnnl_graph_op_attr_t, float>>;
    auto f = [](A attrs) {
        return [attrs](ir::op_t &op) {
            for (const auto &a : attrs)
                op.set_attr(a.first, attr_value_t::make_f32(a.second));
        };
    };
    auto tanh_mode = [](ir::op_t &op) {
        op.set_attr(dnnl_graph_op_attr_mode, attr_value_t::make_str("gelu_tanh"));
    };
    // Log and Sqrt get Exp in front (defined on x >= 0 only).
    return {{dnnl_graph_op_relu, nullptr, "relu"},
            {dnnl_graph_op_leaky_relu, f({{dnnl_graph_op_attr_alpha, 0.1f}}),
                    "leaky_relu"},
            {dnnl_graph_op_gelu, nullptr, "gelu_erf"},
            {dnnl_graph_op_gelu, tanh_mode, "gelu_tanh"},
            {dnnl_graph_op_sigmoid, nullptr, "sigmoid"},
            {dnnl_graph_op_tanh, nullptr, "tanh"},
            {dnnl_graph_op_clamp,
                    f({{dnnl_graph_op_attr_min, -0.3f},
                            {dnnl_graph_op_attr_max, 0.6f}}),
                    "clamp"},
            {dnnl_graph_op_elu, f({{dnnl_graph_op_attr_alpha, 0.7f}}), "elu"},
            {dnnl_graph_op_exp, nullptr, "exp"},
            {dnnl_graph_op_square, nullptr, "square"},
            {dnnl_graph_op_abs, nullptr, "abs"},
            {dnnl_graph_op_hard_sigmoid,
                    f({{dnnl_graph_op_attr_alpha, 0.25f},
                            {dnnl_graph_op_attr_beta, 0.4f}}),
                    "hardsigmoid"},
            {dnnl_graph_op_hard_swish, nullptr, "hardswish"},
            {dnnl_graph_op_log, nullptr, "log"},
            {dnnl_graph_op_sqrt, nullptr, "sqrt"}};
}

const op_kind_t k_binary[] = {dnnl_graph_op_add, dnnl_graph_op_subtract,
        dnnl_graph_op_multiply, dnnl_graph_op_divide, dnnl_graph_op_maximum,
        dnnl_graph_op_minimum};

bool commutes(op_kind_t k) {
    return k != dnnl_graph_op_subtract && k != dnnl_graph_op_divide;
}

TEST_F(CpuConvFused, EachEltwiseOnEveryLayout) {
    unsigned seed = 1;
    const auto ls = layers();
    size_t li = 0;
    for (const unary_t &u : supported_unary())
        for (int rep = 0; rep < 4; ++rep, ++li) {
            const layer_t &l = ls[li % ls.size()];
            case_t c;
            logical_tensor_t x = add_conv(c, l);
            // Log and Sqrt need x > 0: Exp in front, which is monotone
            // (Abs is not: x +- e around 0 would not bound log|x|).
            if (u.kind == dnnl_graph_op_log || u.kind == dnnl_graph_op_sqrt)
                x = c.add(dnnl_graph_op_exp, {x}, ir::dims_of(x));
            c.add(u.kind, {x}, ir::dims_of(x), u.attrs);
            check(c, seed++, u.name, l);
        }
}

// Operand shapes relative to the conv dst and how the epilogue reads them.
struct operand_shape_t {
    const char *name;
    std::function<dims_t(const layer_t &)> dims;
};

std::vector<operand_shape_t> operand_shapes() {
    return {
            {"scalar", [](const layer_t &) { return dims_t {1}; }},
            {"scalar4", [](const layer_t &) { return dims_t {1, 1, 1, 1}; }},
            {"per_channel", [](const layer_t &l) { return l.per_channel(); }},
            {"residual", [](const layer_t &l) { return l.dst(); }},
            {"per_image_channel",
                    [](const layer_t &l) { return l.per_image_channel(); }},
            // Full pixels, shared by the channels and the images.
            {"per_pixel",
                    [](const layer_t &l) {
                        return l.nxc ? dims_t {1, l.OH(), l.OW(), 1}
                                     : dims_t {1, 1, l.OH(), l.OW()};
                    }},
    };
}

TEST_F(CpuConvFused, BinaryEveryOperandShape) {
    unsigned seed = 100;
    std::mt19937 gen(5);
    const auto ls = layers();
    for (op_kind_t kind : k_binary)
        for (const operand_shape_t &os : operand_shapes())
            for (size_t li = gen() % 3; li < ls.size(); li += 3) {
                const layer_t &l = ls[li];
                const bool swap = commutes(kind) && gen() % 2 == 0;
                case_t c;
                const logical_tensor_t x = add_conv(c, l);
                add_binary(c, kind, x, os.dims(l), swap);
                check(c, seed++,
                        std::string(ops::op_kind_name(kind)) + " " + os.name
                                + (swap ? " swapped" : ""),
                        l);
            }
}

// ResNet / MobileNet / EfficientNet tails: bias + residual + ReLU,
// per-channel scale and shift + clamp, swish, and 4-op chains mixing them.
TEST_F(CpuConvFused, NetworkChains) {
    unsigned seed = 500;
    for (const layer_t &l : layers()) {
        {
            case_t c;
            logical_tensor_t x = add_conv(c, l);
            x = add_binary(c, dnnl_graph_op_add, x, l.dst(), seed % 2 == 0);
            c.add(dnnl_graph_op_relu, {x}, l.dst());
            check(c, seed++, "add(residual)+relu", l);
        }
        {
            case_t c;
            logical_tensor_t x = add_conv(c, l);
            x = add_binary(c, dnnl_graph_op_multiply, x, l.per_channel(), true);
            x = add_binary(c, dnnl_graph_op_add, x, l.per_channel(), false);
            x = c.add(dnnl_graph_op_clamp, {x}, l.dst(), [](ir::op_t &op) {
                op.set_attr(dnnl_graph_op_attr_min, attr_value_t::make_f32(0));
                op.set_attr(dnnl_graph_op_attr_max, attr_value_t::make_f32(0.5f));
            });
            add_binary(c, dnnl_graph_op_add, x, l.dst(), false);
            check(c, seed++, "mul+add+clamp+add(residual)", l);
        }
        {
            case_t c;
            const logical_tensor_t x = add_conv(c, l);
            const logical_tensor_t s = c.add(dnnl_graph_op_sigmoid, {x}, l.dst());
            logical_tensor_t y = c.add(dnnl_graph_op_multiply, {s, x}, l.dst());
            y = add_binary(c, dnnl_graph_op_multiply, y, l.per_image_channel(),
                    false);
            y = add_binary(c, dnnl_graph_op_subtract, y, {1}, false);
            c.add(dnnl_graph_op_tanh, {y}, l.dst());
            check(c, seed++, "swish+mul(se)+sub+tanh", l);
        }
    }
}

// A BiasAdd the compiler did not fold (a bias-less Convolution followed by
// BiasAdd) becomes the GEMM's bias on channel-last data.
TEST_F(CpuConvFused, BiasAddAfterBiaslessConvolution) {
    const layer_t l {true, 1, 8, 27, 6, 5, 3, 1, 1, 1, false};
    case_t c;
    logical_tensor_t x = add_conv(c, l);
    x = c.add(dnnl_graph_op_bias_add, {x, c.in({l.OC})}, l.dst(),
            [](ir::op_t &op) {
                op.set_attr(dnnl_graph_op_attr_data_format,
                        attr_value_t::make_str("NXC"));
            });
    c.add(dnnl_graph_op_relu, {x}, l.dst());
    check(c, 900, "biasadd+relu", l);
}

// Each builder appends a chain to a fresh 1x1 NXC conv (or its own conv)
// that conv_gemm must decline with a reason containing `reason`.
TEST_F(CpuConvFused, DeclinesWithReasons) {
    using build_t = std::function<void(case_t &, const layer_t &)>;
    auto attr_str = [](dnnl_graph_op_attr_t a, const char *v) {
        return [=](ir::op_t &op) { op.set_attr(a, attr_value_t::make_str(v)); };
    };
    auto unary = [](op_kind_t k) {
        return [k](case_t &c, const layer_t &l) {
            c.add(k, {add_conv(c, l)}, l.dst());
        };
    };
    struct decline_case_t {
        const char *what, *reason;
        build_t build;
    };
    const decline_case_t cases[] = {
            {"mish", "no GEMM post-op", unary(dnnl_graph_op_mish)},
            {"softplus", "no GEMM post-op", unary(dnnl_graph_op_softplus)},
            {"round", "no GEMM post-op", unary(dnnl_graph_op_round)},
            {"sub on input 1", "input 1",
                    [](case_t &c, const layer_t &l) {
                        const logical_tensor_t x = add_conv(c, l);
                        c.add(dnnl_graph_op_subtract, {c.in(l.dst()), x},
                                l.dst());
                    }},
            {"operand along one pixel axis", "GEMM rows",
                    [](case_t &c, const layer_t &l) {
                        add_binary(c, dnnl_graph_op_add, add_conv(c, l),
                                {1, l.OH(), 1, 1}, false);
                    }},
            {"batchnorm", "no GEMM post-op",
                    [&](case_t &c, const layer_t &l) {
                        std::vector<logical_tensor_t> in = {add_conv(c, l)};
                        for (int i = 0; i < 4; ++i)
                            in.push_back(c.in({l.OC}));
                        c.add(dnnl_graph_op_batch_norm_inference, in, l.dst(),
                                [&](ir::op_t &op) {
                                    op.set_attr(dnnl_graph_op_attr_epsilon,
                                            attr_value_t::make_f32(1e-5f));
                                    attr_str(dnnl_graph_op_attr_data_format,
                                            "NXC")(op);
                                });
                    }},
            {"x * x", "read by",
                    [](case_t &c, const layer_t &l) {
                        const logical_tensor_t x = add_conv(c, l);
                        c.add(dnnl_graph_op_multiply, {x, x}, l.dst());
                    }},
            // Depthwise stays on conv_dw (+ separate post-op kernels).
            {"depthwise", "depthwise",
                    [](case_t &c, const layer_t &l) {
                        layer_t dw = l;
                        dw.IC = dw.OC = dw.G = 16;
                        dw.K = 3;
                        dw.P = 1;
                        c.add(dnnl_graph_op_relu, {add_conv(c, dw)}, dw.dst());
                    }},
            // A second BiasAdd on channel-first data ([C] aligns with W).
            {"ncx biasadd after bias", "BiasAdd",
                    [&](case_t &c, const layer_t &l) {
                        layer_t n = l;
                        n.nxc = false;
                        c.add(dnnl_graph_op_bias_add,
                                {add_conv(c, n), c.in({n.OC})}, n.dst(),
                                attr_str(dnnl_graph_op_attr_data_format,
                                        "NCX"));
                    }},
    };
    for (const decline_case_t &dc : cases) {
        case_t c;
        dc.build(c, layer_t {});
        std::string why;
        EXPECT_FALSE(conv::accepts_gemm(c.plan(), isa_t::avx2, &why)) << dc.what;
        EXPECT_NE(why.find(dc.reason), std::string::npos)
                << dc.what << ": " << why;
    }
}

} // namespace
} // namespace cpu
} // namespace llga
