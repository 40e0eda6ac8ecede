// tools/run/prepare.cpp — loading a graph file and applying the case rewrites
// (see prepare.hpp). Rules follow shared/spec/json-format.md §7 (benchdnn).
#include "prepare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "base/checked_size.hpp"
#include "ir/json_graph.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

namespace llga_run {

using namespace llga;

const char *kind_name(op_kind_t k) {
    const char *n = ops::op_kind_name(k);
    return n ? n : "?";
}

namespace {

struct work_op_t {
    const ir::json_op_t *src;
    op_kind_t kind;
    std::map<attr_id_t, ir::attr_value_t> attrs;
};

bool is_float(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

bool parse_i64(const std::string &s, int64_t &v) {
    if (s.empty()) return false;
    char *end = nullptr;
    v = std::strtoll(s.c_str(), &end, 10);
    return *end == '\0';
}

// Parses an attribute value written on the command line, typed by the
// attribute table ("x"-separated vectors, bools as 0/1/true/false).
bool parse_attr_value(attr_id_t id, const std::string &text,
        ir::attr_value_t &out, std::string &error) {
    auto bad = [&]() {
        error = std::string("bad value '") + text + "' for attribute "
                + ir::attr_name(id);
        return false;
    };
    switch (ir::attr_kind(id)) {
        case ir::attr_kind_t::f32: {
            char *end = nullptr;
            float v = std::strtof(text.c_str(), &end);
            if (text.empty() || *end) return bad();
            out = ir::attr_value_t::make_f32(v);
            return true;
        }
        case ir::attr_kind_t::f32s: {
            std::vector<float> v;
            for (const auto &f : split(text, 'x')) {
                char *end = nullptr;
                v.push_back(std::strtof(f.c_str(), &end));
                if (f.empty() || *end) return bad();
            }
            out = ir::attr_value_t::make_f32s(v);
            return true;
        }
        case ir::attr_kind_t::s64: {
            int64_t v = 0;
            if (!parse_i64(text, v)) return bad();
            out = ir::attr_value_t::make_s64(v);
            return true;
        }
        case ir::attr_kind_t::s64s: {
            std::vector<int64_t> v;
            for (const auto &f : split(text, 'x')) {
                int64_t x = 0;
                if (!parse_i64(f, x)) return bad();
                v.push_back(x);
            }
            out = ir::attr_value_t::make_s64s(v);
            return true;
        }
        case ir::attr_kind_t::boolean:
            if (text == "1" || text == "true") {
                out = ir::attr_value_t::make_bool(true);
            } else if (text == "0" || text == "false") {
                out = ir::attr_value_t::make_bool(false);
            } else {
                return bad();
            }
            return true;
        case ir::attr_kind_t::str: out = ir::attr_value_t::make_str(text); return true;
        default: return bad();
    }
}

// Strides for a memory-order tag such as "acdb" (first letter outermost).
bool tag_strides(const std::string &tag, const dims_t &dims, dims_t &strides) {
    if (tag.size() != dims.size()) return false;
    strides.assign(dims.size(), 0);
    std::vector<bool> seen(dims.size(), false);
    dim_t acc = 1;
    for (size_t k = tag.size(); k-- > 0;) {
        int d = tag[k] - 'a';
        if (d < 0 || d >= static_cast<int>(dims.size()) || seen[d]) return false;
        seen[d] = true;
        strides[d] = acc;
        acc *= std::max<dim_t>(dims[d], 1);
    }
    return true;
}

void set_strided(logical_tensor_t &lt, const dims_t &dims, const dims_t &strides) {
    lt.ndims = static_cast<int>(dims.size());
    lt.layout_type = dnnl_graph_layout_type_strided;
    for (size_t k = 0; k < dims.size(); ++k) {
        lt.dims[k] = dims[k];
        lt.layout.strides[k] = strides[k];
    }
}

// Dense strides for `dims` in the memory order of `like` (the file's
// tensor) when `like` is dense in some order (row-major, channel-last,
// ...) with the same rank; row-major otherwise. Graph files record the
// layout each tensor had (benchdnn compiles with it): keeping its order
// when shapes are re-inferred avoids layout changes the graph never had.
dims_t strides_in_order_of(const logical_tensor_t &like, const dims_t &dims) {
    if (like.ndims != static_cast<int>(dims.size()) || !ir::strides_known(like)
            || !ir::is_dense_any_order(like))
        return ir::dense_strides(dims);
    std::vector<int> order(dims.size());
    for (size_t k = 0; k < order.size(); ++k)
        order[k] = static_cast<int>(k);
    // Outermost first: larger stride first; equal strides (unit dims) keep
    // the logical order.
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return like.layout.strides[a] > like.layout.strides[b];
    });
    dims_t strides(dims.size(), 0);
    int64_t acc = 1;
    for (size_t k = order.size(); k-- > 0;) {
        strides[static_cast<size_t>(order[k])] = acc;
        acc *= std::max<int64_t>(dims[static_cast<size_t>(order[k])], 1);
    }
    return strides;
}

// Single-data-input ops that pass the batch through unchanged:
// quantization, type conversion, reorder.
bool is_carrier(op_kind_t k) {
    switch (k) {
        case dnnl_graph_op_dequantize:
        case dnnl_graph_op_quantize:
        case dnnl_graph_op_dynamic_dequantize:
        case dnnl_graph_op_dynamic_quantize:
        case dnnl_graph_op_type_cast:
        case dnnl_graph_op_reorder: return true;
        default: return false;
    }
}

// Graph inputs whose dim 0 is the minibatch (see the --mb rule in
// docs/runner.md): follow single-data-input "carrier" ops (quantization,
// type conversion) to the first real consumer and look at the port.
bool carries_batch(const std::vector<work_op_t> &ops,
        const std::map<size_t, std::vector<std::pair<size_t, size_t>>> &uses,
        size_t id, int depth = 0) {
    auto it = uses.find(id);
    if (it == uses.end() || it->second.empty() || depth > 8) return false;
    const auto &use = it->second.front();
    const work_op_t &op = ops[use.first];
    const size_t port = use.second;
    if (is_carrier(op.kind)) {
        if (port != 0 || op.src->outputs.empty()) return false;
        return carries_batch(ops, uses, op.src->outputs[0].id, depth + 1);
    }
    switch (op.kind) {
        case dnnl_graph_op_convolution_backward_data:
        case dnnl_graph_op_convolution_backward_weights:
        case dnnl_graph_op_conv_transpose_backward_weights: return false;
        case dnnl_graph_op_concat: return true;
        case dnnl_graph_op_matmul:
            return port == 0 || op.src->inputs[port].ndims > 2;
        default: return port == 0;
    }
}

bool same_dims(const logical_tensor_t &a, const logical_tensor_t &b) {
    if (a.ndims != b.ndims) return false;
    for (int k = 0; k < a.ndims; ++k)
        if (a.dims[k] != b.dims[k]) return false;
    return true;
}

// Ops whose inputs past port 0 are weights or geometry, never batch.
bool weighted(op_kind_t k) {
    switch (k) {
        case dnnl_graph_op_matmul:
        case dnnl_graph_op_convolution:
        case dnnl_graph_op_conv_transpose:
        case dnnl_graph_op_convolution_backward_data:
        case dnnl_graph_op_convolution_backward_weights:
        case dnnl_graph_op_conv_transpose_backward_data:
        case dnnl_graph_op_conv_transpose_backward_weights: return true;
        default: return false;
    }
}

// Follows a tensor back through single-input carrier ops (quantization,
// type conversion, reorder; port 0) to the graph input it comes from.
// Returns false if it does not start at a graph input that way.
bool carrier_source(const std::vector<work_op_t> &ops,
        const std::map<size_t, size_t> &producer, const std::set<size_t> &inputs,
        size_t id, size_t *src) {
    for (int depth = 0; depth < 8; ++depth) {
        if (inputs.count(id)) {
            *src = id;
            return true;
        }
        auto it = producer.find(id);
        if (it == producer.end()) return false;
        const work_op_t &w = ops[it->second];
        if (!is_carrier(w.kind) || w.src->inputs.empty()) return false;
        id = w.src->inputs[0].id;
    }
    return false;
}

// Every tensor's shape before --mb: the graph inputs as they stand,
// then each op's outputs by shape inference (the file's shapes where an
// op cannot be inferred). Files often leave intermediate shapes unknown.
std::map<size_t, logical_tensor_t> shapes_before_mb(
        const std::vector<work_op_t> &ops, const std::vector<size_t> &order,
        const std::map<size_t, logical_tensor_t> &tensors) {
    std::map<size_t, logical_tensor_t> shape = tensors;
    for (size_t i : order) {
        const work_op_t &w = ops[i];
        ir::op_t op;
        op.id = w.src->id;
        op.kind = w.kind;
        op.attrs = w.attrs;
        bool known = true;
        for (const auto &lt : w.src->inputs) {
            auto it = shape.find(lt.id);
            op.inputs.push_back(it != shape.end() ? it->second : lt);
            known = known && ir::shape_known(op.inputs.back());
        }
        for (const auto &lt : w.src->outputs)
            op.outputs.push_back(ir::make_lt_unknown(lt.id, lt.data_type));
        const ops::op_def_t *def = ops::find_op_def(op.kind);
        const bool inferred = known && def && def->infer
                && ops::infer_shapes(op) == dnnl_success;
        for (size_t k = 0; k < op.outputs.size(); ++k)
            shape[w.src->outputs[k].id]
                    = inferred ? op.outputs[k] : w.src->outputs[k];
    }
    return shape;
}

// The graph inputs --mb rewrites: those carries_batch() finds, plus the
// inputs that must follow the batch through the graph (file shapes, in
// dependency order). An op with a batch-carrying input passes the batch
// to its outputs of the same dim 0. Another input of that op (a graph
// input, or one reached from a graph input through quantization / type
// conversion / reorder) follows when it has the same shape (backward
// ops' diff_dst, binary ops without broadcast), or rank >= 2 and the same
// batch dim 0 when that batch is not 1 (per-sample operands such as
// N x C x 1 x 1, normalization statistics); DynamicDequantize's scales
// and zero points follow on equal rank and dim 0 (per-group on the batch
// dim: one group per sample), LayerNormBackward's statistics on dim 0.
// Weight ports of MatMul and convolutions
// never do. Returns every tensor found to carry the batch (graph inputs
// and, by file shapes, intermediates).
std::set<size_t> batch_tensors(const std::vector<work_op_t> &ops,
        const std::vector<size_t> &order,
        const std::map<size_t, size_t> &producer,
        const std::map<size_t, std::vector<std::pair<size_t, size_t>>> &uses,
        const std::vector<size_t> &inputs,
        const std::map<size_t, logical_tensor_t> &shape) {
    std::set<size_t> carried;
    const std::set<size_t> is_input(inputs.begin(), inputs.end());
    for (size_t id : inputs)
        if (carries_batch(ops, uses, id)) carried.insert(id);
    for (size_t i : order) {
        const work_op_t &w = ops[i];
        std::vector<logical_tensor_t> in;
        for (const auto &lt : w.src->inputs)
            in.push_back(shape.at(lt.id));
        const logical_tensor_t *c = nullptr;
        for (const auto &lt : in)
            if (carried.count(lt.id) && lt.ndims >= 1) {
                c = &lt;
                break;
            }
        if (!c) continue;
        const bool dyn_q = w.kind == dnnl_graph_op_dynamic_dequantize
                || w.kind == dnnl_graph_op_dynamic_quantize;
        for (size_t p = 0; p < in.size(); ++p) {
            const logical_tensor_t &lt = in[p];
            size_t src = 0;
            if (carried.count(lt.id) || lt.ndims < 1
                    || (weighted(w.kind) && p > 0)
                    || !carrier_source(ops, producer, is_input, lt.id, &src))
                continue;
            const bool same_rank = lt.ndims == c->ndims;
            const bool same_n = lt.dims[0] == c->dims[0];
            // LayerNormBackward's mean and variance: one per normalized
            // group, batch first whatever their rank.
            const bool ln_stats = w.kind == dnnl_graph_op_layer_norm_backward
                    && (p == 2 || p == 3);
            const bool follows = same_dims(lt, *c)
                    || (lt.ndims >= 2 && same_n && c->dims[0] != 1)
                    || (((dyn_q && same_rank) || ln_stats) && same_n);
            if (follows) {
                carried.insert(src);
                carried.insert(lt.id);
            }
        }
        for (const auto &o : w.src->outputs) {
            const logical_tensor_t &lt = shape.at(o.id);
            if (lt.ndims >= 1 && lt.dims[0] == c->dims[0])
                carried.insert(lt.id);
        }
    }
    return carried;
}

} // namespace

prep_status_t prepare_case(const std::string &path, const case_opts_t &opts,
        prepared_t &out, std::string &error) {
    out = prepared_t();
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    ir::graph_desc_t desc;
    std::string base = path.substr(path.rfind('/') + 1);
    if (!f || ir::parse_graph_json(ss.str(), base, desc) != dnnl_success) {
        error = f ? last_error() : "cannot read " + path;
        return prep_status_t::bad_file;
    }
    out.engine_kind = desc.engine_kind;
    out.fpmath = desc.fpmath;
    out.apply_to_int = desc.apply_to_int;

    // Resolve kinds; keep the attributes the library knows.
    std::vector<work_op_t> ops;
    std::map<size_t, size_t> op_index; // op id -> index
    for (const auto &jop : desc.ops) {
        work_op_t w {&jop, dnnl_graph_op_last_symbol, {}};
        if (!ops::op_kind_from_name(jop.kind, &w.kind)) {
            error = "op " + std::to_string(jop.id) + ": unknown op kind '"
                    + jop.kind + "'";
            return prep_status_t::bad_file;
        }
        for (const auto &a : jop.attrs)
            if (a.id != dnnl_graph_op_attr_undef) w.attrs[a.id] = a.value;
        op_index[jop.id] = ops.size();
        ops.push_back(std::move(w));
    }

    // --op-kind: swap kinds; drop attributes the new kind does not take.
    if (!opts.op_kind.empty())
        for (const auto &item : split(opts.op_kind, '+')) {
            auto f2 = split(item, ':');
            int64_t id = 0;
            op_kind_t k;
            if (f2.size() != 2 || !parse_i64(f2[0], id) || !op_index.count(id)
                    || !ops::op_kind_from_name(f2[1], &k)) {
                error = "--op-kind: bad item '" + item + "'";
                return prep_status_t::bad_option;
            }
            work_op_t &w = ops[op_index[id]];
            w.kind = k;
            const ops::op_def_t *def = ops::find_op_def(k);
            for (auto it = w.attrs.begin(); it != w.attrs.end();)
                it = (def && !def->schema.find_attr(it->first))
                        ? w.attrs.erase(it)
                        : std::next(it);
        }

    // --op-attrs.
    if (!opts.op_attrs.empty())
        for (const auto &item : split(opts.op_attrs, '+')) {
            size_t colon = item.find(':');
            int64_t id = 0;
            if (colon == std::string::npos
                    || !parse_i64(item.substr(0, colon), id)
                    || !op_index.count(id)) {
                error = "--op-attrs: bad op id in '" + item + "'";
                return prep_status_t::bad_option;
            }
            for (const auto &nv : split(item.substr(colon + 1), '*')) {
                size_t c2 = nv.find(':');
                attr_id_t a;
                if (c2 == std::string::npos
                        || !ir::attr_from_name(nv.substr(0, c2), &a)) {
                    error = "--op-attrs: bad attribute in '" + nv + "'";
                    return prep_status_t::bad_option;
                }
                ir::attr_value_t v;
                if (!parse_attr_value(a, nv.substr(c2 + 1), v, error))
                    return prep_status_t::bad_option;
                ops[op_index[id]].attrs[a] = v;
            }
        }

    // --attr-fpmath.
    if (!opts.attr_fpmath.empty()) {
        auto f2 = split(opts.attr_fpmath, ':');
        if (!ir::fpmath_mode_from_json_name(f2[0], &out.fpmath)) {
            error = "--attr-fpmath: unknown mode '" + f2[0] + "'";
            return prep_status_t::bad_option;
        }
        out.apply_to_int = f2.size() > 1 && (f2[1] == "true" || f2[1] == "1");
    }

    // Edges and topological order (ties in file order).
    std::map<size_t, size_t> producer; // tensor id -> op index
    std::map<size_t, std::vector<std::pair<size_t, size_t>>> uses;
    for (size_t i = 0; i < ops.size(); ++i) {
        for (const auto &lt : ops[i].src->outputs) {
            if (producer.count(lt.id)) {
                error = "tensor " + std::to_string(lt.id)
                        + " has more than one producer";
                return prep_status_t::bad_file;
            }
            producer[lt.id] = i;
        }
        for (size_t p = 0; p < ops[i].src->inputs.size(); ++p)
            uses[ops[i].src->inputs[p].id].push_back({i, p});
    }
    std::vector<size_t> order, pending(ops.size(), 0);
    std::vector<std::vector<size_t>> next(ops.size());
    for (size_t i = 0; i < ops.size(); ++i)
        for (const auto &lt : ops[i].src->inputs)
            if (producer.count(lt.id)) {
                ++pending[i];
                next[producer[lt.id]].push_back(i);
            }
    std::set<size_t> ready;
    for (size_t i = 0; i < ops.size(); ++i)
        if (!pending[i]) ready.insert(i);
    while (!ready.empty()) {
        size_t i = *ready.begin();
        ready.erase(ready.begin());
        order.push_back(i);
        for (size_t j : next[i])
            if (--pending[j] == 0) ready.insert(j);
    }
    if (order.size() != ops.size()) {
        error = "the graph has a cycle";
        return prep_status_t::bad_file;
    }

    // Data types per tensor id (--dt), decided once per id.
    std::map<size_t, data_type_t> dt_of;
    for (const auto &w : ops) {
        for (const auto &lt : w.src->inputs) dt_of.emplace(lt.id, lt.data_type);
        for (const auto &lt : w.src->outputs) dt_of[lt.id] = lt.data_type;
    }
    if (!opts.dt.empty()) {
        data_type_t dt;
        if (opts.dt.find(':') == std::string::npos) {
            if (!ir::dtype_from_name(opts.dt, &dt) || !is_float(dt)) {
                error = "--dt: expected f32, bf16 or f16, got '" + opts.dt + "'";
                return prep_status_t::bad_option;
            }
            std::set<size_t> keep; // norm statistics and affine parameters
            for (const auto &w : ops) {
                switch (w.kind) {
                    case dnnl_graph_op_type_cast:
                    case dnnl_graph_op_quantize:
                    case dnnl_graph_op_dequantize:
                    case dnnl_graph_op_dynamic_quantize:
                    case dnnl_graph_op_dynamic_dequantize:
                        error = "--dt cannot retype a graph with "
                                + std::string(kind_name(w.kind));
                        return prep_status_t::bad_option;
                    case dnnl_graph_op_batch_norm_inference:
                    case dnnl_graph_op_batch_norm_forward_training:
                    case dnnl_graph_op_batch_norm_backward:
                    case dnnl_graph_op_layer_norm:
                    case dnnl_graph_op_layer_norm_backward:
                    case dnnl_graph_op_group_norm: {
                        const auto &sch = ops::find_op_def(w.kind)->schema;
                        auto name_at = [](const std::vector<ops::port_spec_t> &ports,
                                               size_t k) {
                            return k < ports.size() ? ports[k].name : std::string();
                        };
                        for (size_t k = 0; k < w.src->inputs.size(); ++k) {
                            std::string n = name_at(sch.inputs(), k);
                            if (n != "src" && n != "diff_dst")
                                keep.insert(w.src->inputs[k].id);
                        }
                        for (size_t k = 0; k < w.src->outputs.size(); ++k) {
                            std::string n = name_at(sch.outputs(), k);
                            if (n != "dst" && n != "diff_src")
                                keep.insert(w.src->outputs[k].id);
                        }
                        break;
                    }
                    case dnnl_graph_op_softmax:
                        // The statistics output (training forward) is f32.
                        for (size_t k = 1; k < w.src->outputs.size(); ++k)
                            keep.insert(w.src->outputs[k].id);
                        break;
                    default: break;
                }
            }
            for (auto &kv : dt_of)
                if (is_float(kv.second) && !keep.count(kv.first)) kv.second = dt;
        } else {
            for (const auto &item : split(opts.dt, '+')) {
                auto f2 = split(item, ':');
                int64_t id = 0;
                if (f2.size() != 2 || !parse_i64(f2[0], id) || !dt_of.count(id)
                        || !ir::dtype_from_name(f2[1], &dt)) {
                    error = "--dt: bad item '" + item + "'";
                    return prep_status_t::bad_option;
                }
                dt_of[id] = dt;
            }
        }
    }

    // Graph inputs (first-use order) and their metadata from the first use.
    for (size_t i : order)
        for (const auto &lt : ops[i].src->inputs)
            if (!producer.count(lt.id) && !out.tensors.count(lt.id)) {
                logical_tensor_t t = lt;
                t.data_type = dt_of[lt.id];
                if (!ir::shape_known(t)) {
                    error = "graph input " + std::to_string(lt.id)
                            + " has no known shape";
                    return prep_status_t::bad_file;
                }
                if (!ir::strides_known(t)) {
                    dims_t d = ir::dims_of(t);
                    set_strided(t, d, ir::dense_strides(d));
                }
                out.tensors[lt.id] = t;
                out.inputs.push_back(lt.id);
            }

    // --in-shapes.
    if (!opts.in_shapes.empty())
        for (const auto &item : split(opts.in_shapes, '+')) {
            size_t colon = item.find(':');
            int64_t id = 0;
            if (colon == std::string::npos
                    || !parse_i64(item.substr(0, colon), id)
                    || !out.tensors.count(id)) {
                error = "--in-shapes: '" + item + "' does not name a graph input";
                return prep_status_t::bad_option;
            }
            auto parts = split(item.substr(colon + 1), '*');
            std::vector<int64_t> dims, strides;
            // "ID:*TAG" (no shape) keeps the graph's shape and changes only
            // the memory order, as benchdnn reads it.
            const bool keep_shape = parts.size() == 2 && parts[0].empty();
            if (keep_shape) dims = ir::dims_of(out.tensors[id]);
            if (parts.size() > 2
                    || (!keep_shape && !parse_dims(parts[0], dims))
                    || dims.size() > DNNL_MAX_NDIMS) {
                error = "--in-shapes: bad shape in '" + item + "'";
                return prep_status_t::bad_option;
            }
            int64_t count = 0; // dense strides below must not overflow
            if (!llga::checked_extent(dims.data(), (int)dims.size(), count)) {
                error = "--in-shapes: shape in '" + item + "' has a negative "
                        "dimension or more than 2^48 elements";
                return prep_status_t::bad_option;
            }
            strides = ir::dense_strides(dims);
            if (parts.size() == 2) {
                const std::string &s = parts[1];
                bool tag = !s.empty() && s[0] >= 'a' && s[0] <= 'l';
                if (tag ? !tag_strides(s, dims, strides)
                        : (!parse_dims(s, strides) || strides.size() != dims.size())) {
                    error = "--in-shapes: bad strides in '" + item + "'";
                    return prep_status_t::bad_option;
                }
            }
            set_strided(out.tensors[id], dims, strides);
        }

    // --mb: rewrite dim 0 of the inputs that carry the batch.
    // Shape attributes that spell the batch follow it too: StaticReshape's
    // target shape and AvgPoolBackward's src_shape, when their dim 0 is the
    // batch of a batch-carrying input 0.
    std::set<size_t> mb_inputs;
    if (opts.mb > 0) {
        const std::map<size_t, logical_tensor_t> shape
                = shapes_before_mb(ops, order, out.tensors);
        const std::set<size_t> carried = batch_tensors(
                ops, order, producer, uses, out.inputs, shape);
        for (size_t id : out.inputs)
            if (carried.count(id)) mb_inputs.insert(id);
        for (work_op_t &w : ops) {
            const attr_id_t a = w.kind == dnnl_graph_op_static_reshape
                    ? dnnl_graph_op_attr_shape
                    : w.kind == dnnl_graph_op_avg_pool_backward
                    ? dnnl_graph_op_attr_src_shape
                    : dnnl_graph_op_attr_undef;
            auto it = w.attrs.find(a);
            if (a == dnnl_graph_op_attr_undef || it == w.attrs.end()
                    || w.src->inputs.empty()
                    || !carried.count(w.src->inputs[0].id))
                continue;
            const logical_tensor_t &src = shape.at(w.src->inputs[0].id);
            std::vector<int64_t> v = it->second.i;
            if (src.ndims >= 1 && !v.empty() && v[0] == src.dims[0]) {
                v[0] = opts.mb;
                it->second = ir::attr_value_t::make_s64s(v);
            }
        }
    }
    if (opts.mb > 0)
        for (size_t id : mb_inputs) {
            logical_tensor_t &t = out.tensors[id];
            if (t.ndims < 1) continue;
            const logical_tensor_t before = t;
            dims_t d = ir::dims_of(t);
            d[0] = opts.mb;
            set_strided(t, d, strides_in_order_of(before, d));
        }

    // Shape inference op by op, in dependency order.
    for (size_t i : order) {
        const work_op_t &w = ops[i];
        ir::op_t op;
        op.id = w.src->id;
        op.kind = w.kind;
        op.name = w.src->name;
        op.attrs = w.attrs;
        for (const auto &lt : w.src->inputs) op.inputs.push_back(out.tensors.at(lt.id));
        for (const auto &lt : w.src->outputs) {
            logical_tensor_t t = ir::make_lt_unknown(lt.id, dt_of[lt.id]);
            t.property = lt.property;
            op.outputs.push_back(t);
        }
        const bool quant = op.kind == dnnl_graph_op_quantize
                || op.kind == dnnl_graph_op_dequantize;
        if (quant && op.has_attr(dnnl_graph_op_attr_scales)) {
            // Powers of two keep int8 round trips exact (as benchdnn does),
            // and per-channel lists follow the channel count after rewrites.
            std::vector<float> sc = op.get_f32s(dnnl_graph_op_attr_scales);
            for (float &s : sc)
                if (s > 0) s = std::exp2(std::ceil(std::log2(s)));
            std::vector<int64_t> zp = op.get_s64s(dnnl_graph_op_attr_zps);
            if (op.get_str(dnnl_graph_op_attr_qtype, "per_tensor") == "per_channel"
                    && !op.inputs.empty() && op.inputs[0].ndims > 0) {
                int64_t ax = op.get_s64(dnnl_graph_op_attr_axis, 1);
                if (ax < 0) ax += op.inputs[0].ndims;
                if (ax >= 0 && ax < op.inputs[0].ndims) {
                    size_t c = static_cast<size_t>(op.inputs[0].dims[ax]);
                    auto cyc = [c](auto v) {
                        decltype(v) r;
                        for (size_t k = 0; k < c && !v.empty(); ++k)
                            r.push_back(v[k % v.size()]);
                        return r;
                    };
                    sc = cyc(sc);
                    if (!zp.empty()) zp = cyc(zp);
                }
            }
            op.set_attr(dnnl_graph_op_attr_scales, ir::attr_value_t::make_f32s(sc));
            if (op.has_attr(dnnl_graph_op_attr_zps))
                op.set_attr(dnnl_graph_op_attr_zps, ir::attr_value_t::make_s64s(zp));
        }
        if (ops::verify_op(op) != dnnl_success) {
            error = last_error();
            // Downstream of an op we could not infer, shapes are unknown.
            return out.unimplemented.empty() ? prep_status_t::bad_option
                                             : prep_status_t::unimplemented;
        }
        const ops::op_def_t *def = ops::find_op_def(op.kind);
        const bool marker = op.kind == dnnl_graph_op_end
                || op.kind == dnnl_graph_op_wildcard;
        if (!marker && def && def->infer) {
            status_t st = ops::infer_shapes(op);
            if (st == dnnl_unimplemented) {
                out.unimplemented.push_back(ops::describe(op) + ": " + last_error());
            } else if (st != dnnl_success) {
                error = last_error();
                return out.unimplemented.empty() ? prep_status_t::bad_option
                                                 : prep_status_t::unimplemented;
            }
        } else if (!marker || op.kind == dnnl_graph_op_wildcard) {
            // No inference: keep what the file declares.
            for (size_t k = 0; k < op.outputs.size(); ++k) {
                logical_tensor_t t = w.src->outputs[k];
                t.data_type = op.outputs[k].data_type;
                op.outputs[k] = t;
            }
        }
        if (!marker && (!def || !def->ref || !def->infer))
            out.unimplemented.push_back(ops::describe(op)
                    + ": no reference implementation");
        if (op.kind == dnnl_graph_op_wildcard)
            out.unimplemented.push_back(ops::describe(op)
                    + ": Wildcard stands for a framework op");
        for (size_t k = 0; k < op.outputs.size(); ++k) {
            logical_tensor_t &t = op.outputs[k];
            if (ir::shape_known(t)) {
                dims_t d = ir::dims_of(t);
                set_strided(t, d, strides_in_order_of(w.src->outputs[k], d));
            }
            out.tensors[t.id] = t;
        }
        out.ops.push_back(std::move(op));
    }

    // Graph outputs: produced and consumed by no op other than End.
    for (const auto &op : out.ops)
        for (const auto &t : op.outputs) {
            bool consumed = false;
            auto it = uses.find(t.id);
            if (it != uses.end())
                for (const auto &u : it->second)
                    consumed |= ops[u.first].kind != dnnl_graph_op_end;
            if (!consumed) out.outputs.push_back(t.id);
        }
    // Hostile sizes and strides end here with a message (check_case.cpp).
    out.fill = opts.fill;
    if (!check_case_layouts(out, error)) return prep_status_t::bad_option;
    if (!out.unimplemented.empty()) return prep_status_t::unimplemented;
    return prep_status_t::ok;
}

} // namespace llga_run
