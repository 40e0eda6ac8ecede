// SPDX-License-Identifier: Apache-2.0
// ir/op.hpp — one operation: id, kind, name, input/output logical tensors and
// typed attributes. Knows nothing about particular op kinds (that is ops/).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/c_types.hpp"
#include "ir/attr.hpp"

namespace llga {
namespace ir {

struct op_t {
    size_t id = 0;
    op_kind_t kind = dnnl_graph_op_last_symbol;
    std::string name;
    std::vector<logical_tensor_t> inputs;
    std::vector<logical_tensor_t> outputs;
    std::map<attr_id_t, attr_value_t> attrs;
    // Math mode the op may use, set by the compiler from the graph's fpmath
    // mode: strict, or permission to compute f32 math in bf16/f16/tf32.
    fpmath_mode_t fpmath = dnnl_fpmath_mode_strict;

    bool has_attr(attr_id_t a) const { return attrs.count(a) != 0; }
    const attr_value_t *find_attr(attr_id_t a) const;
    void set_attr(attr_id_t a, attr_value_t v) { attrs[a] = std::move(v); }

    // Typed getters; return `fallback` when absent or of another kind.
    float get_f32(attr_id_t a, float fallback = 0.f) const;
    int64_t get_s64(attr_id_t a, int64_t fallback = 0) const;
    bool get_bool(attr_id_t a, bool fallback = false) const;
    std::string get_str(attr_id_t a, const std::string &fallback = "") const;
    std::vector<int64_t> get_s64s(attr_id_t a) const;
    std::vector<float> get_f32s(attr_id_t a) const;

    // "op 3 (Convolution 'conv0')" for error messages; ir does not know kind
    // names, so ops::describe() passes the name from the op table.
    std::string describe(const char *kind_name = nullptr) const;
};

} // namespace ir
} // namespace llga
