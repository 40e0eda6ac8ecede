// SPDX-License-Identifier: Apache-2.0
// tools/run/prepare.cpp — loading a graph file and applying the case rewrites
// (see prepare.hpp). Rules follow shared/spec/json-format.md §7 (benchdnn).
#include "prepare.hpp"
#include "prepare_detail.hpp"

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

} // namespace

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



namespace {

// Everything the stages of prepare_case share. Each stage returns ok to go
// on, or the status of the case with `error` set.
struct prep_ctx_t {
    const case_opts_t &opts;
    prepared_t &out;
    std::string &error;
    ir::graph_desc_t desc;
    std::vector<work_op_t> ops;
    std::map<size_t, size_t> op_index; // op id -> index
    std::map<size_t, size_t> producer; // tensor id -> op index
    std::map<size_t, std::vector<std::pair<size_t, size_t>>> uses;
    std::vector<size_t> order;          // op indices, dependency order
    std::map<size_t, data_type_t> dt_of; // final data type per tensor id
    // What the case options rewrote: (op id, attribute) by --op-attrs and
    // graph inputs by --in-shapes (stages that link shapes to attributes
    // must know which side the user chose).
    std::set<std::pair<size_t, attr_id_t>> attrs_set;
    std::set<size_t> shapes_set;
};

#define LLGA_RUN_STAGE(call) \
    do { \
        const prep_status_t st_ = (call); \
        if (st_ != prep_status_t::ok) return st_; \
    } while (0)

// Reads and parses the file; takes the graph's engine and fpmath mode.
prep_status_t load_file(prep_ctx_t &c, const std::string &path) {
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    std::string base = path.substr(path.rfind('/') + 1);
    if (!f || ir::parse_graph_json(ss.str(), base, c.desc) != dnnl_success) {
        c.error = f ? last_error() : "cannot read " + path;
        return prep_status_t::bad_file;
    }
    c.out.engine_kind = c.desc.engine_kind;
    c.out.fpmath = c.desc.fpmath;
    c.out.apply_to_int = c.desc.apply_to_int;
    return prep_status_t::ok;
}

// Resolves op kinds; keeps the attributes the library knows.
prep_status_t resolve_kinds(prep_ctx_t &c) {
    for (const auto &jop : c.desc.ops) {
        work_op_t w {&jop, dnnl_graph_op_last_symbol, {}};
        if (!ops::op_kind_from_name(jop.kind, &w.kind)) {
            c.error = "op " + std::to_string(jop.id) + ": unknown op kind '"
                    + jop.kind + "'";
            return prep_status_t::bad_file;
        }
        for (const auto &a : jop.attrs)
            if (a.id != dnnl_graph_op_attr_undef) w.attrs[a.id] = a.value;
        c.op_index[jop.id] = c.ops.size();
        c.ops.push_back(std::move(w));
    }
    return prep_status_t::ok;
}

// --op-kind: swap kinds; drop attributes the new kind does not take.
prep_status_t apply_op_kind(prep_ctx_t &c) {
    if (c.opts.op_kind.empty()) return prep_status_t::ok;
    for (const auto &item : split(c.opts.op_kind, '+')) {
        auto f2 = split(item, ':');
        int64_t id = 0;
        op_kind_t k;
        if (f2.size() != 2 || !parse_i64(f2[0], id) || !c.op_index.count(id)
                || !ops::op_kind_from_name(f2[1], &k)) {
            c.error = "--op-kind: bad item '" + item + "'";
            return prep_status_t::bad_option;
        }
        work_op_t &w = c.ops[c.op_index[id]];
        w.kind = k;
        const ops::op_def_t *def = ops::find_op_def(k);
        for (auto it = w.attrs.begin(); it != w.attrs.end();)
            it = (def && !def->schema.find_attr(it->first)) ? w.attrs.erase(it)
                                                            : std::next(it);
    }
    return prep_status_t::ok;
}

// --op-attrs.
prep_status_t apply_op_attrs(prep_ctx_t &c) {
    if (c.opts.op_attrs.empty()) return prep_status_t::ok;
    for (const auto &item : split(c.opts.op_attrs, '+')) {
        size_t colon = item.find(':');
        int64_t id = 0;
        if (colon == std::string::npos || !parse_i64(item.substr(0, colon), id)
                || !c.op_index.count(id)) {
            c.error = "--op-attrs: bad op id in '" + item + "'";
            return prep_status_t::bad_option;
        }
        for (const auto &nv : split(item.substr(colon + 1), '*')) {
            size_t c2 = nv.find(':');
            attr_id_t a;
            if (c2 == std::string::npos
                    || !ir::attr_from_name(nv.substr(0, c2), &a)) {
                c.error = "--op-attrs: bad attribute in '" + nv + "'";
                return prep_status_t::bad_option;
            }
            ir::attr_value_t v;
            const std::string text = nv.substr(c2 + 1);
            auto &attrs = c.ops[c.op_index[id]].attrs;
            // Interpolate's `sizes` written with fractional entries (the
            // corpus's bf16/f16 lines give output/input ratios there) are
            // scales: the op takes exactly one of the two.
            if (a == dnnl_graph_op_attr_sizes
                    && text.find('.') != std::string::npos
                    && parse_attr_value(dnnl_graph_op_attr_scales, text, v,
                            c.error)) {
                attrs.erase(dnnl_graph_op_attr_sizes);
                attrs[dnnl_graph_op_attr_scales] = v;
                c.attrs_set.insert({static_cast<size_t>(id),
                        dnnl_graph_op_attr_scales});
                continue;
            }
            if (!parse_attr_value(a, text, v, c.error))
                return prep_status_t::bad_option;
            attrs[a] = v;
            c.attrs_set.insert({static_cast<size_t>(id), a});
        }
    }
    return prep_status_t::ok;
}

// --attr-fpmath.
prep_status_t apply_fpmath(prep_ctx_t &c) {
    if (c.opts.attr_fpmath.empty()) return prep_status_t::ok;
    auto f2 = split(c.opts.attr_fpmath, ':');
    if (!ir::fpmath_mode_from_json_name(f2[0], &c.out.fpmath)) {
        c.error = "--attr-fpmath: unknown mode '" + f2[0] + "'";
        return prep_status_t::bad_option;
    }
    c.out.apply_to_int = f2.size() > 1 && (f2[1] == "true" || f2[1] == "1");
    return prep_status_t::ok;
}

// Edges and topological order (ties in file order).
prep_status_t order_ops(prep_ctx_t &c) {
    auto &ops = c.ops;
    for (size_t i = 0; i < ops.size(); ++i) {
        for (const auto &lt : ops[i].src->outputs) {
            if (c.producer.count(lt.id)) {
                c.error = "tensor " + std::to_string(lt.id)
                        + " has more than one producer";
                return prep_status_t::bad_file;
            }
            c.producer[lt.id] = i;
        }
        for (size_t p = 0; p < ops[i].src->inputs.size(); ++p)
            c.uses[ops[i].src->inputs[p].id].push_back({i, p});
    }
    std::vector<size_t> pending(ops.size(), 0);
    std::vector<std::vector<size_t>> next(ops.size());
    for (size_t i = 0; i < ops.size(); ++i)
        for (const auto &lt : ops[i].src->inputs)
            if (c.producer.count(lt.id)) {
                ++pending[i];
                next[c.producer[lt.id]].push_back(i);
            }
    std::set<size_t> ready;
    for (size_t i = 0; i < ops.size(); ++i)
        if (!pending[i]) ready.insert(i);
    while (!ready.empty()) {
        size_t i = *ready.begin();
        ready.erase(ready.begin());
        c.order.push_back(i);
        for (size_t j : next[i])
            if (--pending[j] == 0) ready.insert(j);
    }
    if (c.order.size() != ops.size()) {
        c.error = "the graph has a cycle";
        return prep_status_t::bad_file;
    }
    return prep_status_t::ok;
}

// Tensors a whole-graph --dt leaves alone: norm statistics and affine
// parameters, SoftMax's statistics output. Refuses graphs with explicit
// type conversions.
prep_status_t dt_keep_set(prep_ctx_t &c, std::set<size_t> &keep) {
    for (const auto &w : c.ops) {
        switch (w.kind) {
            case dnnl_graph_op_type_cast:
            case dnnl_graph_op_quantize:
            case dnnl_graph_op_dequantize:
            case dnnl_graph_op_dynamic_quantize:
            case dnnl_graph_op_dynamic_dequantize:
                c.error = "--dt cannot retype a graph with "
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
    return prep_status_t::ok;
}

// Data types per tensor id (--dt), decided once per id.
prep_status_t decide_dtypes(prep_ctx_t &c) {
    for (const auto &w : c.ops) {
        for (const auto &lt : w.src->inputs) c.dt_of.emplace(lt.id, lt.data_type);
        for (const auto &lt : w.src->outputs) c.dt_of[lt.id] = lt.data_type;
    }
    const std::string &opt = c.opts.dt;
    if (opt.empty()) return prep_status_t::ok;
    data_type_t dt;
    if (opt.find(':') == std::string::npos) {
        if (!ir::dtype_from_name(opt, &dt) || !is_float(dt)) {
            c.error = "--dt: expected f32, bf16 or f16, got '" + opt + "'";
            return prep_status_t::bad_option;
        }
        std::set<size_t> keep;
        LLGA_RUN_STAGE(dt_keep_set(c, keep));
        for (auto &kv : c.dt_of)
            if (is_float(kv.second) && !keep.count(kv.first)) kv.second = dt;
        return prep_status_t::ok;
    }
    for (const auto &item : split(opt, '+')) {
        auto f2 = split(item, ':');
        int64_t id = 0;
        if (f2.size() != 2 || !parse_i64(f2[0], id) || !c.dt_of.count(id)
                || !ir::dtype_from_name(f2[1], &dt)) {
            c.error = "--dt: bad item '" + item + "'";
            return prep_status_t::bad_option;
        }
        c.dt_of[id] = dt;
    }
    return prep_status_t::ok;
}

// Graph inputs (first-use order) and their metadata from the first use.
prep_status_t collect_inputs(prep_ctx_t &c) {
    for (size_t i : c.order)
        for (const auto &lt : c.ops[i].src->inputs)
            if (!c.producer.count(lt.id) && !c.out.tensors.count(lt.id)) {
                logical_tensor_t t = lt;
                t.data_type = c.dt_of[lt.id];
                if (!ir::shape_known(t)) {
                    c.error = "graph input " + std::to_string(lt.id)
                            + " has no known shape";
                    return prep_status_t::bad_file;
                }
                if (!ir::strides_known(t)) {
                    dims_t d = ir::dims_of(t);
                    set_strided(t, d, ir::dense_strides(d));
                }
                c.out.tensors[lt.id] = t;
                c.out.inputs.push_back(lt.id);
            }
    return prep_status_t::ok;
}

// --in-shapes. As in benchdnn, an item naming a tensor that is not a graph
// input is ignored (with a note shown at -v2); a malformed item is an error.
prep_status_t apply_in_shapes(prep_ctx_t &c) {
    if (c.opts.in_shapes.empty()) return prep_status_t::ok;
    for (const auto &item : split(c.opts.in_shapes, '+')) {
        size_t colon = item.find(':');
        int64_t id = 0;
        if (colon == std::string::npos || !parse_i64(item.substr(0, colon), id)) {
            c.error = "--in-shapes: bad item '" + item + "'";
            return prep_status_t::bad_option;
        }
        if (!c.out.tensors.count(id)) {
            c.out.notes.push_back("--in-shapes: '" + item
                    + "' ignored: tensor " + std::to_string(id)
                    + " is not a graph input");
            continue;
        }
        auto parts = split(item.substr(colon + 1), '*');
        std::vector<int64_t> dims, strides;
        // "ID:*TAG" (no shape) keeps the graph's shape and changes only
        // the memory order, as benchdnn reads it.
        const bool keep_shape = parts.size() == 2 && parts[0].empty();
        if (keep_shape) dims = ir::dims_of(c.out.tensors[id]);
        if (parts.size() > 2 || (!keep_shape && !parse_dims(parts[0], dims))
                || dims.size() > DNNL_MAX_NDIMS) {
            c.error = "--in-shapes: bad shape in '" + item + "'";
            return prep_status_t::bad_option;
        }
        int64_t count = 0; // dense strides below must not overflow
        if (!llga::checked_extent(dims.data(), (int)dims.size(), count)) {
            c.error = "--in-shapes: shape in '" + item + "' has a negative "
                    "dimension or more than 2^48 elements";
            return prep_status_t::bad_option;
        }
        strides = ir::dense_strides(dims);
        if (parts.size() == 2) {
            const std::string &s = parts[1];
            bool tag = !s.empty() && s[0] >= 'a' && s[0] <= 'l';
            if (tag ? !tag_strides(s, dims, strides)
                    : (!parse_dims(s, strides) || strides.size() != dims.size())) {
                c.error = "--in-shapes: bad strides in '" + item + "'";
                return prep_status_t::bad_option;
            }
        }
        set_strided(c.out.tensors[id], dims, strides);
        c.shapes_set.insert(static_cast<size_t>(id));
    }
    return prep_status_t::ok;
}

// Per-group DynamicDequantize ties its scale/zero-point shapes to
// group_shape (src = scales * group_shape per dim). As benchdnn does, a case
// that overrides only group_shape reshapes the scales and zero points (graph
// inputs) to src / group_shape, and one that overrides only their shapes
// derives group_shape from them; with both (or neither) nothing changes.
prep_status_t link_group_shapes(prep_ctx_t &c) {
    for (work_op_t &w : c.ops) {
        if (w.kind != dnnl_graph_op_dynamic_dequantize) continue;
        auto q = w.attrs.find(dnnl_graph_op_attr_qtype);
        auto g = w.attrs.find(dnnl_graph_op_attr_group_shape);
        if (q == w.attrs.end() || q->second.s != "per_group" || g == w.attrs.end()
                || w.src->inputs.size() < 2)
            continue;
        const auto &ins = w.src->inputs;
        if (!c.out.tensors.count(ins[0].id) || !c.out.tensors.count(ins[1].id))
            continue;
        const bool by_attr = c.attrs_set.count(
                {w.src->id, dnnl_graph_op_attr_group_shape});
        bool by_shape = false;
        for (const auto &lt : ins)
            by_shape = by_shape || c.shapes_set.count(lt.id);
        if (by_attr == by_shape) continue;
        const dims_t src = ir::dims_of(c.out.tensors[ins[0].id]);
        const dims_t scales = ir::dims_of(c.out.tensors[ins[1].id]);
        const std::vector<int64_t> group = g->second.i;
        const std::string what = std::string("op ") + std::to_string(w.src->id)
                + " (DynamicDequantize): ";
        if (group.size() != src.size() || scales.size() != src.size()) {
            c.error = what + "group_shape, scales and src must have one rank";
            return prep_status_t::bad_option;
        }
        dims_t linked(src.size());
        for (size_t d = 0; d < src.size(); ++d) {
            const int64_t by = by_attr ? group[d] : scales[d];
            if (by <= 0 || src[d] % by != 0) {
                c.error = what + "src dim " + std::to_string(d) + " ("
                        + std::to_string(src[d]) + ") is not a multiple of "
                        + (by_attr ? "group_shape" : "the scales' dim")
                        + " (" + std::to_string(by) + ")";
                return prep_status_t::bad_option;
            }
            linked[d] = src[d] / by;
        }
        if (by_shape) {
            g->second = ir::attr_value_t::make_s64s(linked);
            continue;
        }
        for (size_t k = 1; k < ins.size() && k < 3; ++k) {
            auto t = c.out.tensors.find(ins[k].id);
            if (t == c.out.tensors.end()) continue;
            set_strided(t->second, linked, strides_in_order_of(t->second, linked));
        }
    }
    return prep_status_t::ok;
}

// --mb: rewrite dim 0 of the inputs that carry the batch. Shape attributes
// that spell the batch follow it too: StaticReshape's target shape and
// AvgPoolBackward's src_shape, when their dim 0 is the batch of a
// batch-carrying input 0.
prep_status_t apply_mb(prep_ctx_t &c) {
    const int64_t mb = c.opts.mb;
    if (mb <= 0) return prep_status_t::ok;
    const std::map<size_t, logical_tensor_t> shape
            = shapes_before_mb(c.ops, c.order, c.out.tensors);
    const std::set<size_t> carried = batch_tensors(
            c.ops, c.order, c.producer, c.uses, c.out.inputs, shape);
    for (work_op_t &w : c.ops) {
        const attr_id_t a = w.kind == dnnl_graph_op_static_reshape
                ? dnnl_graph_op_attr_shape
                : w.kind == dnnl_graph_op_avg_pool_backward
                ? dnnl_graph_op_attr_src_shape
                : dnnl_graph_op_attr_undef;
        auto it = w.attrs.find(a);
        if (a == dnnl_graph_op_attr_undef || it == w.attrs.end()
                || w.src->inputs.empty() || !carried.count(w.src->inputs[0].id))
            continue;
        const logical_tensor_t &src = shape.at(w.src->inputs[0].id);
        std::vector<int64_t> v = it->second.i;
        if (src.ndims >= 1 && !v.empty() && v[0] == src.dims[0]) {
            v[0] = mb;
            it->second = ir::attr_value_t::make_s64s(v);
        }
    }
    for (size_t id : c.out.inputs) {
        if (!carried.count(id)) continue;
        logical_tensor_t &t = c.out.tensors[id];
        if (t.ndims < 1) continue;
        const logical_tensor_t before = t;
        dims_t d = ir::dims_of(t);
        d[0] = mb;
        set_strided(t, d, strides_in_order_of(before, d));
    }
    return prep_status_t::ok;
}

// Quantize/Dequantize scales rounded up to powers of two (int8 round trips
// stay exact, as benchdnn does); per-channel lists follow the channel count
// after rewrites.
void round_quant_scales(ir::op_t &op) {
    const bool quant = op.kind == dnnl_graph_op_quantize
            || op.kind == dnnl_graph_op_dequantize;
    if (!quant || !op.has_attr(dnnl_graph_op_attr_scales)) return;
    std::vector<float> sc = op.get_f32s(dnnl_graph_op_attr_scales);
    for (float &s : sc)
        if (s > 0) s = std::exp2(std::ceil(std::log2(s)));
    std::vector<int64_t> zp = op.get_s64s(dnnl_graph_op_attr_zps);
    if (op.get_str(dnnl_graph_op_attr_qtype, "per_tensor") == "per_channel"
            && !op.inputs.empty() && op.inputs[0].ndims > 0) {
        int64_t ax = op.get_s64(dnnl_graph_op_attr_axis, 1);
        if (ax < 0) ax += op.inputs[0].ndims;
        if (ax >= 0 && ax < op.inputs[0].ndims) {
            size_t ch = static_cast<size_t>(op.inputs[0].dims[ax]);
            auto cyc = [ch](auto v) {
                decltype(v) r;
                for (size_t k = 0; k < ch && !v.empty(); ++k)
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

// One op of the final graph with its outputs inferred (or as the file
// declares them where the op has no inference); records ops that cannot be
// checked in out.unimplemented.
prep_status_t infer_op(prep_ctx_t &c, const work_op_t &w) {
    prepared_t &out = c.out;
    ir::op_t op;
    op.id = w.src->id;
    op.kind = w.kind;
    op.name = w.src->name;
    op.attrs = w.attrs;
    for (const auto &lt : w.src->inputs) op.inputs.push_back(out.tensors.at(lt.id));
    for (const auto &lt : w.src->outputs) {
        logical_tensor_t t = ir::make_lt_unknown(lt.id, c.dt_of[lt.id]);
        t.property = lt.property;
        op.outputs.push_back(t);
    }
    round_quant_scales(op);
    if (ops::verify_op(op) != dnnl_success) {
        c.error = last_error();
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
            c.error = last_error();
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
        out.unimplemented.push_back(
                ops::describe(op) + ": no reference implementation");
    if (op.kind == dnnl_graph_op_wildcard)
        out.unimplemented.push_back(
                ops::describe(op) + ": Wildcard stands for a framework op");
    for (size_t k = 0; k < op.outputs.size(); ++k) {
        logical_tensor_t &t = op.outputs[k];
        if (ir::shape_known(t)) {
            dims_t d = ir::dims_of(t);
            set_strided(t, d, strides_in_order_of(w.src->outputs[k], d));
        }
        out.tensors[t.id] = t;
    }
    out.ops.push_back(std::move(op));
    return prep_status_t::ok;
}

// Graph outputs: produced and consumed by no op other than End.
void find_outputs(prep_ctx_t &c) {
    for (const auto &op : c.out.ops)
        for (const auto &t : op.outputs) {
            bool consumed = false;
            auto it = c.uses.find(t.id);
            if (it != c.uses.end())
                for (const auto &u : it->second)
                    consumed |= c.ops[u.first].kind != dnnl_graph_op_end;
            if (!consumed) c.out.outputs.push_back(t.id);
        }
}

} // namespace

// The case rewrites run in benchdnn's order; each stage is one function.
prep_status_t prepare_case(const std::string &path, const case_opts_t &opts,
        prepared_t &out, std::string &error) {
    out = prepared_t();
    prep_ctx_t c {opts, out, error, {}, {}, {}, {}, {}, {}, {}, {}, {}};
    LLGA_RUN_STAGE(load_file(c, path));
    LLGA_RUN_STAGE(resolve_kinds(c));
    LLGA_RUN_STAGE(apply_op_kind(c));
    LLGA_RUN_STAGE(apply_op_attrs(c));
    LLGA_RUN_STAGE(apply_fpmath(c));
    LLGA_RUN_STAGE(order_ops(c));
    LLGA_RUN_STAGE(decide_dtypes(c));
    LLGA_RUN_STAGE(collect_inputs(c));
    LLGA_RUN_STAGE(apply_in_shapes(c));
    LLGA_RUN_STAGE(apply_mb(c));
    LLGA_RUN_STAGE(link_group_shapes(c));
    for (size_t i : c.order) LLGA_RUN_STAGE(infer_op(c, c.ops[i]));
    find_outputs(c);
    // Hostile sizes and strides end here with a message (check_case.cpp).
    out.fill = opts.fill;
    if (!check_case_layouts(out, error)) return prep_status_t::bad_option;
    if (!out.unimplemented.empty()) return prep_status_t::unimplemented;
    return prep_status_t::ok;
}

} // namespace llga_run
