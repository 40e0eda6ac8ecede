// SPDX-License-Identifier: Apache-2.0
// ops/schema.hpp — what an op kind accepts: operand counts, named ports with
// type variables, allowed dtypes per type variable, attributes (required,
// default, candidate values) and an optional extra constraint. verify()
// implements the add_op checks in the opset's order: inject defaults, input
// count, input dtypes, output count and dtypes, attributes, constraint.
#pragma once

#include <string>
#include <vector>

#include "ir/attr.hpp"
#include "ir/op.hpp"

namespace llga {
namespace ops {

// Bitmask of dnnl_data_type_t values.
using dtype_set_t = uint32_t;
constexpr dtype_set_t dt_bit(data_type_t dt) { return 1u << static_cast<int>(dt); }
dtype_set_t dtypes(std::initializer_list<data_type_t> list);
extern const dtype_set_t k_fp; // f32, bf16, f16

struct port_spec_t {
    std::string name;
    std::string type_var; // "" = any dtype
};

struct attr_spec_t {
    attr_id_t id;
    bool required = false;
    bool has_default = false;
    ir::attr_value_t default_value;
    std::vector<std::string> candidates; // strings, compared case-insensitively
};

using constraint_fn_t = status_t (*)(const ir::op_t &op);

class op_schema_t {
public:
    // Allowed operand counts: an explicit set, or a variadic range [lo, hi].
    op_schema_t &num_inputs(std::vector<size_t> allowed);
    op_schema_t &num_outputs(std::vector<size_t> allowed);
    op_schema_t &variadic_inputs(size_t lo, size_t hi);
    op_schema_t &variadic_outputs(size_t lo, size_t hi);
    // Ports in operand order; a variadic op declares one port for all.
    op_schema_t &input(const std::string &name, const std::string &type_var);
    op_schema_t &output(const std::string &name, const std::string &type_var);
    op_schema_t &types(const std::string &type_var, dtype_set_t allowed);
    op_schema_t &attr(attr_id_t id, bool required);
    op_schema_t &attr(attr_id_t id, ir::attr_value_t default_value);
    op_schema_t &candidates(attr_id_t id, std::vector<std::string> values);
    op_schema_t &constraint(constraint_fn_t fn);

    bool defined() const { return defined_; }
    const std::vector<port_spec_t> &inputs() const { return inputs_; }
    const std::vector<port_spec_t> &outputs() const { return outputs_; }
    const std::vector<attr_spec_t> &attrs() const { return attrs_; }
    const attr_spec_t *find_attr(attr_id_t id) const;
    bool input_count_ok(size_t n) const;
    bool output_count_ok(size_t n) const;
    std::string input_count_text() const;
    std::string output_count_text() const;
    dtype_set_t type_set(const std::string &type_var) const;

    // Fills defaults into `op` and checks it; on failure the last-error text
    // names the op, the port or attribute, and what was expected.
    status_t verify(ir::op_t &op, const char *kind_name) const;

private:
    status_t check_ports(const ir::op_t &op, const char *kind_name) const;
    status_t check_attrs(const ir::op_t &op, const char *kind_name) const;

    bool defined_ = false;
    std::vector<size_t> in_counts_, out_counts_;
    bool in_variadic_ = false, out_variadic_ = false;
    size_t in_lo_ = 0, in_hi_ = 0, out_lo_ = 0, out_hi_ = 0;
    std::vector<port_spec_t> inputs_, outputs_;
    std::vector<std::pair<std::string, dtype_set_t>> type_sets_;
    std::vector<attr_spec_t> attrs_;
    constraint_fn_t constraint_ = nullptr;
};

// Case-insensitive string equality, for attribute values with two spellings.
bool iequals(const std::string &a, const std::string &b);

} // namespace ops
} // namespace llga
