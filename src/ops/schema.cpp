// SPDX-License-Identifier: Apache-2.0
// ops/schema.cpp — schema construction and add_op verification.
#include "ops/schema.hpp"

#include <algorithm>
#include <cctype>

#include "base/status.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace ops {

const dtype_set_t k_fp = dt_bit(dnnl_f32) | dt_bit(dnnl_bf16) | dt_bit(dnnl_f16);

dtype_set_t dtypes(std::initializer_list<data_type_t> list) {
    dtype_set_t s = 0;
    for (data_type_t dt : list)
        s |= dt_bit(dt);
    return s;
}

bool iequals(const std::string &a, const std::string &b) {
    return a.size() == b.size()
            && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
                   return std::tolower(static_cast<unsigned char>(x))
                           == std::tolower(static_cast<unsigned char>(y));
               });
}

op_schema_t &op_schema_t::num_inputs(std::vector<size_t> allowed) {
    defined_ = true;
    in_counts_ = std::move(allowed);
    return *this;
}
op_schema_t &op_schema_t::num_outputs(std::vector<size_t> allowed) {
    defined_ = true;
    out_counts_ = std::move(allowed);
    return *this;
}
op_schema_t &op_schema_t::variadic_inputs(size_t lo, size_t hi) {
    defined_ = true;
    in_variadic_ = true;
    in_lo_ = lo;
    in_hi_ = hi;
    return *this;
}
op_schema_t &op_schema_t::variadic_outputs(size_t lo, size_t hi) {
    defined_ = true;
    out_variadic_ = true;
    out_lo_ = lo;
    out_hi_ = hi;
    return *this;
}
op_schema_t &op_schema_t::input(const std::string &n, const std::string &t) {
    inputs_.push_back({n, t});
    return *this;
}
op_schema_t &op_schema_t::output(const std::string &n, const std::string &t) {
    outputs_.push_back({n, t});
    return *this;
}
op_schema_t &op_schema_t::types(const std::string &var, dtype_set_t allowed) {
    type_sets_.emplace_back(var, allowed);
    return *this;
}
op_schema_t &op_schema_t::attr(attr_id_t id, bool required) {
    attr_spec_t s;
    s.id = id;
    s.required = required;
    attrs_.push_back(s);
    return *this;
}
op_schema_t &op_schema_t::attr(attr_id_t id, ir::attr_value_t def) {
    attr_spec_t s;
    s.id = id;
    s.has_default = true;
    s.default_value = std::move(def);
    attrs_.push_back(s);
    return *this;
}
op_schema_t &op_schema_t::candidates(attr_id_t id, std::vector<std::string> v) {
    for (auto &a : attrs_)
        if (a.id == id) a.candidates = std::move(v);
    return *this;
}
op_schema_t &op_schema_t::constraint(constraint_fn_t fn) {
    constraint_ = fn;
    return *this;
}

const attr_spec_t *op_schema_t::find_attr(attr_id_t id) const {
    for (const auto &a : attrs_)
        if (a.id == id) return &a;
    return nullptr;
}

bool op_schema_t::input_count_ok(size_t n) const {
    if (in_variadic_) return n >= in_lo_ && n <= in_hi_;
    return std::find(in_counts_.begin(), in_counts_.end(), n) != in_counts_.end();
}
bool op_schema_t::output_count_ok(size_t n) const {
    if (out_variadic_) return n >= out_lo_ && n <= out_hi_;
    return std::find(out_counts_.begin(), out_counts_.end(), n)
            != out_counts_.end();
}

namespace {
std::string counts_text(bool variadic, size_t lo, size_t hi,
        const std::vector<size_t> &set) {
    if (variadic) return std::to_string(lo) + ".." + std::to_string(hi);
    std::string r;
    for (size_t k = 0; k < set.size(); ++k)
        r += (k ? (k + 1 == set.size() ? " or " : ", ") : "")
                + std::to_string(set[k]);
    return r;
}
std::string dtype_set_text(dtype_set_t s) {
    std::string r;
    for (int d = 0; d < 32; ++d)
        if (s & (1u << d)) {
            if (!r.empty()) r += "/";
            r += ir::dtype_name(static_cast<data_type_t>(d));
        }
    return r;
}
} // namespace

std::string op_schema_t::input_count_text() const {
    return counts_text(in_variadic_, in_lo_, in_hi_, in_counts_);
}
std::string op_schema_t::output_count_text() const {
    return counts_text(out_variadic_, out_lo_, out_hi_, out_counts_);
}

dtype_set_t op_schema_t::type_set(const std::string &var) const {
    for (const auto &t : type_sets_)
        if (t.first == var) return t.second;
    return ~0u;
}

status_t op_schema_t::check_ports(
        const ir::op_t &op, const char *kind_name) const {
    const std::string who = op.describe(kind_name);
    if (!input_count_ok(op.inputs.size()))
        return fail(dnnl_invalid_graph_op, "%s: has %zu inputs, expected %s",
                who.c_str(), op.inputs.size(), input_count_text().c_str());
    if (!output_count_ok(op.outputs.size()))
        return fail(dnnl_invalid_graph_op, "%s: has %zu outputs, expected %s",
                who.c_str(), op.outputs.size(), output_count_text().c_str());
    // Type variables bind to the first tensor that uses them.
    std::vector<std::pair<std::string, data_type_t>> bound;
    auto check = [&](const logical_tensor_t &lt, const port_spec_t &port,
                         const char *dir, size_t index) -> status_t {
        if (port.type_var.empty()) return dnnl_success;
        const dtype_set_t allowed = type_set(port.type_var);
        if (!(allowed & dt_bit(lt.data_type)))
            return fail(dnnl_invalid_graph_op,
                    "%s: %s %zu '%s' (tensor %zu) has data type %s, expected "
                    "%s",
                    who.c_str(), dir, index, port.name.c_str(), lt.id,
                    ir::dtype_name(lt.data_type),
                    dtype_set_text(allowed).c_str());
        for (const auto &b : bound)
            if (b.first == port.type_var && b.second != lt.data_type)
                return fail(dnnl_invalid_graph_op,
                        "%s: %s %zu '%s' (tensor %zu) has data type %s but "
                        "must match %s like the other '%s' operands",
                        who.c_str(), dir, index, port.name.c_str(), lt.id,
                        ir::dtype_name(lt.data_type),
                        ir::dtype_name(b.second), port.type_var.c_str());
        bound.emplace_back(port.type_var, lt.data_type);
        return dnnl_success;
    };
    auto port_of = [](const std::vector<port_spec_t> &ports, size_t k) {
        static const port_spec_t any_port {"operand", ""};
        if (ports.empty()) return any_port;
        return k < ports.size() ? ports[k] : ports.back();
    };
    for (size_t k = 0; k < op.inputs.size(); ++k)
        LLGA_RETURN_IF_ERROR(check(op.inputs[k], port_of(inputs_, k), "input", k));
    for (size_t k = 0; k < op.outputs.size(); ++k)
        LLGA_RETURN_IF_ERROR(
                check(op.outputs[k], port_of(outputs_, k), "output", k));
    return dnnl_success;
}

status_t op_schema_t::check_attrs(
        const ir::op_t &op, const char *kind_name) const {
    const std::string who = op.describe(kind_name);
    for (const auto &spec : attrs_)
        if (spec.required && !op.has_attr(spec.id))
            return fail(dnnl_invalid_graph_op,
                    "%s: missing required attribute '%s'", who.c_str(),
                    ir::attr_name(spec.id));
    for (const auto &kv : op.attrs) {
        const attr_spec_t *spec = find_attr(kv.first);
        const char *an = ir::attr_name(kv.first);
        if (!spec)
            return fail(dnnl_invalid_graph_op,
                    "%s: attribute '%s' is not defined for this op",
                    who.c_str(), an ? an : "unknown");
        const ir::attr_kind_t want = ir::attr_kind(kv.first);
        if (kv.second.kind != want)
            return fail(dnnl_invalid_graph_op,
                    "%s: attribute '%s' must be %s, got %s", who.c_str(), an,
                    ir::attr_kind_name(want),
                    ir::attr_kind_name(kv.second.kind));
        if (!spec->candidates.empty()) {
            bool ok = false;
            for (const auto &c : spec->candidates)
                ok = ok || iequals(c, kv.second.s);
            if (!ok) {
                std::string list;
                for (const auto &c : spec->candidates)
                    list += (list.empty() ? "" : ", ") + c;
                return fail(dnnl_invalid_graph_op,
                        "%s: attribute '%s' has value '%s', expected one of "
                        "%s",
                        who.c_str(), an, kv.second.s.c_str(), list.c_str());
            }
        }
    }
    return dnnl_success;
}

status_t op_schema_t::verify(ir::op_t &op, const char *kind_name) const {
    for (const auto &spec : attrs_)
        if (spec.has_default && !op.has_attr(spec.id))
            op.set_attr(spec.id, spec.default_value);
    LLGA_RETURN_IF_ERROR(check_ports(op, kind_name));
    LLGA_RETURN_IF_ERROR(check_attrs(op, kind_name));
    if (constraint_) LLGA_RETURN_IF_ERROR(constraint_(op));
    return dnnl_success;
}

} // namespace ops
} // namespace llga
