// SPDX-License-Identifier: Apache-2.0
// headers_cxx.cpp -- compile-only checks of llga's public C++ headers.
//
// Owns: static_asserts that every C++ enumerator of dnnl_common.hpp and
// dnnl_graph.hpp has the value of its C counterpart, that logical_tensor is
// a 224-byte trivially copyable value type, and a never-called function that
// exercises the API the way the oneDNN graph examples do (overload
// resolution, SFINAE set_attr, aliases seen through
// `using namespace dnnl; using namespace dnnl::graph;`). Must compile as
// C++11 and C++20. Running the program does nothing.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "oneapi/dnnl/dnnl_graph.hpp"

// Including both headers again (and in the other order) must be harmless.
#include "oneapi/dnnl/dnnl_common.hpp"
#include "oneapi/dnnl/dnnl_graph.h"

namespace {

// Value of a scoped enumerator as an int.
template <typename E>
constexpr int v(E e) {
    return static_cast<int>(e);
}

using g_op = dnnl::graph::op;
using g_lt = dnnl::graph::logical_tensor;

// ---- op::kind: all 87 enumerators ----
#define KIND(cpp, c, n) \
    static_assert(v(g_op::kind::cpp) == c && c == n, "op::kind::" #cpp)
KIND(Abs, dnnl_graph_op_abs, 0);
KIND(AbsBackward, dnnl_graph_op_abs_backward, 1);
KIND(Add, dnnl_graph_op_add, 2);
KIND(AvgPool, dnnl_graph_op_avg_pool, 3);
KIND(AvgPoolBackward, dnnl_graph_op_avg_pool_backward, 4);
KIND(BatchNormTrainingBackward, dnnl_graph_op_batch_norm_backward, 5);
KIND(BatchNormForwardTraining, dnnl_graph_op_batch_norm_forward_training, 6);
KIND(BatchNormInference, dnnl_graph_op_batch_norm_inference, 7);
KIND(BiasAdd, dnnl_graph_op_bias_add, 8);
KIND(BiasAddBackward, dnnl_graph_op_bias_add_backward, 9);
KIND(Clamp, dnnl_graph_op_clamp, 10);
KIND(ClampBackward, dnnl_graph_op_clamp_backward, 11);
KIND(Concat, dnnl_graph_op_concat, 12);
KIND(Convolution, dnnl_graph_op_convolution, 13);
KIND(ConvolutionBackwardData, dnnl_graph_op_convolution_backward_data, 14);
KIND(ConvolutionBackwardWeights, dnnl_graph_op_convolution_backward_weights, 15);
KIND(ConvTranspose, dnnl_graph_op_conv_transpose, 16);
KIND(ConvTransposeBackwardData, dnnl_graph_op_conv_transpose_backward_data, 17);
KIND(ConvTransposeBackwardWeights, dnnl_graph_op_conv_transpose_backward_weights, 18);
KIND(Dequantize, dnnl_graph_op_dequantize, 19);
KIND(Divide, dnnl_graph_op_divide, 20);
KIND(DynamicDequantize, dnnl_graph_op_dynamic_dequantize, 21);
KIND(DynamicQuantize, dnnl_graph_op_dynamic_quantize, 22);
KIND(Elu, dnnl_graph_op_elu, 23);
KIND(EluBackward, dnnl_graph_op_elu_backward, 24);
KIND(End, dnnl_graph_op_end, 25);
KIND(Exp, dnnl_graph_op_exp, 26);
KIND(GELU, dnnl_graph_op_gelu, 27);
KIND(GELUBackward, dnnl_graph_op_gelu_backward, 28);
KIND(HardSwish, dnnl_graph_op_hard_swish, 29);
KIND(HardSwishBackward, dnnl_graph_op_hard_swish_backward, 30);
KIND(Interpolate, dnnl_graph_op_interpolate, 31);
KIND(InterpolateBackward, dnnl_graph_op_interpolate_backward, 32);
KIND(LayerNorm, dnnl_graph_op_layer_norm, 33);
KIND(LayerNormBackward, dnnl_graph_op_layer_norm_backward, 34);
KIND(LeakyReLU, dnnl_graph_op_leaky_relu, 35);
KIND(Log, dnnl_graph_op_log, 36);
KIND(LogSoftmax, dnnl_graph_op_log_softmax, 37);
KIND(LogSoftmaxBackward, dnnl_graph_op_log_softmax_backward, 38);
KIND(MatMul, dnnl_graph_op_matmul, 39);
KIND(Maximum, dnnl_graph_op_maximum, 40);
KIND(MaxPool, dnnl_graph_op_max_pool, 41);
KIND(MaxPoolBackward, dnnl_graph_op_max_pool_backward, 42);
KIND(Minimum, dnnl_graph_op_minimum, 43);
KIND(Mish, dnnl_graph_op_mish, 44);
KIND(MishBackward, dnnl_graph_op_mish_backward, 45);
KIND(Multiply, dnnl_graph_op_multiply, 46);
KIND(PReLU, dnnl_graph_op_prelu, 47);
KIND(PReLUBackward, dnnl_graph_op_prelu_backward, 48);
KIND(Quantize, dnnl_graph_op_quantize, 49);
KIND(Reciprocal, dnnl_graph_op_reciprocal, 50);
KIND(ReduceL1, dnnl_graph_op_reduce_l1, 51);
KIND(ReduceL2, dnnl_graph_op_reduce_l2, 52);
KIND(ReduceMax, dnnl_graph_op_reduce_max, 53);
KIND(ReduceMean, dnnl_graph_op_reduce_mean, 54);
KIND(ReduceMin, dnnl_graph_op_reduce_min, 55);
KIND(ReduceProd, dnnl_graph_op_reduce_prod, 56);
KIND(ReduceSum, dnnl_graph_op_reduce_sum, 57);
KIND(ReLU, dnnl_graph_op_relu, 58);
KIND(ReLUBackward, dnnl_graph_op_relu_backward, 59);
KIND(Reorder, dnnl_graph_op_reorder, 60);
KIND(Round, dnnl_graph_op_round, 61);
KIND(Sigmoid, dnnl_graph_op_sigmoid, 62);
KIND(SigmoidBackward, dnnl_graph_op_sigmoid_backward, 63);
KIND(SoftMax, dnnl_graph_op_softmax, 64);
KIND(SoftMaxBackward, dnnl_graph_op_softmax_backward, 65);
KIND(SoftPlus, dnnl_graph_op_softplus, 66);
KIND(SoftPlusBackward, dnnl_graph_op_softplus_backward, 67);
KIND(Sqrt, dnnl_graph_op_sqrt, 68);
KIND(SqrtBackward, dnnl_graph_op_sqrt_backward, 69);
KIND(Square, dnnl_graph_op_square, 70);
KIND(SquaredDifference, dnnl_graph_op_squared_difference, 71);
KIND(StaticReshape, dnnl_graph_op_static_reshape, 72);
KIND(StaticTranspose, dnnl_graph_op_static_transpose, 73);
KIND(Subtract, dnnl_graph_op_subtract, 74);
KIND(Tanh, dnnl_graph_op_tanh, 75);
KIND(TanhBackward, dnnl_graph_op_tanh_backward, 76);
KIND(TypeCast, dnnl_graph_op_type_cast, 77);
KIND(Wildcard, dnnl_graph_op_wildcard, 78);
KIND(HardSigmoid, dnnl_graph_op_hard_sigmoid, 79);
KIND(HardSigmoidBackward, dnnl_graph_op_hard_sigmoid_backward, 80);
KIND(Select, dnnl_graph_op_select, 81);
KIND(Pow, dnnl_graph_op_pow, 82);
KIND(GroupNorm, dnnl_graph_op_group_norm, 83);
KIND(GenIndex, dnnl_graph_op_gen_index, 84);
KIND(GreaterEqual, dnnl_graph_op_greater_equal, 85);
KIND(LastSymbol, dnnl_graph_op_last_symbol, 86);
#undef KIND

// ---- op::attr: all 44 enumerators ----
#define ATTR(name, n) \
    static_assert(v(g_op::attr::name) == dnnl_graph_op_attr_##name \
                    && dnnl_graph_op_attr_##name == n, \
            "op::attr::" #name)
ATTR(undef, 0x00);
ATTR(alpha, 0x01);
ATTR(beta, 0x02);
ATTR(epsilon, 0x03);
ATTR(max, 0x04);
ATTR(min, 0x05);
ATTR(momentum, 0x06);
ATTR(scales, 0x20);
ATTR(axis, 0x30);
ATTR(begin_norm_axis, 0x31);
ATTR(groups, 0x32);
ATTR(axes, 0x40);
ATTR(dilations, 0x41);
ATTR(dst_shape, 0x42);
ATTR(kernel, 0x43);
ATTR(order, 0x44);
ATTR(output_padding, 0x45);
ATTR(pads_begin, 0x46);
ATTR(pads_end, 0x47);
ATTR(shape, 0x48);
ATTR(sizes, 0x49);
ATTR(src_shape, 0x4A);
ATTR(strides, 0x4B);
ATTR(weights_shape, 0x4C);
ATTR(zps, 0x4D);
ATTR(group_shape, 0x4E);
ATTR(exclude_pad, 0x60);
ATTR(keep_dims, 0x61);
ATTR(keep_stats, 0x62);
ATTR(per_channel_broadcast, 0x63);
ATTR(special_zero, 0x64);
ATTR(transpose_a, 0x65);
ATTR(transpose_b, 0x66);
ATTR(use_affine, 0x67);
ATTR(use_dst, 0x68);
ATTR(auto_broadcast, 0x80);
ATTR(auto_pad, 0x81);
ATTR(coordinate_transformation_mode, 0x82);
ATTR(data_format, 0x83);
ATTR(mode, 0x84);
ATTR(qtype, 0x85);
ATTR(rounding_type, 0x86);
ATTR(weights_format, 0x87);
ATTR(end, 0xFF);
#undef ATTR

// ---- logical_tensor::data_type ----
static_assert(v(g_lt::data_type::undef) == dnnl_data_type_undef, "");
static_assert(v(g_lt::data_type::f16) == dnnl_f16, "");
static_assert(v(g_lt::data_type::bf16) == dnnl_bf16, "");
static_assert(v(g_lt::data_type::f32) == dnnl_f32, "");
static_assert(v(g_lt::data_type::s32) == dnnl_s32, "");
static_assert(v(g_lt::data_type::s8) == dnnl_s8, "");
static_assert(v(g_lt::data_type::u8) == dnnl_u8, "");
static_assert(v(g_lt::data_type::boolean) == dnnl_boolean, "");
static_assert(v(g_lt::data_type::f8_e5m2) == dnnl_f8_e5m2, "");
static_assert(v(g_lt::data_type::f8_e4m3) == dnnl_f8_e4m3, "");
static_assert(v(g_lt::data_type::s4) == dnnl_s4, "");
static_assert(v(g_lt::data_type::u4) == dnnl_u4, "");

// ---- logical_tensor::layout_type / property_type ----
static_assert(v(g_lt::layout_type::undef) == dnnl_graph_layout_type_undef, "");
static_assert(v(g_lt::layout_type::any) == dnnl_graph_layout_type_any, "");
static_assert(
        v(g_lt::layout_type::strided) == dnnl_graph_layout_type_strided, "");
static_assert(v(g_lt::layout_type::opaque) == dnnl_graph_layout_type_opaque, "");
static_assert(
        v(g_lt::property_type::undef) == dnnl_graph_tensor_property_undef, "");
static_assert(v(g_lt::property_type::variable)
                == dnnl_graph_tensor_property_variable,
        "");
static_assert(v(g_lt::property_type::constant)
                == dnnl_graph_tensor_property_constant,
        "");
static_assert(v(g_lt::property_type::host_scalar)
                == dnnl_graph_tensor_property_host_scalar,
        "");

// ---- dnnl::graph::status ----
using g_status = dnnl::graph::status;
static_assert(v(g_status::success) == dnnl_success, "");
static_assert(v(g_status::out_of_memory) == dnnl_out_of_memory, "");
static_assert(v(g_status::invalid_arguments) == dnnl_invalid_arguments, "");
static_assert(v(g_status::unimplemented) == dnnl_unimplemented, "");
static_assert(v(g_status::last_impl_reached) == dnnl_last_impl_reached, "");
static_assert(v(g_status::runtime_error) == dnnl_runtime_error, "");
static_assert(v(g_status::not_required) == dnnl_not_required, "");
static_assert(v(g_status::invalid_graph) == dnnl_invalid_graph, "");
static_assert(v(g_status::invalid_graph_op) == dnnl_invalid_graph_op, "");
static_assert(v(g_status::invalid_shape) == dnnl_invalid_shape, "");
static_assert(v(g_status::invalid_data_type) == dnnl_invalid_data_type, "");
static_assert(v(g_status::invalid_data_type) == 10, "");

// ---- fpmath_mode / accumulation_mode / engine / stream / policy ----
static_assert(v(dnnl::fpmath_mode::strict) == dnnl_fpmath_mode_strict, "");
static_assert(v(dnnl::fpmath_mode::bf16) == dnnl_fpmath_mode_bf16, "");
static_assert(v(dnnl::fpmath_mode::f16) == dnnl_fpmath_mode_f16, "");
static_assert(v(dnnl::fpmath_mode::tf32) == dnnl_fpmath_mode_tf32, "");
static_assert(v(dnnl::fpmath_mode::any) == dnnl_fpmath_mode_any, "");
static_assert(v(dnnl::fpmath_mode::tf32) == 4 && v(dnnl::fpmath_mode::any) == 3,
        "");
static_assert(v(dnnl::accumulation_mode::strict) == 0, "");
static_assert(v(dnnl::accumulation_mode::relaxed) == 1, "");
static_assert(v(dnnl::accumulation_mode::any) == 2, "");
static_assert(v(dnnl::accumulation_mode::s32) == 3, "");
static_assert(v(dnnl::accumulation_mode::f32) == 4, "");
static_assert(v(dnnl::accumulation_mode::f16) == 5, "");
static_assert(v(dnnl::engine::kind::any) == dnnl_any_engine, "");
static_assert(v(dnnl::engine::kind::cpu) == dnnl_cpu, "");
static_assert(v(dnnl::engine::kind::gpu) == dnnl_gpu, "");
static_assert(static_cast<unsigned>(dnnl::stream::flags::in_order) == 1u, "");
static_assert(static_cast<unsigned>(dnnl::stream::flags::out_of_order) == 2u, "");
static_assert(
        static_cast<unsigned>(dnnl::stream::flags::default_flags) == 1u, "");
static_assert(v(dnnl::graph::partition::policy::fusion)
                == dnnl_graph_partition_policy_fusion,
        "");
static_assert(v(dnnl::graph::partition::policy::debug)
                == dnnl_graph_partition_policy_debug,
        "");
static_assert(v(dnnl::graph::partition::policy::fusion) == 1
                && v(dnnl::graph::partition::policy::debug) == 2,
        "");

// ---- type properties ----
static_assert(sizeof(g_lt) == 224, "logical_tensor must be 224 bytes");
static_assert(std::is_trivially_copyable<g_lt>::value,
        "logical_tensor must be trivially copyable");
static_assert(std::is_same<g_lt::dim, int64_t>::value, "");
static_assert(std::is_same<g_lt::dims, std::vector<int64_t>>::value, "");
static_assert(std::is_same<dnnl::graph::engine, dnnl::engine>::value, "");
static_assert(std::is_same<dnnl::graph::stream, dnnl::stream>::value, "");
static_assert(
        std::is_same<dnnl::graph::fpmath_mode, dnnl::fpmath_mode>::value, "");
static_assert(std::is_base_of<std::exception, dnnl::error>::value, "");
static_assert(std::is_copy_constructible<dnnl::error>::value, "");
static_assert(std::is_default_constructible<dnnl::graph::tensor>::value, "");
static_assert(std::is_copy_assignable<dnnl::graph::tensor>::value, "");
static_assert(!std::is_default_constructible<dnnl::graph::op>::value, "");
static_assert(!std::is_default_constructible<dnnl::graph::graph>::value, "");
static_assert(std::is_convertible<dnnl_graph_partition_t,
                      dnnl::graph::partition>::value,
        "partition(dnnl_graph_partition_t) is implicit");
static_assert(std::is_convertible<dnnl_graph_compiled_partition_t,
                      dnnl::graph::compiled_partition>::value,
        "compiled_partition(dnnl_graph_compiled_partition_t) is implicit");
static_assert(!std::is_convertible<dnnl_graph_tensor_t,
                      dnnl::graph::tensor>::value,
        "tensor(dnnl_graph_tensor_t) is explicit");
static_assert(std::is_constructible<dnnl::graph::tensor, dnnl_graph_tensor_t,
                      bool>::value,
        "tensor inherits the handle constructors");
static_assert(std::is_same<decltype(std::declval<dnnl::graph::op &>()
                                   .set_attr<float>(g_op::attr::alpha, 1.f)),
                      dnnl::graph::op &>::value,
        "set_attr returns op &");
static_assert(std::is_same<oneapi::dnnl::graph::op, dnnl::graph::op>::value,
        "oneapi::dnnl aliases dnnl");

} // namespace

// ---- the way the examples spell things ----
//
// Global using-directive and aliases exactly like the examples'; the
// function below then brings both namespaces into scope, which must not make
// any of these names (or the helper functions below) ambiguous.
using namespace dnnl::graph;
using data_type = logical_tensor::data_type;
using layout_type = logical_tensor::layout_type;
using property_type = logical_tensor::property_type;
using dim = logical_tensor::dim;
using dims = logical_tensor::dims;

// Helper names the examples declare at global scope.
inline void set_any_layout() {}
inline dim product(const dims &d) {
    dim p = 1;
    for (dim x : d)
        p *= x;
    return p;
}

void llga_example_usage_never_called();
void llga_example_usage_never_called() {
    using namespace dnnl;
    using namespace dnnl::graph;

    set_any_layout();
    const dim volume = product(dims {2, 3});
    (void)volume;

    const engine::kind ekind = engine::kind::cpu;
    const fpmath_mode strict = fpmath_mode::strict;
    (void)strict;

    const size_t id = 0;
    const data_type dt = data_type::f32;
    logical_tensor a {id, dt};
    logical_tensor b {1, data_type::f32, layout_type::undef};
    logical_tensor c {2, dt, DNNL_GRAPH_UNKNOWN_NDIMS, layout_type::undef};
    logical_tensor d {3, dt, 4, layout_type::undef, property_type::constant};
    logical_tensor s(4, data_type::s32, 0, layout_type::strided,
            property_type::host_scalar);
    logical_tensor e {5, dt, dims {1, 2}, layout_type::strided};
    logical_tensor f(6, dt, dims {2, 3}, dims {3, 1});
    logical_tensor o(7, dt, dims {2, 3}, size_t(42));
    logical_tensor copy = a;
    copy = b;
    const logical_tensor from_c(dnnl_graph_logical_tensor_t {});
    (void)from_c;

    dims shape = e.get_dims();
    dims strides = f.get_strides();
    size_t lid = o.get_layout_id();
    size_t bytes = e.get_mem_size() + lid + shape.size() + strides.size();
    (void)bytes;
    bool same = e.is_equal(f) && c.get_id() == 2
            && d.get_data_type() == data_type::f32
            && d.get_property_type() == property_type::constant
            && d.get_layout_type() == layout_type::undef;
    (void)same;

    op conv(0, op::kind::Convolution, {a, b}, {c}, "conv");
    conv.set_attr<dims>(op::attr::strides, {4, 4});
    conv.set_attr<std::vector<float>>(op::attr::scales, {0.1f});
    conv.set_attr<int64_t>(op::attr::groups, 1);
    conv.set_attr<std::string>(op::attr::data_format, "NCX");
    conv.set_attr<bool>(op::attr::transpose_a, false);
    conv.set_attr<float>(op::attr::alpha, 0.5f)
            .set_attr<int64_t>(op::attr::axis, -1);
    op relu(1, op::kind::ReLU, "relu");
    relu.add_input(c);
    relu.add_inputs({d});
    relu.add_output(e);
    relu.add_outputs({f});

    dnnl::graph::graph g(engine::kind::cpu);
    dnnl::graph::graph g2(ekind, fpmath_mode::bf16);
    g2.set_fpmath_mode(fpmath_mode::strict, true);
    fpmath_mode mode = fpmath_mode::any;
    bool apply_to_int = false;
    g2.get_fpmath_mode(mode, apply_to_int);
    dnnl::graph::status st = g.add_op(conv);
    st = g.add_op(relu, false);
    (void)st;
    g.finalize();
    if (!g.is_finalized()) return;
    std::vector<partition> partitions = g.get_partitions();
    std::vector<partition> debug_parts
            = g.get_partitions(partition::policy::debug);
    (void)debug_parts;

    allocator alloc {};
    allocator custom(
            [](size_t size, size_t alignment) -> void * {
                (void)alignment;
                return std::malloc(size);
            },
            [](void *buf) { std::free(buf); });
    engine eng = make_engine_with_allocator(engine::kind::cpu, 0, alloc);
    engine eng2 = make_engine_with_allocator(engine::kind::cpu, 0, custom);
    (void)eng2;
    engine plain(engine::kind::cpu, 0);
    const size_t ngpus = engine::get_count(engine::kind::gpu);
    (void)ngpus;
    if (plain.get_kind() != engine::kind::cpu) return;
    stream strm {eng};
    stream strm2(eng, stream::flags::in_order | stream::flags::out_of_order);
    (void)strm2.get_engine();

    std::unordered_map<size_t, tensor> global_outputs_ts_map;
    for (const auto &partition : partitions) {
        if (!partition.is_supported()) continue;
        std::vector<logical_tensor> inputs = partition.get_input_ports();
        std::vector<logical_tensor> outputs = partition.get_output_ports();
        (void)partition.get_ops();
        (void)partition.get_ops_num();
        (void)partition.get_id();
        (void)partition.get_engine_kind();
        compiled_partition cp = partition.compile(inputs, outputs, eng);
        std::vector<tensor> inputs_ts, outputs_ts;
        for (const auto &lt : inputs)
            inputs_ts.push_back(tensor(lt, eng, nullptr));
        for (auto &lt : outputs) {
            lt = cp.query_logical_tensor(lt.get_id());
            tensor t(lt, eng);
            global_outputs_ts_map[lt.get_id()] = t;
            outputs_ts.emplace_back(global_outputs_ts_map[lt.get_id()]);
        }
        std::vector<std::pair<size_t, size_t>> inplace = cp.get_inplace_ports();
        (void)inplace;
        cp.execute(strm, inputs_ts, outputs_ts);
    }
    strm.wait();

    int32_t scalar_value = 3;
    tensor scalar = tensor::make_scalar_tensor(s, &scalar_value);
    tensor empty;
    empty = scalar;
    void *ptr = scalar.get_data_handle();
    empty.set_data_handle(ptr);
    engine weak = scalar.get_engine();
    logical_tensor back = scalar.get_logical_tensor();
    (void)weak;
    (void)back;
    if (empty == scalar && !(empty != scalar) && static_cast<bool>(empty)) {
        dnnl_graph_tensor_t raw = scalar.get();
        (void)raw;
    }

    partition single(relu, engine::kind::cpu);
    (void)single;

    set_compiled_partition_cache_capacity(get_compiled_partition_cache_capacity());
    set_constant_tensor_cache(get_constant_tensor_cache());
    set_constant_tensor_cache_capacity(engine::kind::cpu,
            get_constant_tensor_cache_capacity(engine::kind::cpu));

#if DNNL_ENABLE_EXCEPTIONS
    try {
        dnnl::error::wrap_c_api(dnnl_invalid_arguments, "demo");
    } catch (const dnnl::error &err) {
        if (err.status == dnnl_unimplemented) return;
        const char *what = err.what();
        (void)what;
        dnnl::error copied = err;
        dnnl::error assigned(dnnl_success, "literal");
        assigned = copied;
        (void)assigned.message;
    }
#endif
}

int main() { return 0; }
