// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels_compute.cpp — builders of the compute families:
// MatMul (kernels/matmul.cl), Convolution (kernels/conv.cl) and SoftMax /
// LogSoftmax (kernels/softmax.cl).
#include "backends/ocl/kernels_family.hpp"

#include "ir/shape.hpp"
#include "ops/conv_util.hpp"

namespace llga {
namespace ocl {

namespace {

// A MatMul operand as a rank >= 2 matrix stack: dims and strides, a 1-D
// operand becoming [1, K] (src) or [K, 1] (weights), then transposed.
void as_matrix(const logical_tensor_t &lt, bool is_b, bool transpose,
        std::vector<int64_t> &d, std::vector<int64_t> &s) {
    d = dims_1(lt);
    s = strides_1(lt);
    if (lt.ndims == 1) {
        if (is_b) {
            d = {d[0], 1};
            s = {s[0], 0};
        } else {
            d = {1, d[0]};
            s = {0, s[0]};
        }
        transpose = false;
    }
    if (transpose) {
        const size_t n = d.size();
        std::swap(d[n - 1], d[n - 2]);
        std::swap(s[n - 1], s[n - 2]);
    }
}

} // namespace

status_t build_matmul(const ir::op_t &op, std::vector<launch_desc_t> &out) {
    LLGA_RETURN_IF_ERROR(check_dtypes(op));
    const logical_tensor_t &la = op.inputs[0], &lb = op.inputs[1];
    const logical_tensor_t &dst = op.outputs[0];
    std::vector<int64_t> ad, as, bd, bs;
    as_matrix(la, false, op.get_bool(dnnl_graph_op_attr_transpose_a), ad, as);
    as_matrix(lb, true, op.get_bool(dnnl_graph_op_attr_transpose_b), bd, bs);
    const size_t nb = std::max(ad.size(), bd.size()) - 2;
    const int64_t M = ad[ad.size() - 2], K = ad.back(), N = bd.back();
    // Iteration space: batch..., M, N.
    std::vector<int64_t> it(nb + 2, 1), sa(nb + 2, 0), sb(nb + 2, 0),
            sd(nb + 2, 0), sc(nb + 2, 0);
    for (size_t j = 0; j + 2 < ad.size(); ++j) {
        const size_t d = nb - (ad.size() - 2) + j;
        it[d] = std::max(it[d], ad[j]);
        sa[d] = ad[j] == 1 ? 0 : as[j];
    }
    for (size_t j = 0; j + 2 < bd.size(); ++j) {
        const size_t d = nb - (bd.size() - 2) + j;
        it[d] = std::max(it[d], bd[j]);
        sb[d] = bd[j] == 1 ? 0 : bs[j];
    }
    it[nb] = M;
    it[nb + 1] = N;
    sa[nb] = as[as.size() - 2];
    sb[nb + 1] = bs.back();
    // dst (and bias) dims map to the iteration dims, skipping M when src
    // was 1-D and N when weights were.
    std::vector<size_t> map;
    for (size_t d = 0; d < nb + 2; ++d) {
        if (d == nb && la.ndims == 1) continue;
        if (d == nb + 1 && lb.ndims == 1) continue;
        map.push_back(d);
    }
    if (static_cast<int>(map.size()) != std::max(dst.ndims, 0))
        return unsupported(op, "unexpected output rank");
    for (size_t j = 0; j < map.size(); ++j)
        sd[map[j]] = dst.layout.strides[j];
    launch_desc_t d;
    d.family = "matmul";
    d.kernel = "matmul";
    std::string &o = d.options;
    dt_option("A", la.data_type, o);
    dt_option("B", lb.data_type, o);
    dt_option("DST", dst.data_type, o);
    d.args = {la.id, lb.id};
    if (op.inputs.size() > 2) {
        const logical_tensor_t &lc = op.inputs[2];
        std::vector<int64_t> dd(dst.dims, dst.dims + std::max(dst.ndims, 0));
        const std::vector<int64_t> cs = bcast_strides(lc, dd);
        for (size_t j = 0; j < map.size(); ++j)
            sc[map[j]] = cs[j];
        o += " -DWITH_BIAS";
        dt_option("C", lc.data_type, o);
        o += list_option("C_STRIDES", sc);
        d.args.push_back(lc.id);
    }
    d.args.push_back(dst.id);
    o += int_option("ND", static_cast<int64_t>(it.size()));
    o += list_option("DIMS", it);
    o += list_option("A_STRIDES", sa);
    o += list_option("B_STRIDES", sb);
    o += list_option("DST_STRIDES", sd);
    o += int_option("K", K);
    o += int_option("A_KSTRIDE", as.back());
    o += int_option("B_KSTRIDE", bs[bs.size() - 2]);
    int64_t n = 1;
    for (int64_t v : it)
        n *= v;
    d.work = static_cast<size_t>(n);
    o += int_option("NELEMS", n);
    out.push_back(d);
    return dnnl_success;
}

status_t build_conv(const ir::op_t &op, std::vector<launch_desc_t> &out) {
    LLGA_RETURN_IF_ERROR(check_dtypes(op));
    ops::conv_geom_t g;
    LLGA_RETURN_IF_ERROR(ops::conv_op_geometry(op, g));
    if (g.nsp < 1 || g.nsp > 3) return unsupported(op, "spatial rank not 1-3");
    // The op's tensors in the conv relation Y = conv(X, W) (roles: input
    // index, or -1 for the output).
    const ops::conv_roles_t roles = ops::conv_roles(op.kind);
    auto role = [&](int r) -> const logical_tensor_t & {
        return r < 0 ? op.outputs[0] : op.inputs[static_cast<size_t>(r)];
    };
    const logical_tensor_t &x = role(roles.x), &w = role(roles.w),
                           &y = role(roles.y);
    const int nsp = g.nsp;
    launch_desc_t d;
    d.family = "conv";
    std::string &o = d.options;
    o += nc_spatial_stride_options(x, "X", g.channel_last, nsp);
    o += nc_spatial_stride_options(y, "Y", g.channel_last, nsp);
    {
        const int64_t *s = w.layout.strides;
        int64_t so, si, sp[3] = {0, 0, 0};
        if (g.weights_spatial_first) { // X..IO / X..OI: cy at nsp + 1
            so = s[nsp + 1];
            si = s[nsp];
            for (int i = 0; i < nsp; ++i)
                sp[3 - nsp + i] = s[i];
        } else {
            so = s[0];
            si = s[1];
            for (int i = 0; i < nsp; ++i)
                sp[3 - nsp + i] = s[2 + i];
        }
        o += int_option("WS_O", so) + int_option("WS_I", si)
                + int_option("WS_D", sp[0]) + int_option("WS_H", sp[1])
                + int_option("WS_W", sp[2]);
    }
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
    o += int_option("OC", g.cy) + int_option("OCG", g.cy / g.groups)
            + int_option("IC", g.cx) + int_option("ICG", g.cx / g.groups)
            + int_option("MB", g.n);
    const bool has_bias = op.inputs.size() > 2
            && (op.kind == dnnl_graph_op_convolution
                    || op.kind == dnnl_graph_op_conv_transpose);
    auto bias = [&]() {
        o += " -DWITH_BIAS";
        dt_option("BIA", op.inputs[2].data_type, o);
        o += int_option("BIA_STRIDE", op.inputs[2].layout.strides[0]);
        d.args.push_back(op.inputs[2].id);
    };
    if (roles.y < 0) { // forward: X, W -> Y
        d.kernel = "conv_fwd";
        o += " -DCONV_FWD";
        dt_option("SRC", x.data_type, o);
        dt_option("WEI", w.data_type, o);
        dt_option("DST", y.data_type, o);
        d.args = {x.id, w.id};
        if (has_bias) bias();
        d.args.push_back(y.id);
    } else if (roles.x < 0) { // backward data / transposed: Y, W -> X
        d.kernel = "conv_bwd_data";
        o += " -DCONV_BWD_DATA";
        dt_option("SRC", y.data_type, o);
        dt_option("WEI", w.data_type, o);
        dt_option("DST", x.data_type, o);
        d.args = {y.id, w.id};
        if (has_bias) bias();
        d.args.push_back(x.id);
    } else { // backward weights: X, Y -> W
        d.kernel = "conv_bwd_w";
        o += " -DCONV_BWD_W";
        dt_option("SRC", x.data_type, o);
        dt_option("DD", y.data_type, o);
        dt_option("DST", w.data_type, o);
        d.args = {x.id, y.id, w.id};
    }
    d.work = static_cast<size_t>(ir::nelems(op.outputs[0]));
    o += int_option("NELEMS", static_cast<int64_t>(d.work));
    out.push_back(d);
    return dnnl_success;
}

status_t build_softmax(const ir::op_t &op, std::vector<launch_desc_t> &out) {
    LLGA_RETURN_IF_ERROR(check_dtypes(op));
    const bool bwd = op.kind == dnnl_graph_op_softmax_backward
            || op.kind == dnnl_graph_op_log_softmax_backward;
    // Forward: src -> dst (+ stats). Backward: diff_dst, dst -> diff_src.
    const logical_tensor_t &src = op.inputs[0], &dst = op.outputs[0];
    const logical_tensor_t *t = bwd ? &op.inputs[1]
            : op.outputs.size() > 1 ? &op.outputs[1]
                                    : nullptr;
    const int r = std::max(src.ndims, 1);
    int64_t axis = 0;
    if (src.ndims > 0
            && !ir::normalize_axis(
                    op.get_s64(dnnl_graph_op_attr_axis, 1), src.ndims, axis))
        return unsupported(op, "bad axis");
    const std::vector<int64_t> dims = dims_1(src), ss = strides_1(src),
                               ds = strides_1(dst);
    const std::vector<int64_t> ts = t ? strides_1(*t) : ss;
    std::vector<int64_t> od, oss, ods, ots;
    int64_t rows = 1;
    for (int i = 0; i < r; ++i) {
        if (i == axis) continue;
        od.push_back(dims[i]);
        oss.push_back(ss[i]);
        ods.push_back(ds[i]);
        ots.push_back(ts[i]);
        rows *= dims[i];
    }
    if (od.empty()) {
        od = {1};
        oss = ods = ots = {0};
    }
    launch_desc_t d;
    d.family = "softmax";
    d.kernel = bwd ? "softmax_bwd" : "softmax";
    std::string &o = d.options;
    if (op.kind == dnnl_graph_op_log_softmax
            || op.kind == dnnl_graph_op_log_softmax_backward)
        o += " -DLOG_SOFTMAX";
    if (bwd) o += " -DBACKWARD";
    if (!bwd && t) o += " -DWITH_STATS";
    if (!bwd && ops::iequals(op.get_str(dnnl_graph_op_attr_mode, "none"), "inf_as_zero"))
        o += " -DINF_AS_ZERO";
    dt_option("SRC", src.data_type, o);
    dt_option("DST", dst.data_type, o);
    if (t) {
        dt_option("T", t->data_type, o);
        o += list_option("T_OSTRIDES", ots);
        o += int_option("T_AXIS", ts[axis]);
    }
    o += int_option("OND", static_cast<int64_t>(od.size()));
    o += list_option("ODIMS", od);
    o += list_option("S_OSTRIDES", oss);
    o += list_option("D_OSTRIDES", ods);
    o += int_option("AXIS_LEN", dims[axis]);
    o += int_option("S_AXIS", ss[axis]);
    o += int_option("D_AXIS", ds[axis]);
    o += int_option("NROWS", rows);
    if (bwd)
        d.args = {src.id, t->id, dst.id};
    else if (t)
        d.args = {src.id, dst.id, t->id};
    else
        d.args = {src.id, dst.id};
    d.work = static_cast<size_t>(rows);
    out.push_back(d);
    return dnnl_success;
}

} // namespace ocl
} // namespace llga
