// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels_rows.cpp — builders of the rows family
// (kernels/rows.cl): the Reduce ops and the forward normalisations
// (LayerNorm, BatchNormInference, BatchNormForwardTraining, GroupNorm).
#include "backends/ocl/kernels_family.hpp"
#include "backends/ocl/kernels_rows.hpp"

#include "ir/shape.hpp"
#include "ops/norm_common.hpp"

namespace llga {
namespace ocl {

rows_t split_rows(const logical_tensor_t &src, const std::vector<bool> &in_row) {
    rows_t r;
    const std::vector<int64_t> d = dims_1(src), s = strides_1(src);
    for (size_t i = 0; i < d.size(); ++i) {
        if (i < in_row.size() && in_row[i]) {
            r.rd.push_back(d[i]);
            r.rs.push_back(s[i]);
            r.rlen *= d[i];
        } else {
            r.od.push_back(d[i]);
            r.os.push_back(s[i]);
            r.rows *= d[i];
        }
    }
    if (r.od.empty()) {
        r.od = {1};
        r.os = {0};
    }
    if (r.rd.empty()) {
        r.rd = {1};
        r.rs = {0};
    }
    return r;
}

void split_rows_like(const logical_tensor_t &t, const std::vector<bool> &in_row,
        std::vector<int64_t> &os, std::vector<int64_t> &rs) {
    const std::vector<int64_t> s = strides_1(t);
    for (size_t i = 0; i < s.size(); ++i)
        (i < in_row.size() && in_row[i] ? rs : os).push_back(s[i]);
    if (os.empty()) os = {0};
    if (rs.empty()) rs = {0};
}

void row_options(const rows_t &r, std::string &o) {
    o += int_option("OND", static_cast<int64_t>(r.od.size()));
    o += list_option("ODIMS", r.od);
    o += list_option("S_OSTRIDES", r.os);
    o += int_option("RND", static_cast<int64_t>(r.rd.size()));
    o += list_option("RDIMS", r.rd);
    o += list_option("S_RSTRIDES", r.rs);
    o += int_option("NROWS", r.rows);
    o += int_option("RLEN", r.rlen);
}

std::string linear_options(const char *prefix, const logical_tensor_t &t) {
    const std::string p(prefix);
    const std::vector<int64_t> d = dims_1(t);
    return int_option((p + "_ND").c_str(), static_cast<int64_t>(d.size()))
            + list_option((p + "_DIMS").c_str(), d)
            + list_option((p + "_STRIDES").c_str(), strides_1(t));
}

status_t build_reduce(const ir::op_t &op, std::vector<launch_desc_t> &out) {
    LLGA_RETURN_IF_ERROR(check_dtypes(op));
    if (op.inputs.size() > 1)
        return unsupported(op, "axes given as a tensor");
    const logical_tensor_t &src = op.inputs[0], &dst = op.outputs[0];
    const int r = std::max(src.ndims, 1);
    std::vector<bool> mask(r, false);
    bool keep = op.get_bool(dnnl_graph_op_attr_keep_dims, false);
    if (op.kind == dnnl_graph_op_bias_add_backward) {
        // diff_bias: the sum over every dim but the channel axis.
        const bool cl = !ops::iequals(
                op.get_str(dnnl_graph_op_attr_data_format, "NXC"), "NCX");
        const int cax = r <= 1 ? 0 : (cl ? r - 1 : 1);
        for (int i = 0; i < r; ++i)
            mask[i] = i != cax;
        keep = false;
    }
    for (int64_t a : op.get_s64s(dnnl_graph_op_attr_axes)) {
        int64_t n = 0;
        if (!ir::normalize_axis(a, src.ndims, n))
            return unsupported(op, "bad axes");
        mask[n] = true;
    }
    rows_t rw = split_rows(src, mask);
    // dst strides of the kept dims, in order.
    std::vector<int64_t> ds;
    for (int d = 0, k = 0; d < r; ++d) {
        if (mask[d]) {
            if (keep) ++k;
            continue;
        }
        ds.push_back(dst.ndims > 0 ? dst.layout.strides[k] : 0);
        ++k;
    }
    if (ds.empty()) ds = {0};
    launch_desc_t d;
    d.family = "rows";
    d.kernel = "reduce_rows";
    std::string &o = d.options;
    o += " -DREDUCE";
    switch (op.kind) {
        case dnnl_graph_op_bias_add_backward:
        case dnnl_graph_op_reduce_sum: o += " -DR_SUM"; break;
        case dnnl_graph_op_reduce_mean: o += " -DR_SUM -DR_MEAN"; break;
        case dnnl_graph_op_reduce_max: o += " -DR_MAX"; break;
        case dnnl_graph_op_reduce_min: o += " -DR_MIN"; break;
        case dnnl_graph_op_reduce_prod: o += " -DR_PROD"; break;
        case dnnl_graph_op_reduce_l1: o += " -DR_L1"; break;
        case dnnl_graph_op_reduce_l2: o += " -DR_L2 -DR_SQRT"; break;
        default: return unsupported(op, "not a reduction");
    }
    dt_option("SRC", src.data_type, o);
    dt_option("DST", dst.data_type, o);
    row_options(rw, o);
    o += list_option("D_OSTRIDES", ds);
    o += list_option("D_RSTRIDES", {0});
    d.args = {src.id, dst.id};
    d.work = static_cast<size_t>(rw.rows);
    out.push_back(d);
    return dnnl_success;
}

namespace {

// GroupNorm: a row is one (n, group): outer dims {N, G}, row dims {C/G,
// every dim but N and C}, so j / SP is the channel inside the group.
status_t build_group_norm(const ir::op_t &op, launch_desc_t &d) {
    const logical_tensor_t &src = op.inputs[0], &dst = op.outputs[0];
    const int r = src.ndims;
    if (r < 2) return unsupported(op, "src rank below 2");
    const int cax = ops::norm_channel_axis(op, r);
    const int64_t g = op.get_s64(dnnl_graph_op_attr_groups, 1);
    const int64_t c = src.dims[cax];
    if (g < 1 || c % g != 0) return unsupported(op, "groups do not divide C");
    const int64_t cg = c / g;
    auto split_gn = [&](const logical_tensor_t &t, std::vector<int64_t> &os,
                            std::vector<int64_t> &rs) {
        const int64_t *st = t.layout.strides;
        os = {st[0], cg * st[cax]};
        rs = {st[cax]};
        for (int i = 1; i < r; ++i)
            if (i != cax) rs.push_back(st[i]);
    };
    rows_t rw;
    rw.od = {src.dims[0], g};
    rw.rd = {cg};
    int64_t sp = 1;
    for (int i = 1; i < r; ++i)
        if (i != cax) {
            rw.rd.push_back(src.dims[i]);
            sp *= src.dims[i];
        }
    rw.rows = src.dims[0] * g;
    rw.rlen = cg * sp;
    split_gn(src, rw.os, rw.rs);
    std::vector<int64_t> dos, drs;
    split_gn(dst, dos, drs);
    std::string &o = d.options;
    row_options(rw, o);
    o += list_option("D_OSTRIDES", dos);
    o += list_option("D_RSTRIDES", drs);
    o += int_option("GROUPS", g) + int_option("CG", cg)
            + int_option("SP", std::max<int64_t>(sp, 1));
    if (op.get_bool(dnnl_graph_op_attr_use_affine, true)
            && op.inputs.size() == 3) {
        const logical_tensor_t &ga = op.inputs[1], &be = op.inputs[2];
        if (ga.layout.strides[0] != be.layout.strides[0])
            return unsupported(op, "gamma and beta strides differ");
        o += " -DAFFINE -DGN_AFFINE";
        dt_option("G", ga.data_type, o);
        o += int_option("P_STRIDE", ga.layout.strides[0]);
        d.args.push_back(ga.id);
        d.args.push_back(be.id);
    }
    if (op.outputs.size() == 3) {
        const logical_tensor_t &m = op.outputs[1], &v = op.outputs[2];
        if (m.data_type != v.data_type)
            return unsupported(op, "mean and variance dtypes differ");
        o += " -DSTATS_OUT";
        dt_option("T", m.data_type, o);
        o += list_option("T_OSTRIDES", strides_1(m));
        o += list_option("TV_OSTRIDES", strides_1(v));
        d.args.push_back(m.id);
        d.args.push_back(v.id);
    }
    d.work = static_cast<size_t>(rw.rows);
    return dnnl_success;
}

} // namespace

status_t build_norm(const ir::op_t &op, std::vector<launch_desc_t> &out) {
    LLGA_RETURN_IF_ERROR(check_dtypes(op));
    const logical_tensor_t &src = op.inputs[0], &dst = op.outputs[0];
    const int r = std::max(src.ndims, 1);
    std::vector<bool> in_row(r, false);
    launch_desc_t d;
    d.family = "rows";
    d.kernel = "norm_rows";
    std::string &o = d.options;
    o += " -DNORM";
    const bool has_default_eps = op.kind == dnnl_graph_op_layer_norm
            || op.kind == dnnl_graph_op_group_norm;
    o += float_option("EPS", op.get_f32(dnnl_graph_op_attr_epsilon,
                                     has_default_eps ? 1e-5f : 0.f));
    dt_option("SRC", src.data_type, o);
    dt_option("DST", dst.data_type, o);
    d.args = {src.id, dst.id};
    if (op.kind == dnnl_graph_op_group_norm) {
        LLGA_RETURN_IF_ERROR(build_group_norm(op, d));
        out.push_back(d);
        return dnnl_success;
    }
    if (op.kind == dnnl_graph_op_layer_norm) {
        int64_t a = 0;
        LLGA_RETURN_IF_ERROR(ops::norm_begin_axis(op, dnnl_invalid_shape, a));
        for (int i = static_cast<int>(a); i < r; ++i)
            in_row[i] = true;
        const bool affine = op.get_bool(dnnl_graph_op_attr_use_affine, true)
                && op.inputs.size() == 3;
        if (affine) {
            // gamma/beta: dense over the normalised dims (or flat).
            o += " -DAFFINE";
            dt_option("G", op.inputs[1].data_type, o);
            const logical_tensor_t &g = op.inputs[1];
            o += int_option("P_STRIDE", g.layout.strides[g.ndims - 1]);
            if (!ir::is_dense(g) || !ir::is_dense(op.inputs[2]))
                return unsupported(op, "non-dense gamma/beta");
            d.args.push_back(op.inputs[1].id);
            d.args.push_back(op.inputs[2].id);
        }
        if (op.outputs.size() == 3) {
            if (op.outputs[1].data_type != op.outputs[2].data_type)
                return unsupported(op, "mean and variance dtypes differ");
            o += " -DSTATS_OUT";
            dt_option("T", op.outputs[1].data_type, o);
            std::vector<int64_t> ts = strides_1(op.outputs[1]),
                                 tv = strides_1(op.outputs[2]);
            if (a == 0) ts = tv = {0};
            o += list_option("T_OSTRIDES", ts);
            o += list_option("TV_OSTRIDES", tv);
            d.args.push_back(op.outputs[1].id);
            d.args.push_back(op.outputs[2].id);
        }
    } else {
        // BatchNorm: a row is one channel.
        const int cax = ops::norm_channel_axis(op, r);
        for (int i = 0; i < r; ++i)
            in_row[i] = i != cax;
        const bool infer = op.kind == dnnl_graph_op_batch_norm_inference;
        // Inference: src, gamma, beta, mean, var. Training: src, mean, var
        // [, gamma [, beta]].
        const size_t gi = infer ? 1 : 3, mi = infer ? 3 : 1;
        const bool affine = op.inputs.size() > gi + 1;
        if (!infer && op.inputs.size() == 4)
            return unsupported(op, "gamma without beta");
        if (affine) {
            o += " -DAFFINE -DBN_AFFINE";
            dt_option("G", op.inputs[gi].data_type, o);
            o += int_option("P_STRIDE", op.inputs[gi].layout.strides[0]);
            if (op.inputs[gi].layout.strides[0]
                    != op.inputs[gi + 1].layout.strides[0])
                return unsupported(op, "gamma and beta strides differ");
            d.args.push_back(op.inputs[gi].id);
            d.args.push_back(op.inputs[gi + 1].id);
        }
        dt_option("M", op.inputs[mi].data_type, o);
        o += int_option("M_STRIDE", op.inputs[mi].layout.strides[0]);
        if (op.inputs[mi].layout.strides[0]
                != op.inputs[mi + 1].layout.strides[0])
            return unsupported(op, "mean and variance strides differ");
        d.args.push_back(op.inputs[mi].id);
        d.args.push_back(op.inputs[mi + 1].id);
        if (infer) {
            o += " -DSTATS_IN";
        } else {
            o += " -DSTATS_OUT -DRUNNING";
            o += float_option(
                    "MOM", op.get_f32(dnnl_graph_op_attr_momentum, 0.5f));
            const logical_tensor_t &t = op.outputs[3];
            dt_option("T", t.data_type, o);
            for (size_t k = 1; k < 5; ++k)
                if (op.outputs[k].layout.strides[0] != t.layout.strides[0])
                    return unsupported(op, "statistics strides differ");
            o += list_option("T_OSTRIDES", {t.layout.strides[0]});
            d.args.push_back(op.outputs[3].id);
            d.args.push_back(op.outputs[4].id);
            d.args.push_back(op.outputs[1].id);
            d.args.push_back(op.outputs[2].id);
        }
    }
    rows_t rw = split_rows(src, in_row);
    std::vector<int64_t> dos, drs;
    split_rows_like(dst, in_row, dos, drs);
    row_options(rw, o);
    o += list_option("D_OSTRIDES", dos);
    o += list_option("D_RSTRIDES", drs);
    d.work = static_cast<size_t>(rw.rows);
    out.push_back(d);
    return dnnl_success;
}

} // namespace ocl
} // namespace llga
