// SPDX-License-Identifier: Apache-2.0
// ir/attr.cpp — attribute values and the expansions of attrs.def.
#include "ir/attr.hpp"

#include <cstdio>
#include <cstring>

namespace llga {
namespace ir {

namespace {
// The public header encodes the value kind in the id range; keep attrs.def
// consistent with it.
constexpr bool kind_matches_range(int id, attr_kind_t k) {
    return (id >= 0x01 && id < 0x20) ? k == attr_kind_t::f32
            : (id >= 0x20 && id < 0x30) ? k == attr_kind_t::f32s
            : (id >= 0x30 && id < 0x40) ? k == attr_kind_t::s64
            : (id >= 0x40 && id < 0x60) ? k == attr_kind_t::s64s
            : (id >= 0x60 && id < 0x80) ? k == attr_kind_t::boolean
            : (id >= 0x80 && id < 0xFF) ? k == attr_kind_t::str
                                        : false;
}
#define LLGA_ATTR(sym, kind) \
    static_assert(kind_matches_range(dnnl_graph_op_attr_##sym, attr_kind_t::kind), \
            "attrs.def kind disagrees with the public id range: " #sym);
#include "ir/attrs.def"
#undef LLGA_ATTR

struct attr_entry_t {
    attr_id_t id;
    const char *name;
    attr_kind_t kind;
};

const attr_entry_t k_attrs[] = {
#define LLGA_ATTR(sym, kind) {dnnl_graph_op_attr_##sym, #sym, attr_kind_t::kind},
#include "ir/attrs.def"
#undef LLGA_ATTR
};

const attr_entry_t *find(attr_id_t a) {
    for (const auto &e : k_attrs)
        if (e.id == a) return &e;
    return nullptr;
}
} // namespace

const char *attr_kind_name(attr_kind_t k) {
    switch (k) {
        case attr_kind_t::f32: return "f32";
        case attr_kind_t::f32s: return "f32[]";
        case attr_kind_t::s64: return "s64";
        case attr_kind_t::s64s: return "s64[]";
        case attr_kind_t::boolean: return "bool";
        case attr_kind_t::str: return "string";
        case attr_kind_t::undef: break;
    }
    return "undef";
}

attr_value_t attr_value_t::make_f32(float v) {
    attr_value_t r;
    r.kind = attr_kind_t::f32;
    r.f = {v};
    return r;
}
attr_value_t attr_value_t::make_f32s(std::vector<float> v) {
    attr_value_t r;
    r.kind = attr_kind_t::f32s;
    r.f = std::move(v);
    return r;
}
attr_value_t attr_value_t::make_s64(int64_t v) {
    attr_value_t r;
    r.kind = attr_kind_t::s64;
    r.i = {v};
    return r;
}
attr_value_t attr_value_t::make_s64s(std::vector<int64_t> v) {
    attr_value_t r;
    r.kind = attr_kind_t::s64s;
    r.i = std::move(v);
    return r;
}
attr_value_t attr_value_t::make_bool(bool v) {
    attr_value_t r;
    r.kind = attr_kind_t::boolean;
    r.b = v;
    return r;
}
attr_value_t attr_value_t::make_str(std::string v) {
    attr_value_t r;
    r.kind = attr_kind_t::str;
    r.s = std::move(v);
    return r;
}

bool attr_value_t::operator==(const attr_value_t &o) const {
    if (kind != o.kind) return false;
    switch (kind) {
        case attr_kind_t::f32:
        case attr_kind_t::f32s:
            // Bitwise so that NaN attributes compare equal to themselves.
            return f.size() == o.f.size()
                    && (f.empty()
                            || std::memcmp(f.data(), o.f.data(),
                                       f.size() * sizeof(float))
                                    == 0);
        case attr_kind_t::s64:
        case attr_kind_t::s64s: return i == o.i;
        case attr_kind_t::boolean: return b == o.b;
        case attr_kind_t::str: return s == o.s;
        case attr_kind_t::undef: return true;
    }
    return false;
}

std::string attr_value_t::to_string() const {
    std::string r;
    char buf[64];
    switch (kind) {
        case attr_kind_t::f32:
        case attr_kind_t::f32s:
            for (size_t k = 0; k < f.size(); ++k) {
                std::snprintf(buf, sizeof(buf), "%s%g", k ? "x" : "", f[k]);
                r += buf;
            }
            return r;
        case attr_kind_t::s64:
        case attr_kind_t::s64s:
            for (size_t k = 0; k < i.size(); ++k) {
                std::snprintf(buf, sizeof(buf), "%s%lld", k ? "x" : "",
                        static_cast<long long>(i[k]));
                r += buf;
            }
            return r;
        case attr_kind_t::boolean: return b ? "1" : "0";
        case attr_kind_t::str: return s;
        case attr_kind_t::undef: break;
    }
    return "undef";
}

const char *attr_name(attr_id_t a) {
    const attr_entry_t *e = find(a);
    return e ? e->name : nullptr;
}

attr_kind_t attr_kind(attr_id_t a) {
    const attr_entry_t *e = find(a);
    return e ? e->kind : attr_kind_t::undef;
}

bool attr_from_name(const std::string &name, attr_id_t *a) {
    for (const auto &e : k_attrs)
        if (name == e.name) {
            *a = e.id;
            return true;
        }
    return false;
}

const std::vector<attr_id_t> &all_attrs() {
    static const std::vector<attr_id_t> ids = [] {
        std::vector<attr_id_t> v;
        for (const auto &e : k_attrs)
            v.push_back(e.id);
        return v;
    }();
    return ids;
}

} // namespace ir
} // namespace llga
