// SPDX-License-Identifier: Apache-2.0
// ops/ref_util.hpp — what reference kernels use to touch memory: a typed view
// of one operand (dtype + dims + strides + pointer) with element get/set by
// multi-index or by row-major linear index, converting through double.
#pragma once

#include <vector>

#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/op.hpp"
#include "ir/shape.hpp"

namespace llga {
namespace ops {

struct view_t {
    data_type_t dt = dnnl_data_type_undef;
    dims_t dims;
    dims_t strides;
    const void *cdata = nullptr;
    void *data = nullptr;
    // Down-conversion allowed for f32 operands of compute ops (MatMul, conv):
    // loads round to bf16/f16/tf32 as the graph's fpmath mode permits.
    fpmath_mode_t fpmath = dnnl_fpmath_mode_strict;

    view_t() = default;
    view_t(const logical_tensor_t &lt, const void *p)
        : dt(lt.data_type)
        , dims(ir::dims_of(lt))
        , strides(ir::strides_of(lt))
        , cdata(p) {}
    view_t(const logical_tensor_t &lt, void *p)
        : view_t(lt, static_cast<const void *>(p)) {
        data = p;
    }

    int ndims() const { return static_cast<int>(dims.size()); }
    int64_t nelems() const { return ir::product(dims); }
    int64_t offset(const int64_t *idx) const {
        return ir::offset_of(idx, strides.data(), ndims());
    }
    int64_t offset_linear(int64_t linear) const {
        int64_t idx[DNNL_MAX_NDIMS];
        ir::unravel(linear, dims, idx);
        return offset(idx);
    }
    double at(const int64_t *idx) const { return at_offset(offset(idx)); }
    double at_linear(int64_t linear) const {
        return at_offset(offset_linear(linear));
    }
    double at_offset(int64_t off) const {
        const double v = ir::load_value(dt, cdata, off);
        if (dt != dnnl_f32 || fpmath == dnnl_fpmath_mode_strict) return v;
        return ir::round_for_fpmath(fpmath, static_cast<float>(v));
    }
    // Reads n elements starting at element offset `off`, `stride` apart,
    // into out[0..n) — at_offset() for each, with the dtype switch hoisted
    // out of the loop for the common types (the reference MatMul and
    // convolution spend most of their time here).
    void load_run(int64_t off, int64_t stride, int64_t n, double *out) const;
    void set(const int64_t *idx, double v) const {
        ir::store_value(dt, data, offset(idx), v);
    }
    void set_linear(int64_t linear, double v) const {
        ir::store_value(dt, data, offset_linear(linear), v);
    }
    void set_offset(int64_t off, double v) const {
        ir::store_value(dt, data, off, v);
    }
};

inline view_t in_view(const ir::op_t &op, const std::vector<const void *> &in,
        size_t k) {
    return view_t(op.inputs[k], in[k]);
}
inline view_t out_view(
        const ir::op_t &op, const std::vector<void *> &out, size_t k) {
    return view_t(op.outputs[k], out[k]);
}

// Rounds through the tensor's dtype as the stored value would be (e.g. f32
// math on bf16 data returns bf16-representable results).
inline double round_to(data_type_t dt, double v) {
    if (dt == dnnl_f32) return static_cast<float>(v);
    if (dt == dnnl_bf16) return ir::bf16_to_f32(ir::f32_to_bf16(static_cast<float>(v)));
    if (dt == dnnl_f16) return ir::f16_to_f32(ir::f32_to_f16(static_cast<float>(v)));
    return v;
}

} // namespace ops
} // namespace llga
