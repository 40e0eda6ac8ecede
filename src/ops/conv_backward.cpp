// SPDX-License-Identifier: Apache-2.0
// ops/conv_backward.cpp — schemas of the four backward convolution ops and the
// two loop nests that conv.cpp's dispatcher uses besides "compute Y":
// "compute X" (ConvolutionBackwardData and, with IOX weights read as OIX,
// ConvTranspose) and "compute W" (both BackwardWeights ops). Shape inference
// and geometry are shared with the forward ops (conv.cpp). Kernels are
// gathers (each output element sums its own contributions) so they
// parallelise without atomics; accumulation is in double.
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ops/conv_util.hpp"
#include "ops/infer_util.hpp"
#include "ops/ref_util.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace ops {

// X[n, grp*XCg + xi, p] = bias[c] + sum_{yj, k, o: o*S + k*D - PB = p}
//                                   Y[n, grp*YCg + yj, o] * W[grp*YCg+yj, xi, k]
void conv_compute_x(const conv_geom_t &g, const view_t &y, const view_t &w,
        const view_t *bias, const view_t &x) {
    const int nsp = g.nsp;
    const dim_t ycg = g.cy / g.groups, xcg = g.cx / g.groups;
    const int64_t xsz = ir::product(g.xsp), ksz = ir::product(g.k);
    parallel_for(g.n * g.cx * xsz, 16, [&](int64_t lo, int64_t hi) {
        int64_t p[DNNL_MAX_NDIMS], k[DNNL_MAX_NDIMS], o[DNNL_MAX_NDIMS];
        for (int64_t t = lo; t < hi; ++t) {
            const dim_t c = (t / xsz) % g.cx, n = t / (xsz * g.cx);
            const dim_t grp = c / xcg, xi = c % xcg;
            ir::unravel(t % xsz, g.xsp, p);
            double acc = bias ? bias->at_offset(c * bias->strides[0]) : 0.0;
            for (int64_t ki = 0; ki < ksz; ++ki) {
                ir::unravel(ki, g.k, k);
                bool hit = true;
                for (int i = 0; i < nsp && hit; ++i) {
                    const dim_t num = p[i] + g.pb[i] - k[i] * g.d[i];
                    hit = num >= 0 && num % g.s[i] == 0
                            && num / g.s[i] < g.ysp[i];
                    o[i] = hit ? num / g.s[i] : 0;
                }
                if (!hit) continue;
                for (dim_t yj = 0; yj < ycg; ++yj) {
                    const dim_t cy = grp * ycg + yj;
                    acc += y.at_offset(data_offset(
                                   y.strides, g.channel_last, n, cy, o, nsp))
                            * w.at_offset(weights_offset(w.strides,
                                    g.weights_spatial_first, cy, xi, k, nsp));
                }
            }
            x.set_offset(data_offset(x.strides, g.channel_last, n, c, p, nsp),
                    acc);
        }
    });
}

// W[cy, xi, k] = sum_{n, o} Y[n, cy, o] * X[n, grp*XCg + xi, o*S + k*D - PB]
void conv_compute_w(const conv_geom_t &g, const view_t &x, const view_t &y,
        const view_t &w) {
    const int nsp = g.nsp;
    const dim_t ycg = g.cy / g.groups, xcg = g.cx / g.groups;
    const int64_t ysz = ir::product(g.ysp), ksz = ir::product(g.k);
    parallel_for(g.cy * xcg * ksz, 1, [&](int64_t lo, int64_t hi) {
        int64_t k[DNNL_MAX_NDIMS], o[DNNL_MAX_NDIMS], p[DNNL_MAX_NDIMS];
        for (int64_t t = lo; t < hi; ++t) {
            const dim_t cy = t / (xcg * ksz), xi = (t / ksz) % xcg;
            const dim_t cx = (cy / ycg) * xcg + xi;
            ir::unravel(t % ksz, g.k, k);
            double acc = 0;
            for (dim_t n = 0; n < g.n; ++n)
                for (int64_t oi = 0; oi < ysz; ++oi) {
                    ir::unravel(oi, g.ysp, o);
                    bool inside = true;
                    for (int i = 0; i < nsp && inside; ++i) {
                        p[i] = o[i] * g.s[i] + k[i] * g.d[i] - g.pb[i];
                        inside = p[i] >= 0 && p[i] < g.xsp[i];
                    }
                    if (!inside) continue;
                    acc += y.at_offset(data_offset(
                                   y.strides, g.channel_last, n, cy, o, nsp))
                            * x.at_offset(data_offset(x.strides,
                                    g.channel_last, n, cx, p, nsp));
                }
            w.set_offset(weights_offset(w.strides, g.weights_spatial_first, cy,
                                 xi, k, nsp),
                    acc);
        }
    });
}

void define_conv_backward(op_kind_t kind, op_def_t &def) {
    using av = ir::attr_value_t;
    const av zeros = av::make_s64s(std::vector<int64_t>(DNNL_MAX_NDIMS, 0));
    const dtype_set_t s32 = dt_bit(dnnl_s32);
    switch (kind) {
        case dnnl_graph_op_convolution_backward_data:
            def.schema.num_inputs({2, 3})
                    .num_outputs({1})
                    .input("diff_dst", "T1")
                    .input("weights", "T1")
                    .input("dst_shape", "T2")
                    .output("diff_src", "T1")
                    .types("T1", k_fp)
                    .types("T2", s32)
                    .attr(dnnl_graph_op_attr_output_padding, zeros)
                    .attr(dnnl_graph_op_attr_dst_shape, zeros);
            set_conv_common_schema(def, false);
            break;
        case dnnl_graph_op_convolution_backward_weights:
        case dnnl_graph_op_conv_transpose_backward_weights: {
            const bool t = kind == dnnl_graph_op_conv_transpose_backward_weights;
            def.schema.num_inputs({2, 3})
                    .num_outputs({1})
                    .input("src", "T1")
                    .input("diff_dst", "T1")
                    .input("weights_shape", "T2")
                    .output("diff_weights", "T1")
                    .types("T1", k_fp)
                    .types("T2", s32)
                    .attr(dnnl_graph_op_attr_weights_shape, zeros);
            set_conv_common_schema(def, t);
            break;
        }
        case dnnl_graph_op_conv_transpose_backward_data:
            def.schema.num_inputs({2})
                    .num_outputs({1})
                    .input("diff_dst", "T")
                    .input("weights", "T")
                    .output("diff_src", "T")
                    .types("T", k_fp);
            set_conv_common_schema(def, true);
            break;
        default: return;
    }
    def.traits.is_backward = true;
}

} // namespace ops
} // namespace llga
