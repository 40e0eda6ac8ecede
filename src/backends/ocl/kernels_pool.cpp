// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels_pool.cpp — builder of the pooling family
// (kernels/pool.cl): MaxPool and AvgPool forward.
#include "backends/ocl/kernels_family.hpp"

#include "ops/pool_geom.hpp"

namespace llga {
namespace ocl {

status_t build_pool(const ir::op_t &op, std::vector<launch_desc_t> &out) {
    LLGA_RETURN_IF_ERROR(check_dtypes(op));
    const logical_tensor_t &x = op.inputs[0], &y = op.outputs[0];
    ops::pool_geom_t g;
    LLGA_RETURN_IF_ERROR(ops::pool_geometry(
            op, ir::dims_of(x), ir::dims_of(y), dnnl_invalid_shape, g));
    const int nsp = g.nsp;
    if (nsp < 1 || nsp > 3) return unsupported(op, "spatial rank not 1-3");
    launch_desc_t d;
    d.family = "pool";
    d.kernel = "pool_fwd";
    std::string &o = d.options;
    const bool avg = op.kind == dnnl_graph_op_avg_pool;
    if (avg) {
        o += " -DAVG";
        if (op.get_bool(dnnl_graph_op_attr_exclude_pad)) o += " -DEXCLUDE_PAD";
    } else {
        o += float_option("LOWEST",
                static_cast<float>(ops::pool_lowest(y.data_type)));
    }
    dt_option("SRC", x.data_type, o);
    dt_option("DST", y.data_type, o);
    o += nc_spatial_stride_options(x, "X", g.channel_last, nsp);
    o += nc_spatial_stride_options(y, "Y", g.channel_last, nsp);
    auto sp3 = [&](const dims_t &v, int64_t fill, const char *n0,
                       const char *n1, const char *n2) {
        int64_t a[3] = {fill, fill, fill};
        for (int i = 0; i < nsp; ++i)
            a[3 - nsp + i] = v[i];
        o += int_option(n0, a[0]) + int_option(n1, a[1]) + int_option(n2, a[2]);
    };
    sp3(g.xsp, 1, "ID", "IH", "IW");
    sp3(g.ysp, 1, "OD", "OH", "OW");
    sp3(g.k, 1, "KD", "KH", "KW");
    sp3(g.s, 1, "SD", "SH", "SW");
    sp3(g.d, 1, "DD", "DH", "DW");
    sp3(g.pb, 0, "PD", "PH", "PW");
    sp3(g.pe, 0, "PED", "PEH", "PEW");
    o += int_option("C", g.c);
    d.args = {x.id, y.id};
    d.work = static_cast<size_t>(ir::nelems(y));
    o += int_option("NELEMS", static_cast<int64_t>(d.work));
    out.push_back(d);
    return dnnl_success;
}

} // namespace ocl
} // namespace llga
