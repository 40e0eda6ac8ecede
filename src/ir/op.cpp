// SPDX-License-Identifier: Apache-2.0
// ir/op.cpp — op attribute access and description.
#include "ir/op.hpp"

namespace llga {
namespace ir {

const attr_value_t *op_t::find_attr(attr_id_t a) const {
    auto it = attrs.find(a);
    return it == attrs.end() ? nullptr : &it->second;
}

float op_t::get_f32(attr_id_t a, float fallback) const {
    const attr_value_t *v = find_attr(a);
    return (v && !v->f.empty()) ? v->f[0] : fallback;
}

int64_t op_t::get_s64(attr_id_t a, int64_t fallback) const {
    const attr_value_t *v = find_attr(a);
    return (v && !v->i.empty()) ? v->i[0] : fallback;
}

bool op_t::get_bool(attr_id_t a, bool fallback) const {
    const attr_value_t *v = find_attr(a);
    return (v && v->kind == attr_kind_t::boolean) ? v->b : fallback;
}

std::string op_t::get_str(attr_id_t a, const std::string &fallback) const {
    const attr_value_t *v = find_attr(a);
    return (v && v->kind == attr_kind_t::str) ? v->s : fallback;
}

std::vector<int64_t> op_t::get_s64s(attr_id_t a) const {
    const attr_value_t *v = find_attr(a);
    return v ? v->i : std::vector<int64_t>();
}

std::vector<float> op_t::get_f32s(attr_id_t a) const {
    const attr_value_t *v = find_attr(a);
    return v ? v->f : std::vector<float>();
}

std::string op_t::describe(const char *kind_name) const {
    std::string r = "op " + std::to_string(id) + " (";
    r += kind_name ? kind_name : ("kind " + std::to_string(static_cast<int>(kind)));
    if (!name.empty()) r += " '" + name + "'";
    return r + ")";
}

} // namespace ir
} // namespace llga
