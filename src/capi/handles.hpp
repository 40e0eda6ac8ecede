// SPDX-License-Identifier: Apache-2.0
// capi/handles.hpp — the public opaque handle types. Each handle *is* the
// internal object (or a thin owner of a shared one), so the C API casts
// nothing and adds no indirection.
#pragma once

#include <memory>
#include <vector>

#include "compiler/compiled_partition.hpp"
#include "fusion/partitioner.hpp"
#include "ir/graph.hpp"
#include "runtime/stream.hpp"
#include "runtime/tensor.hpp"

#include "oneapi/dnnl/dnnl_graph.h"

struct dnnl_engine : public llga::rt::engine_t {
    using llga::rt::engine_t::engine_t;
};

struct dnnl_stream : public llga::rt::stream_t {
    using llga::rt::stream_t::stream_t;
};

struct dnnl_graph_allocator : public llga::rt::allocator_t {
    using llga::rt::allocator_t::allocator_t;
};

struct dnnl_graph_op : public llga::ir::op_t {};

struct dnnl_graph_tensor : public llga::rt::tensor_t {};

struct dnnl_graph_graph {
    explicit dnnl_graph_graph(llga::ir::graph_t g) : graph(std::move(g)) {}
    llga::ir::graph_t graph;
    llga::fusion::partition_list_t partitions;
};

struct dnnl_graph_partition {
    std::shared_ptr<const llga::fusion::partition_t> p;
};

struct dnnl_graph_compiled_partition {
    std::shared_ptr<const llga::fusion::partition_t> p;
    std::shared_ptr<const llga::compiler::compiled_t> compiled; // after compile
};

namespace llga {
namespace capi {
// Backends in priority order (best first); the reference backend is last.
const compiler::backend_list_t &enabled_backends();
// The backends that compile for `engine` (a GPU engine: its OpenCL backend).
compiler::backend_list_t backends_for(const rt::engine_t &engine);
} // namespace capi
} // namespace llga
