// SPDX-License-Identifier: Apache-2.0
// compiler/compiled_partition.hpp — compile a partition for an engine and run
// it. Compilation validates the user's ports, runs the passes (shape
// inference, layout), computes in-place pairs, asks the backends in priority
// order for a kernel, and goes through the compiled-partition cache.
#pragma once

#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "compiler/kernel.hpp"
#include "runtime/tensor.hpp"

namespace llga {
namespace compiler {

// Result of compilation, shared by the cache and handles. Immutable but
// for the kernels made on demand for other thread counts.
struct compiled_t {
    plan_t plan;
    std::shared_ptr<const kernel_t> kernel;
    std::vector<dnnl_graph_inplace_pair_t> inplace; // C layout for the API
    // rt::max_threads() when `kernel` was made, if it is sized for it
    // (kernel_t::sized_for_threads); 0 otherwise.
    int threads = 0;
    backend_list_t backends; // the ones `kernel` was chosen from
    std::string backend_name; // verbose "backend" field: who made `kernel`
    // The partition fields of the verbose compile/exec lines (made on
    // first use with verbose on; compiler/verbose_info.hpp).
    const std::string &verbose_info(engine_kind_t engine) const;
    // Input ports as the user declared them at compile. They differ from
    // plan.inputs only at the `staged` indices: inputs whose strides overlap
    // (broadcast views such as stride 0) are copied into a dense scratch
    // buffer before the kernel runs, so kernels only see dense plan.inputs
    // there.
    std::vector<logical_tensor_t> user_inputs;
    std::vector<size_t> staged;

    // The kernel to run with `n` threads: `kernel` when that is what it was
    // made for, else one made for `n` from the same plan on first use
    // (kept for later runs; at most k_max_replanned counts, then `kernel`
    // serves the rest). Thread-safe.
    status_t kernel_for(int n, std::shared_ptr<const kernel_t> &out) const;
    static constexpr size_t k_max_replanned = 8;

private:
    mutable std::mutex mu_;
    mutable std::vector<std::pair<int, std::shared_ptr<const kernel_t>>>
            replanned_;
    mutable std::once_flag info_once_;
    mutable std::string info_;
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
        const std::vector<const rt::tensor_t *> &outputs,
        const device_events_t &events = device_events_t());
// The same without building vectors (the C API's per-call path).
status_t execute_compiled(const compiled_t &c, rt::stream_t &stream,
        const rt::tensor_t *const *inputs, size_t num_inputs,
        const rt::tensor_t *const *outputs, size_t num_outputs,
        const device_events_t &events = device_events_t());

// Final logical tensor of a port by id; false if the id is not a port.
bool query_port(const compiled_t &c, size_t id, logical_tensor_t &lt);

} // namespace compiler
} // namespace llga
