// SPDX-License-Identifier: Apache-2.0
/// @file
// dnnl_graph.hpp -- part of llga, a from-scratch implementation of the
// oneDNN v3.9 Graph API.
//
// Owns: the header-only C++ graph API in namespace dnnl::graph (allocator,
// logical_tensor, tensor, compiled_partition, op, partition, graph and the
// global cache functions), implemented inline over the C API of
// dnnl_graph.h. Also defines `namespace oneapi { namespace dnnl = ::dnnl; }`.
// C++11.
//
// Failed C calls are turned into dnnl::error by dnnl::error::wrap_c_api()
// (see dnnl_common.hpp), whose message includes llga's description of the
// failure.

#ifndef ONEAPI_DNNL_DNNL_GRAPH_HPP
#define ONEAPI_DNNL_DNNL_GRAPH_HPP

/// @cond DO_NOT_DOCUMENT_THIS
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "oneapi/dnnl/dnnl_common.hpp"
#include "oneapi/dnnl/dnnl_graph.h"
/// @endcond

// Names that examples and user code bring into scope with
// `using namespace dnnl; using namespace dnnl::graph;` must not clash with
// their own global declarations: neither namespace declares anything named
// data_type, layout_type, property_type, dim or dims at namespace scope, and
// no free helper functions besides the ones of the API.

namespace dnnl {
namespace graph {

// ---------------------------------------------------------------------------
// Aliases shared with the rest of the library (must stay aliases, so that
// the same name seen through both namespaces is not ambiguous).
// ---------------------------------------------------------------------------

/// The engine type of the graph API is dnnl::engine.
using engine = dnnl::engine;
/// The stream type of the graph API is dnnl::stream.
using stream = dnnl::stream;
/// The fp-math mode of the graph API is dnnl::fpmath_mode.
using fpmath_mode = dnnl::fpmath_mode;

// ---------------------------------------------------------------------------
// Handle machinery
// ---------------------------------------------------------------------------

/// Destroy functions for the graph API's C handles.
template <typename T>
struct graph_handle_traits : public dnnl::handle_traits<T> {};

/// @cond DO_NOT_DOCUMENT_THIS
template <>
struct graph_handle_traits<dnnl_graph_op_t> {
    static dnnl_status_t destructor(dnnl_graph_op_t p) {
        return dnnl_graph_op_destroy(p);
    }
};

template <>
struct graph_handle_traits<dnnl_graph_graph_t> {
    static dnnl_status_t destructor(dnnl_graph_graph_t p) {
        return dnnl_graph_graph_destroy(p);
    }
};

template <>
struct graph_handle_traits<dnnl_graph_tensor_t> {
    static dnnl_status_t destructor(dnnl_graph_tensor_t p) {
        return dnnl_graph_tensor_destroy(p);
    }
};

template <>
struct graph_handle_traits<dnnl_graph_partition_t> {
    static dnnl_status_t destructor(dnnl_graph_partition_t p) {
        return dnnl_graph_partition_destroy(p);
    }
};

template <>
struct graph_handle_traits<dnnl_graph_compiled_partition_t> {
    static dnnl_status_t destructor(dnnl_graph_compiled_partition_t p) {
        return dnnl_graph_compiled_partition_destroy(p);
    }
};

template <>
struct graph_handle_traits<dnnl_graph_allocator_t> {
    static dnnl_status_t destructor(dnnl_graph_allocator_t p) {
        return dnnl_graph_allocator_destroy(p);
    }
};
/// @endcond

/// Reference-counted handle of a C allocator.
using allocator_handle = dnnl::handle<dnnl_graph_allocator_t,
        graph_handle_traits<dnnl_graph_allocator_t>>;
/// Reference-counted handle of a C graph.
using graph_handle = dnnl::handle<dnnl_graph_graph_t,
        graph_handle_traits<dnnl_graph_graph_t>>;
/// Reference-counted handle of a C op.
using op_handle
        = dnnl::handle<dnnl_graph_op_t, graph_handle_traits<dnnl_graph_op_t>>;
/// Reference-counted handle of a C tensor.
using tensor_handle = dnnl::handle<dnnl_graph_tensor_t,
        graph_handle_traits<dnnl_graph_tensor_t>>;
/// Reference-counted handle of a C compiled partition.
using compiled_partition_handle = dnnl::handle<dnnl_graph_compiled_partition_t,
        graph_handle_traits<dnnl_graph_compiled_partition_t>>;
/// Reference-counted handle of a C partition.
using partition_handle = dnnl::handle<dnnl_graph_partition_t,
        graph_handle_traits<dnnl_graph_partition_t>>;

/// Enables a template only when `B` is true (used by op::set_attr).
template <bool B>
using req = typename std::enable_if<B, bool>::type;

// ---------------------------------------------------------------------------
// Status
// ---------------------------------------------------------------------------

/// Status codes, with the values of dnnl_status_t.
enum class status {
    /// The call succeeded.
    success = dnnl_success,
    /// A memory allocation failed.
    out_of_memory = dnnl_out_of_memory,
    /// An argument was missing, malformed or inconsistent.
    invalid_arguments = dnnl_invalid_arguments,
    /// The requested functionality is not available.
    unimplemented = dnnl_unimplemented,
    /// No further implementation is available.
    last_impl_reached = dnnl_last_impl_reached,
    /// A runtime or the operating system reported an error.
    runtime_error = dnnl_runtime_error,
    /// The requested work was not needed.
    not_required = dnnl_not_required,
    /// The graph is malformed or in the wrong state.
    invalid_graph = dnnl_invalid_graph,
    /// An op violates its schema.
    invalid_graph_op = dnnl_invalid_graph_op,
    /// A shape is invalid or could not be inferred.
    invalid_shape = dnnl_invalid_shape,
    /// A data type is invalid for the requested use.
    invalid_data_type = dnnl_invalid_data_type,
};

// ---------------------------------------------------------------------------
// Allocator
// ---------------------------------------------------------------------------

/// Host memory callbacks that an engine uses for the buffers the library
/// allocates itself (scratchpads, cached constants, library-owned tensors).
class allocator : public allocator_handle {
public:
    using allocator_handle::handle;

    /// Creates an allocator from two callbacks (plain functions or
    /// capture-less lambdas).
    allocator(dnnl_graph_host_allocate_f host_malloc,
            dnnl_graph_host_deallocate_f host_free) {
        dnnl_graph_allocator_t c_alloc = nullptr;
        error::wrap_c_api(
                dnnl_graph_allocator_create(&c_alloc, host_malloc, host_free),
                "could not create allocator for cpu");
        reset(c_alloc);
    }

    /// Creates an allocator that uses the library's default functions.
    /// Unlike other default constructors this one is not empty.
    allocator() {
        dnnl_graph_allocator_t c_alloc = nullptr;
        error::wrap_c_api(
                dnnl_graph_allocator_create(&c_alloc, nullptr, nullptr),
                "could not create a default allocator");
        reset(c_alloc);
    }
};

/// Creates device number `index` of kind `kind` that allocates internal
/// buffers through `alloc` (the engine keeps its own copy of it).
inline engine make_engine_with_allocator(
        engine::kind kind, size_t index, const allocator &alloc) {
    dnnl_engine_t c_engine = nullptr;
    error::wrap_c_api(
            dnnl_graph_make_engine_with_allocator(&c_engine,
                    static_cast<dnnl_engine_kind_t>(kind), index, alloc.get()),
            "could not make an engine with allocator");
    return engine(c_engine);
}

// ---------------------------------------------------------------------------
// Logical tensor
// ---------------------------------------------------------------------------

/// Description of a tensor (id, element type, shape, layout, property)
/// without data. A plain value type wrapping dnnl_graph_logical_tensor_t.
class logical_tensor {
    friend class op;
    friend class tensor;
    friend class partition;
    friend class compiled_partition;

    dnnl_graph_logical_tensor_t data;

public:
    /// One dimension or stride.
    using dim = dnnl_dim_t;
    /// A list of dimensions or strides.
    using dims = std::vector<dim>;

    /// Element types (values of dnnl_data_type_t).
    enum class data_type {
        /// Unspecified.
        undef = dnnl_data_type_undef,
        /// IEEE 754 binary16.
        f16 = dnnl_f16,
        /// bfloat16.
        bf16 = dnnl_bf16,
        /// IEEE 754 binary32.
        f32 = dnnl_f32,
        /// Signed 32-bit integer.
        s32 = dnnl_s32,
        /// Signed 8-bit integer.
        s8 = dnnl_s8,
        /// Unsigned 8-bit integer.
        u8 = dnnl_u8,
        /// Boolean stored in one byte.
        boolean = dnnl_boolean,
        /// 8-bit float with 5-bit exponent and 2-bit mantissa.
        f8_e5m2 = dnnl_f8_e5m2,
        /// 8-bit float with 4-bit exponent and 3-bit mantissa.
        f8_e4m3 = dnnl_f8_e4m3,
        /// Signed 4-bit integer.
        s4 = dnnl_s4,
        /// Unsigned 4-bit integer.
        u4 = dnnl_u4,
    };

    /// Layout types (values of dnnl_graph_layout_type_t).
    enum class layout_type {
        /// Not specified yet.
        undef = dnnl_graph_layout_type_undef,
        /// Chosen by the library at compilation.
        any = dnnl_graph_layout_type_any,
        /// Described by strides.
        strided = dnnl_graph_layout_type_strided,
        /// Library-private, identified by a layout id.
        opaque = dnnl_graph_layout_type_opaque,
    };

    /// Tensor properties (values of dnnl_graph_tensor_property_t).
    enum class property_type {
        /// Nothing is known about the contents.
        undef = dnnl_graph_tensor_property_undef,
        /// The contents may change between executions.
        variable = dnnl_graph_tensor_property_variable,
        /// The contents do not change between executions.
        constant = dnnl_graph_tensor_property_constant,
        /// A 0-D s32 value passed from host memory.
        host_scalar = dnnl_graph_tensor_property_host_scalar,
    };

    /// Creates an uninitialized logical tensor (its fields are
    /// indeterminate until it is assigned).
    logical_tensor() = default;

    /// Wraps a copy of a C logical tensor.
    explicit logical_tensor(const dnnl_graph_logical_tensor_t &c_data)
        : data(c_data) {}

    /// Copies a logical tensor.
    logical_tensor(const logical_tensor &other) = default;

    /// Copies a logical tensor.
    logical_tensor &operator=(const logical_tensor &other) = default;

    /// Creates a logical tensor with a rank but unknown dimensions.
    /// `ndims` may be DNNL_GRAPH_UNKNOWN_NDIMS or 0 (a scalar).
    logical_tensor(size_t tid, data_type dtype, int32_t ndims,
            layout_type ltype, property_type ptype = property_type::undef) {
        dnnl_graph_logical_tensor_t val;
        error::wrap_c_api(
                dnnl_graph_logical_tensor_init(&val, tid, convert_to_c(dtype),
                        ndims, convert_to_c(ltype), convert_to_c(ptype)),
                "could not create logical_tensor with property");
        data = val;
    }

    /// Creates a logical tensor with unknown rank.
    logical_tensor(size_t tid, data_type dtype,
            layout_type ltype = layout_type::undef)
        : logical_tensor(tid, dtype, DNNL_GRAPH_UNKNOWN_NDIMS, ltype) {}

    /// Creates a logical tensor with the given dimensions; an empty `adims`
    /// describes a scalar. A strided layout gets dense row-major strides
    /// when all dimensions are known.
    logical_tensor(size_t tid, data_type dtype, const dims &adims,
            layout_type ltype, property_type ptype = property_type::undef) {
        dnnl_graph_logical_tensor_t val;
        if (adims.empty()) {
            error::wrap_c_api(dnnl_graph_logical_tensor_init(&val, tid,
                                      convert_to_c(dtype), 0,
                                      convert_to_c(ltype), convert_to_c(ptype)),
                    "could not create logical_tensor with property");
        } else {
            error::wrap_c_api(
                    dnnl_graph_logical_tensor_init_with_dims(&val, tid,
                            convert_to_c(dtype),
                            static_cast<int32_t>(adims.size()), adims.data(),
                            convert_to_c(ltype), convert_to_c(ptype)),
                    "could not create logical_tensor with dims and property");
        }
        data = val;
    }

    /// Creates a strided logical tensor with explicit dimensions and
    /// strides. The rank is `adims.size()`; `strides` must be as long.
    logical_tensor(size_t tid, data_type dtype, const dims &adims,
            const dims &strides, property_type ptype = property_type::undef) {
        dnnl_graph_logical_tensor_t val;
        if (adims.empty()) {
            error::wrap_c_api(
                    dnnl_graph_logical_tensor_init(&val, tid,
                            convert_to_c(dtype), 0,
                            convert_to_c(layout_type::strided),
                            convert_to_c(ptype)),
                    "could not create logical_tensor with property");
        } else {
            error::wrap_c_api(
                    dnnl_graph_logical_tensor_init_with_strides(&val, tid,
                            convert_to_c(dtype),
                            static_cast<int32_t>(adims.size()), adims.data(),
                            strides.data(), convert_to_c(ptype)),
                    "could not create logical_tensor with strides and "
                    "property");
        }
        data = val;
    }

    /// Creates an opaque logical tensor with the given dimensions and
    /// library layout id `lid`.
    logical_tensor(size_t tid, data_type dtype, const dims &adims, size_t lid,
            property_type ptype = property_type::undef) {
        dnnl_graph_logical_tensor_t val;
        if (adims.empty()) {
            error::wrap_c_api(
                    dnnl_graph_logical_tensor_init(&val, tid,
                            convert_to_c(dtype), 0,
                            convert_to_c(layout_type::opaque),
                            convert_to_c(ptype)),
                    "could not create logical_tensor");
        } else {
            error::wrap_c_api(
                    dnnl_graph_logical_tensor_init_with_dims(&val, tid,
                            convert_to_c(dtype),
                            static_cast<int32_t>(adims.size()), adims.data(),
                            convert_to_c(layout_type::opaque),
                            convert_to_c(ptype)),
                    "could not create logical_tensor with dims");
        }
        val.layout.layout_id = lid;
        data = val;
    }

    /// Returns the dimensions (empty for a scalar). Fails with
    /// invalid_arguments if the rank is unknown.
    dims get_dims() const {
        if (data.ndims < 0)
            DNNL_THROW_ERROR(dnnl_invalid_arguments,
                    "cannot return dims when ndims < 0");
        return dims(data.dims, data.dims + data.ndims);
    }

    /// Returns the id.
    size_t get_id() const { return data.id; }

    /// Returns the element type.
    data_type get_data_type() const {
        return static_cast<data_type>(data.data_type);
    }

    /// Returns the property.
    property_type get_property_type() const {
        return static_cast<property_type>(data.property);
    }

    /// Returns the layout type.
    layout_type get_layout_type() const {
        return static_cast<layout_type>(data.layout_type);
    }

    /// Returns the layout id of an opaque logical tensor. Fails with
    /// invalid_arguments for other layout types.
    size_t get_layout_id() const {
        if (get_layout_type() != layout_type::opaque)
            DNNL_THROW_ERROR(dnnl_invalid_arguments,
                    "layout id is only available for opaque layout");
        return data.layout.layout_id;
    }

    /// Returns the strides of a strided logical tensor. Fails with
    /// invalid_arguments for other layout types or an unknown rank.
    dims get_strides() const {
        if (get_layout_type() != layout_type::strided)
            DNNL_THROW_ERROR(dnnl_invalid_arguments,
                    "strides are only available for strided layout");
        if (data.ndims < 0)
            DNNL_THROW_ERROR(dnnl_invalid_arguments,
                    "cannot return strides when ndims < 0");
        return dims(data.layout.strides, data.layout.strides + data.ndims);
    }

    /// Returns the number of bytes a buffer for this tensor needs.
    size_t get_mem_size() const {
        size_t size = 0;
        error::wrap_c_api(dnnl_graph_logical_tensor_get_mem_size(&data, &size),
                "could not get memory size from the logical_tensor");
        return size;
    }

    /// Whether `lt` describes the same tensor (see
    /// dnnl_graph_logical_tensor_is_equal).
    bool is_equal(const logical_tensor &lt) const {
        uint8_t equal = 0;
        error::wrap_c_api(
                dnnl_graph_logical_tensor_is_equal(&data, &lt.data, &equal),
                "could not compare between the two logical tensors");
        return equal != 0;
    }

private:
    static dnnl_data_type_t convert_to_c(data_type dtype) {
        return static_cast<dnnl_data_type_t>(dtype);
    }

    static dnnl_graph_layout_type_t convert_to_c(layout_type ltype) {
        return static_cast<dnnl_graph_layout_type_t>(ltype);
    }

    static dnnl_graph_tensor_property_t convert_to_c(property_type ptype) {
        return static_cast<dnnl_graph_tensor_property_t>(ptype);
    }
};

// ---------------------------------------------------------------------------
// Tensor
// ---------------------------------------------------------------------------

/// A logical tensor bound to a buffer on an engine (or, for host scalars,
/// to a copied value). Copies share the same C tensor.
class tensor : public tensor_handle {
public:
    using tensor_handle::handle;

    /// Creates an empty tensor.
    tensor() = default;

    /// Creates a tensor on `aengine` using the buffer `ahandle`, which stays
    /// owned by the caller (DNNL_MEMORY_ALLOCATE and DNNL_MEMORY_NONE are
    /// also accepted).
    tensor(const logical_tensor &lt, const engine &aengine, void *ahandle) {
        dnnl_graph_tensor_t t = nullptr;
        error::wrap_c_api(dnnl_graph_tensor_create(
                                  &t, &(lt.data), aengine.get(), ahandle),
                "could not create tensor object with the logical_tensor, "
                "engine, and handle");
        reset(t);
    }

    /// Creates a tensor on `aengine` whose buffer is allocated (and owned)
    /// by the library through the engine's allocator. (The handle passed on
    /// is DNNL_MEMORY_ALLOCATE, spelled without C-style casts.)
    tensor(const logical_tensor &lt, const engine &aengine)
        : tensor(lt, aengine,
                reinterpret_cast<void *>(std::numeric_limits<size_t>::max())) {
    }

    /// Creates a host-scalar tensor holding a copy of the value at
    /// `scalar`; `lt` must have the host_scalar property.
    static tensor make_scalar_tensor(const logical_tensor &lt, void *scalar) {
        dnnl_graph_tensor_t t = nullptr;
        error::wrap_c_api(
                dnnl_graph_tensor_create_scalar(&t, &(lt.data), scalar),
                "could not create scalar tensor object with the "
                "logical_tensor and scalar value");
        return tensor(t);
    }

    /// Returns the buffer pointer (null for host scalars).
    void *get_data_handle() const {
        void *ptr = nullptr;
        error::wrap_c_api(dnnl_graph_tensor_get_data_handle(get(), &ptr),
                "could not get data handle from the tensor");
        return ptr;
    }

    /// Points the tensor at another buffer (owned by the caller).
    void set_data_handle(void *ahandle) {
        error::wrap_c_api(dnnl_graph_tensor_set_data_handle(get(), ahandle),
                "could not set data handle to the tensor");
    }

    /// Returns the tensor's engine as a weak (non-owning) handle.
    engine get_engine() const {
        dnnl_engine_t c_engine = nullptr;
        error::wrap_c_api(dnnl_graph_tensor_get_engine(get(), &c_engine),
                "could not get an engine from the tensor");
        return engine(c_engine, true);
    }

    /// Returns a copy of the tensor's logical tensor.
    logical_tensor get_logical_tensor() const {
        dnnl_graph_logical_tensor_t c_lt;
        error::wrap_c_api(dnnl_graph_tensor_get_logical_tensor(get(), &c_lt),
                "could not get logical tensor from the tensor");
        return logical_tensor(c_lt);
    }
};

// ---------------------------------------------------------------------------
// Compiled partition
// ---------------------------------------------------------------------------

/// A partition compiled for concrete inputs and outputs, ready to execute.
class compiled_partition : public compiled_partition_handle {
public:
    /// Creates an empty compiled partition.
    compiled_partition() = default;

    /// Takes ownership of a C compiled partition.
    compiled_partition(dnnl_graph_compiled_partition_t cp) { reset(cp); }

    /// Returns the final logical tensor (inferred shape, resolved layout) of
    /// the input or output with id `tid`.
    logical_tensor query_logical_tensor(size_t tid) const {
        dnnl_graph_logical_tensor_t c_lt;
        error::wrap_c_api(dnnl_graph_compiled_partition_query_logical_tensor(
                                  get(), tid, &c_lt),
                "could not query logical tensor from compiled_partition");
        return logical_tensor(c_lt);
    }

    /// Returns (input id, output id) pairs whose buffers may be shared.
    std::vector<std::pair<size_t, size_t>> get_inplace_ports() const {
        size_t num = 0;
        const dnnl_graph_inplace_pair_t *pairs = nullptr;
        error::wrap_c_api(dnnl_graph_compiled_partition_get_inplace_ports(
                                  get(), &num, &pairs),
                "could not get the in-place pairs from a compiled partition");
        std::vector<std::pair<size_t, size_t>> result;
        if (num == 0 || pairs == nullptr) return result;
        result.reserve(num);
        for (size_t i = 0; i < num; ++i)
            result.emplace_back(pairs[i].input_id, pairs[i].output_id);
        return result;
    }

    /// Submits the compiled partition to `astream`. Tensors are given in
    /// the order of the logical tensors passed at compilation.
    void execute(stream &astream, const std::vector<tensor> &inputs,
            const std::vector<tensor> &outputs) const {
        std::vector<const_dnnl_graph_tensor_t> c_inputs;
        c_inputs.reserve(inputs.size());
        for (const auto &in : inputs)
            c_inputs.push_back(in.get());
        std::vector<const_dnnl_graph_tensor_t> c_outputs;
        c_outputs.reserve(outputs.size());
        for (const auto &out : outputs)
            c_outputs.push_back(out.get());

        error::wrap_c_api(
                dnnl_graph_compiled_partition_execute(get(), astream.get(),
                        c_inputs.size(), c_inputs.data(), c_outputs.size(),
                        c_outputs.data()),
                "could not execute the compiled_partition");
    }
};

// ---------------------------------------------------------------------------
// Op
// ---------------------------------------------------------------------------

/// One operation: kind, id, inputs, outputs and attributes.
class op : public op_handle {
public:
    /// Operation kinds (values of dnnl_graph_op_kind_t).
    enum class kind {
        Abs = dnnl_graph_op_abs,
        AbsBackward = dnnl_graph_op_abs_backward,
        Add = dnnl_graph_op_add,
        AvgPool = dnnl_graph_op_avg_pool,
        AvgPoolBackward = dnnl_graph_op_avg_pool_backward,
        BatchNormTrainingBackward = dnnl_graph_op_batch_norm_backward,
        BatchNormForwardTraining = dnnl_graph_op_batch_norm_forward_training,
        BatchNormInference = dnnl_graph_op_batch_norm_inference,
        BiasAdd = dnnl_graph_op_bias_add,
        BiasAddBackward = dnnl_graph_op_bias_add_backward,
        Clamp = dnnl_graph_op_clamp,
        ClampBackward = dnnl_graph_op_clamp_backward,
        Concat = dnnl_graph_op_concat,
        Convolution = dnnl_graph_op_convolution,
        ConvolutionBackwardData = dnnl_graph_op_convolution_backward_data,
        ConvolutionBackwardWeights = dnnl_graph_op_convolution_backward_weights,
        ConvTranspose = dnnl_graph_op_conv_transpose,
        ConvTransposeBackwardData = dnnl_graph_op_conv_transpose_backward_data,
        ConvTransposeBackwardWeights = dnnl_graph_op_conv_transpose_backward_weights,
        Dequantize = dnnl_graph_op_dequantize,
        Divide = dnnl_graph_op_divide,
        DynamicDequantize = dnnl_graph_op_dynamic_dequantize,
        DynamicQuantize = dnnl_graph_op_dynamic_quantize,
        Elu = dnnl_graph_op_elu,
        EluBackward = dnnl_graph_op_elu_backward,
        End = dnnl_graph_op_end,
        Exp = dnnl_graph_op_exp,
        GELU = dnnl_graph_op_gelu,
        GELUBackward = dnnl_graph_op_gelu_backward,
        HardSwish = dnnl_graph_op_hard_swish,
        HardSwishBackward = dnnl_graph_op_hard_swish_backward,
        Interpolate = dnnl_graph_op_interpolate,
        InterpolateBackward = dnnl_graph_op_interpolate_backward,
        LayerNorm = dnnl_graph_op_layer_norm,
        LayerNormBackward = dnnl_graph_op_layer_norm_backward,
        LeakyReLU = dnnl_graph_op_leaky_relu,
        Log = dnnl_graph_op_log,
        LogSoftmax = dnnl_graph_op_log_softmax,
        LogSoftmaxBackward = dnnl_graph_op_log_softmax_backward,
        MatMul = dnnl_graph_op_matmul,
        Maximum = dnnl_graph_op_maximum,
        MaxPool = dnnl_graph_op_max_pool,
        MaxPoolBackward = dnnl_graph_op_max_pool_backward,
        Minimum = dnnl_graph_op_minimum,
        Mish = dnnl_graph_op_mish,
        MishBackward = dnnl_graph_op_mish_backward,
        Multiply = dnnl_graph_op_multiply,
        PReLU = dnnl_graph_op_prelu,
        PReLUBackward = dnnl_graph_op_prelu_backward,
        Quantize = dnnl_graph_op_quantize,
        Reciprocal = dnnl_graph_op_reciprocal,
        ReduceL1 = dnnl_graph_op_reduce_l1,
        ReduceL2 = dnnl_graph_op_reduce_l2,
        ReduceMax = dnnl_graph_op_reduce_max,
        ReduceMean = dnnl_graph_op_reduce_mean,
        ReduceMin = dnnl_graph_op_reduce_min,
        ReduceProd = dnnl_graph_op_reduce_prod,
        ReduceSum = dnnl_graph_op_reduce_sum,
        ReLU = dnnl_graph_op_relu,
        ReLUBackward = dnnl_graph_op_relu_backward,
        Reorder = dnnl_graph_op_reorder,
        Round = dnnl_graph_op_round,
        Sigmoid = dnnl_graph_op_sigmoid,
        SigmoidBackward = dnnl_graph_op_sigmoid_backward,
        SoftMax = dnnl_graph_op_softmax,
        SoftMaxBackward = dnnl_graph_op_softmax_backward,
        SoftPlus = dnnl_graph_op_softplus,
        SoftPlusBackward = dnnl_graph_op_softplus_backward,
        Sqrt = dnnl_graph_op_sqrt,
        SqrtBackward = dnnl_graph_op_sqrt_backward,
        Square = dnnl_graph_op_square,
        SquaredDifference = dnnl_graph_op_squared_difference,
        StaticReshape = dnnl_graph_op_static_reshape,
        StaticTranspose = dnnl_graph_op_static_transpose,
        Subtract = dnnl_graph_op_subtract,
        Tanh = dnnl_graph_op_tanh,
        TanhBackward = dnnl_graph_op_tanh_backward,
        TypeCast = dnnl_graph_op_type_cast,
        Wildcard = dnnl_graph_op_wildcard,
        HardSigmoid = dnnl_graph_op_hard_sigmoid,
        HardSigmoidBackward = dnnl_graph_op_hard_sigmoid_backward,
        Select = dnnl_graph_op_select,
        Pow = dnnl_graph_op_pow,
        GroupNorm = dnnl_graph_op_group_norm,
        GenIndex = dnnl_graph_op_gen_index,
        GreaterEqual = dnnl_graph_op_greater_equal,
        LastSymbol = dnnl_graph_op_last_symbol,
    };

    /// Attribute names (values of dnnl_graph_op_attr_t).
    enum class attr {
        undef = dnnl_graph_op_attr_undef,
        alpha = dnnl_graph_op_attr_alpha,
        beta = dnnl_graph_op_attr_beta,
        epsilon = dnnl_graph_op_attr_epsilon,
        max = dnnl_graph_op_attr_max,
        min = dnnl_graph_op_attr_min,
        momentum = dnnl_graph_op_attr_momentum,
        scales = dnnl_graph_op_attr_scales,
        axis = dnnl_graph_op_attr_axis,
        begin_norm_axis = dnnl_graph_op_attr_begin_norm_axis,
        groups = dnnl_graph_op_attr_groups,
        axes = dnnl_graph_op_attr_axes,
        dilations = dnnl_graph_op_attr_dilations,
        dst_shape = dnnl_graph_op_attr_dst_shape,
        kernel = dnnl_graph_op_attr_kernel,
        order = dnnl_graph_op_attr_order,
        output_padding = dnnl_graph_op_attr_output_padding,
        pads_begin = dnnl_graph_op_attr_pads_begin,
        pads_end = dnnl_graph_op_attr_pads_end,
        shape = dnnl_graph_op_attr_shape,
        sizes = dnnl_graph_op_attr_sizes,
        src_shape = dnnl_graph_op_attr_src_shape,
        strides = dnnl_graph_op_attr_strides,
        weights_shape = dnnl_graph_op_attr_weights_shape,
        zps = dnnl_graph_op_attr_zps,
        group_shape = dnnl_graph_op_attr_group_shape,
        exclude_pad = dnnl_graph_op_attr_exclude_pad,
        keep_dims = dnnl_graph_op_attr_keep_dims,
        keep_stats = dnnl_graph_op_attr_keep_stats,
        per_channel_broadcast = dnnl_graph_op_attr_per_channel_broadcast,
        special_zero = dnnl_graph_op_attr_special_zero,
        transpose_a = dnnl_graph_op_attr_transpose_a,
        transpose_b = dnnl_graph_op_attr_transpose_b,
        use_affine = dnnl_graph_op_attr_use_affine,
        use_dst = dnnl_graph_op_attr_use_dst,
        auto_broadcast = dnnl_graph_op_attr_auto_broadcast,
        auto_pad = dnnl_graph_op_attr_auto_pad,
        coordinate_transformation_mode = dnnl_graph_op_attr_coordinate_transformation_mode,
        data_format = dnnl_graph_op_attr_data_format,
        mode = dnnl_graph_op_attr_mode,
        qtype = dnnl_graph_op_attr_qtype,
        rounding_type = dnnl_graph_op_attr_rounding_type,
        weights_format = dnnl_graph_op_attr_weights_format,
        end = dnnl_graph_op_attr_end,
    };

    /// Creates an op without inputs and outputs. `verbose_name` is used in
    /// diagnostics.
    op(size_t id, kind akind, const std::string &verbose_name = "") {
        dnnl_graph_op_t c_op = nullptr;
        error::wrap_c_api(dnnl_graph_op_create(&c_op, id, convert_to_c(akind),
                                  verbose_name.c_str()),
                "could not create op with id and op kind");
        reset(c_op);
    }

    /// Creates an op with the given inputs and outputs.
    op(size_t id, kind akind, const std::vector<logical_tensor> &inputs,
            const std::vector<logical_tensor> &outputs,
            const std::string &verbose_name = "")
        : op(id, akind, verbose_name) {
        add_inputs(inputs);
        add_outputs(outputs);
    }

    /// Appends an input.
    void add_input(const logical_tensor &t) {
        error::wrap_c_api(dnnl_graph_op_add_input(get(), &(t.data)),
                "adding input to the op failed");
    }

    /// Appends several inputs, in order.
    void add_inputs(const std::vector<logical_tensor> &ts) {
        for (const auto &t : ts)
            add_input(t);
    }

    /// Appends an output.
    void add_output(const logical_tensor &t) {
        error::wrap_c_api(dnnl_graph_op_add_output(get(), &(t.data)),
                "adding output to the op failed");
    }

    /// Appends several outputs, in order.
    void add_outputs(const std::vector<logical_tensor> &ts) {
        for (const auto &t : ts)
            add_output(t);
    }

    /// Sets an int64_t attribute.
    template <typename Type_i,
            req<std::is_same<Type_i, int64_t>::value> = true>
    op &set_attr(attr name, const Type_i &value) {
        error::wrap_c_api(dnnl_graph_op_set_attr_s64(
                                  get(), convert_to_c(name), &value, 1),
                "could not set attribute to the op");
        return *this;
    }

    /// Sets a float attribute.
    template <typename Type_f, req<std::is_same<Type_f, float>::value> = true>
    op &set_attr(attr name, const Type_f &value) {
        error::wrap_c_api(dnnl_graph_op_set_attr_f32(
                                  get(), convert_to_c(name), &value, 1),
                "could not set attribute to the op");
        return *this;
    }

    /// Sets a bool attribute.
    template <typename Type_b, req<std::is_same<Type_b, bool>::value> = true>
    op &set_attr(attr name, const Type_b &value) {
        const uint8_t c_value = value ? 1 : 0;
        error::wrap_c_api(dnnl_graph_op_set_attr_bool(
                                  get(), convert_to_c(name), &c_value, 1),
                "could not set attribute to the op");
        return *this;
    }

    /// Sets a string attribute.
    template <typename Type_s,
            req<std::is_same<Type_s, std::string>::value> = true>
    op &set_attr(attr name, const Type_s &value) {
        error::wrap_c_api(
                dnnl_graph_op_set_attr_str(get(), convert_to_c(name),
                        value.c_str(), value.size()),
                "could not set attribute to the op");
        return *this;
    }

    /// Sets an attribute that is a list of int64_t.
    template <typename Type_is,
            req<std::is_same<Type_is, std::vector<int64_t>>::value> = true>
    op &set_attr(attr name, const Type_is &value) {
        error::wrap_c_api(
                dnnl_graph_op_set_attr_s64(get(), convert_to_c(name),
                        value.data(), value.size()),
                "could not set attribute to the op");
        return *this;
    }

    /// Sets an attribute that is a list of float.
    template <typename Type_fs,
            req<std::is_same<Type_fs, std::vector<float>>::value> = true>
    op &set_attr(attr name, const Type_fs &value) {
        error::wrap_c_api(
                dnnl_graph_op_set_attr_f32(get(), convert_to_c(name),
                        value.data(), value.size()),
                "could not set attribute to the op");
        return *this;
    }

private:
    dnnl_graph_op_kind_t convert_to_c(kind akind) const {
        return static_cast<dnnl_graph_op_kind_t>(akind);
    }

    dnnl_graph_op_attr_t convert_to_c(attr aattr) const {
        return static_cast<dnnl_graph_op_attr_t>(aattr);
    }
};

// ---------------------------------------------------------------------------
// Partition
// ---------------------------------------------------------------------------

/// A set of ops that the library compiles and runs as one unit.
class partition : public partition_handle {
public:
    /// How a graph is split into partitions.
    enum class policy {
        /// Fuse ops into as few partitions as the library supports.
        fusion = dnnl_graph_partition_policy_fusion,
        /// One op per partition.
        debug = dnnl_graph_partition_policy_debug,
    };

    /// Creates an empty partition.
    partition() = default;

    /// Takes ownership of a C partition.
    partition(dnnl_graph_partition_t p) { reset(p); }

    /// Creates a partition holding just `aop`, for engines of kind `ekind`.
    partition(const op &aop, engine::kind ekind) {
        dnnl_graph_partition_t p = nullptr;
        error::wrap_c_api(
                dnnl_graph_partition_create_with_op(&p, aop.get(),
                        static_cast<dnnl_engine_kind_t>(ekind)),
                "could not create a partition with the op and engine kind");
        reset(p);
    }

    /// Returns the number of ops in the partition.
    size_t get_ops_num() const {
        size_t num = 0;
        error::wrap_c_api(dnnl_graph_partition_get_op_num(get(), &num),
                "could not get number of ops from the partition");
        return num;
    }

    /// Returns the ids of the ops in the partition.
    std::vector<size_t> get_ops() const {
        const size_t num = get_ops_num();
        std::vector<size_t> ids(num);
        if (num == 0) return ids;
        error::wrap_c_api(dnnl_graph_partition_get_ops(get(), num, ids.data()),
                "could not get op ids from the partition");
        return ids;
    }

    /// Returns the library-assigned partition id.
    size_t get_id() const {
        size_t id = 0;
        error::wrap_c_api(dnnl_graph_partition_get_id(get(), &id),
                "could not get id of the partition");
        return id;
    }

    /// Compiles the partition for `e`. Inputs need known shapes; outputs
    /// may leave dimensions unknown and/or ask for layout_type::any. Fails
    /// with invalid_arguments for an unsupported partition.
    compiled_partition compile(const std::vector<logical_tensor> &inputs,
            const std::vector<logical_tensor> &outputs, const engine &e) const {
        if (!is_supported())
            DNNL_THROW_ERROR(dnnl_invalid_arguments,
                    "could not compile an unsupported partition");
        return compile_(inputs, outputs, e);
    }

    /// Whether the library can compile the partition.
    bool is_supported() const {
        uint8_t supported = 0;
        error::wrap_c_api(dnnl_graph_partition_is_supported(get(), &supported),
                "could not get supporting status of the partition");
        return supported != 0;
    }

    /// Returns the partition's input logical tensors.
    std::vector<logical_tensor> get_input_ports() const {
        size_t num = 0;
        error::wrap_c_api(dnnl_graph_partition_get_input_ports_num(get(), &num),
                "could not get number of inputs of the partition");
        if (num == 0) return {};
        std::vector<dnnl_graph_logical_tensor_t> c_lts(num);
        error::wrap_c_api(dnnl_graph_partition_get_input_ports(
                                  get(), num, c_lts.data()),
                "could not get input logical tensors of the partition");
        return to_logical_tensors(c_lts);
    }

    /// Returns the partition's output logical tensors.
    std::vector<logical_tensor> get_output_ports() const {
        size_t num = 0;
        error::wrap_c_api(
                dnnl_graph_partition_get_output_ports_num(get(), &num),
                "cannot get number of outputs of the partition");
        if (num == 0) return {};
        std::vector<dnnl_graph_logical_tensor_t> c_lts(num);
        error::wrap_c_api(dnnl_graph_partition_get_output_ports(
                                  get(), num, c_lts.data()),
                "could not get output logical tensors of the partition");
        return to_logical_tensors(c_lts);
    }

    /// Returns the engine kind the partition was created for.
    engine::kind get_engine_kind() const {
        dnnl_engine_kind_t c_kind = dnnl_any_engine;
        error::wrap_c_api(dnnl_graph_partition_get_engine_kind(get(), &c_kind),
                "could not get the engine kind from the partition");
        return static_cast<engine::kind>(c_kind);
    }

private:
    compiled_partition compile_(const std::vector<logical_tensor> &inputs,
            const std::vector<logical_tensor> &outputs, const engine &e) const {
        std::vector<const dnnl_graph_logical_tensor_t *> c_inputs;
        c_inputs.reserve(inputs.size());
        for (const auto &in : inputs)
            c_inputs.push_back(&(in.data));
        std::vector<const dnnl_graph_logical_tensor_t *> c_outputs;
        c_outputs.reserve(outputs.size());
        for (const auto &out : outputs)
            c_outputs.push_back(&(out.data));

        dnnl_graph_compiled_partition_t c_cp = nullptr;
        error::wrap_c_api(
                dnnl_graph_compiled_partition_create(&c_cp, get()),
                "could not create compiled_partition");
        // Own the C object right away so that a failed compilation does not
        // leak it.
        compiled_partition result(c_cp);
        error::wrap_c_api(
                dnnl_graph_partition_compile(get(), c_cp, c_inputs.size(),
                        c_inputs.data(), c_outputs.size(), c_outputs.data(),
                        e.get()),
                "partition compile failed");
        return result;
    }

    static std::vector<logical_tensor> to_logical_tensors(
            const std::vector<dnnl_graph_logical_tensor_t> &c_lts) {
        std::vector<logical_tensor> result;
        result.reserve(c_lts.size());
        for (const auto &c_lt : c_lts)
            result.emplace_back(c_lt);
        return result;
    }
};

// ---------------------------------------------------------------------------
// Graph
// ---------------------------------------------------------------------------

/// A collection of ops connected through logical tensor ids, split into
/// partitions once finalized.
class graph : public graph_handle {
public:
    /// Creates an empty graph for engines of kind `engine_kind`.
    graph(engine::kind engine_kind) {
        dnnl_graph_graph_t g = nullptr;
        error::wrap_c_api(
                dnnl_graph_graph_create(&g, convert_to_c(engine_kind)),
                "could not create graph with engine kind");
        reset(g);
    }

    /// Creates an empty graph with an fp-math mode inherited by its
    /// partitions.
    graph(engine::kind engine_kind, fpmath_mode mode) {
        dnnl_graph_graph_t g = nullptr;
        error::wrap_c_api(
                dnnl_graph_graph_create_with_fpmath_mode(
                        &g, convert_to_c(engine_kind), convert_to_c(mode)),
                "could not create graph with engine kind and math mode");
        reset(g);
    }

    /// Sets the fp-math mode; with `apply_to_int` it also applies to integer
    /// computations. Only allowed before finalization.
    void set_fpmath_mode(fpmath_mode mode, bool apply_to_int = false) {
        error::wrap_c_api(dnnl_graph_graph_set_fpmath_mode(get(),
                                  convert_to_c(mode), apply_to_int ? 1 : 0),
                "could not set fpmath mode graph attribute");
    }

    /// Reads the fp-math mode and the apply-to-int flag.
    void get_fpmath_mode(fpmath_mode &mode, bool &apply_to_int) const {
        dnnl_fpmath_mode_t c_mode = dnnl_fpmath_mode_strict;
        int c_apply_to_int = 0;
        error::wrap_c_api(dnnl_graph_graph_get_fpmath_mode(
                                  get(), &c_mode, &c_apply_to_int),
                "could not get fpmath mode graph attribute");
        mode = static_cast<fpmath_mode>(c_mode);
        apply_to_int = c_apply_to_int != 0;
    }

    /// Adds a copy of `aop` to the graph and returns the C status. Throws on
    /// failure only if `allow_exception` is true.
    status add_op(const op &aop, bool allow_exception = true) {
        const dnnl_status_t ret = dnnl_graph_add_op(get(), aop.get());
        if (allow_exception)
            error::wrap_c_api(ret, "could not add op to the graph");
        return static_cast<status>(ret);
    }

    /// Freezes the graph; no ops can be added afterwards.
    void finalize() {
        error::wrap_c_api(dnnl_graph_graph_finalize(get()),
                "could not finalize the graph");
    }

    /// Whether the graph is finalized.
    bool is_finalized() const {
        uint8_t finalized = 0;
        error::wrap_c_api(dnnl_graph_graph_is_finalized(get(), &finalized),
                "could not get the finalization status of the graph");
        return finalized != 0;
    }

    /// Partitions the (finalized) graph according to `apolicy` and returns
    /// the partitions in topological order. Fails with invalid_graph if the
    /// graph is not finalized.
    std::vector<partition> get_partitions(
            partition::policy apolicy = partition::policy::fusion) {
        if (!is_finalized())
            DNNL_THROW_ERROR(dnnl_invalid_graph,
                    "graph is not finalized yet, please call finalize() "
                    "before getting partitions");

        error::wrap_c_api(
                dnnl_graph_graph_filter(get(),
                        static_cast<dnnl_graph_partition_policy_t>(apolicy)),
                "could not filter the graph");

        size_t num = 0;
        error::wrap_c_api(dnnl_graph_graph_get_partition_num(get(), &num),
                "could not get number of partitions from the graph");
        if (num == 0) return {};

        std::vector<dnnl_graph_partition_t> c_parts(num, nullptr);
        error::wrap_c_api(
                dnnl_graph_graph_get_partitions(get(), num, c_parts.data()),
                "could not get partitions from the graph");

        std::vector<partition> result;
        result.reserve(num);
        for (dnnl_graph_partition_t c_part : c_parts)
            result.emplace_back(c_part);
        return result;
    }

private:
    static dnnl_fpmath_mode_t convert_to_c(fpmath_mode mode) {
        return static_cast<dnnl_fpmath_mode_t>(mode);
    }

    static dnnl_engine_kind_t convert_to_c(engine::kind akind) {
        return static_cast<dnnl_engine_kind_t>(akind);
    }
};

// ---------------------------------------------------------------------------
// Global settings
// ---------------------------------------------------------------------------

/// Returns the capacity (in entries) of the compiled partition cache.
inline int get_compiled_partition_cache_capacity() {
    int capacity = 0;
    error::wrap_c_api(dnnl_graph_get_compiled_partition_cache_capacity(&capacity),
            "could not get compiled partition cache capacity");
    return capacity;
}

/// Sets the capacity (in entries) of the compiled partition cache; 0
/// empties and disables it.
inline void set_compiled_partition_cache_capacity(int capacity) {
    error::wrap_c_api(
            dnnl_graph_set_compiled_partition_cache_capacity(capacity),
            "could not set compiled partition cache capacity");
}

/// Deprecated: use set_constant_tensor_cache_capacity(). Enables (flag > 0)
/// or disables (flag == 0) the constant tensor cache.
inline void set_constant_tensor_cache(int flag) {
    error::wrap_c_api(dnnl_graph_set_constant_tensor_cache(flag),
            "fail to set constant tensor cache");
}

/// Deprecated: use get_constant_tensor_cache_capacity(). Returns 1 if the
/// constant tensor cache is enabled, 0 otherwise.
inline int get_constant_tensor_cache() {
    int flag = 0;
    error::wrap_c_api(dnnl_graph_get_constant_tensor_cache(&flag),
            "fail to get constant tensor cache");
    return flag;
}

/// Sets the constant tensor cache capacity, in megabytes per device, for
/// engines of kind `kind`; 0 disables the cache.
inline void set_constant_tensor_cache_capacity(engine::kind kind, size_t size) {
    error::wrap_c_api(dnnl_graph_set_constant_tensor_cache_capacity(
                              static_cast<dnnl_engine_kind_t>(kind), size),
            "fail to set constant tensor cache capacity");
}

/// Returns the constant tensor cache capacity (megabytes) for engines of
/// kind `kind`.
inline size_t get_constant_tensor_cache_capacity(engine::kind kind) {
    size_t size = 0;
    error::wrap_c_api(dnnl_graph_get_constant_tensor_cache_capacity(
                              static_cast<dnnl_engine_kind_t>(kind), &size),
            "fail to get constant tensor cache capacity");
    return size;
}

} // namespace graph
} // namespace dnnl

/// oneDNN is also reachable as oneapi::dnnl.
namespace oneapi {
namespace dnnl = ::dnnl;
} // namespace oneapi

#endif // ONEAPI_DNNL_DNNL_GRAPH_HPP
