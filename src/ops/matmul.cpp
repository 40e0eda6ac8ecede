// SPDX-License-Identifier: Apache-2.0
// ops/matmul.cpp — MatMul: schema (T in, T or f32 out), shape inference with
// rank-1 promotion, transposes, numpy batch broadcasting and one-way bias
// broadcasting, and the reference kernel (double accumulation).
#include <algorithm>
#include <vector>

#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ops/families.hpp"
#include "ops/infer_util.hpp"
#include "ops/ref_util.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace ops {

namespace {

// dst may be f32 when src is bf16/f16 (mixed-precision output); otherwise it
// must match src.
status_t check_matmul(const ir::op_t &op) {
    const data_type_t src = op.inputs[0].data_type;
    const data_type_t dst = op.outputs[0].data_type;
    if (dst != src && dst != dnnl_f32)
        return fail(dnnl_invalid_graph_op,
                "%s: output 0 'dst' has data type %s; expected %s%s",
                describe(op).c_str(), ir::dtype_name(dst), ir::dtype_name(src),
                src == dnnl_f32 ? "" : " (the src type) or f32");
    for (size_t k = 0; k < 2; ++k)
        if (op.inputs[k].ndims == 0)
            return fail(dnnl_invalid_graph_op,
                    "%s: input %zu is a scalar; MatMul needs rank >= 1",
                    describe(op).c_str(), k);
    return dnnl_success;
}

// One matmul operand seen as [batch..., rows, cols] after the transpose flag
// and rank-1 promotion; a promoted axis has extent 1 and stride 0.
struct operand_t {
    dims_t dims, strides; // rank >= 2
    bool promoted = false; // was rank 1
};

operand_t make_operand(const dims_t &d, const dims_t &s, bool transpose,
        bool is_weights) {
    operand_t r;
    if (d.size() == 1) {
        r.promoted = true;
        const dim_t st = s.empty() ? 1 : s[0];
        // src [K] -> [1, K]; weights [K] -> [K, 1]. Transpose is ignored.
        r.dims = is_weights ? dims_t {d[0], 1} : dims_t {1, d[0]};
        r.strides = is_weights ? dims_t {st, 0} : dims_t {0, st};
        return r;
    }
    r.dims = d;
    r.strides = s.empty() ? dims_t(d.size(), 0) : s;
    if (transpose) {
        const size_t n = d.size();
        std::swap(r.dims[n - 1], r.dims[n - 2]);
        std::swap(r.strides[n - 1], r.strides[n - 2]);
    }
    return r;
}

// Output dims (with rank-1 axes squeezed) and the broadcast batch dims.
status_t matmul_dims(const ir::op_t &op, const operand_t &a,
        const operand_t &b, dims_t &batch, dims_t &dst) {
    const dim_t ka = a.dims.back(), kb = b.dims[b.dims.size() - 2];
    if (ka != kb)
        return fail(dnnl_invalid_shape,
                "%s: reduction dims differ: src gives K=%lld, weights give "
                "K=%lld (after transpose_a/transpose_b)",
                describe(op).c_str(), static_cast<long long>(ka),
                static_cast<long long>(kb));
    const dims_t ab(a.dims.begin(), a.dims.end() - 2);
    const dims_t bb(b.dims.begin(), b.dims.end() - 2);
    if (!ir::broadcast_shapes(ab, bb, batch))
        return fail(dnnl_invalid_shape,
                "%s: batch dims %s and %s cannot be broadcast together",
                describe(op).c_str(), ir::dims_to_string(ab).c_str(),
                ir::dims_to_string(bb).c_str());
    dst = batch;
    if (!a.promoted) dst.push_back(a.dims[a.dims.size() - 2]);
    if (!b.promoted) dst.push_back(b.dims.back());
    return dnnl_success;
}

status_t infer_matmul(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_rank(op, 0, 1, DNNL_MAX_NDIMS));
    LLGA_RETURN_IF_ERROR(require_rank(op, 1, 1, DNNL_MAX_NDIMS));
    const operand_t a = make_operand(ir::dims_of(op.inputs[0]), {},
            op.get_bool(dnnl_graph_op_attr_transpose_a), false);
    const operand_t b = make_operand(ir::dims_of(op.inputs[1]), {},
            op.get_bool(dnnl_graph_op_attr_transpose_b), true);
    dims_t batch, dst;
    LLGA_RETURN_IF_ERROR(matmul_dims(op, a, b, batch, dst));
    if (op.inputs.size() > 2) {
        LLGA_RETURN_IF_ERROR(require_shape(op, 2));
        const dims_t bias = ir::dims_of(op.inputs[2]);
        if (!ir::broadcastable_to(bias, dst))
            return fail(dnnl_invalid_shape,
                    "%s: input 2 'bias' of shape %s cannot be broadcast to "
                    "the output shape %s",
                    describe(op).c_str(), ir::dims_to_string(bias).c_str(),
                    ir::dims_to_string(dst).c_str());
    }
    return set_output(op, 0, dst);
}

status_t ref_matmul(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    view_t src = in_view(op, in, 0), wei = in_view(op, in, 1);
    // f32 operands may be read as bf16/f16/tf32 when the graph permits.
    src.fpmath = wei.fpmath = op.fpmath;
    const view_t dst = out_view(op, out, 0);
    const bool has_bias = op.inputs.size() > 2;
    const view_t bias = has_bias ? in_view(op, in, 2) : view_t();
    const operand_t a = make_operand(src.dims, src.strides,
            op.get_bool(dnnl_graph_op_attr_transpose_a), false);
    const operand_t b = make_operand(wei.dims, wei.strides,
            op.get_bool(dnnl_graph_op_attr_transpose_b), true);
    dims_t batch, dst_dims;
    LLGA_RETURN_IF_ERROR(matmul_dims(op, a, b, batch, dst_dims));

    const int nb = static_cast<int>(batch.size());
    // Batch strides of each operand aligned to the broadcast batch; size-1
    // (broadcast) and missing leading dims get stride 0.
    auto batch_strides = [&](const operand_t &o) {
        dims_t bs(nb, 0);
        const int ob = static_cast<int>(o.dims.size()) - 2;
        for (int i = 0; i < ob; ++i)
            if (o.dims[i] != 1) bs[nb - ob + i] = o.strides[i];
        return bs;
    };
    const dims_t as_ = batch_strides(a), bbs = batch_strides(b);
    const int ar = static_cast<int>(a.dims.size());
    const int br = static_cast<int>(b.dims.size());
    const dim_t M = a.dims[ar - 2], K = a.dims[ar - 1], N = b.dims[br - 1];
    const dim_t sam = a.strides[ar - 2], sak = a.strides[ar - 1];
    const dim_t sbk = b.strides[br - 2], sbn = b.strides[br - 1];
    const int64_t nbatch = ir::product(batch);
    // Columns of B converted to double per pass: the whole of N when K is
    // small, fewer columns for long K so the panel stays near 8 MiB.
    const dim_t nc = std::max<dim_t>(1, std::min<dim_t>(N, (dim_t(1) << 20) / std::max<dim_t>(K, 1)));
    std::vector<double> bpanel(static_cast<size_t>(K * nc));

    // Each dst element is sum_k a[m,k] * b[k,n] accumulated in double in
    // increasing k — the plain definition. The loops are arranged so the
    // innermost one runs over n (independent sums, which vectorise without
    // reordering any of them): B is converted once per panel, A once per
    // row and panel, instead of a dtype dispatch per multiply.
    for (int64_t bi = 0; bi < nbatch; ++bi) {
        int64_t bidx[DNNL_MAX_NDIMS] = {0};
        ir::unravel(bi, batch, bidx);
        int64_t abase = 0, bbase = 0;
        for (int i = 0; i < nb; ++i) {
            abase += bidx[i] * as_[i];
            bbase += bidx[i] * bbs[i];
        }
        for (dim_t n0 = 0; n0 < N; n0 += nc) {
            const dim_t nn = std::min(nc, N - n0);
            parallel_for(K, std::max<int64_t>(1, 4096 / std::max<dim_t>(nn, 1)),
                    [&](int64_t lo, int64_t hi) {
                        for (int64_t k = lo; k < hi; ++k)
                            wei.load_run(bbase + k * sbk + n0 * sbn, sbn, nn,
                                    &bpanel[static_cast<size_t>(k * nn)]);
                    });
            parallel_for(M, 1, [&](int64_t lo, int64_t hi) {
                std::vector<double> arow(static_cast<size_t>(K));
                std::vector<double> acc(static_cast<size_t>(nn));
                int64_t didx[DNNL_MAX_NDIMS];
                for (int i = 0; i < nb; ++i)
                    didx[i] = bidx[i];
                for (int64_t m = lo; m < hi; ++m) {
                    src.load_run(abase + m * sam, sak, K, arow.data());
                    std::fill(acc.begin(), acc.end(), 0.0);
                    for (dim_t k = 0; k < K; ++k) {
                        const double av = arow[static_cast<size_t>(k)];
                        const double *brow = &bpanel[static_cast<size_t>(k * nn)];
                        double *ap = acc.data();
                        for (dim_t j = 0; j < nn; ++j)
                            ap[j] += av * brow[j];
                    }
                    for (dim_t j = 0; j < nn; ++j) {
                        int r = nb;
                        if (!a.promoted) didx[r++] = m;
                        if (!b.promoted) didx[r++] = n0 + j;
                        double v = acc[static_cast<size_t>(j)];
                        if (has_bias)
                            v += bias.at_offset(ir::broadcast_offset(
                                    didx, r, bias.dims, bias.strides));
                        dst.set(didx, v);
                    }
                }
            });
        }
    }
    return dnnl_success;
}

} // namespace

void define_matmul(op_kind_t kind, op_def_t &def) {
    if (kind != dnnl_graph_op_matmul) return;
    def.schema.num_inputs({2, 3})
            .num_outputs({1})
            .input("src", "T")
            .input("weights", "T")
            .input("bias", "T")
            .output("dst", "T1")
            .types("T", k_fp)
            .types("T1", k_fp)
            .attr(dnnl_graph_op_attr_transpose_a,
                    ir::attr_value_t::make_bool(false))
            .attr(dnnl_graph_op_attr_transpose_b,
                    ir::attr_value_t::make_bool(false))
            .constraint(check_matmul);
    def.infer = infer_matmul;
    def.ref = ref_matmul;
}

} // namespace ops
} // namespace llga
