// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels_norm_bwd.cpp — builders of the rows family's
// backward normalisations (kernels/rows.cl, BN_BWD and LN_BWD):
// BatchNormTrainingBackward (per-channel sums into an f32 temporary, then
// diff_src per element) and LayerNormBackward (diff_src per row, then
// diff_gamma/diff_beta per normalised element).
#include "backends/ocl/kernels_family.hpp"
#include "backends/ocl/kernels_rows.hpp"

#include "ops/norm_common.hpp"

namespace llga {
namespace ocl {

namespace {

// The options every launch of a backward norm shares: rows of src, the
// strides of diff_dst and diff_src split alike, dtypes, epsilon.
std::string common_options(const ir::op_t &op, const std::vector<bool> &in_row,
        float eps, rows_t &rw) {
    const logical_tensor_t &src = op.inputs[0], &dd = op.inputs[1],
                           &ds = op.outputs[0];
    std::string o;
    rw = split_rows(src, in_row);
    row_options(rw, o);
    std::vector<int64_t> os, rs;
    split_rows_like(dd, in_row, os, rs);
    o += list_option("DD_OSTRIDES", os) + list_option("DD_RSTRIDES", rs);
    os.clear();
    rs.clear();
    split_rows_like(ds, in_row, os, rs);
    o += list_option("D_OSTRIDES", os) + list_option("D_RSTRIDES", rs);
    dt_option("SRC", src.data_type, o);
    dt_option("DD", dd.data_type, o);
    dt_option("DST", ds.data_type, o);
    dt_option("M", op.inputs[2].data_type, o);
    o += float_option("EPS", eps);
    return o;
}

status_t build_bn_bwd(const ir::op_t &op, std::vector<launch_desc_t> &out) {
    const logical_tensor_t &src = op.inputs[0];
    const int r = std::max(src.ndims, 1);
    const int cax = ops::norm_channel_axis(op, r);
    std::vector<bool> in_row(r, false);
    for (int i = 0; i < r; ++i)
        in_row[i] = i != cax;
    rows_t rw;
    std::string o = " -DBN_BWD"
            + common_options(op, in_row,
                    op.get_f32(dnnl_graph_op_attr_epsilon, 0.f), rw);
    if (op.inputs[2].data_type != op.inputs[3].data_type)
        return unsupported(op, "mean and variance dtypes differ");
    o += int_option("M_STRIDE", op.inputs[2].layout.strides[0]);
    o += int_option("V_STRIDE", op.inputs[3].layout.strides[0]);
    const size_t nout = op.outputs.size();
    if (nout == 3 && op.outputs[1].data_type != op.outputs[2].data_type)
        return unsupported(op, "diff_gamma and diff_beta dtypes differ");
    // Launch 1: per-channel sums (temporary 0: 2 floats per channel).
    launch_desc_t sums;
    sums.family = "rows";
    sums.kernel = "bn_bwd_sums";
    sums.options = o;
    sums.args = {src.id, op.inputs[1].id, op.inputs[2].id, op.inputs[3].id,
            arg_ref_t::temp(0)};
    if (nout > 1) {
        dt_option("T", op.outputs[1].data_type, sums.options);
        sums.options += " -DDIFF_GAMMA"
                + int_option("DG_STRIDE", op.outputs[1].layout.strides[0]);
        sums.args.push_back(op.outputs[1].id);
    }
    if (nout > 2) {
        sums.options += " -DDIFF_BETA"
                + int_option("DB_STRIDE", op.outputs[2].layout.strides[0]);
        sums.args.push_back(op.outputs[2].id);
    }
    sums.work = static_cast<size_t>(rw.rows);
    sums.temp_bytes = {static_cast<size_t>(std::max<int64_t>(rw.rows, 1)) * 2
            * sizeof(float)};
    // Launch 2: diff_src, one work-item per element.
    launch_desc_t dsrc;
    dsrc.family = "rows";
    dsrc.kernel = "bn_bwd_dsrc";
    dsrc.options = o;
    dsrc.args = {src.id, op.inputs[1].id, op.inputs[2].id, op.inputs[3].id,
            arg_ref_t::temp(0)};
    if (op.inputs.size() > 4) {
        const logical_tensor_t &g = op.inputs[4];
        dt_option("G", g.data_type, dsrc.options);
        dsrc.options
                += " -DHAS_GAMMA" + int_option("P_STRIDE", g.layout.strides[0]);
        dsrc.args.push_back(g.id);
    }
    dsrc.args.push_back(op.outputs[0].id);
    dsrc.work = static_cast<size_t>(rw.rows * rw.rlen);
    out.push_back(sums);
    out.push_back(dsrc);
    return dnnl_success;
}

status_t build_ln_bwd(const ir::op_t &op, std::vector<launch_desc_t> &out) {
    const logical_tensor_t &src = op.inputs[0];
    const int r = std::max(src.ndims, 1);
    int64_t a = 0;
    LLGA_RETURN_IF_ERROR(ops::norm_begin_axis(op, dnnl_invalid_shape, a));
    std::vector<bool> in_row(r, false);
    for (int i = static_cast<int>(a); i < r; ++i)
        in_row[i] = true;
    rows_t rw;
    std::string o = " -DLN_BWD"
            + common_options(op, in_row,
                    op.get_f32(dnnl_graph_op_attr_epsilon, 1e-5f), rw);
    const logical_tensor_t &mean = op.inputs[2], &var = op.inputs[3];
    if (mean.data_type != var.data_type)
        return unsupported(op, "mean and variance dtypes differ");
    o += linear_options("M", mean) + linear_options("V", var);
    const bool has_gamma = op.get_bool(dnnl_graph_op_attr_use_affine, true)
            && op.inputs.size() > 4;
    const bool wgrad = op.outputs.size() == 3;
    // W: the dims gamma and diff_gamma/diff_beta are indexed by (theirs, or
    // the normalised dims flattened when neither exists).
    const std::vector<int64_t> wd = wgrad ? dims_1(op.outputs[1])
            : has_gamma                   ? dims_1(op.inputs[4])
                                          : std::vector<int64_t> {rw.rlen};
    o += int_option("W_ND", static_cast<int64_t>(wd.size()));
    o += list_option("W_DIMS", wd);
    launch_desc_t rows;
    rows.family = "rows";
    rows.kernel = "ln_bwd_rows";
    rows.options = o;
    rows.args = {src.id, op.inputs[1].id, mean.id, var.id};
    if (has_gamma) {
        const logical_tensor_t &g = op.inputs[4];
        if (dims_1(g) != wd)
            return unsupported(op, "gamma and diff_gamma shapes differ");
        dt_option("G", g.data_type, rows.options);
        rows.options += " -DHAS_GAMMA" + list_option("G_STRIDES", strides_1(g));
        rows.args.push_back(g.id);
    }
    rows.args.push_back(op.outputs[0].id);
    rows.work = static_cast<size_t>(rw.rows);
    out.push_back(rows);
    if (!wgrad) return dnnl_success;
    const logical_tensor_t &dg = op.outputs[1], &db = op.outputs[2];
    if (dg.data_type != db.data_type || dims_1(db) != wd)
        return unsupported(op, "diff_gamma and diff_beta differ");
    launch_desc_t w;
    w.family = "rows";
    w.kernel = "ln_bwd_wgrad";
    w.options = o + " -DWGRAD";
    dt_option("T", dg.data_type, w.options);
    w.options += list_option("DG_STRIDES", strides_1(dg));
    w.options += list_option("DB_STRIDES", strides_1(db));
    w.args = {src.id, op.inputs[1].id, mean.id, var.id, dg.id, db.id};
    w.work = static_cast<size_t>(rw.rlen);
    out.push_back(w);
    return dnnl_success;
}

} // namespace

status_t build_norm_bwd(const ir::op_t &op, std::vector<launch_desc_t> &out) {
    LLGA_RETURN_IF_ERROR(check_dtypes(op));
    if (op.inputs.size() < 4) return unsupported(op, "missing statistics");
    if (op.kind == dnnl_graph_op_batch_norm_backward)
        return build_bn_bwd(op, out);
    if (op.kind == dnnl_graph_op_layer_norm_backward)
        return build_ln_bwd(op, out);
    return unsupported(op, "not a backward normalisation");
}

} // namespace ocl
} // namespace llga
