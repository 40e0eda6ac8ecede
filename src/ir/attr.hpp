// SPDX-License-Identifier: Apache-2.0
// ir/attr.hpp — typed op attribute values and the attribute name table.
#pragma once

#include <string>
#include <vector>

#include "base/c_types.hpp"

namespace llga {
namespace ir {

// Value kinds; the strings are the JSON "type" spellings.
enum class attr_kind_t { undef, f32, f32s, s64, s64s, boolean, str };

const char *attr_kind_name(attr_kind_t k); // "f32", "f32[]", "s64", ...

struct attr_value_t {
    attr_kind_t kind = attr_kind_t::undef;
    std::vector<float> f;  // f32 (size 1) or f32[]
    std::vector<int64_t> i; // s64 (size 1) or s64[]
    bool b = false;
    std::string s;

    static attr_value_t make_f32(float v);
    static attr_value_t make_f32s(std::vector<float> v);
    static attr_value_t make_s64(int64_t v);
    static attr_value_t make_s64s(std::vector<int64_t> v);
    static attr_value_t make_bool(bool v);
    static attr_value_t make_str(std::string v);

    bool operator==(const attr_value_t &o) const;
    bool operator!=(const attr_value_t &o) const { return !(*this == o); }
    std::string to_string() const;
};

// Public attribute ids: name and value kind. Unknown ids give nullptr/undef.
const char *attr_name(attr_id_t a);
attr_kind_t attr_kind(attr_id_t a);
bool attr_from_name(const std::string &name, attr_id_t *a);
// Every attribute id of attrs.def, in table order.
const std::vector<attr_id_t> &all_attrs();

} // namespace ir
} // namespace llga
