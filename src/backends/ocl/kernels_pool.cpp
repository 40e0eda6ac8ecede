// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels_pool.cpp — builder of the pooling family
// (kernels/pool.cl): MaxPool and AvgPool forward, MaxPoolBackward and
// AvgPoolBackward (gather: one work-item per diff_src element). The window
// geometry comes from ops/pool_geom.hpp, as in the reference.
#include "backends/ocl/kernels_family.hpp"

#include "ops/pool_geom.hpp"

namespace llga {
namespace ocl {

namespace {

// Spatial vectors as options padded to 3 dims (leading dims `fill`).
void sp3(std::string &o, int nsp, const dims_t &v, int64_t fill,
        const char *n0, const char *n1, const char *n2) {
    int64_t a[3] = {fill, fill, fill};
    for (int i = 0; i < nsp; ++i)
        a[3 - nsp + i] = v[i];
    o += int_option(n0, a[0]) + int_option(n1, a[1]) + int_option(n2, a[2]);
}

// ID.. = x (src / diff_src) spatial, OD.. = y (dst / diff_dst) spatial,
// window K, strides S, dilations D, pads P (begin) / PE (end), channels C.
void geometry_options(const ops::pool_geom_t &g, bool dense_taps,
        std::string &o) {
    const int nsp = g.nsp;
    sp3(o, nsp, g.xsp, 1, "ID", "IH", "IW");
    sp3(o, nsp, g.ysp, 1, "OD", "OH", "OW");
    sp3(o, nsp, g.k, 1, "KD", "KH", "KW");
    sp3(o, nsp, g.s, 1, "SD", "SH", "SW");
    sp3(o, nsp, dense_taps ? dims_t(nsp, 1) : g.d, 1, "DD", "DH", "DW");
    sp3(o, nsp, g.pb, 0, "PD", "PH", "PW");
    sp3(o, nsp, g.pe, 0, "PED", "PEH", "PEW");
    o += int_option("C", g.c);
}

} // namespace

status_t build_pool(const ir::op_t &op, std::vector<launch_desc_t> &out) {
    LLGA_RETURN_IF_ERROR(check_dtypes(op));
    const bool fwd = op.kind == dnnl_graph_op_max_pool
            || op.kind == dnnl_graph_op_avg_pool;
    const bool avg = op.kind == dnnl_graph_op_avg_pool
            || op.kind == dnnl_graph_op_avg_pool_backward;
    // x: the pooled side (src, or diff_src for the backward ops); y: dst or
    // diff_dst (MaxPoolBackward: input 1 after src; AvgPoolBackward: input
    // 0, its optional src_shape input is not read).
    const logical_tensor_t &x = fwd ? op.inputs[0] : op.outputs[0];
    const logical_tensor_t &y = fwd ? op.outputs[0]
            : avg                   ? op.inputs[0]
                                    : op.inputs[1];
    ops::pool_geom_t g;
    LLGA_RETURN_IF_ERROR(ops::pool_geometry(
            op, ir::dims_of(x), ir::dims_of(y), dnnl_invalid_shape, g));
    const int nsp = g.nsp;
    if (nsp < 1 || nsp > 3) return unsupported(op, "spatial rank not 1-3");
    launch_desc_t d;
    d.family = "pool";
    std::string &o = d.options;
    if (avg) {
        o += " -DAVG";
        if (op.get_bool(dnnl_graph_op_attr_exclude_pad)) o += " -DEXCLUDE_PAD";
    }
    o += nc_spatial_stride_options(x, "X", g.channel_last, nsp);
    o += nc_spatial_stride_options(y, "Y", g.channel_last, nsp);
    // The reference's AvgPoolBackward windows are dense (it has no
    // dilations); the forward ops and MaxPoolBackward use g.d.
    geometry_options(g, avg && !fwd, o);
    if (fwd) {
        d.kernel = "pool_fwd";
        if (!avg)
            o += float_option("LOWEST",
                    static_cast<float>(ops::pool_lowest(y.data_type)));
        dt_option("SRC", x.data_type, o);
        dt_option("DST", y.data_type, o);
        d.args = {x.id, y.id};
    } else if (avg) {
        d.kernel = "pool_bwd_avg";
        dt_option("DY", y.data_type, o);
        dt_option("DX", x.data_type, o);
        d.args = {y.id, x.id};
    } else {
        const logical_tensor_t &src = op.inputs[0];
        if (ir::dims_of(src) != ir::dims_of(x))
            return unsupported(op, "src and diff_src shapes differ");
        d.kernel = "pool_bwd_max";
        o += nc_spatial_stride_options(src, "S", g.channel_last, nsp);
        dt_option("SRC", src.data_type, o);
        dt_option("DY", y.data_type, o);
        dt_option("DX", x.data_type, o);
        d.args = {src.id, y.id, x.id};
    }
    // One work-item per element of y (forward) or x (backward).
    d.work = static_cast<size_t>(ir::nelems(fwd ? y : x));
    o += int_option("NELEMS", static_cast<int64_t>(d.work));
    out.push_back(d);
    return dnnl_success;
}

} // namespace ocl
} // namespace llga
