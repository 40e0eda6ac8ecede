// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels_binary.cpp — builders of the binary family
// (kernels/binary.cl): numpy-broadcast binary ops, Select, BiasAdd, PReLU
// and PReLUBackward.
#include "backends/ocl/kernels_family.hpp"

#include "ir/shape.hpp"
#include "ops/prelu_slope.hpp"

namespace llga {
namespace ocl {

namespace {
const char *macro_of(op_kind_t k) {
    switch (k) {
        case dnnl_graph_op_add:
        case dnnl_graph_op_bias_add: return "OP_ADD";
        case dnnl_graph_op_subtract: return "OP_SUB";
        case dnnl_graph_op_multiply: return "OP_MUL";
        case dnnl_graph_op_divide: return "OP_DIV";
        case dnnl_graph_op_maximum: return "OP_MAX";
        case dnnl_graph_op_minimum: return "OP_MIN";
        case dnnl_graph_op_squared_difference: return "OP_SQDIFF";
        case dnnl_graph_op_greater_equal: return "OP_GE";
        case dnnl_graph_op_select: return "OP_SELECT";
        case dnnl_graph_op_prelu: return "OP_PRELU";
        default: return nullptr;
    }
}
} // namespace

status_t build_binary(const ir::op_t &op, std::vector<launch_desc_t> &out) {
    LLGA_RETURN_IF_ERROR(check_dtypes(op, op.kind != dnnl_graph_op_select
                    && op.kind != dnnl_graph_op_prelu
                    && op.kind != dnnl_graph_op_bias_add));
    const char *m = macro_of(op.kind);
    if (!m) return unsupported(op, "not a binary op");
    const logical_tensor_t &dst = op.outputs[0];
    const std::vector<int64_t> dims = dims_1(dst);
    launch_desc_t d;
    d.family = "binary";
    std::string &o = d.options;
    o += std::string(" -D") + m;
    o += int_option("ND", static_cast<int64_t>(dims.size()));
    o += list_option("DIMS", dims);
    o += list_option("DST_STRIDES", strides_1(dst));
    dt_option("DST", dst.data_type, o);
    size_t a = 0;
    if (op.kind == dnnl_graph_op_select) {
        d.kernel = "select_op";
        dt_option("C", op.inputs[0].data_type, o);
        o += list_option("C_STRIDES", bcast_strides(op.inputs[0], dims));
        d.args.push_back(op.inputs[0].id);
        a = 1;
    } else {
        d.kernel = "binary";
    }
    const logical_tensor_t &la = op.inputs[a], &lb = op.inputs[a + 1];
    dt_option("A", la.data_type, o);
    dt_option("B", lb.data_type, o);
    // Host scalars are passed by value.
    if (la.property == dnnl_graph_tensor_property_host_scalar) o += " -DA_SCALAR";
    if (lb.property == dnnl_graph_tensor_property_host_scalar) o += " -DB_SCALAR";
    o += list_option("A_STRIDES", bcast_strides(la, dims));
    if (op.kind == dnnl_graph_op_bias_add) {
        // The bias runs along the channel axis of data_format.
        const bool cl = op.get_str(dnnl_graph_op_attr_data_format, "NXC")
                != "NCX";
        const int nd = static_cast<int>(dims.size());
        const int axis = nd <= 1 ? 0 : (cl ? nd - 1 : 1);
        std::vector<int64_t> s(dims.size(), 0);
        s[axis] = lb.ndims > 0 ? lb.layout.strides[0] : 0;
        o += list_option("B_STRIDES", s);
    } else if (op.kind == dnnl_graph_op_prelu) {
        // The slope's broadcast onto src is the op's own rule.
        dims_t ad, as;
        if (!ops::prelu_slope_at_src_rank(op, ir::dims_of(la),
                    ir::dims_of(lb), ir::strides_of(lb), ad, as)
                || la.ndims < 1)
            return unsupported(op, "slope does not broadcast to src");
        std::vector<int64_t> s(dims.size(), 0);
        for (size_t i = 0; i < s.size() && i < ad.size(); ++i)
            s[i] = ad[i] == 1 ? 0 : as[i];
        o += list_option("B_STRIDES", s);
    } else {
        o += list_option("B_STRIDES", bcast_strides(lb, dims));
    }
    d.args.push_back(la.id);
    d.args.push_back(lb.id);
    d.args.push_back(dst.id);
    d.work = static_cast<size_t>(ir::nelems(dst));
    o += int_option("NELEMS", static_cast<int64_t>(d.work));
    out.push_back(d);
    return dnnl_success;
}

} // namespace ocl
} // namespace llga

namespace llga {
namespace ocl {

// PReLUBackward: diff_src per element, then diff_slope as a gather (one
// work-item per slope element over the src positions it broadcasts to).
status_t build_prelu_bwd(const ir::op_t &op, std::vector<launch_desc_t> &out) {
    LLGA_RETURN_IF_ERROR(check_dtypes(op));
    const logical_tensor_t &src = op.inputs[0], &slope = op.inputs[1],
                           &dd = op.inputs[2], &ds = op.outputs[0],
                           &dslope = op.outputs[1];
    if (src.ndims < 1) return unsupported(op, "rank-0 src");
    const dims_t sd = ir::dims_of(src);
    // The slope and diff_slope at src's rank (size 1 where broadcast).
    dims_t ad, as, od, os;
    if (!ops::prelu_slope_at_src_rank(op, sd, ir::dims_of(slope),
                ir::strides_of(slope), ad, as)
            || !ops::prelu_slope_at_src_rank(op, sd, ir::dims_of(dslope),
                    ir::strides_of(dslope), od, os)
            || ad != od)
        return unsupported(op, "slope does not broadcast to src");
    const std::vector<int64_t> dims = dims_1(src), ss = strides_1(src),
                               dds = strides_1(dd);
    std::string o = " -DPRELU_BWD";
    o += int_option("ND", static_cast<int64_t>(dims.size()));
    o += list_option("DIMS", dims);
    o += list_option("A_STRIDES", ss);
    o += list_option("DD_STRIDES", dds);
    o += list_option("DST_STRIDES", strides_1(ds));
    std::vector<int64_t> bs(dims.size(), 0);
    // Kept dims (the slope's) and broadcast dims, each with src, diff_dst
    // (and diff_slope) strides.
    std::vector<int64_t> kd, sk, ddk, dsk, bd, sb, ddb;
    int64_t klen = 1, blen = 1;
    for (size_t i = 0; i < dims.size(); ++i) {
        if (ad[i] != 1) {
            bs[i] = as[i];
            kd.push_back(dims[i]);
            sk.push_back(ss[i]);
            ddk.push_back(dds[i]);
            dsk.push_back(os[i]);
            klen *= dims[i];
        } else {
            bd.push_back(dims[i]);
            sb.push_back(ss[i]);
            ddb.push_back(dds[i]);
            blen *= dims[i];
        }
    }
    if (kd.empty()) kd = sk = ddk = dsk = {1};
    if (bd.empty()) bd = sb = ddb = {1};
    o += list_option("B_STRIDES", bs);
    o += int_option("KND", static_cast<int64_t>(kd.size()))
            + list_option("KDIMS", kd) + list_option("S_KSTRIDES", sk)
            + list_option("DD_KSTRIDES", ddk) + list_option("DS_KSTRIDES", dsk)
            + int_option("KLEN", klen);
    o += int_option("BND", static_cast<int64_t>(bd.size()))
            + list_option("BDIMS", bd) + list_option("S_BSTRIDES", sb)
            + list_option("DD_BSTRIDES", ddb) + int_option("BLEN", blen);
    const int64_t n = ir::nelems(src);
    o += int_option("NELEMS", n);
    dt_option("A", src.data_type, o);
    dt_option("B", slope.data_type, o);
    dt_option("DD", dd.data_type, o);
    dt_option("DST", ds.data_type, o);
    dt_option("DS", dslope.data_type, o);
    launch_desc_t d;
    d.family = "binary";
    d.kernel = "prelu_bwd_src";
    d.options = o;
    d.args = {src.id, slope.id, dd.id, ds.id};
    d.work = static_cast<size_t>(n);
    out.push_back(d);
    d.kernel = "prelu_bwd_slope";
    d.args = {src.id, dd.id, dslope.id};
    d.work = static_cast<size_t>(klen);
    out.push_back(d);
    return dnnl_success;
}

status_t build_gen_index(const ir::op_t &op, std::vector<launch_desc_t> &out) {
    LLGA_RETURN_IF_ERROR(check_dtypes(op));
    const logical_tensor_t &dst = op.outputs[0];
    int64_t axis = 0;
    if (!ir::normalize_axis(op.get_s64(dnnl_graph_op_attr_axis), dst.ndims, axis))
        return unsupported(op, "bad axis");
    const std::vector<int64_t> dims = dims_1(dst);
    launch_desc_t d;
    d.family = "binary";
    d.kernel = "gen_index";
    std::string &o = d.options;
    o += " -DGEN_INDEX" + int_option("AXIS", axis);
    o += int_option("ND", static_cast<int64_t>(dims.size()));
    o += list_option("DIMS", dims);
    o += list_option("DST_STRIDES", strides_1(dst));
    o += list_option("A_STRIDES", {0}) + list_option("B_STRIDES", {0});
    dt_option("DST", dst.data_type, o);
    d.args = {dst.id};
    d.work = static_cast<size_t>(ir::nelems(dst));
    o += int_option("NELEMS", static_cast<int64_t>(d.work));
    out.push_back(d);
    return dnnl_success;
}

} // namespace ocl
} // namespace llga
