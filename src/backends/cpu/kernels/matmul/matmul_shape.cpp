// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/matmul/matmul_shape.cpp — reads a MatMul op as a
// batched, strided GEMM (see matmul_shape.hpp). The decline texts are the ones
// the single-op MatMul kernel has always printed.
#include "backends/cpu/kernels/matmul/matmul_shape.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"

#include <algorithm>

#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"

namespace llga {
namespace cpu {
namespace matmul {

namespace {

// An operand as [batch..., rows, cols] after rank-1 promotion (a promoted
// axis has extent 1 and stride 0) and the transpose flag.
struct operand_t {
    dims_t dims, strides;
    bool promoted = false;
};

operand_t make_operand(const logical_tensor_t &lt, bool transpose,
        bool is_weights) {
    operand_t r;
    const dims_t d = ir::dims_of(lt), s = ir::strides_of(lt);
    if (d.size() == 1) {
        r.promoted = true;
        r.dims = is_weights ? dims_t {d[0], 1} : dims_t {1, d[0]};
        r.strides = is_weights ? dims_t {s[0], 0} : dims_t {0, s[0]};
        return r;
    }
    r.dims = d;
    r.strides = s;
    if (transpose) {
        const size_t n = d.size();
        std::swap(r.dims[n - 1], r.dims[n - 2]);
        std::swap(r.strides[n - 1], r.strides[n - 2]);
    }
    return r;
}

} // namespace

bool tensor_usable(const logical_tensor_t &lt, std::string *why) {
    if (!ir::strides_known(lt) || !ir::shape_known(lt))
        return decline(why, "MatMul: tensor " + std::to_string(lt.id)
                        + " has no concrete strided layout");
    if (ir::nelems(lt) == 0)
        return decline(why, "MatMul: tensor " + std::to_string(lt.id)
                        + " is empty");
    if (lt.ndims == 0)
        return decline(why, "MatMul: tensor " + std::to_string(lt.id)
                        + " is a scalar");
    return true;
}

bool read_geometry(const ir::op_t &mm, const logical_tensor_t &a_lt,
        const logical_tensor_t &b_lt, const logical_tensor_t &dst,
        mm_geometry_t &g, std::string *why) {
    const operand_t a = make_operand(a_lt,
            mm.get_bool(dnnl_graph_op_attr_transpose_a), false);
    const operand_t b = make_operand(b_lt,
            mm.get_bool(dnnl_graph_op_attr_transpose_b), true);
    const int ar = static_cast<int>(a.dims.size());
    const int br = static_cast<int>(b.dims.size());
    g.M = a.dims[ar - 2];
    g.K = a.dims[ar - 1];
    g.N = b.dims[br - 1];
    if (b.dims[br - 2] != g.K) return decline(why, "MatMul: K mismatch");
    g.sam = a.strides[ar - 2];
    g.sak = a.strides[ar - 1];
    g.sbk = b.strides[br - 2];
    g.sbn = b.strides[br - 1];

    const dims_t ab(a.dims.begin(), a.dims.end() - 2);
    const dims_t bb(b.dims.begin(), b.dims.end() - 2);
    dims_t batch;
    if (!ir::broadcast_shapes(ab, bb, batch))
        return decline(why, "MatMul: batch dims do not broadcast");
    const int nb = static_cast<int>(batch.size());
    auto batch_strides = [&](const operand_t &o) {
        dims_t bs(nb, 0);
        const int ob = static_cast<int>(o.dims.size()) - 2;
        for (int i = 0; i < ob; ++i)
            if (o.dims[i] != 1) bs[nb - ob + i] = o.strides[i];
        return bs;
    };
    const dims_t abs_ = batch_strides(a), bbs = batch_strides(b);

    // dst is [batch..., M (unless src was rank 1), N (unless weights were)].
    const dims_t dd = ir::dims_of(dst);
    const dims_t ds = ir::strides_of(dst);
    dims_t expect = batch;
    if (!a.promoted) expect.push_back(g.M);
    if (!b.promoted) expect.push_back(g.N);
    if (dd != expect) return decline(why, "MatMul: dst shape does not match");
    g.dst_dims = dd;
    const int dr = static_cast<int>(dd.size());
    g.sdm = a.promoted ? 0 : ds[nb];
    g.m_axis = a.promoted ? -1 : nb;
    g.n_axis = b.promoted ? -1 : dr - 1;
    if (!b.promoted && g.N > 1 && ds[dr - 1] != 1)
        return decline(why, "MatMul: dst columns are not contiguous");

    // Batch dims of extent 1 contribute nothing.
    for (int i = 0; i < nb; ++i) {
        if (batch[i] == 1) continue;
        g.batch.push_back(batch[i]);
        g.a_bs.push_back(abs_[i]);
        g.b_bs.push_back(bbs[i]);
        g.d_bs.push_back(ds[i]);
        g.batch_axis.push_back(i);
    }
    return true;
}

bool bias_per_column(const logical_tensor_t &bl, const mm_geometry_t &g,
        int64_t *stride, std::string *why) {
    const dims_t bd = ir::dims_of(bl), bs = ir::strides_of(bl);
    for (size_t i = 0; i + 1 < bd.size(); ++i)
        if (bd[i] != 1)
            return decline(why, "MatMul: bias " + ir::dims_to_string(bd)
                            + " is not one value per output column");
    const int64_t last = bd.empty() ? 1 : bd.back();
    if (last != 1 && (g.n_axis < 0 || last != g.N))
        return decline(why, "MatMul: bias " + ir::dims_to_string(bd)
                        + " is not one value per output column");
    *stride = last == 1 ? 0 : bs.back();
    return true;
}

} // namespace matmul
} // namespace cpu
} // namespace llga
