// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels_interp.cpp — builder of the interp family
// (kernels/interp.cl): Interpolate and InterpolateBackward, every mode
// (nearest; linear, bilinear and trilinear are the same separable linear
// sampling) and coordinate_transformation_mode, both data formats. Shapes
// come from ops/interp_geom.hpp, as in the reference; the optional sizes
// input is not read (the dst shape already carries it).
#include "backends/ocl/kernels_family.hpp"

#include "ops/interp_geom.hpp"
#include "ops/schema.hpp"

namespace llga {
namespace ocl {

status_t build_interp(const ir::op_t &op, std::vector<launch_desc_t> &out) {
    LLGA_RETURN_IF_ERROR(check_dtypes(op));
    const bool fwd = op.kind == dnnl_graph_op_interpolate;
    if (!fwd && op.inputs.size() < 2)
        return unsupported(op, "diff_dst input missing");
    // x: src / diff_src, y: dst / diff_dst.
    const logical_tensor_t &x = fwd ? op.inputs[0] : op.outputs[0];
    const logical_tensor_t &y = fwd ? op.outputs[0] : op.inputs[1];
    const dims_t xd = ir::dims_of(x), yd = ir::dims_of(y);
    if (xd.size() < 3 || xd.size() > 5 || yd.size() != xd.size())
        return unsupported(op, "spatial rank not 1-3");
    const ops::interp_geom_t g = ops::interp_geometry(op, xd, yd);
    const int nsp = g.nsp;
    launch_desc_t d;
    d.family = "interp";
    std::string &o = d.options;
    if (ops::iequals(op.get_str(dnnl_graph_op_attr_mode), "nearest"))
        o += " -DNEAREST";
    if (ops::iequals(op.get_str(dnnl_graph_op_attr_coordinate_transformation_mode),
                "align_corners"))
        o += " -DALIGN_CORNERS";
    o += nc_spatial_stride_options(x, "X", g.cl, nsp);
    o += nc_spatial_stride_options(y, "Y", g.cl, nsp);
    int64_t xs[3] = {1, 1, 1}, ys[3] = {1, 1, 1};
    for (int i = 0; i < nsp; ++i) {
        xs[3 - nsp + i] = g.xsp[i];
        ys[3 - nsp + i] = g.ysp[i];
    }
    o += int_option("ID", xs[0]) + int_option("IH", xs[1])
            + int_option("IW", xs[2]);
    o += int_option("OD", ys[0]) + int_option("OH", ys[1])
            + int_option("OW", ys[2]);
    o += int_option("C", g.c);
    if (fwd) {
        d.kernel = "interp_fwd";
        dt_option("SRC", x.data_type, o);
        dt_option("DST", y.data_type, o);
        d.args = {x.id, y.id};
    } else {
        d.kernel = "interp_bwd";
        dt_option("DY", y.data_type, o);
        dt_option("DX", x.data_type, o);
        d.args = {y.id, x.id};
    }
    // One work-item per element of dst (forward) or diff_src (backward).
    d.work = static_cast<size_t>(ir::nelems(fwd ? y : x));
    o += int_option("NELEMS", static_cast<int64_t>(d.work));
    out.push_back(d);
    return dnnl_success;
}

} // namespace ocl
} // namespace llga
