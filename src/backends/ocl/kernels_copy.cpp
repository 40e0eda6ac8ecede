// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels_copy.cpp — builders of the copy family
// (kernels/copy.cl): Reorder, TypeCast, StaticReshape, StaticTranspose,
// Concat.
#include "backends/ocl/kernels_family.hpp"

#include "ir/shape.hpp"

namespace llga {
namespace ocl {

namespace {

// One copy launch from `src` (read through src_dims/src_strides) to `dst`.
launch_desc_t copy_launch(const logical_tensor_t &src,
        const std::vector<int64_t> &src_dims,
        const std::vector<int64_t> &src_strides, const logical_tensor_t &dst,
        const std::vector<int64_t> &dst_dims,
        const std::vector<int64_t> &dst_strides, int64_t dst_off) {
    launch_desc_t d;
    d.family = "copy";
    d.kernel = "copy";
    std::string &o = d.options;
    dt_option("SRC", src.data_type, o);
    dt_option("DST", dst.data_type, o);
    o += int_option("SRC_ND", static_cast<int64_t>(src_dims.size()));
    o += list_option("SRC_DIMS", src_dims);
    o += list_option("SRC_STRIDES", src_strides);
    o += int_option("DST_ND", static_cast<int64_t>(dst_dims.size()));
    o += list_option("DST_DIMS", dst_dims);
    o += list_option("DST_STRIDES", dst_strides);
    if (dst_off) o += int_option("DST_OFF", dst_off);
    int64_t n = 1;
    for (int64_t v : dst_dims)
        n *= v;
    d.work = static_cast<size_t>(n);
    o += int_option("NELEMS", n);
    d.args = {src.id, dst.id};
    return d;
}

} // namespace

status_t build_copy(const ir::op_t &op, std::vector<launch_desc_t> &out) {
    LLGA_RETURN_IF_ERROR(check_dtypes(op));
    const logical_tensor_t &src = op.inputs[0], &dst = op.outputs[0];
    std::vector<int64_t> sd = dims_1(src), ss = strides_1(src);
    if (op.kind == dnnl_graph_op_static_transpose) {
        // Read src in dst order: dst dim d is src dim order[d].
        const int r = src.ndims;
        std::vector<int64_t> given = op.get_s64s(dnnl_graph_op_attr_order);
        std::vector<int64_t> order;
        if (given.empty())
            for (int i = r - 1; i >= 0; --i)
                order.push_back(i);
        for (int64_t g : given) {
            int64_t a = 0;
            if (!ir::normalize_axis(g, r, a))
                return unsupported(op, "bad transpose order");
            order.push_back(a);
        }
        if (static_cast<int>(order.size()) != r)
            return unsupported(op, "bad transpose order");
        if (r > 0) {
            sd.clear();
            ss.clear();
            for (int64_t a : order) {
                sd.push_back(src.dims[a]);
                ss.push_back(src.layout.strides[a]);
            }
        }
    }
    out.push_back(copy_launch(
            src, sd, ss, dst, dims_1(dst), strides_1(dst), 0));
    return dnnl_success;
}

status_t build_concat(const ir::op_t &op, std::vector<launch_desc_t> &out) {
    LLGA_RETURN_IF_ERROR(check_dtypes(op));
    const logical_tensor_t &dst = op.outputs[0];
    int64_t axis = 0;
    if (!ir::normalize_axis(
                op.get_s64(dnnl_graph_op_attr_axis), dst.ndims, axis))
        return unsupported(op, "bad concat axis");
    int64_t at = 0;
    for (const logical_tensor_t &in : op.inputs) {
        const std::vector<int64_t> d = dims_1(in);
        out.push_back(copy_launch(in, d, strides_1(in), dst, d,
                strides_1(dst), at * dst.layout.strides[axis]));
        at += in.dims[axis];
    }
    return dnnl_success;
}

} // namespace ocl
} // namespace llga
