// SPDX-License-Identifier: Apache-2.0
// tests/api/capi_test_util.hpp — small helpers for tests that drive the
// public C API only (no internal headers): logical tensor builders and an
// RAII engine/stream pair.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl_graph.h"
#include "oneapi/dnnl/llga.h"

namespace capi_test {

// An op with the given ports (EXPECTs every call succeeded); the caller owns
// it, or hands it to add_and_destroy.
inline dnnl_graph_op_t make_op(size_t id, dnnl_graph_op_kind_t kind,
        std::vector<dnnl_graph_logical_tensor_t> ins,
        std::vector<dnnl_graph_logical_tensor_t> outs) {
    dnnl_graph_op_t op = nullptr;
    EXPECT_EQ(dnnl_graph_op_create(&op, id, kind, "op"), dnnl_success);
    for (auto &t : ins)
        EXPECT_EQ(dnnl_graph_op_add_input(op, &t), dnnl_success);
    for (auto &t : outs)
        EXPECT_EQ(dnnl_graph_op_add_output(op, &t), dnnl_success);
    return op;
}

// Adds an op built by make_op to `g` and destroys the caller's copy.
inline dnnl_status_t add_and_destroy(dnnl_graph_graph_t g, dnnl_graph_op_t op) {
    const dnnl_status_t st = dnnl_graph_add_op(g, op);
    dnnl_graph_op_destroy(op);
    return st;
}

inline dnnl_graph_logical_tensor_t lt(size_t id, dnnl_data_type_t dt,
        std::vector<int64_t> dims,
        dnnl_graph_layout_type_t layout = dnnl_graph_layout_type_strided,
        dnnl_graph_tensor_property_t prop = dnnl_graph_tensor_property_undef) {
    dnnl_graph_logical_tensor_t t;
    dnnl_dims_t d = {0};
    for (size_t k = 0; k < dims.size(); ++k)
        d[k] = dims[k];
    EXPECT_EQ(dnnl_graph_logical_tensor_init_with_dims(&t, id, dt,
                      static_cast<int32_t>(dims.size()), d, layout, prop),
            dnnl_success);
    return t;
}

inline dnnl_graph_logical_tensor_t lt_unknown(size_t id, dnnl_data_type_t dt) {
    dnnl_graph_logical_tensor_t t;
    EXPECT_EQ(dnnl_graph_logical_tensor_init(&t, id, dt, DNNL_GRAPH_UNKNOWN_NDIMS,
                      dnnl_graph_layout_type_any, dnnl_graph_tensor_property_undef),
            dnnl_success);
    return t;
}

// Engine + stream for the whole test.
struct cpu_env_t {
    dnnl_engine_t engine = nullptr;
    dnnl_stream_t stream = nullptr;
    cpu_env_t() {
        EXPECT_EQ(dnnl_engine_create(&engine, dnnl_cpu, 0), dnnl_success);
        EXPECT_EQ(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags),
                dnnl_success);
    }
    ~cpu_env_t() {
        dnnl_stream_destroy(stream);
        dnnl_engine_destroy(engine);
    }
};

inline std::string last_error() { return llga_last_error_message(); }

} // namespace capi_test
