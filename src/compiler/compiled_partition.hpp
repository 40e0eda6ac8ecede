// compiler/compiled_partition.hpp — compile a partition for an engine and run
// it. Compilation validates the user's ports, runs the passes (shape
// inference, layout), computes in-place pairs, asks the backends in priority
// order for a kernel, and goes through the compiled-partition cache.
#pragma once

#include <memory>
#include <vector>

#include "compiler/kernel.hpp"
#include "runtime/tensor.hpp"

namespace llga {
namespace compiler {

// Immutable result of compilation; shared by the cache and handles.
struct compiled_t {
    plan_t plan;
    std::shared_ptr<const kernel_t> kernel;
    std::vector<dnnl_graph_inplace_pair_t> inplace; // C layout for the API
};

status_t compile_partition(
        const std::shared_ptr<const fusion::partition_t> &partition,
        const std::vector<logical_tensor_t> &inputs,
        const std::vector<logical_tensor_t> &outputs, const rt::engine_t &engine,
        const backend_list_t &backends,
        std::shared_ptr<const compiled_t> &out);

// Validates the tensors against the compiled ports and runs the kernel.
status_t execute_compiled(const compiled_t &c, rt::stream_t &stream,
        const std::vector<const rt::tensor_t *> &inputs,
        const std::vector<const rt::tensor_t *> &outputs);

// Final logical tensor of a port by id; false if the id is not a port.
bool query_port(const compiled_t &c, size_t id, logical_tensor_t &lt);

} // namespace compiler
} // namespace llga
