// SPDX-License-Identifier: Apache-2.0
// capi/op.cpp — dnnl_graph_op_*: build an op before adding it to a graph.
// Attribute values are stored by the setter's type; whether the op kind
// accepts them is decided by its schema in dnnl_graph_add_op.
#include "capi/barrier.hpp"
#include "capi/handles.hpp"
#include "capi/lt_check.hpp"
#include "ops/registry.hpp"

using namespace llga;

namespace {
status_t check_attr_name(const dnnl_graph_op_attr_t &name) {
    const int raw = capi::raw_enum(name);
    if (raw <= dnnl_graph_op_attr_undef || raw >= dnnl_graph_op_attr_end
            || !ir::attr_name(static_cast<attr_id_t>(raw)))
        return fail(dnnl_invalid_arguments, "unknown attribute id 0x%x",
                static_cast<unsigned>(raw));
    return dnnl_success;
}

// oneDNN's attribute id ranges: [alpha, scales) one float, [axis, axes)
// one integer.
bool is_scalar_f32(dnnl_graph_op_attr_t name) {
    return name >= dnnl_graph_op_attr_alpha && name < dnnl_graph_op_attr_scales;
}
bool is_scalar_s64(dnnl_graph_op_attr_t name) {
    return name >= dnnl_graph_op_attr_axis && name < dnnl_graph_op_attr_axes;
}

} // namespace

extern "C" {

dnnl_status_t dnnl_graph_op_create(dnnl_graph_op_t *op, size_t id,
        dnnl_graph_op_kind_t kind, const char *verbose_name) {
    return LLGA_API_BODY("dnnl_graph_op_create", {
        LLGA_CHECK_ARG(op);
        *op = nullptr;
        LLGA_CHECK_ARG(verbose_name);
        LLGA_CHECK_ENUM(kind, 0, dnnl_graph_op_last_symbol - 1, "op kind");
        const char *kind_name = ops::op_kind_name(kind);
        if (!kind_name)
            return fail(dnnl_invalid_arguments, "unknown op kind %d",
                    static_cast<int>(kind));
        auto *o = new dnnl_graph_op();
        o->id = id;
        o->kind = kind;
        o->name = *verbose_name ? std::string(verbose_name)
                                : std::string(kind_name) + "_" + std::to_string(id);
        *op = o;
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_op_destroy(dnnl_graph_op_t op) {
    return LLGA_API_BODY("dnnl_graph_op_destroy", {
        LLGA_CHECK_ARG(op);
        delete op;
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_op_add_input(
        dnnl_graph_op_t op, const dnnl_graph_logical_tensor_t *input) {
    return LLGA_API_BODY("dnnl_graph_op_add_input", {
        LLGA_CHECK_ARG(op);
        LLGA_RETURN_IF_ERROR(capi::check_lt(input, "input"));
        op->inputs.push_back(*input);
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_op_add_output(
        dnnl_graph_op_t op, const dnnl_graph_logical_tensor_t *output) {
    return LLGA_API_BODY("dnnl_graph_op_add_output", {
        LLGA_CHECK_ARG(op);
        LLGA_RETURN_IF_ERROR(capi::check_lt(output, "output"));
        op->outputs.push_back(*output);
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_op_set_attr_f32(dnnl_graph_op_t op,
        dnnl_graph_op_attr_t name, const float *value, size_t value_len) {
    return LLGA_API_BODY("dnnl_graph_op_set_attr_f32", {
        LLGA_CHECK_ARG(op);
        LLGA_RETURN_IF_ERROR(check_attr_name(name));
        // Ids below 0x20 hold one float: as in oneDNN, the count is not
        // read (C++ callers pass 1, C callers often 0) and value[0] is
        // taken. The others hold a vector of value_len floats.
        if (is_scalar_f32(name)) {
            LLGA_CHECK_ARG(value);
            op->set_attr(name, ir::attr_value_t::make_f32(value[0]));
        } else {
            if (value_len > 0) LLGA_CHECK_ARG(value);
            op->set_attr(name, ir::attr_value_t::make_f32s(
                                       std::vector<float>(value, value + value_len)));
        }
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_op_set_attr_bool(dnnl_graph_op_t op,
        dnnl_graph_op_attr_t name, const uint8_t *value, size_t value_len) {
    return LLGA_API_BODY("dnnl_graph_op_set_attr_bool", {
        LLGA_CHECK_ARG(op);
        LLGA_RETURN_IF_ERROR(check_attr_name(name));
        LLGA_CHECK_ARG(value);
        if (value_len != 1)
            return fail(dnnl_invalid_arguments,
                    "boolean attribute '%s' takes exactly one value, got %zu",
                    ir::attr_name(name), value_len);
        op->set_attr(name, ir::attr_value_t::make_bool(value[0] != 0));
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_op_set_attr_s64(dnnl_graph_op_t op,
        dnnl_graph_op_attr_t name, const int64_t *value, size_t value_len) {
    return LLGA_API_BODY("dnnl_graph_op_set_attr_s64", {
        LLGA_CHECK_ARG(op);
        LLGA_RETURN_IF_ERROR(check_attr_name(name));
        // Ids in [0x30, 0x40) hold one integer (count not read, as for
        // the scalar floats); the others hold a vector.
        if (is_scalar_s64(name)) {
            LLGA_CHECK_ARG(value);
            op->set_attr(name, ir::attr_value_t::make_s64(value[0]));
        } else {
            if (value_len > 0) LLGA_CHECK_ARG(value);
            op->set_attr(name, ir::attr_value_t::make_s64s(std::vector<int64_t>(
                                       value, value + value_len)));
        }
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_op_set_attr_str(dnnl_graph_op_t op,
        dnnl_graph_op_attr_t name, const char *value, size_t value_len) {
    return LLGA_API_BODY("dnnl_graph_op_set_attr_str", {
        LLGA_CHECK_ARG(op);
        LLGA_RETURN_IF_ERROR(check_attr_name(name));
        LLGA_CHECK_ARG(value);
        // As in oneDNN: a count of 0 is refused, any other count only says
        // "not empty"; the value is the whole NUL-terminated string.
        if (value_len == 0)
            return fail(dnnl_invalid_arguments,
                    "string attribute '%s' given with length 0",
                    ir::attr_name(name));
        op->set_attr(name, ir::attr_value_t::make_str(std::string(value)));
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_op_get_id(const_dnnl_graph_op_t op, size_t *id) {
    return LLGA_API_BODY("dnnl_graph_op_get_id", {
        LLGA_CHECK_ARG(op);
        LLGA_CHECK_ARG(id);
        *id = op->id;
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_op_get_kind(
        const_dnnl_graph_op_t op, dnnl_graph_op_kind_t *kind) {
    return LLGA_API_BODY("dnnl_graph_op_get_kind", {
        LLGA_CHECK_ARG(op);
        LLGA_CHECK_ARG(kind);
        *kind = op->kind;
        return dnnl_success;
    });
}

} // extern "C"
