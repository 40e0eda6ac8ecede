// SPDX-License-Identifier: Apache-2.0
// ir/json_graph.cpp — the graph-dump reader and writer of ir/json_graph.hpp.
// The reader checks every field's JSON type and spelling and reports the first
// problem with its position and context (file, op id, field); it never trusts
// input sizes (ranks are bounded by DNNL_MAX_NDIMS before any copy).
#include "ir/json_graph.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "base/checked_size.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace ir {

using json::member_t;
using json::type_t;
using json::value_t;

namespace {

struct name_entry_t {
    const char *name;
    int value;
};

const name_entry_t k_engines[] = {
        {"cpu", dnnl_cpu}, {"gpu", dnnl_gpu}, {"any", dnnl_any_engine}};
const name_entry_t k_fpmath[] = {{"strict", dnnl_fpmath_mode_strict},
        {"bf16", dnnl_fpmath_mode_bf16}, {"f16", dnnl_fpmath_mode_f16},
        {"tf32", dnnl_fpmath_mode_tf32}, {"any", dnnl_fpmath_mode_any}};
const name_entry_t k_layouts[] = {{"undef", dnnl_graph_layout_type_undef},
        {"any", dnnl_graph_layout_type_any},
        {"strided", dnnl_graph_layout_type_strided},
        {"opaque", dnnl_graph_layout_type_opaque}};
const name_entry_t k_properties[] = {
        {"undef", dnnl_graph_tensor_property_undef},
        {"variable", dnnl_graph_tensor_property_variable},
        {"constant", dnnl_graph_tensor_property_constant},
        {"host_scalar", dnnl_graph_tensor_property_host_scalar}};
// The JSON "type" spellings, in attr_kind_t terms.
const attr_kind_t k_attr_kinds[] = {attr_kind_t::f32, attr_kind_t::f32s,
        attr_kind_t::s64, attr_kind_t::s64s, attr_kind_t::boolean,
        attr_kind_t::str};

template <size_t n>
const char *name_of(const name_entry_t (&table)[n], int value) {
    for (const auto &e : table)
        if (e.value == value) return e.name;
    return nullptr;
}

template <size_t n>
bool value_of(const name_entry_t (&table)[n], const std::string &s, int *v) {
    for (const auto &e : table)
        if (s == e.name) {
            *v = e.value;
            return true;
        }
    return false;
}

// "cpu, gpu or any" for messages.
template <size_t n>
std::string choices(const name_entry_t (&table)[n]) {
    std::string r;
    for (size_t k = 0; k < n; ++k)
        r += std::string(k == 0 ? "" : k + 1 == n ? " or " : ", ")
                + table[k].name;
    return r;
}

// A user string made safe and short for an error message.
std::string quoted(const std::string &s) {
    std::string r = "'";
    for (size_t k = 0; k < s.size() && k < 48; ++k)
        r += (unsigned char)s[k] < 0x20 ? '?' : s[k];
    if (s.size() > 48) r += "...";
    return r + "'";
}

// What a value is, for "expected X, got Y".
std::string what_is(const value_t &v) {
    if (v.type == type_t::number && !v.integral)
        return "number " + v.text.substr(0, 32);
    return json::type_name(v.type);
}

class reader_t {
public:
    explicit reader_t(const std::string &source) : source_(source) {}

    status_t read_graph(const value_t &doc, graph_desc_t &g) {
        ctx_.clear();
        if (!doc.is(type_t::object))
            return err(doc, "expected a JSON object at the top level, got %s",
                    what_is(doc).c_str());
        LLGA_RETURN_IF_ERROR(string_field(doc, "version", g.version));
        int v = 0;
        LLGA_RETURN_IF_ERROR(enum_field(doc, "engine_kind", k_engines, v));
        g.engine_kind = (engine_kind_t)v;
        LLGA_RETURN_IF_ERROR(enum_field(doc, "fpmath_mode", k_fpmath, v));
        g.fpmath = (fpmath_mode_t)v;

        if (const value_t *a = doc.find("fpmath_mode_apply_to_int")) {
            // Dumps write "true"/"false"; benchdnn also takes "1"/"0".
            const char *f = "fpmath_mode_apply_to_int";
            if (!a->is(type_t::string))
                return err(*a, "field '%s': expected string, got %s", f,
                        what_is(*a).c_str());
            if (a->text == "true" || a->text == "1")
                g.apply_to_int = true;
            else if (a->text == "false" || a->text == "0")
                g.apply_to_int = false;
            else
                return err(*a, "field '%s': unknown value %s (expected true "
                               "or false)",
                        f, quoted(a->text).c_str());
            g.has_apply_to_int = true;
        }
        LLGA_RETURN_IF_ERROR(ports_field(doc, "input_ports", g.input_ports,
                g.has_input_ports));
        LLGA_RETURN_IF_ERROR(ports_field(doc, "output_ports", g.output_ports,
                g.has_output_ports));

        const value_t *ops = nullptr;
        LLGA_RETURN_IF_ERROR(field(doc, "graph", type_t::array, ops));
        if (ops->items.empty()) return err(*ops, "field 'graph': no ops");
        std::unordered_map<size_t, const value_t *> seen;
        g.ops.resize(ops->items.size());
        for (size_t k = 0; k < ops->items.size(); ++k) {
            const value_t &ov = ops->items[k];
            LLGA_RETURN_IF_ERROR(read_op(ov, k, g.ops[k]));
            auto ins = seen.emplace(g.ops[k].id, &ov);
            if (!ins.second)
                return err(ov, "duplicate op id (first used by the op at "
                               "line %u)",
                        ins.first->second->line);
        }
        return dnnl_success;
    }

private:
    const std::string &source_;
    std::string ctx_; // "op 3: inputs[1]: " — where in the graph we are

    // "src:line:col: <ctx><message>"; the position is that of `at`.
    status_t err(const value_t &at, const char *fmt, ...)
            __attribute__((format(printf, 3, 4))) {
        char buf[512];
        va_list ap;
        va_start(ap, fmt);
        std::vsnprintf(buf, sizeof(buf), fmt, ap);
        va_end(ap);
        std::string where = source_;
        if (at.line)
            where += (where.empty() ? "" : ":") + std::to_string(at.line) + ":"
                    + std::to_string(at.column);
        if (!where.empty()) where += ": ";
        return fail(dnnl_invalid_arguments, "%s%s%s", where.c_str(),
                ctx_.c_str(), buf);
    }

    status_t field(const value_t &obj, const char *key, type_t t,
            const value_t *&out) {
        out = obj.find(key);
        if (!out) return err(obj, "missing field '%s'", key);
        if (!out->is(t))
            return err(*out, "field '%s': expected %s, got %s", key,
                    json::type_name(t), what_is(*out).c_str());
        return dnnl_success;
    }

    status_t string_field(const value_t &obj, const char *key, std::string &s) {
        const value_t *v;
        LLGA_RETURN_IF_ERROR(field(obj, key, type_t::string, v));
        s = v->text;
        return dnnl_success;
    }

    template <size_t n>
    status_t enum_field(const value_t &obj, const char *key,
            const name_entry_t (&table)[n], int &out) {
        const value_t *v;
        LLGA_RETURN_IF_ERROR(field(obj, key, type_t::string, v));
        if (!value_of(table, v->text, &out))
            return err(*v, "field '%s': unknown value %s (expected %s)", key,
                    quoted(v->text).c_str(), choices(table).c_str());
        return dnnl_success;
    }

    // Ids are unsigned in the format; the reader takes 0 .. INT64_MAX.
    status_t id_value(const value_t &v, const char *what, size_t &id) {
        if (!v.is(type_t::number) || !v.integral || v.i < 0)
            return err(v, "%s: expected a non-negative integer id, got %s",
                    what, v.is(type_t::number) ? quoted(v.text).c_str()
                                                 : what_is(v).c_str());
        id = (size_t)v.i;
        return dnnl_success;
    }

    status_t ports_field(const value_t &doc, const char *key,
            std::vector<size_t> &ports, bool &present) {
        const value_t *v = doc.find(key);
        present = v != nullptr;
        if (!v) return dnnl_success;
        if (!v->is(type_t::array))
            return err(*v, "field '%s': expected array, got %s", key,
                    what_is(*v).c_str());
        ports.resize(v->items.size());
        for (size_t k = 0; k < v->items.size(); ++k) {
            std::string what = std::string("field '") + key + "'["
                    + std::to_string(k) + "]";
            LLGA_RETURN_IF_ERROR(id_value(v->items[k], what.c_str(), ports[k]));
        }
        return dnnl_success;
    }

    status_t read_op(const value_t &v, size_t index, json_op_t &op) {
        ctx_ = "graph[" + std::to_string(index) + "]: ";
        if (!v.is(type_t::object))
            return err(v, "expected an op object, got %s", what_is(v).c_str());
        const value_t *idv;
        LLGA_RETURN_IF_ERROR(field(v, "id", type_t::number, idv));
        LLGA_RETURN_IF_ERROR(id_value(*idv, "field 'id'", op.id));
        ctx_ = "op " + std::to_string(op.id) + ": ";
        LLGA_RETURN_IF_ERROR(string_field(v, "name", op.name));
        const value_t *kind;
        LLGA_RETURN_IF_ERROR(field(v, "kind", type_t::string, kind));
        if (kind->text.empty()) return err(*kind, "field 'kind': empty");
        op.kind = kind->text;

        // One corpus dump has no "attrs" at all; remember that so the file
        // is reproduced as read.
        const value_t *attrs = v.find("attrs");
        op.has_attrs = attrs != nullptr;
        if (attrs) {
            if (!attrs->is(type_t::object))
                return err(*attrs, "field 'attrs': expected object, got %s",
                        what_is(*attrs).c_str());
            op.attrs.resize(attrs->members.size());
            std::string op_ctx = ctx_;
            for (size_t k = 0; k < attrs->members.size(); ++k) {
                const member_t &m = attrs->members[k];
                ctx_ = op_ctx + "attribute " + quoted(m.key) + ": ";
                LLGA_RETURN_IF_ERROR(read_attr(m, op.attrs[k]));
            }
            ctx_ = op_ctx;
        }
        LLGA_RETURN_IF_ERROR(read_tensors(v, "inputs", op.inputs));
        LLGA_RETURN_IF_ERROR(read_tensors(v, "outputs", op.outputs));
        return dnnl_success;
    }

    status_t read_attr(const member_t &m, json_attr_t &a) {
        a.name = m.key;
        const value_t &obj = m.value;
        if (!obj.is(type_t::object))
            return err(obj, "expected an object with 'type' and 'value', got %s",
                    what_is(obj).c_str());
        const value_t *tv;
        LLGA_RETURN_IF_ERROR(field(obj, "type", type_t::string, tv));
        attr_kind_t kind = attr_kind_t::undef;
        for (attr_kind_t k : k_attr_kinds)
            if (tv->text == attr_kind_name(k)) kind = k;
        if (kind == attr_kind_t::undef)
            return err(*tv, "unknown type %s (expected f32, f32[], s64, s64[], "
                            "bool or string)",
                    quoted(tv->text).c_str());
        attr_id_t id = dnnl_graph_op_attr_undef;
        if (attr_from_name(m.key, &id)) {
            // A known name must carry its own kind; the op schemas would
            // reject anything else later with a vaguer message.
            if (attr_kind(id) != kind)
                return err(*tv, "type '%s' does not match the attribute, "
                                "which is %s",
                        attr_kind_name(kind), attr_kind_name(attr_kind(id)));
            a.id = id;
        }
        const value_t *val = obj.find("value");
        if (!val) return err(obj, "missing field 'value'");
        return read_attr_value(*val, kind, a.value);
    }

    status_t read_attr_value(const value_t &v, attr_kind_t kind,
            attr_value_t &out) {
        const char *kname = attr_kind_name(kind);
        auto expected = [&](const value_t &at) {
            return err(at, "expected %s, got %s", kname, what_is(at).c_str());
        };
        bool vector = kind == attr_kind_t::f32s || kind == attr_kind_t::s64s;
        if (vector && !v.is(type_t::array)) return expected(v);
        switch (kind) {
            case attr_kind_t::s64:
                if (!v.is(type_t::number) || !v.integral) return expected(v);
                out = attr_value_t::make_s64(v.i);
                return dnnl_success;
            case attr_kind_t::f32:
                if (!v.is(type_t::number)) return expected(v);
                out = attr_value_t::make_f32(json::as_f32(v));
                return dnnl_success;
            case attr_kind_t::boolean:
                // Dumps write 0/1; JSON true/false is accepted as well.
                if (v.is(type_t::boolean)) {
                    out = attr_value_t::make_bool(v.b);
                } else if (v.is(type_t::number) && v.integral
                        && (v.i == 0 || v.i == 1)) {
                    out = attr_value_t::make_bool(v.i == 1);
                } else {
                    return err(v, "expected bool (0, 1, true or false), got %s",
                            v.is(type_t::number) ? quoted(v.text).c_str()
                                                 : what_is(v).c_str());
                }
                return dnnl_success;
            case attr_kind_t::str:
                if (!v.is(type_t::string)) return expected(v);
                out = attr_value_t::make_str(v.text);
                return dnnl_success;
            case attr_kind_t::s64s: {
                std::vector<int64_t> xs(v.items.size());
                for (size_t k = 0; k < xs.size(); ++k) {
                    const value_t &e = v.items[k];
                    if (!e.is(type_t::number) || !e.integral)
                        return err(e, "expected s64[], got %s at index %zu",
                                what_is(e).c_str(), k);
                    xs[k] = e.i;
                }
                out = attr_value_t::make_s64s(std::move(xs));
                return dnnl_success;
            }
            case attr_kind_t::f32s: {
                std::vector<float> xs(v.items.size());
                for (size_t k = 0; k < xs.size(); ++k) {
                    const value_t &e = v.items[k];
                    if (!e.is(type_t::number))
                        return err(e, "expected f32[], got %s at index %zu",
                                what_is(e).c_str(), k);
                    xs[k] = json::as_f32(e);
                }
                out = attr_value_t::make_f32s(std::move(xs));
                return dnnl_success;
            }
            case attr_kind_t::undef: break;
        }
        return expected(v);
    }

    status_t read_tensors(const value_t &op, const char *key,
            std::vector<logical_tensor_t> &lts) {
        const value_t *arr;
        LLGA_RETURN_IF_ERROR(field(op, key, type_t::array, arr));
        lts.resize(arr->items.size());
        std::string op_ctx = ctx_;
        for (size_t k = 0; k < lts.size(); ++k) {
            ctx_ = op_ctx + key + "[" + std::to_string(k) + "]: ";
            LLGA_RETURN_IF_ERROR(read_tensor(arr->items[k], lts[k]));
        }
        ctx_ = op_ctx;
        return dnnl_success;
    }

    // Reads an int64 array field, each element checked.
    status_t int_array(const value_t &obj, const char *key,
            const value_t *&arr) {
        LLGA_RETURN_IF_ERROR(field(obj, key, type_t::array, arr));
        for (size_t k = 0; k < arr->items.size(); ++k) {
            const value_t &e = arr->items[k];
            if (!e.is(type_t::number) || !e.integral)
                return err(e, "field '%s': expected an integer at index %zu, "
                              "got %s",
                        key, k, what_is(e).c_str());
        }
        return dnnl_success;
    }

    status_t read_tensor(const value_t &v, logical_tensor_t &lt) {
        lt = logical_tensor_t();
        for (int d = 0; d < max_ndims; ++d)
            lt.dims[d] = lt.layout.strides[d] = unknown_dim;
        if (!v.is(type_t::object))
            return err(v, "expected a logical tensor object, got %s",
                    what_is(v).c_str());
        const value_t *idv;
        LLGA_RETURN_IF_ERROR(field(v, "id", type_t::number, idv));
        LLGA_RETURN_IF_ERROR(id_value(*idv, "field 'id'", lt.id));

        const value_t *dt;
        LLGA_RETURN_IF_ERROR(field(v, "dtype", type_t::string, dt));
        if (!dtype_from_name(dt->text, &lt.data_type))
            return err(*dt, "field 'dtype': unknown data type %s",
                    quoted(dt->text).c_str());

        // shape: [] is a 0-D scalar, [INT64_MIN] an unknown rank.
        const value_t *shape;
        LLGA_RETURN_IF_ERROR(int_array(v, "shape", shape));
        const auto &sd = shape->items;
        if (sd.size() == 1 && sd[0].i == unknown_dim) {
            lt.ndims = unknown_ndims;
        } else {
            if (sd.size() > (size_t)max_ndims)
                return err(*shape, "field 'shape': rank %zu exceeds the "
                                   "maximum of %d",
                        sd.size(), max_ndims);
            lt.ndims = (int)sd.size();
            for (size_t d = 0; d < sd.size(); ++d) {
                if (sd[d].i < 0 && sd[d].i != unknown_dim)
                    return err(sd[d], "field 'shape': negative dimension "
                                      "%lld at index %zu",
                            (long long)sd[d].i, d);
                lt.dims[d] = sd[d].i;
            }
        }

        int e = 0;
        LLGA_RETURN_IF_ERROR(enum_field(v, "layout_type", k_layouts, e));
        lt.layout_type = (layout_type_t)e;
        LLGA_RETURN_IF_ERROR(enum_field(v, "property_type", k_properties, e));
        lt.property = (property_t)e;

        // stride: one entry per dim, or [INT64_MIN] for "unknown". A list of
        // another length is accepted as unknown too (spec: older dumps carry
        // such lists; the shape decides). Opaque layouts carry no strides:
        // their layout id cannot be expressed in the format and reads as 0.
        const value_t *stride;
        LLGA_RETURN_IF_ERROR(int_array(v, "stride", stride));
        if (lt.layout_type == dnnl_graph_layout_type_opaque) {
            lt.layout.layout_id = 0;
        } else if (lt.ndims > 0
                && stride->items.size() == (size_t)lt.ndims) {
            for (int d = 0; d < lt.ndims; ++d)
                lt.layout.strides[d] = stride->items[d].i;
        }
        // Sizes past 2^48 elements, negative strides and spans that would
        // overflow are refused here, with the file position.
        if (check_shape(lt, "logical tensor") != dnnl_success) {
            const std::string why = last_error();
            return err(v, "%s", why.c_str());
        }
        return dnnl_success;
    }
};

value_t dims_json(const dim_t *d, int n) {
    value_t a = value_t::make_array();
    for (int k = 0; k < n; ++k)
        a.push(value_t::make_int(d[k]));
    return a;
}

value_t unknown_dims_json() {
    value_t a = value_t::make_array();
    a.push(value_t::make_int(unknown_dim));
    return a;
}

value_t tensor_json(const logical_tensor_t &lt) {
    value_t t = value_t::make_object();
    t.add("id", value_t::make_uint(lt.id));
    const char *dt = dtype_name(lt.data_type);
    t.add("dtype", value_t::make_string(dt ? dt : "undef"));
    int n = lt.ndims;
    bool rank_ok = n >= 0 && n <= max_ndims;
    t.add("shape", rank_ok ? dims_json(lt.dims, n) : unknown_dims_json());
    // Mirror of the reader: an all-unknown stride list (or none: unknown
    // rank, opaque layout) is written as the single INT64_MIN marker.
    bool strides_unknown = !rank_ok
            || lt.layout_type == dnnl_graph_layout_type_opaque;
    if (!strides_unknown && n > 0) {
        strides_unknown = true;
        for (int d = 0; d < n; ++d)
            if (lt.layout.strides[d] != unknown_dim) strides_unknown = false;
    }
    t.add("stride",
            strides_unknown ? unknown_dims_json()
                            : dims_json(lt.layout.strides, n));
    const char *lay = name_of(k_layouts, lt.layout_type);
    t.add("layout_type", value_t::make_string(lay ? lay : "undef"));
    const char *prop = name_of(k_properties, lt.property);
    t.add("property_type", value_t::make_string(prop ? prop : "undef"));
    return t;
}

value_t attr_json(const attr_value_t &v) {
    value_t a = value_t::make_object();
    a.add("type", value_t::make_string(attr_kind_name(v.kind)));
    value_t val;
    switch (v.kind) {
        case attr_kind_t::f32:
            val = value_t::make_f32(v.f.empty() ? 0.f : v.f[0]);
            break;
        case attr_kind_t::s64:
            val = value_t::make_int(v.i.empty() ? 0 : v.i[0]);
            break;
        case attr_kind_t::boolean: val = value_t::make_int(v.b ? 1 : 0); break;
        case attr_kind_t::str: val = value_t::make_string(v.s); break;
        case attr_kind_t::f32s:
            val = value_t::make_array();
            for (float f : v.f)
                val.push(value_t::make_f32(f));
            break;
        case attr_kind_t::s64s:
            val = value_t::make_array();
            for (int64_t i : v.i)
                val.push(value_t::make_int(i));
            break;
        case attr_kind_t::undef: break; // written as null
    }
    a.add("value", std::move(val));
    return a;
}

value_t ports_json(const std::vector<size_t> &ports) {
    value_t a = value_t::make_array();
    for (size_t p : ports)
        a.push(value_t::make_uint(p));
    return a;
}

} // namespace

status_t graph_from_json(const value_t &doc, const std::string &source_name,
        graph_desc_t &out) {
    out = graph_desc_t();
    reader_t r(source_name);
    status_t st = r.read_graph(doc, out);
    if (st != dnnl_success) out = graph_desc_t();
    return st;
}

status_t parse_graph_json(const std::string &text,
        const std::string &source_name, graph_desc_t &out,
        const json::limits_t &limits) {
    out = graph_desc_t();
    value_t doc;
    LLGA_RETURN_IF_ERROR(json::parse(text, doc, source_name, limits));
    return graph_from_json(doc, source_name, out);
}

value_t graph_to_json(const graph_desc_t &g) {
    value_t doc = value_t::make_object();
    doc.add("version", value_t::make_string(g.version));
    const char *ek = engine_kind_json_name(g.engine_kind);
    doc.add("engine_kind", value_t::make_string(ek ? ek : "any"));
    const char *fm = fpmath_mode_json_name(g.fpmath);
    doc.add("fpmath_mode", value_t::make_string(fm ? fm : "strict"));
    if (g.has_apply_to_int)
        doc.add("fpmath_mode_apply_to_int",
                value_t::make_string(g.apply_to_int ? "true" : "false"));
    if (g.has_input_ports) doc.add("input_ports", ports_json(g.input_ports));
    if (g.has_output_ports) doc.add("output_ports", ports_json(g.output_ports));
    value_t &ops = doc.add("graph", value_t::make_array());
    for (const json_op_t &op : g.ops) {
        value_t o = value_t::make_object();
        o.add("id", value_t::make_uint(op.id));
        o.add("name", value_t::make_string(op.name));
        o.add("kind", value_t::make_string(op.kind));
        if (op.has_attrs || !op.attrs.empty()) {
            value_t &attrs = o.add("attrs", value_t::make_object());
            for (const json_attr_t &a : op.attrs)
                attrs.add(a.name, attr_json(a.value));
        }
        value_t &ins = o.add("inputs", value_t::make_array());
        for (const auto &lt : op.inputs)
            ins.push(tensor_json(lt));
        value_t &outs = o.add("outputs", value_t::make_array());
        for (const auto &lt : op.outputs)
            outs.push(tensor_json(lt));
        ops.push(std::move(o));
    }
    return doc;
}

std::string write_graph_json(const graph_desc_t &g) {
    return json::serialize(graph_to_json(g), 2) + "\n";
}

const char *engine_kind_json_name(engine_kind_t k) {
    return name_of(k_engines, k);
}
bool engine_kind_from_json_name(const std::string &s, engine_kind_t *k) {
    int v;
    if (!value_of(k_engines, s, &v)) return false;
    *k = (engine_kind_t)v;
    return true;
}
const char *fpmath_mode_json_name(fpmath_mode_t m) {
    return name_of(k_fpmath, m);
}
bool fpmath_mode_from_json_name(const std::string &s, fpmath_mode_t *m) {
    int v;
    if (!value_of(k_fpmath, s, &v)) return false;
    *m = (fpmath_mode_t)v;
    return true;
}
const char *layout_type_json_name(layout_type_t l) {
    return name_of(k_layouts, l);
}
const char *property_json_name(property_t p) {
    return name_of(k_properties, p);
}

} // namespace ir
} // namespace llga
