// SPDX-License-Identifier: Apache-2.0
// ops/conv.cpp — the convolution family's shared machinery and its forward
// ops: spatial-attribute helpers (also used by pool.cpp), the schema common to
// all six conv ops, one geometry routine that validates and completes the
// X/Y/W relation described in conv_util.hpp, shape inference for all six ops,
// the reference dispatcher, and the "compute Y" loop nest (Convolution and
// ConvTransposeBackwardData). conv_backward.cpp holds the backward schemas
// and the other two loop nests. Reference kernels accumulate in double.
#include <algorithm>
#include <cctype>

#include <vector>

#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ops/conv_util.hpp"
#include "ops/families.hpp"
#include "ops/infer_util.hpp"
#include "ops/ref_util.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace ops {

// ---- spatial attribute helpers -------------------------------------------

namespace {
// A value the user did not spell per dim: empty, or a full DNNL_MAX_NDIMS
// default (spatial rank is at most DNNL_MAX_NDIMS - 2).
bool is_unspecified(const std::vector<int64_t> &v) {
    return v.empty() || v.size() >= static_cast<size_t>(DNNL_MAX_NDIMS);
}
} // namespace

status_t spatial_attr(const ir::op_t &op, attr_id_t a, int nsp, dim_t fill,
        status_t err, dims_t &out) {
    const std::vector<int64_t> v = op.get_s64s(a);
    if (static_cast<int>(v.size()) == nsp) {
        out.assign(v.begin(), v.end());
        return dnnl_success;
    }
    bool uniform = true;
    for (int64_t e : v)
        uniform = uniform && e == fill;
    if (is_unspecified(v) && uniform) {
        out.assign(nsp, fill);
        return dnnl_success;
    }
    return fail(err, "%s: attribute '%s' has %zu entries, expected one per "
                     "spatial dim (%d)",
            describe(op).c_str(), ir::attr_name(a), v.size(), nsp);
}

status_t check_spatial_values(const ir::op_t &op, attr_id_t a, dim_t min) {
    for (int64_t e : op.get_s64s(a))
        if (e < min)
            return fail(dnnl_invalid_graph_op,
                    "%s: attribute '%s' has entry %lld, expected >= %lld",
                    describe(op).c_str(), ir::attr_name(a),
                    static_cast<long long>(e), static_cast<long long>(min));
    return dnnl_success;
}

status_t check_spatial_lengths(
        const ir::op_t &op, const std::vector<attr_id_t> &ids, int *nsp) {
    int n = -1;
    attr_id_t first = ids.empty() ? dnnl_graph_op_attr_undef : ids[0];
    for (attr_id_t a : ids) {
        const std::vector<int64_t> v = op.get_s64s(a);
        if (is_unspecified(v)) continue;
        if (n < 0) {
            n = static_cast<int>(v.size());
            first = a;
        } else if (n != static_cast<int>(v.size())) {
            return fail(dnnl_invalid_graph_op,
                    "%s: attribute '%s' has %zu entries but '%s' has %d; "
                    "both need one entry per spatial dim",
                    describe(op).c_str(), ir::attr_name(a), v.size(),
                    ir::attr_name(first), n);
        }
    }
    if (nsp) *nsp = n;
    return dnnl_success;
}

int64_t data_offset(const dims_t &st, bool channel_last, dim_t n, dim_t c,
        const int64_t *sp, int nsp) {
    int64_t off = n * st[0];
    const int first_sp = channel_last ? 1 : 2;
    off += c * (channel_last ? st[nsp + 1] : st[1]);
    for (int i = 0; i < nsp; ++i)
        off += sp[i] * st[first_sp + i];
    return off;
}

int64_t weights_offset(const dims_t &st, bool spatial_first, dim_t cy,
        dim_t xi, const int64_t *k, int nsp) {
    if (spatial_first) {
        int64_t off = xi * st[nsp] + cy * st[nsp + 1];
        for (int i = 0; i < nsp; ++i)
            off += k[i] * st[i];
        return off;
    }
    int64_t off = cy * st[0] + xi * st[1];
    for (int i = 0; i < nsp; ++i)
        off += k[i] * st[2 + i];
    return off;
}

// ---- roles and geometry --------------------------------------------------

namespace {

// Where X, Y and W live for each kind: input index, or -1 for output 0.
struct roles_t {
    int x, y, w;
    attr_id_t given_shape; // attribute that may give the output's shape
};

roles_t roles_of(op_kind_t kind) {
    switch (kind) {
        case dnnl_graph_op_convolution:
            return {0, -1, 1, dnnl_graph_op_attr_undef};
        case dnnl_graph_op_convolution_backward_data:
            return {-1, 0, 1, dnnl_graph_op_attr_dst_shape};
        case dnnl_graph_op_convolution_backward_weights:
            return {0, 1, -1, dnnl_graph_op_attr_weights_shape};
        case dnnl_graph_op_conv_transpose:
            return {-1, 0, 1, dnnl_graph_op_attr_undef};
        case dnnl_graph_op_conv_transpose_backward_data:
            return {0, -1, 1, dnnl_graph_op_attr_undef};
        default: // conv_transpose_backward_weights
            return {1, 0, -1, dnnl_graph_op_attr_weights_shape};
    }
}

bool is_transposed(op_kind_t kind) {
    return kind == dnnl_graph_op_conv_transpose
            || kind == dnnl_graph_op_conv_transpose_backward_data
            || kind == dnnl_graph_op_conv_transpose_backward_weights;
}

const char *role_name(op_kind_t kind, char role) {
    const bool t = is_transposed(kind);
    switch (role) {
        case 'x': return t ? "the dst side (dst/diff_dst)" : "src/diff_src";
        case 'y': return t ? "the src side (src/diff_src)" : "dst/diff_dst";
        default: return "weights";
    }
}

// Dims of the tensor in role r: an input with a known shape, or for ops that
// are told their output shape, the shape attribute (if non-zero) and then
// (when `use_declared`) the declared output. Empty if unknown.
dims_t role_dims(const ir::op_t &op, int r, attr_id_t given, bool use_declared) {
    if (r >= 0)
        return ir::shape_known(op.inputs[r]) ? ir::dims_of(op.inputs[r])
                                             : dims_t();
    if (given == dnnl_graph_op_attr_undef) return {};
    const std::vector<int64_t> v = op.get_s64s(given);
    bool nonzero = false;
    for (int64_t e : v)
        nonzero = nonzero || e != 0;
    if (nonzero) return dims_t(v.begin(), v.end());
    if (use_declared && ir::shape_known(op.outputs[0]))
        return ir::dims_of(op.outputs[0]);
    return {};
}

// Validates x/y/w (w known, at most one of x/y empty) against the attributes
// and fills g, computing the missing side. Failures return `err`.
status_t conv_geometry(const ir::op_t &op, const dims_t &x, const dims_t &y,
        const dims_t &w, status_t err, conv_geom_t &g) {
    const std::string who = describe(op);
    const op_kind_t kind = op.kind;
    if (w.size() < 3)
        return fail(err, "%s: weights have rank %zu, expected >= 3",
                who.c_str(), w.size());
    g.nsp = static_cast<int>(w.size()) - 2;
    for (const dims_t *t : {&x, &y})
        if (!t->empty() && t->size() != w.size())
            return fail(err,
                    "%s: %s has rank %zu but weights have rank %zu; they "
                    "must match",
                    who.c_str(), role_name(kind, t == &x ? 'x' : 'y'),
                    t->size(), w.size());
    const int nsp = g.nsp;
    LLGA_RETURN_IF_ERROR(
            spatial_attr(op, dnnl_graph_op_attr_strides, nsp, 1, err, g.s));
    LLGA_RETURN_IF_ERROR(
            spatial_attr(op, dnnl_graph_op_attr_dilations, nsp, 1, err, g.d));
    LLGA_RETURN_IF_ERROR(spatial_attr(
            op, dnnl_graph_op_attr_pads_begin, nsp, 0, err, g.pb));
    LLGA_RETURN_IF_ERROR(
            spatial_attr(op, dnnl_graph_op_attr_pads_end, nsp, 0, err, g.pe));
    g.out_pad.assign(nsp, 0);
    if (kind == dnnl_graph_op_conv_transpose)
        LLGA_RETURN_IF_ERROR(spatial_attr(op,
                dnnl_graph_op_attr_output_padding, nsp, 0, err, g.out_pad));
    for (int i = 0; i < nsp; ++i)
        if (g.s[i] < 1 || g.d[i] < 1 || g.pb[i] < 0 || g.pe[i] < 0)
            return fail(err,
                    "%s: strides and dilations must be >= 1 and pads >= 0",
                    who.c_str());

    g.channel_last = is_channel_last(op);
    const std::string wf = op.get_str(dnnl_graph_op_attr_weights_format,
            is_transposed(kind) ? "XOI" : "XIO");
    g.weights_spatial_first = !wf.empty() && std::toupper(wf[0]) == 'X';
    g.groups = op.get_s64(dnnl_graph_op_attr_groups, 1);
    if (g.groups < 1)
        return fail(err, "%s: groups is %lld, expected >= 1", who.c_str(),
                static_cast<long long>(g.groups));
    const dim_t w_cy = g.weights_spatial_first ? w[nsp + 1] : w[0];
    const dim_t w_xi = g.weights_spatial_first ? w[nsp] : w[1];
    g.k = g.weights_spatial_first ? dims_t(w.begin(), w.begin() + nsp)
                                  : dims_t(w.begin() + 2, w.end());
    g.cy = w_cy;
    g.cx = w_xi * g.groups;
    if (g.cy % g.groups != 0)
        return fail(err,
                "%s: weights give %lld channels for %s, not divisible by "
                "groups=%lld",
                who.c_str(), static_cast<long long>(g.cy),
                role_name(kind, 'y'), static_cast<long long>(g.groups));
    for (int i = 0; i < nsp; ++i)
        if (g.k[i] < 1)
            return fail(err, "%s: kernel (weights spatial dims) must be >= 1",
                    who.c_str());

    g.n = -1;
    for (const dims_t *t : {&x, &y}) {
        if (t->empty()) continue;
        const bool is_x = t == &x;
        const dim_t c = channels(*t, g.channel_last);
        const dim_t want = is_x ? g.cx : g.cy;
        if (c != want)
            return fail(err,
                    "%s: %s has %lld channels but the weights (%s, "
                    "groups=%lld) require %lld",
                    who.c_str(), role_name(kind, is_x ? 'x' : 'y'),
                    static_cast<long long>(c), wf.c_str(),
                    static_cast<long long>(g.groups),
                    static_cast<long long>(want));
        if (g.n >= 0 && (*t)[0] != g.n)
            return fail(err, "%s: batch sizes %lld and %lld differ",
                    who.c_str(), static_cast<long long>(g.n),
                    static_cast<long long>((*t)[0]));
        g.n = (*t)[0];
    }
    if (!x.empty()) g.xsp = spatial_dims(x, g.channel_last);
    if (!y.empty()) g.ysp = spatial_dims(y, g.channel_last);

    const std::string ap = op.get_str(dnnl_graph_op_attr_auto_pad, "None");
    if (kind == dnnl_graph_op_conv_transpose)
        auto_pads(ap, g.k, g.k, g.s, g.d, g.pb, g.pe, true);
    else
        auto_pads(ap, g.xsp, g.k, g.s, g.d, g.pb, g.pe, false);

    // Derive the side implied by the other; compare when both are given.
    dims_t want(nsp);
    const bool derive_x = kind == dnnl_graph_op_conv_transpose;
    const dims_t &from = derive_x ? g.ysp : g.xsp;
    for (int i = 0; i < nsp; ++i) {
        // 128-bit: the values come from user attributes.
        using wide = __int128;
        const wide dk = (wide(g.k[i]) - 1) * g.d[i] + 1;
        const wide x = wide(g.s[i]) * (from[i] - 1) + dk - g.pb[i] - g.pe[i]
                + g.out_pad[i];
        want[i] = derive_x ? (x > max_dim ? -1 : static_cast<dim_t>(x))
                           : conv_out_size(from[i], g.k[i], g.s[i], g.d[i],
                                   g.pb[i], g.pe[i]);
        if (want[i] < 1 || from[i] < 1)
            return fail(err,
                    "%s: spatial dim %d gives an empty %s (size %lld from "
                    "%lld)",
                    who.c_str(), i, role_name(kind, derive_x ? 'x' : 'y'),
                    static_cast<long long>(want[i]),
                    static_cast<long long>(from[i]));
    }
    dims_t &to = derive_x ? g.xsp : g.ysp;
    if (!to.empty() && to != want)
        return fail(err,
                "%s: %s has spatial dims %s but the other operands and the "
                "attributes imply %s",
                who.c_str(), role_name(kind, derive_x ? 'x' : 'y'),
                ir::dims_to_string(to).c_str(),
                ir::dims_to_string(want).c_str());
    to = want;
    return dnnl_success;
}

// The bias input (Convolution / ConvTranspose) must be [C of the output].
status_t check_bias(const ir::op_t &op, const conv_geom_t &g, status_t err) {
    if (op.inputs.size() < 3 || !(op.kind == dnnl_graph_op_convolution
                || op.kind == dnnl_graph_op_conv_transpose))
        return dnnl_success;
    const dims_t b = ir::dims_of(op.inputs[2]);
    const dim_t c = op.kind == dnnl_graph_op_convolution ? g.cy : g.cx;
    if (b.size() != 1 || b[0] != c)
        return fail(err, "%s: input 2 'bias' has shape %s, expected [%lld]",
                describe(op).c_str(), ir::dims_to_string(b).c_str(),
                static_cast<long long>(c));
    return dnnl_success;
}

} // namespace

status_t check_conv(const ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(check_spatial_values(op, dnnl_graph_op_attr_strides, 1));
    LLGA_RETURN_IF_ERROR(
            check_spatial_values(op, dnnl_graph_op_attr_dilations, 1));
    LLGA_RETURN_IF_ERROR(
            check_spatial_values(op, dnnl_graph_op_attr_pads_begin, 0));
    LLGA_RETURN_IF_ERROR(check_spatial_values(op, dnnl_graph_op_attr_pads_end, 0));
    LLGA_RETURN_IF_ERROR(
            check_spatial_values(op, dnnl_graph_op_attr_output_padding, 0));
    if (op.get_s64(dnnl_graph_op_attr_groups, 1) < 1)
        return fail(dnnl_invalid_graph_op, "%s: groups must be >= 1",
                describe(op).c_str());
    int nsp = -1;
    LLGA_RETURN_IF_ERROR(check_spatial_lengths(op,
            {dnnl_graph_op_attr_strides, dnnl_graph_op_attr_dilations,
                    dnnl_graph_op_attr_pads_begin, dnnl_graph_op_attr_pads_end,
                    dnnl_graph_op_attr_output_padding},
            &nsp));
    const int r0 = op.inputs[0].ndims;
    if (nsp >= 0 && r0 >= 0 && r0 - 2 != nsp)
        return fail(dnnl_invalid_graph_op,
                "%s: input 0 has rank %d (%d spatial dims) but the spatial "
                "attributes have %d entries",
                describe(op).c_str(), r0, r0 - 2, nsp);
    // Channel/group/spatial consistency once the shapes are known.
    const roles_t r = roles_of(op.kind);
    const dims_t x = role_dims(op, r.x, r.given_shape, false);
    const dims_t y = role_dims(op, r.y, r.given_shape, false);
    const dims_t w = role_dims(op, r.w, r.given_shape, false);
    if (w.empty() || (x.empty() && y.empty())) return dnnl_success;
    if ((r.x >= 0 || r.given_shape != dnnl_graph_op_attr_undef) && x.empty())
        return dnnl_success;
    if ((r.y >= 0 || r.given_shape != dnnl_graph_op_attr_undef) && y.empty())
        return dnnl_success;
    conv_geom_t g;
    LLGA_RETURN_IF_ERROR(conv_geometry(op, x, y, w, dnnl_invalid_graph_op, g));
    if (op.inputs.size() > 2 && ir::shape_known(op.inputs[2]))
        LLGA_RETURN_IF_ERROR(check_bias(op, g, dnnl_invalid_graph_op));
    return dnnl_success;
}

conv_roles_t conv_roles(op_kind_t kind) {
    const roles_t r = roles_of(kind);
    conv_roles_t out;
    out.x = r.x;
    out.y = r.y;
    out.w = r.w;
    return out;
}

status_t conv_op_geometry(const ir::op_t &op, conv_geom_t &g) {
    const roles_t r = roles_of(op.kind);
    const int need = std::max({r.x, r.y, r.w}) + 1;
    if (op.outputs.empty() || static_cast<int>(op.inputs.size()) < need)
        return fail(dnnl_invalid_shape, "%s: expected %d inputs and an output",
                describe(op).c_str(), need);
    auto dims = [&](int role) {
        return ir::dims_of(role < 0 ? op.outputs[0]
                                    : op.inputs[static_cast<size_t>(role)]);
    };
    return conv_geometry(op, dims(r.x), dims(r.y), dims(r.w),
            dnnl_invalid_shape, g);
}

status_t infer_conv(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_shape(op, 0));
    LLGA_RETURN_IF_ERROR(require_shape(op, 1));
    const bool has_bias = op.inputs.size() > 2
            && (op.kind == dnnl_graph_op_convolution
                    || op.kind == dnnl_graph_op_conv_transpose);
    if (has_bias) LLGA_RETURN_IF_ERROR(require_shape(op, 2));
    const roles_t r = roles_of(op.kind);
    const dims_t x = role_dims(op, r.x, r.given_shape, true);
    const dims_t y = role_dims(op, r.y, r.given_shape, true);
    const dims_t w = role_dims(op, r.w, r.given_shape, true);
    if (r.given_shape != dnnl_graph_op_attr_undef
            && (x.empty() || y.empty() || w.empty())) {
        // The s32 shape input is a runtime value: not usable here.
        return fail(op.inputs.size() > 2 ? dnnl_unimplemented
                                         : dnnl_invalid_shape,
                "%s: the output shape is unknown; set attribute '%s' or "
                "declare the output shape",
                describe(op).c_str(), ir::attr_name(r.given_shape));
    }
    conv_geom_t g;
    LLGA_RETURN_IF_ERROR(conv_geometry(op, x, y, w, dnnl_invalid_shape, g));
    LLGA_RETURN_IF_ERROR(check_bias(op, g, dnnl_invalid_shape));
    if (!iequals(op.get_str(dnnl_graph_op_attr_auto_pad, "None"), "None")) {
        op.set_attr(dnnl_graph_op_attr_pads_begin,
                ir::attr_value_t::make_s64s(g.pb));
        op.set_attr(dnnl_graph_op_attr_pads_end,
                ir::attr_value_t::make_s64s(g.pe));
    }
    if (r.x < 0)
        return set_output(op, 0,
                make_data_dims(g.n, g.cx, g.xsp, g.channel_last));
    if (r.y < 0)
        return set_output(op, 0,
                make_data_dims(g.n, g.cy, g.ysp, g.channel_last));
    return set_output(op, 0, w);
}

status_t ref_conv(const ir::op_t &op, const std::vector<const void *> &in,
        const std::vector<void *> &out) {
    const roles_t r = roles_of(op.kind);
    // Inputs may be read at the precision the graph's fpmath mode permits.
    auto view_of = [&](int role) {
        if (role < 0) return out_view(op, out, 0);
        view_t v = in_view(op, in, role);
        v.fpmath = op.fpmath;
        return v;
    };
    const view_t x = view_of(r.x), y = view_of(r.y), w = view_of(r.w);
    conv_geom_t g;
    LLGA_RETURN_IF_ERROR(
            conv_geometry(op, x.dims, y.dims, w.dims, dnnl_invalid_shape, g));
    const bool has_bias = op.inputs.size() > 2
            && (op.kind == dnnl_graph_op_convolution
                    || op.kind == dnnl_graph_op_conv_transpose);
    const view_t bias = has_bias ? in_view(op, in, 2) : view_t();
    if (r.y < 0)
        conv_compute_y(g, x, w, has_bias ? &bias : nullptr, y);
    else if (r.x < 0)
        conv_compute_x(g, y, w, has_bias ? &bias : nullptr, x);
    else
        conv_compute_w(g, x, y, w);
    return dnnl_success;
}

// Y[n, cy, o] = bias[cy] + sum_{xi, k} X[n, grp*XCg + xi, o*S + k*D - PB]
//                                      * W[cy, xi, k]
// Every output is accumulated in double starting from its bias, over k
// (outer) and xi (inner) in increasing order — the definition, unchanged.
// For speed the weights are converted to double once, laid out
// [group][k][xi][cy-in-group], and the innermost loop runs over the output
// channels of a group (independent sums, so it vectorises without
// reordering any of them); X values are loaded once per (pixel, k, xi).
void conv_compute_y(const conv_geom_t &g, const view_t &x, const view_t &w,
        const view_t *bias, const view_t &y) {
    const int nsp = g.nsp;
    const dim_t ycg = g.cy / g.groups, xcg = g.cx / g.groups;
    const int64_t ysz = ir::product(g.ysp), ksz = ir::product(g.k);
    std::vector<double> wd(static_cast<size_t>(g.groups * ksz * xcg * ycg));
    parallel_for(g.groups * ksz, 1, [&](int64_t lo, int64_t hi) {
        int64_t k[DNNL_MAX_NDIMS];
        for (int64_t gk = lo; gk < hi; ++gk) {
            const dim_t grp = gk / ksz;
            ir::unravel(gk % ksz, g.k, k);
            double *dst = &wd[static_cast<size_t>(gk * xcg * ycg)];
            for (dim_t xi = 0; xi < xcg; ++xi)
                for (dim_t cl = 0; cl < ycg; ++cl)
                    dst[xi * ycg + cl] = w.at_offset(weights_offset(w.strides,
                            g.weights_spatial_first, grp * ycg + cl, xi, k, nsp));
        }
    });
    std::vector<double> bd(static_cast<size_t>(g.cy), 0.0);
    if (bias)
        for (dim_t c = 0; c < g.cy; ++c)
            bd[static_cast<size_t>(c)] = bias->at_offset(c * bias->strides[0]);
    const int64_t xcs = g.channel_last ? x.strides.back() : x.strides[1];
    parallel_for(g.n * ysz, 1, [&](int64_t lo, int64_t hi) {
        int64_t o[DNNL_MAX_NDIMS], k[DNNL_MAX_NDIMS], p[DNNL_MAX_NDIMS];
        std::vector<double> acc(static_cast<size_t>(ycg));
        std::vector<double> xv(static_cast<size_t>(xcg));
        for (int64_t t = lo; t < hi; ++t) {
            const dim_t n = t / ysz;
            ir::unravel(t % ysz, g.ysp, o);
            for (dim_t grp = 0; grp < g.groups; ++grp) {
                std::copy(bd.begin() + grp * ycg, bd.begin() + (grp + 1) * ycg,
                        acc.begin());
                for (int64_t ki = 0; ki < ksz; ++ki) {
                    ir::unravel(ki, g.k, k);
                    bool inside = true;
                    for (int i = 0; i < nsp && inside; ++i) {
                        p[i] = o[i] * g.s[i] + k[i] * g.d[i] - g.pb[i];
                        inside = p[i] >= 0 && p[i] < g.xsp[i];
                    }
                    if (!inside) continue; // zero padding
                    x.load_run(data_offset(x.strides, g.channel_last, n,
                                       grp * xcg, p, nsp),
                            xcs, xcg, xv.data());
                    const double *wk = &wd[static_cast<size_t>(
                            (grp * ksz + ki) * xcg * ycg)];
                    double *a = acc.data();
                    for (dim_t xi = 0; xi < xcg; ++xi) {
                        const double xval = xv[static_cast<size_t>(xi)];
                        const double *wr = wk + xi * ycg;
                        for (dim_t cl = 0; cl < ycg; ++cl)
                            a[cl] += xval * wr[cl];
                    }
                }
                for (dim_t cl = 0; cl < ycg; ++cl)
                    y.set_offset(data_offset(y.strides, g.channel_last, n,
                                         grp * ycg + cl, o, nsp),
                            acc[static_cast<size_t>(cl)]);
            }
        }
    });
}

// ---- schema ---------------------------------------------------------------

void set_conv_common_schema(op_def_t &def, bool transposed) {
    using av = ir::attr_value_t;
    def.schema.attr(dnnl_graph_op_attr_strides, true)
            .attr(dnnl_graph_op_attr_pads_begin, true)
            .attr(dnnl_graph_op_attr_pads_end, true)
            .attr(dnnl_graph_op_attr_dilations, true)
            .attr(dnnl_graph_op_attr_auto_pad, av::make_str("None"))
            .candidates(dnnl_graph_op_attr_auto_pad,
                    {"None", "SAME_UPPER", "SAME_LOWER", "VALID"})
            .attr(dnnl_graph_op_attr_groups, av::make_s64(1))
            .attr(dnnl_graph_op_attr_data_format, av::make_str("NXC"))
            .candidates(dnnl_graph_op_attr_data_format, {"NXC", "NCX"})
            .attr(dnnl_graph_op_attr_weights_format,
                    av::make_str(transposed ? "XOI" : "XIO"))
            .candidates(dnnl_graph_op_attr_weights_format,
                    transposed ? std::vector<std::string> {"XOI", "IOX"}
                               : std::vector<std::string> {"XIO", "OIX"})
            .constraint(check_conv);
    def.infer = infer_conv;
    def.ref = ref_conv;
}

void define_conv(op_kind_t kind, op_def_t &def) {
    switch (kind) {
        case dnnl_graph_op_convolution:
        case dnnl_graph_op_conv_transpose: {
            const bool t = kind == dnnl_graph_op_conv_transpose;
            def.schema.num_inputs({2, 3})
                    .num_outputs({1})
                    .input("src", "T")
                    .input("weights", "T")
                    .input("bias", "T")
                    .output("dst", "T")
                    .types("T", k_fp);
            if (t)
                def.schema.attr(dnnl_graph_op_attr_output_padding,
                        ir::attr_value_t::make_s64s(
                                std::vector<int64_t>(DNNL_MAX_NDIMS, 0)));
            set_conv_common_schema(def, t);
            break;
        }
        default: define_conv_backward(kind, def); break;
    }
}

} // namespace ops
} // namespace llga
