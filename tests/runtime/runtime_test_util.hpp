// SPDX-License-Identifier: Apache-2.0
// tests/runtime/runtime_test_util.hpp — helpers for the API-level runtime
// tests: logical tensor builders, single-op partitions compiled through the
// C API, a counting allocator (user callbacks) that records every block
// the library allocates, and a guard that keeps partitions on the
// reference backend.
#pragma once

#include <atomic>
#include <cstdlib>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/isa.hpp"
#include "oneapi/dnnl/dnnl_graph.h"
#include "oneapi/dnnl/llga.h"

namespace rt_test {

// While alive, the CPU JIT backend is capped below its lowest level, so
// partitions run on the reference backend, which prepares every constant
// input through the constant cache: the path the cache tests count, kept
// whatever op gains a JIT kernel (BiasAdd did).
struct reference_backend_only_t {
    reference_backend_only_t() {
        llga::cpu::set_max_isa_for_testing(llga::cpu::isa_t::sse41);
    }
    ~reference_backend_only_t() { llga::cpu::reset_max_isa_for_testing(); }
    reference_backend_only_t(const reference_backend_only_t &) = delete;
    reference_backend_only_t &operator=(const reference_backend_only_t &) = delete;
};

inline dnnl_graph_logical_tensor_t lt(size_t id, std::vector<int64_t> dims,
        dnnl_graph_tensor_property_t prop = dnnl_graph_tensor_property_undef,
        dnnl_graph_layout_type_t layout = dnnl_graph_layout_type_strided) {
    dnnl_graph_logical_tensor_t t;
    dnnl_dims_t d = {0};
    for (size_t k = 0; k < dims.size(); ++k)
        d[k] = dims[k];
    EXPECT_EQ(dnnl_graph_logical_tensor_init_with_dims(&t, id, dnnl_f32,
                      static_cast<int32_t>(dims.size()), d, layout, prop),
            dnnl_success);
    return t;
}

// Compiled single-op partition; owns its handles.
struct compiled_op_t {
    dnnl_graph_partition_t part = nullptr;
    dnnl_graph_compiled_partition_t cp = nullptr;
    compiled_op_t(size_t op_id, dnnl_graph_op_kind_t kind,
            std::vector<dnnl_graph_logical_tensor_t> ins,
            std::vector<dnnl_graph_logical_tensor_t> outs, dnnl_engine_t eng) {
        dnnl_graph_op_t op = nullptr;
        EXPECT_EQ(dnnl_graph_op_create(&op, op_id, kind, "op"), dnnl_success);
        for (auto &t : ins)
            EXPECT_EQ(dnnl_graph_op_add_input(op, &t), dnnl_success);
        for (auto &t : outs)
            EXPECT_EQ(dnnl_graph_op_add_output(op, &t), dnnl_success);
        EXPECT_EQ(dnnl_graph_partition_create_with_op(&part, op, dnnl_cpu),
                dnnl_success);
        dnnl_graph_op_destroy(op);
        EXPECT_EQ(dnnl_graph_compiled_partition_create(&cp, part), dnnl_success);
        std::vector<const dnnl_graph_logical_tensor_t *> pi, po;
        for (auto &t : ins)
            pi.push_back(&t);
        for (auto &t : outs)
            po.push_back(&t);
        EXPECT_EQ(dnnl_graph_partition_compile(part, cp, pi.size(), pi.data(),
                          po.size(), po.data(), eng),
                dnnl_success)
                << llga_last_error_message();
    }
    ~compiled_op_t() {
        dnnl_graph_compiled_partition_destroy(cp);
        dnnl_graph_partition_destroy(part);
    }
    dnnl_graph_logical_tensor_t query(size_t id) const {
        dnnl_graph_logical_tensor_t q;
        EXPECT_EQ(dnnl_graph_compiled_partition_query_logical_tensor(cp, id, &q),
                dnnl_success);
        return q;
    }
    dnnl_status_t run(dnnl_stream_t s, std::vector<dnnl_graph_tensor_t> ins,
            std::vector<dnnl_graph_tensor_t> outs) const {
        std::vector<const_dnnl_graph_tensor_t> ci(ins.begin(), ins.end()),
                co(outs.begin(), outs.end());
        return dnnl_graph_compiled_partition_execute(
                cp, s, ci.size(), ci.data(), co.size(), co.data());
    }
};

inline dnnl_graph_tensor_t tensor(
        const dnnl_graph_logical_tensor_t &t, dnnl_engine_t e, void *h) {
    dnnl_graph_tensor_t r = nullptr;
    EXPECT_EQ(dnnl_graph_tensor_create(&r, &t, e, h), dnnl_success);
    return r;
}

// Counting allocator: every block the library allocates through the user's
// callbacks, and every free.
struct counting_t {
    static inline std::atomic<long> allocs {0}, frees {0}, live {0};
    static void *alloc(size_t size, size_t alignment) {
        ++allocs;
        ++live;
        return std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
    }
    static void free(void *p) {
        ++frees;
        --live;
        std::free(p);
    }
};

} // namespace rt_test
