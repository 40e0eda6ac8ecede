// SPDX-License-Identifier: Apache-2.0
// ops/pool.cpp — pooling family: AvgPool, AvgPoolBackward, MaxPool,
// MaxPoolBackward. Schemas, one geometry routine (window arithmetic, auto_pad,
// floor/ceil output size) shared by shape inference and the reference
// kernels, and the kernels themselves (double accumulation). Spatial
// attribute helpers come from conv_util.hpp.
#include <algorithm>
#include <cfloat>

#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ops/conv_util.hpp"
#include "ops/families.hpp"
#include "ops/infer_util.hpp"
#include "ops/pool_geom.hpp"
#include "ops/ref_util.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace ops {

namespace {

bool is_avg(op_kind_t kind) {
    return kind == dnnl_graph_op_avg_pool
            || kind == dnnl_graph_op_avg_pool_backward;
}
bool is_forward(op_kind_t kind) {
    return kind == dnnl_graph_op_avg_pool || kind == dnnl_graph_op_max_pool;
}

} // namespace

// Validates x (known) and y (empty = derive it) against the attributes.
// Backward ops have no rounding_type: a y matching either the floor or the
// ceil output size is accepted (the forward op decided).
status_t pool_geometry(const ir::op_t &op, const dims_t &x, const dims_t &y,
        status_t err, pool_geom_t &g) {
    const std::string who = describe(op);
    if (x.size() < 3)
        return fail(err, "%s: %s has rank %zu, expected >= 3 (N, C, spatial)",
                who.c_str(), is_forward(op.kind) ? "src" : "diff_src",
                x.size());
    if (!y.empty() && y.size() != x.size())
        return fail(err, "%s: diff_dst has rank %zu, expected %zu",
                who.c_str(), y.size(), x.size());
    g.nsp = static_cast<int>(x.size()) - 2;
    g.channel_last = is_channel_last(op);
    g.n = x[0];
    g.c = channels(x, g.channel_last);
    g.xsp = spatial_dims(x, g.channel_last);
    const int nsp = g.nsp;
    LLGA_RETURN_IF_ERROR(
            spatial_attr(op, dnnl_graph_op_attr_kernel, nsp, 0, err, g.k));
    LLGA_RETURN_IF_ERROR(
            spatial_attr(op, dnnl_graph_op_attr_strides, nsp, 1, err, g.s));
    LLGA_RETURN_IF_ERROR(
            spatial_attr(op, dnnl_graph_op_attr_dilations, nsp, 1, err, g.d));
    LLGA_RETURN_IF_ERROR(spatial_attr(
            op, dnnl_graph_op_attr_pads_begin, nsp, 0, err, g.pb));
    LLGA_RETURN_IF_ERROR(
            spatial_attr(op, dnnl_graph_op_attr_pads_end, nsp, 0, err, g.pe));
    for (int i = 0; i < nsp; ++i)
        if (g.k[i] < 1 || g.s[i] < 1 || g.d[i] < 1 || g.pb[i] < 0
                || g.pe[i] < 0)
            return fail(err,
                    "%s: kernel, strides, dilations must be >= 1 and pads "
                    ">= 0",
                    who.c_str());
    auto_pads(op.get_str(dnnl_graph_op_attr_auto_pad, "None"), g.xsp, g.k, g.s,
            g.d, g.pb, g.pe);
    const bool ceil_mode = iequals(
            op.get_str(dnnl_graph_op_attr_rounding_type, "floor"), "ceil");
    const dims_t ysp_given
            = y.empty() ? dims_t() : spatial_dims(y, g.channel_last);
    g.ysp.assign(nsp, 0);
    for (int i = 0; i < nsp; ++i) {
        const dim_t fl = conv_out_size(
                g.xsp[i], g.k[i], g.s[i], g.d[i], g.pb[i], g.pe[i], false);
        const dim_t ce = conv_out_size(
                g.xsp[i], g.k[i], g.s[i], g.d[i], g.pb[i], g.pe[i], true);
        g.ysp[i] = ceil_mode ? ce : fl;
        if (!ysp_given.empty()) {
            const dim_t got = ysp_given[i];
            const bool ok = is_forward(op.kind) ? got == g.ysp[i]
                                                : (got == fl || got == ce);
            if (!ok)
                return fail(err,
                        "%s: diff_dst spatial dim %d is %lld but the src "
                        "size and attributes give %lld (floor) / %lld (ceil)",
                        who.c_str(), i, static_cast<long long>(got),
                        static_cast<long long>(fl), static_cast<long long>(ce));
            g.ysp[i] = got;
        }
        if (g.ysp[i] < 1)
            return fail(err,
                    "%s: spatial dim %d: input %lld with kernel %lld, "
                    "dilation %lld and pads %lld/%lld gives no output",
                    who.c_str(), i, static_cast<long long>(g.xsp[i]),
                    static_cast<long long>(g.k[i]),
                    static_cast<long long>(g.d[i]),
                    static_cast<long long>(g.pb[i]),
                    static_cast<long long>(g.pe[i]));
    }
    if (!y.empty()
            && (y[0] != g.n || channels(y, g.channel_last) != g.c))
        return fail(err, "%s: diff_dst %s and diff_src/src %s differ in N or C",
                who.c_str(), ir::dims_to_string(y).c_str(),
                ir::dims_to_string(x).c_str());
    return dnnl_success;
}

namespace {

// Source dims for the x side: input 0, or for AvgPoolBackward the src_shape
// attribute (if non-zero) and then, if allowed, the declared output.
dims_t pool_x_dims(const ir::op_t &op, bool use_declared) {
    if (op.kind != dnnl_graph_op_avg_pool_backward)
        return ir::shape_known(op.inputs[0]) ? ir::dims_of(op.inputs[0])
                                             : dims_t();
    const std::vector<int64_t> v = op.get_s64s(dnnl_graph_op_attr_src_shape);
    for (int64_t e : v)
        if (e != 0) return dims_t(v.begin(), v.end());
    if (use_declared && ir::shape_known(op.outputs[0]))
        return ir::dims_of(op.outputs[0]);
    return {};
}

dims_t pool_y_dims(const ir::op_t &op) {
    const int k = op.kind == dnnl_graph_op_max_pool_backward ? 1
            : op.kind == dnnl_graph_op_avg_pool_backward     ? 0
                                                             : -1;
    if (k < 0 || !ir::shape_known(op.inputs[k])) return {};
    return ir::dims_of(op.inputs[k]);
}

status_t check_pool(const ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(check_spatial_values(op, dnnl_graph_op_attr_strides, 1));
    LLGA_RETURN_IF_ERROR(check_spatial_values(op, dnnl_graph_op_attr_kernel, 1));
    LLGA_RETURN_IF_ERROR(
            check_spatial_values(op, dnnl_graph_op_attr_dilations, 1));
    LLGA_RETURN_IF_ERROR(
            check_spatial_values(op, dnnl_graph_op_attr_pads_begin, 0));
    LLGA_RETURN_IF_ERROR(check_spatial_values(op, dnnl_graph_op_attr_pads_end, 0));
    int nsp = -1;
    LLGA_RETURN_IF_ERROR(check_spatial_lengths(op,
            {dnnl_graph_op_attr_kernel, dnnl_graph_op_attr_strides,
                    dnnl_graph_op_attr_dilations, dnnl_graph_op_attr_pads_begin,
                    dnnl_graph_op_attr_pads_end},
            &nsp));
    const int r0 = op.inputs[0].ndims;
    if (nsp >= 0 && r0 >= 0 && r0 - 2 != nsp)
        return fail(dnnl_invalid_graph_op,
                "%s: input 0 has rank %d (%d spatial dims) but the spatial "
                "attributes have %d entries",
                describe(op).c_str(), r0, r0 - 2, nsp);
    const dims_t x = pool_x_dims(op, false), y = pool_y_dims(op);
    if (x.empty() || (!is_forward(op.kind) && y.empty())) return dnnl_success;
    pool_geom_t g;
    return pool_geometry(op, x, y, dnnl_invalid_graph_op, g);
}

status_t infer_pool(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_shape(op, 0));
    if (op.kind == dnnl_graph_op_max_pool_backward)
        LLGA_RETURN_IF_ERROR(require_shape(op, 1));
    const dims_t x = pool_x_dims(op, true), y = pool_y_dims(op);
    if (x.empty())
        return fail(op.inputs.size() > 1 ? dnnl_unimplemented
                                         : dnnl_invalid_shape,
                "%s: diff_src shape is unknown; set attribute 'src_shape' "
                "or declare the output shape",
                describe(op).c_str());
    pool_geom_t g;
    LLGA_RETURN_IF_ERROR(pool_geometry(op, x, y, dnnl_invalid_shape, g));
    if (!iequals(op.get_str(dnnl_graph_op_attr_auto_pad, "None"), "None")) {
        op.set_attr(dnnl_graph_op_attr_pads_begin,
                ir::attr_value_t::make_s64s(g.pb));
        op.set_attr(dnnl_graph_op_attr_pads_end,
                ir::attr_value_t::make_s64s(g.pe));
    }
    if (is_forward(op.kind))
        return set_output(op, 0, make_data_dims(g.n, g.c, g.ysp, g.channel_last));
    return set_output(op, 0, x);
}

} // namespace

// Window of output position o along dim i: first source index and the
// in-bounds count; the average's divisor counts either in-bounds positions
// (exclude_pad) or positions inside the padded extent [-PB, in + PE), which
// equals the kernel volume unless ceil rounding made the window overhang.
double avg_divisor(const pool_geom_t &g, const int64_t *o, bool exclude_pad) {
    double div = 1;
    for (int i = 0; i < g.nsp; ++i) {
        const dim_t start = o[i] * g.s[i] - g.pb[i];
        const dim_t lo = exclude_pad ? 0 : -g.pb[i];
        const dim_t hi = exclude_pad ? g.xsp[i] : g.xsp[i] + g.pe[i];
        const dim_t b = start < lo ? lo : start;
        const dim_t e = start + g.k[i] > hi ? hi : start + g.k[i];
        div *= e > b ? static_cast<double>(e - b) : 0.0;
    }
    return div;
}

double pool_lowest(data_type_t dt) {
    if (dt == dnnl_f16) return -65504.0;
    if (dt == dnnl_bf16) return -3.3895313892515355e38; // 0xFF7F
    return -static_cast<double>(FLT_MAX);
}

namespace {

struct pool_views_t {
    pool_geom_t g;
    view_t x, y, src; // src: MaxPoolBackward's forward input
};

status_t pool_setup(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out, pool_views_t &v) {
    if (is_forward(op.kind)) {
        v.x = in_view(op, in, 0);
        v.y = out_view(op, out, 0);
        return pool_geometry(op, v.x.dims, v.y.dims, dnnl_invalid_shape, v.g);
    }
    v.x = out_view(op, out, 0);
    const size_t yk = op.kind == dnnl_graph_op_max_pool_backward ? 1 : 0;
    v.y = in_view(op, in, yk);
    if (yk == 1) v.src = in_view(op, in, 0);
    return pool_geometry(op, v.x.dims, v.y.dims, dnnl_invalid_shape, v.g);
}

status_t ref_pool_fwd(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    pool_views_t v;
    LLGA_RETURN_IF_ERROR(pool_setup(op, in, out, v));
    const pool_geom_t &g = v.g;
    const bool avg = is_avg(op.kind);
    const bool exclude = op.get_bool(dnnl_graph_op_attr_exclude_pad);
    const int64_t ysz = ir::product(g.ysp), ksz = ir::product(g.k);
    const double lowest = pool_lowest(v.y.dt);
    parallel_for(g.n * g.c * ysz, 64, [&](int64_t lo, int64_t hi) {
        int64_t o[DNNL_MAX_NDIMS], k[DNNL_MAX_NDIMS], p[DNNL_MAX_NDIMS];
        for (int64_t t = lo; t < hi; ++t) {
            const dim_t c = (t / ysz) % g.c, n = t / (ysz * g.c);
            ir::unravel(t % ysz, g.ysp, o);
            double acc = avg ? 0.0 : lowest;
            for (int64_t ki = 0; ki < ksz; ++ki) {
                ir::unravel(ki, g.k, k);
                bool inside = true;
                for (int i = 0; i < g.nsp && inside; ++i) {
                    p[i] = o[i] * g.s[i] + k[i] * g.d[i] - g.pb[i];
                    inside = p[i] >= 0 && p[i] < g.xsp[i];
                }
                if (!inside) continue; // padding never participates
                const double val = v.x.at_offset(
                        data_offset(v.x.strides, g.channel_last, n, c, p, g.nsp));
                if (avg)
                    acc += val;
                else if (val > acc || val != val)
                    acc = val; // NaN propagates
            }
            if (avg) {
                const double div = avg_divisor(g, o, exclude);
                acc = div > 0 ? acc / div : 0.0;
            }
            v.y.set_offset(
                    data_offset(v.y.strides, g.channel_last, n, c, o, g.nsp),
                    acc);
        }
    });
    return dnnl_success;
}

// diff_src[p] = sum over windows o containing p of diff_dst[o] / divisor(o).
status_t ref_avg_pool_bwd(const ir::op_t &op,
        const std::vector<const void *> &in, const std::vector<void *> &out) {
    pool_views_t v;
    LLGA_RETURN_IF_ERROR(pool_setup(op, in, out, v));
    const pool_geom_t &g = v.g;
    const bool exclude = op.get_bool(dnnl_graph_op_attr_exclude_pad);
    const int64_t xsz = ir::product(g.xsp), ksz = ir::product(g.k);
    parallel_for(g.n * g.c * xsz, 64, [&](int64_t lo, int64_t hi) {
        int64_t o[DNNL_MAX_NDIMS], k[DNNL_MAX_NDIMS], p[DNNL_MAX_NDIMS];
        for (int64_t t = lo; t < hi; ++t) {
            const dim_t c = (t / xsz) % g.c, n = t / (xsz * g.c);
            ir::unravel(t % xsz, g.xsp, p);
            double acc = 0;
            for (int64_t ki = 0; ki < ksz; ++ki) {
                ir::unravel(ki, g.k, k);
                bool hit = true;
                for (int i = 0; i < g.nsp && hit; ++i) {
                    const dim_t num = p[i] + g.pb[i] - k[i];
                    hit = num >= 0 && num % g.s[i] == 0
                            && num / g.s[i] < g.ysp[i];
                    o[i] = hit ? num / g.s[i] : 0;
                }
                if (!hit) continue;
                const double div = avg_divisor(g, o, exclude);
                if (div > 0)
                    acc += v.y.at_offset(data_offset(v.y.strides,
                                   g.channel_last, n, c, o, g.nsp))
                            / div;
            }
            v.x.set_offset(
                    data_offset(v.x.strides, g.channel_last, n, c, p, g.nsp),
                    acc);
        }
    });
    return dnnl_success;
}

// Each diff_dst value goes to the first maximum of its window (scan order,
// strict >), recomputed from src. Scatter per (n, c) plane into a double
// buffer, so planes are independent and parallel.
status_t ref_max_pool_bwd(const ir::op_t &op,
        const std::vector<const void *> &in, const std::vector<void *> &out) {
    pool_views_t v;
    LLGA_RETURN_IF_ERROR(pool_setup(op, in, out, v));
    const pool_geom_t &g = v.g;
    const int64_t xsz = ir::product(g.xsp), ysz = ir::product(g.ysp);
    const int64_t ksz = ir::product(g.k);
    parallel_for(g.n * g.c, 1, [&](int64_t lo, int64_t hi) {
        std::vector<double> acc(static_cast<size_t>(xsz));
        int64_t o[DNNL_MAX_NDIMS], k[DNNL_MAX_NDIMS], p[DNNL_MAX_NDIMS];
        for (int64_t t = lo; t < hi; ++t) {
            const dim_t c = t % g.c, n = t / g.c;
            std::fill(acc.begin(), acc.end(), 0.0);
            for (int64_t oi = 0; oi < ysz; ++oi) {
                ir::unravel(oi, g.ysp, o);
                int64_t best = -1;
                double best_val = 0;
                for (int64_t ki = 0; ki < ksz; ++ki) {
                    ir::unravel(ki, g.k, k);
                    bool inside = true;
                    int64_t lin = 0;
                    for (int i = 0; i < g.nsp && inside; ++i) {
                        p[i] = o[i] * g.s[i] + k[i] * g.d[i] - g.pb[i];
                        inside = p[i] >= 0 && p[i] < g.xsp[i];
                        lin = lin * g.xsp[i] + p[i];
                    }
                    if (!inside) continue;
                    const double val = v.src.at_offset(data_offset(
                            v.src.strides, g.channel_last, n, c, p, g.nsp));
                    if (best < 0 || val > best_val) {
                        best = lin;
                        best_val = val;
                    }
                }
                if (best >= 0)
                    acc[best] += v.y.at_offset(data_offset(
                            v.y.strides, g.channel_last, n, c, o, g.nsp));
            }
            for (int64_t pi = 0; pi < xsz; ++pi) {
                ir::unravel(pi, g.xsp, p);
                v.x.set_offset(data_offset(v.x.strides, g.channel_last, n, c,
                                       p, g.nsp),
                        acc[pi]);
            }
        }
    });
    return dnnl_success;
}

} // namespace

void define_pool(op_kind_t kind, op_def_t &def) {
    using av = ir::attr_value_t;
    const bool avg = is_avg(kind);
    const bool fwd = is_forward(kind);
    op_schema_t &s = def.schema;
    if (kind == dnnl_graph_op_avg_pool_backward) {
        s.num_inputs({1, 2})
                .num_outputs({1})
                .input("diff_dst", "T")
                .input("src_shape", "T2")
                .output("diff_src", "T")
                .types("T2", dt_bit(dnnl_s32));
    } else if (kind == dnnl_graph_op_max_pool_backward) {
        s.num_inputs({2})
                .num_outputs({1})
                .input("src", "T")
                .input("diff_dst", "T")
                .output("diff_src", "T");
    } else {
        s.num_inputs({1}).num_outputs({1}).input("src", "T").output("dst", "T");
    }
    s.types("T", k_fp)
            .attr(dnnl_graph_op_attr_strides, true)
            .attr(dnnl_graph_op_attr_pads_begin, true)
            .attr(dnnl_graph_op_attr_pads_end, true)
            .attr(dnnl_graph_op_attr_kernel, true)
            .attr(dnnl_graph_op_attr_auto_pad, av::make_str("None"))
            .candidates(dnnl_graph_op_attr_auto_pad,
                    {"None", "SAME_UPPER", "SAME_LOWER", "VALID"})
            .attr(dnnl_graph_op_attr_data_format, av::make_str("NXC"))
            .candidates(dnnl_graph_op_attr_data_format, {"NXC", "NCX"})
            .constraint(check_pool);
    // rounding_type has no candidate list: anything but "ceil" is floor.
    if (fwd) s.attr(dnnl_graph_op_attr_rounding_type, av::make_str("floor"));
    if (avg)
        s.attr(dnnl_graph_op_attr_exclude_pad, true);
    else
        s.attr(dnnl_graph_op_attr_dilations,
                av::make_s64s(std::vector<int64_t>(DNNL_MAX_NDIMS, 1)));
    if (kind == dnnl_graph_op_avg_pool_backward)
        s.attr(dnnl_graph_op_attr_src_shape,
                av::make_s64s(std::vector<int64_t>(DNNL_MAX_NDIMS, 0)));
    def.infer = infer_pool;
    def.ref = fwd ? ref_pool_fwd
            : avg ? ref_avg_pool_bwd
                  : ref_max_pool_bwd;
    def.traits.is_backward = !fwd;
}

} // namespace ops
} // namespace llga
