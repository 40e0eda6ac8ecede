// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_chain.cpp — fused Convolution chains on the
// GEMM epilogue (see conv_chain.hpp). The conv dst is described to
// matmul_chain's mapping as an mm_geometry_t whose rows (or columns) span
// the output pixel axes; the image axis is its one batch dim. What the
// mapping accepts is then exactly what the MatMul epilogue computes; this
// file only adds what is conv-specific: the view per kernel mode, the
// dense channel-last copies of channel-first operands, and the per-image /
// per-pixel / per-channel steps the kernel uses to offset each task.
#include "backends/cpu/kernels/conv/conv_chain_p.hpp"
#include "backends/cpu/kernels/conv/conv_copy_p.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"

#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace cpu {
namespace conv {

namespace {

// Slot in (n, c, d, h, w) of channel-first dst axis i (spatial rank nsp).
int ncx_slot(int i, int nsp) {
    return i < 2 ? i : 2 + 3 - nsp + (i - 2);
}

// If operand `y` (numpy-aligned to the channel-first conv dst `dd`) varies
// along the channels with a stride other than 1, fills `o` with its
// extents and strides in (n, c, d, h, w) form, rewrites y's strides to
// those of its dense channel-last copy, and returns true.
bool plan_nxc_copy(logical_tensor_t &y, const dims_t &dd, int nsp,
        po_operand_t &o) {
    const dims_t od = ir::dims_of(y), os = ir::strides_of(y);
    const int r = static_cast<int>(dd.size());
    const int orank = static_cast<int>(od.size());
    if (orank > r) return false; // the mapping declines it
    for (int j = 0; j < orank; ++j) {
        const int slot = ncx_slot(j + r - orank, nsp);
        o.ext[slot] = od[j];
        o.str[slot] = os[j];
    }
    if (o.ext[1] <= 1 || o.str[1] == 1) return false;
    // Dense [n][d][h][w][c] over the operand's own extents.
    int64_t dense[5];
    dense[1] = 1;
    dense[4] = o.ext[1];
    dense[3] = dense[4] * o.ext[4];
    dense[2] = dense[3] * o.ext[3];
    dense[0] = dense[2] * o.ext[2];
    for (int j = 0; j < orank; ++j)
        y.layout.strides[j] = dense[ncx_slot(j + r - orank, nsp)];
    o.to_nxc = true;
    return true;
}

} // namespace

const char *operand_base(const po_operand_t &o, const void *input,
        scratch_frame_t &frame) {
    const char *p = static_cast<const char *>(input);
    if (!o.to_nxc) return p;
    char *copy = static_cast<char *>(frame.take(static_cast<size_t>(
            o.ext[0] * o.ext[1] * o.ext[2] * o.ext[3] * o.ext[4] * o.es)));
    to_dense_nxc(p, o.str, o.ext[0], o.ext[1], o.ext[2], o.ext[3], o.ext[4],
            static_cast<size_t>(o.es), copy);
    return copy;
}

bool find_conv_chain(const compiler::plan_t &plan, conv_chain_t &ch,
        std::string *why) {
    const int conv
            = matmul::single_op_of_kind(plan, dnnl_graph_op_convolution, why);
    if (conv < 0) return false;
    std::vector<bool> used;
    ch.steps.clear();
    if (!matmul::walk_chain(plan, static_cast<size_t>(conv), ch.steps, &used,
                why))
        return false;
    for (size_t i = 0; i < plan.ops.size(); ++i)
        if (!used[i]) {
            const char *n = ops::op_kind_name(plan.ops[i].kind);
            return decline(why, std::string(n ? n : "?")
                            + " is not on the Convolution's chain (a post-op "
                              "operand computed inside the partition)");
        }
    ch.conv = &plan.ops[static_cast<size_t>(conv)];
    ch.dst = ch.steps.empty() ? &ch.conv->outputs[0]
                              : &ch.steps.back().op->outputs[0];
    return true;
}

bool map_conv_epilogue(const compiler::plan_t &plan, const conv_chain_t &ch,
        gemm_view_t view, conv_desc_t &d, conv_epilogue_t &e,
        std::string *why, bool dequant_operands) {
    const ir::op_t &conv = *ch.conv;
    const dims_t dd = ir::dims_of(conv.outputs[0]);
    const int r = static_cast<int>(dd.size());
    const int c_axis = d.nxc ? r - 1 : 1, sp0 = d.nxc ? 1 : 2;
    std::vector<int> spatial;
    for (int k = 0; k < d.nsp; ++k)
        spatial.push_back(sp0 + k);
    matmul::mm_geometry_t g;
    g.dst_dims = dd;
    g.batch = {d.N};
    g.batch_axis = {0};
    const bool by_pixels = view == gemm_view_t::pixels_by_channels;
    if (by_pixels) {
        g.m_axes = spatial;
        g.m_axis = spatial.back();
        g.n_axis = c_axis;
    } else {
        g.m_axis = c_axis;
        g.n_axes = spatial;
        g.n_axis = spatial.back();
    }
    const bool conv_bias = conv.inputs.size() == 3;
    for (size_t i = 0; i < ch.steps.size(); ++i)
        if (ch.steps[i].op->kind == dnnl_graph_op_bias_add && !d.nxc
                && (i != 0 || conv_bias))
            return decline(why, "BiasAdd after a Convolution with a bias, "
                                "on NCX data (not fused)");

    // A local copy of the plan in which channel-first operands that must be
    // copied to channel-last carry their copy's strides; the mapping then
    // reads them as it will see them at run time.
    compiler::plan_t local = plan;
    std::vector<matmul::chain_step_t> steps = ch.steps;
    std::vector<po_operand_t> copies; // by partition input port
    copies.resize(plan.inputs.size());
    for (auto &st : steps) {
        const size_t idx = static_cast<size_t>(st.op - plan.ops.data());
        ir::op_t &op = local.ops[idx];
        st.op = &op;
        if (st.sigmoid)
            st.sigmoid = &local.ops[static_cast<size_t>(
                    st.sigmoid - plan.ops.data())];
        if (!by_pixels || d.nxc || st.sigmoid || op.inputs.size() != 2
                || op.kind == dnnl_graph_op_bias_add)
            continue;
        logical_tensor_t *y = &op.inputs[1 - st.slot];
        int dq = -1, tc = -1;
        const int port = matmul::operand_port(
                plan, y->id, dequant_operands, &dq, &tc);
        if (port < 0) continue; // the mapping declines it
        // A Dequantize's int8 input is what gets copied (and read).
        if (dq >= 0) y = &local.ops[static_cast<size_t>(dq)].inputs[0];
        po_operand_t o;
        if (plan_nxc_copy(*y, dd, d.nsp, o)) copies[port] = o;
    }
    matmul::fp_epilogue_t fe;
    if (!matmul::map_fp_epilogue(local, steps, g, conv_bias, fe, why,
                dequant_operands))
        return false;
    e.dequant_ops = fe.dequant_ops;
    if (fe.bias_port >= 0) {
        const dims_t bd = ir::dims_of(*fe.bias);
        if (bd.size() != 1 || bd[0] != d.OC())
            return decline(why, "BiasAdd: bias is not [OC]");
        d.has_bias = true;
        d.in_bias = fe.bias_port;
        d.bias_dt = fe.bias->data_type;
        d.bias_stride = ir::strides_of(*fe.bias)[0];
    }
    e.post = fe.post;
    e.operands.clear();
    size_t k = 0;
    for (const gemm::postop_t &p : e.post.ops) {
        if (!p.has_operand()) continue;
        po_operand_t o = copies[static_cast<size_t>(fe.operand_ports[k])];
        o.port = fe.operand_ports[k++];
        o.es = static_cast<int64_t>(gemm::po_dt_size(p.src_dt));
        const bool by_row = p.bcast == gemm::po_bcast_t::row
                || p.bcast == gemm::po_bcast_t::full;
        const bool by_col = p.bcast == gemm::po_bcast_t::col
                || p.bcast == gemm::po_bcast_t::full;
        o.n_step = p.bs.empty() ? 0 : p.bs[0];
        o.pix_step = by_pixels ? (by_row ? p.ld : 0) : (by_col ? 1 : 0);
        o.c_step = by_pixels ? (by_col ? 1 : 0) : (by_row ? p.ld : 0);
        e.operands.push_back(o);
    }
    return true;
}

} // namespace conv
} // namespace cpu
} // namespace llga
