// SPDX-License-Identifier: Apache-2.0
// ops/infer_util.cpp — shared shape-inference helpers.
#include "ops/infer_util.hpp"

#include "base/status.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "ops/registry.hpp"
#include "ops/schema.hpp"

namespace llga {
namespace ops {

status_t set_output(ir::op_t &op, size_t k, const dims_t &dims) {
    logical_tensor_t &lt = op.outputs[k];
    if (lt.ndims >= 0) {
        if (lt.ndims != static_cast<int>(dims.size()))
            return fail(dnnl_invalid_shape,
                    "%s: output %zu (tensor %zu) was declared with rank %d "
                    "but the op produces shape %s",
                    describe(op).c_str(), k, lt.id, lt.ndims,
                    ir::dims_to_string(dims).c_str());
        for (size_t d = 0; d < dims.size(); ++d)
            if (lt.dims[d] >= 0 && dims[d] >= 0 && lt.dims[d] != dims[d])
                return fail(dnnl_invalid_shape,
                        "%s: output %zu (tensor %zu) was declared %s but the "
                        "op produces %s",
                        describe(op).c_str(), k, lt.id,
                        ir::dims_to_string(ir::dims_of(lt)).c_str(),
                        ir::dims_to_string(dims).c_str());
    }
    ir::set_shape(lt, dims);
    return dnnl_success;
}

status_t require_shape(const ir::op_t &op, size_t k) {
    if (k >= op.inputs.size() || !ir::shape_known(op.inputs[k]))
        return fail(dnnl_invalid_shape,
                "%s: input %zu needs a known shape for shape inference",
                describe(op).c_str(), k);
    return dnnl_success;
}

status_t require_rank(const ir::op_t &op, size_t k, int lo, int hi) {
    LLGA_RETURN_IF_ERROR(require_shape(op, k));
    const int r = op.inputs[k].ndims;
    if (r < lo || r > hi)
        return fail(dnnl_invalid_shape,
                "%s: input %zu has rank %d, expected %d..%d",
                describe(op).c_str(), k, r, lo, hi);
    return dnnl_success;
}

status_t infer_identity(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_shape(op, 0));
    return set_output(op, 0, ir::dims_of(op.inputs[0]));
}

status_t infer_broadcast(ir::op_t &op) {
    LLGA_RETURN_IF_ERROR(require_shape(op, 0));
    LLGA_RETURN_IF_ERROR(require_shape(op, 1));
    const dims_t a = ir::dims_of(op.inputs[0]);
    const dims_t b = ir::dims_of(op.inputs[1]);
    const std::string mode = op.get_str(dnnl_graph_op_attr_auto_broadcast, "numpy");
    dims_t out;
    if (iequals(mode, "none")) {
        if (a != b)
            return fail(dnnl_invalid_shape,
                    "%s: auto_broadcast is none but input shapes %s and %s "
                    "differ",
                    describe(op).c_str(), ir::dims_to_string(a).c_str(),
                    ir::dims_to_string(b).c_str());
        out = a;
    } else if (!ir::broadcast_shapes(a, b, out)) {
        return fail(dnnl_invalid_shape,
                "%s: input shapes %s and %s cannot be broadcast together",
                describe(op).c_str(), ir::dims_to_string(a).c_str(),
                ir::dims_to_string(b).c_str());
    }
    return set_output(op, 0, out);
}

bool is_channel_last(const ir::op_t &op) {
    return iequals(op.get_str(dnnl_graph_op_attr_data_format, "NXC"), "NXC");
}

dims_t spatial_dims(const dims_t &d, bool channel_last) {
    if (d.size() <= 2) return {};
    return channel_last ? dims_t(d.begin() + 1, d.end() - 1)
                        : dims_t(d.begin() + 2, d.end());
}

dim_t channels(const dims_t &d, bool channel_last) {
    if (d.size() < 2) return d.empty() ? 1 : d[0];
    return channel_last ? d.back() : d[1];
}

dims_t make_data_dims(dim_t n, dim_t c, const dims_t &x, bool channel_last) {
    dims_t r {n};
    if (!channel_last) r.push_back(c);
    r.insert(r.end(), x.begin(), x.end());
    if (channel_last) r.push_back(c);
    return r;
}

bool auto_pads(const std::string &auto_pad, const dims_t &in, const dims_t &k,
        const dims_t &s, const dims_t &d, dims_t &pb, dims_t &pe,
        bool transpose) {
    if (auto_pad.empty() || iequals(auto_pad, "none")) return false;
    const size_t n = in.size();
    pb.assign(n, 0);
    pe.assign(n, 0);
    if (iequals(auto_pad, "valid")) return true;
    const bool upper = iequals(auto_pad, "same_upper");
    for (size_t i = 0; i < n; ++i) {
        using wide = __int128;
        const wide dk = (wide(k[i]) - 1) * (i < d.size() ? d[i] : 1) + 1;
        wide total;
        if (s[i] <= 0)
            total = 0; // the schema constraint reports non-positive strides
        else if (transpose)
            total = dk - s[i];
        else
            total = (in[i] % s[i] == 0) ? dk - s[i] : dk - (in[i] % s[i]);
        if (total < 0) total = 0;
        if (total > max_dim) total = max_dim;
        const dim_t t = static_cast<dim_t>(total);
        const dim_t half = upper ? t / 2 : (t + 1) / 2;
        pb[i] = half;
        pe[i] = t - half;
    }
    return true;
}

dim_t conv_out_size(dim_t in, dim_t k, dim_t s, dim_t d, dim_t pb, dim_t pe,
        bool ceil_mode) {
    // 128-bit arithmetic: attribute values come from users and may be huge;
    // a result outside [0, max_dim] is reported as -1 (invalid).
    using wide = __int128;
    if (s <= 0) return -1;
    const wide dk = (wide(k) - 1) * wide(d) + 1;
    const wide span = wide(in) + wide(pb) + wide(pe) - dk;
    if (span < 0) return 0;
    // oneDNN's rule is plain ceil((in + pb + pe - dk) / s) + 1; a last window
    // that starts in the right padding is kept (kernels treat an empty window
    // as 0), so inferred shapes match what oneDNN programs declare.
    const wide out = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
    return out > max_dim ? -1 : static_cast<dim_t>(out);
}

} // namespace ops
} // namespace llga
