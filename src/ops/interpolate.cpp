// SPDX-License-Identifier: Apache-2.0
// ops/interpolate.cpp — Interpolate and InterpolateBackward: schemas (exactly
// one of sizes/scales), shape inference, and reference kernels. Linear modes
// ("linear", "bilinear", "trilinear" behave the same) are separable over all
// spatial dims; the backward op is the exact adjoint (scatter with the same
// weights). Coordinates are computed in double; sums accumulate in double.
#include <algorithm>
#include <cmath>

#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ops/families.hpp"
#include "ops/infer_util.hpp"
#include "ops/interp_geom.hpp"
#include "ops/ref_util.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace ops {

namespace {

bool has_values(const ir::op_t &op, attr_id_t a) {
    const ir::attr_value_t *v = op.find_attr(a);
    return v && (!v->i.empty() || !v->f.empty());
}

status_t check_interpolate(const ir::op_t &op) {
    const bool sz = has_values(op, dnnl_graph_op_attr_sizes);
    const bool sc = has_values(op, dnnl_graph_op_attr_scales);
    if (sz == sc)
        return fail(dnnl_invalid_graph_op,
                "%s: exactly one of attributes 'sizes' and 'scales' must be "
                "set and non-empty (%s)",
                describe(op).c_str(), sz ? "both are" : "neither is");
    const size_t n = sz ? op.get_s64s(dnnl_graph_op_attr_sizes).size()
                        : op.get_f32s(dnnl_graph_op_attr_scales).size();
    for (int64_t v : op.get_s64s(dnnl_graph_op_attr_sizes))
        if (v < 1)
            return fail(dnnl_invalid_graph_op,
                    "%s: attribute 'sizes' has entry %lld, expected >= 1",
                    describe(op).c_str(), static_cast<long long>(v));
    for (float v : op.get_f32s(dnnl_graph_op_attr_scales))
        if (!(v > 0.f))
            return fail(dnnl_invalid_graph_op,
                    "%s: attribute 'scales' has entry %g, expected > 0",
                    describe(op).c_str(), static_cast<double>(v));
    const int r = op.inputs[0].ndims;
    if (r >= 0 && (r < 3 || static_cast<int>(n) != r - 2))
        return fail(dnnl_invalid_graph_op,
                "%s: src has rank %d; attribute '%s' needs rank-2 = %d "
                "entries, has %zu",
                describe(op).c_str(), r, sz ? "sizes" : "scales", r - 2, n);
    return dnnl_success;
}

// Forward output shape for src dims `x`.
status_t interp_out_dims(const ir::op_t &op, const dims_t &x, dims_t &y) {
    const bool cl = is_channel_last(op);
    if (x.size() < 3)
        return fail(dnnl_invalid_shape,
                "%s: src has rank %zu, expected >= 3 (N, C, spatial)",
                describe(op).c_str(), x.size());
    const size_t nsp = x.size() - 2;
    dims_t sp = spatial_dims(x, cl);
    const std::vector<int64_t> sizes = op.get_s64s(dnnl_graph_op_attr_sizes);
    const std::vector<float> scales = op.get_f32s(dnnl_graph_op_attr_scales);
    const size_t n = sizes.empty() ? scales.size() : sizes.size();
    if (n != nsp)
        return fail(dnnl_invalid_shape,
                "%s: src has %zu spatial dims but '%s' has %zu entries",
                describe(op).c_str(), nsp,
                sizes.empty() ? "scales" : "sizes", n);
    for (size_t i = 0; i < nsp; ++i)
        // int64 * float in float arithmetic, truncated (as the opset does).
        sp[i] = sizes.empty() ? static_cast<dim_t>(
                        static_cast<float>(sp[i]) * scales[i])
                              : sizes[i];
    for (dim_t v : sp)
        if (v < 1)
            return fail(dnnl_invalid_shape,
                    "%s: output spatial size %lld is empty",
                    describe(op).c_str(), static_cast<long long>(v));
    y = make_data_dims(x[0], channels(x, cl), sp, cl);
    return dnnl_success;
}

status_t infer_interpolate(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_shape(op, 0));
    dims_t y;
    LLGA_RETURN_IF_ERROR(interp_out_dims(op, ir::dims_of(op.inputs[0]), y));
    if (op.kind == dnnl_graph_op_interpolate) return set_output(op, 0, y);
    LLGA_RETURN_IF_ERROR(require_shape(op, 1));
    const dims_t dy = ir::dims_of(op.inputs[1]);
    if (dy != y)
        return fail(dnnl_invalid_shape,
                "%s: diff_dst has shape %s but src and sizes/scales give %s",
                describe(op).c_str(), ir::dims_to_string(dy).c_str(),
                ir::dims_to_string(y).c_str());
    return set_output(op, 0, ir::dims_of(op.inputs[0]));
}

interp_taps_t make_taps(dim_t in, dim_t out, bool nearest, bool align_corners) {
    interp_taps_t t;
    for (dim_t o = 0; o < out; ++o) {
        double s;
        if (align_corners)
            s = out == 1 ? 0.0
                         : static_cast<double>(o) * static_cast<double>(in - 1)
                            / static_cast<double>(out - 1);
        else
            s = (static_cast<double>(o) + 0.5) * static_cast<double>(in)
                            / static_cast<double>(out)
                    - 0.5;
        dim_t a, b;
        double wa, wb;
        if (nearest) {
            a = b = std::min<dim_t>(
                    std::max<dim_t>(static_cast<dim_t>(std::round(s)), 0),
                    in - 1);
            wa = 1;
            wb = 0;
        } else {
            a = std::min<dim_t>(std::max<dim_t>(static_cast<dim_t>(s), 0), in - 1);
            b = s < 0 ? 0
                      : std::min<dim_t>(static_cast<dim_t>(std::ceil(s)), in - 1);
            wb = std::fabs(s - static_cast<double>(a));
            wa = 1 - wb;
        }
        t.i0.push_back(a);
        t.i1.push_back(b);
        t.w0.push_back(wa);
        t.w1.push_back(wb);
    }
    return t;
}

} // namespace

interp_geom_t interp_geometry(const ir::op_t &op, const dims_t &x, const dims_t &y) {
    interp_geom_t g;
    g.cl = is_channel_last(op);
    g.nsp = static_cast<int>(x.size()) - 2;
    g.n = x[0];
    g.c = channels(x, g.cl);
    g.xsp = spatial_dims(x, g.cl);
    g.ysp = spatial_dims(y, g.cl);
    const bool nearest
            = iequals(op.get_str(dnnl_graph_op_attr_mode), "nearest");
    const bool ac = iequals(
            op.get_str(dnnl_graph_op_attr_coordinate_transformation_mode),
            "align_corners");
    for (int i = 0; i < g.nsp; ++i)
        g.taps.push_back(make_taps(g.xsp[i], g.ysp[i], nearest, ac));
    return g;
}

namespace {

int64_t offset_of(const view_t &v, const interp_geom_t &g, dim_t n, dim_t c,
        const int64_t *sp) {
    int64_t off = n * v.strides[0] + c * v.strides[g.cl ? g.nsp + 1 : 1];
    for (int i = 0; i < g.nsp; ++i)
        off += sp[i] * v.strides[(g.cl ? 1 : 2) + i];
    return off;
}

// Calls f(source index, weight) for each of the 2^nsp corners of output
// position o (corners with zero weight included; harmless).
template <typename F>
void for_corners(const interp_geom_t &g, const int64_t *o, F f) {
    int64_t p[DNNL_MAX_NDIMS];
    for (int mask = 0; mask < (1 << g.nsp); ++mask) {
        double w = 1;
        for (int i = 0; i < g.nsp; ++i) {
            const interp_taps_t &t = g.taps[i];
            const bool hi = (mask >> i) & 1;
            p[i] = hi ? t.i1[o[i]] : t.i0[o[i]];
            w *= hi ? t.w1[o[i]] : t.w0[o[i]];
        }
        f(p, w);
    }
}

status_t ref_interpolate(const ir::op_t &op,
        const std::vector<const void *> &in, const std::vector<void *> &out) {
    const view_t x = in_view(op, in, 0), y = out_view(op, out, 0);
    const interp_geom_t g = interp_geometry(op, x.dims, y.dims);
    const int64_t ysz = ir::product(g.ysp);
    parallel_for(g.n * g.c * ysz, 64, [&](int64_t lo, int64_t hi) {
        int64_t o[DNNL_MAX_NDIMS];
        for (int64_t t = lo; t < hi; ++t) {
            const dim_t c = (t / ysz) % g.c, n = t / (ysz * g.c);
            ir::unravel(t % ysz, g.ysp, o);
            double acc = 0;
            for_corners(g, o, [&](const int64_t *p, double w) {
                if (w != 0) acc += w * x.at_offset(offset_of(x, g, n, c, p));
            });
            y.set_offset(offset_of(y, g, n, c, o), acc);
        }
    });
    return dnnl_success;
}

// Adjoint: scatter each diff_dst value with the forward weights, one (n, c)
// plane per task into a double buffer.
status_t ref_interpolate_bwd(const ir::op_t &op,
        const std::vector<const void *> &in, const std::vector<void *> &out) {
    const view_t dy = in_view(op, in, 1), dx = out_view(op, out, 0);
    const interp_geom_t g = interp_geometry(op, dx.dims, dy.dims);
    const int64_t xsz = ir::product(g.xsp), ysz = ir::product(g.ysp);
    parallel_for(g.n * g.c, 1, [&](int64_t lo, int64_t hi) {
        std::vector<double> acc(static_cast<size_t>(xsz));
        int64_t o[DNNL_MAX_NDIMS], p[DNNL_MAX_NDIMS];
        for (int64_t t = lo; t < hi; ++t) {
            const dim_t c = t % g.c, n = t / g.c;
            std::fill(acc.begin(), acc.end(), 0.0);
            for (int64_t oi = 0; oi < ysz; ++oi) {
                ir::unravel(oi, g.ysp, o);
                const double v = dy.at_offset(offset_of(dy, g, n, c, o));
                for_corners(g, o, [&](const int64_t *q, double w) {
                    int64_t lin = 0;
                    for (int i = 0; i < g.nsp; ++i)
                        lin = lin * g.xsp[i] + q[i];
                    acc[lin] += w * v;
                });
            }
            for (int64_t pi = 0; pi < xsz; ++pi) {
                ir::unravel(pi, g.xsp, p);
                dx.set_offset(offset_of(dx, g, n, c, p), acc[pi]);
            }
        }
    });
    return dnnl_success;
}

} // namespace

void define_interpolate(op_kind_t kind, op_def_t &def) {
    using av = ir::attr_value_t;
    op_schema_t &s = def.schema;
    if (kind == dnnl_graph_op_interpolate) {
        s.num_inputs({1, 2})
                .num_outputs({1})
                .input("src", "T1")
                .input("sizes", "T2")
                .output("dst", "T1");
        def.ref = ref_interpolate;
    } else if (kind == dnnl_graph_op_interpolate_backward) {
        s.num_inputs({2, 3})
                .num_outputs({1})
                .input("src", "T1")
                .input("diff_dst", "T1")
                .input("sizes", "T2")
                .output("diff_src", "T1");
        def.ref = ref_interpolate_bwd;
        def.traits.is_backward = true;
    } else {
        return;
    }
    s.types("T1", k_fp)
            .types("T2", dt_bit(dnnl_s32))
            .attr(dnnl_graph_op_attr_mode, true)
            .candidates(dnnl_graph_op_attr_mode,
                    {"nearest", "linear", "bilinear", "trilinear"})
            .attr(dnnl_graph_op_attr_sizes, false)
            .attr(dnnl_graph_op_attr_scales, false)
            .attr(dnnl_graph_op_attr_coordinate_transformation_mode,
                    av::make_str("half_pixel"))
            .candidates(dnnl_graph_op_attr_coordinate_transformation_mode,
                    {"half_pixel", "align_corners"})
            .attr(dnnl_graph_op_attr_data_format, av::make_str("NXC"))
            .candidates(dnnl_graph_op_attr_data_format, {"NXC", "NCX"})
            .constraint(check_interpolate);
    def.infer = infer_interpolate;
}

} // namespace ops
} // namespace llga
