// SPDX-License-Identifier: Apache-2.0
// backends/ocl/executor.hpp — a partition compiled for one OpenCL device: the
// kernel launches in op order over the partition's ports, its intermediates
// and op temporaries (device scratch per execution), and its constant stage.
//
// The constant stage is every launch of an op whose inputs are all constant
// (ports with property `constant`, or results of such ops) and whose results
// stay inside the partition (a Dequantize of constant int8 weights before a
// MatMul, a Reorder of constant weights). Its results that later launches
// read live in one device buffer from the engine's constant tensor cache:
// the first execution computes it, later ones skip the stage. With the cache
// disabled or full the stage runs in every execution, into scratch.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "backends/ocl/cl.hpp"
#include "backends/ocl/device.hpp"
#include "compiler/kernel.hpp"
#include "runtime/constant_buffer.hpp"

namespace llga {
namespace ocl {

// Where a kernel argument comes from at execution.
struct slot_t {
    enum class where_t { input, output, scratch, constant } where;
    // Port or scratch index; for `constant`, the byte offset into the
    // constant stage's buffer.
    size_t index;
    bool scalar = false; // a host scalar, passed by value (int)
};

struct step_t {
    cl_kernel kernel = nullptr; // owned by the executor
    std::vector<slot_t> args;
    size_t work = 0;
    std::string name;
    bool constant = false; // part of the constant stage
};

// What backend.cpp compiles a plan into.
struct launch_plan_t {
    std::vector<step_t> steps;
    // Bytes of each scratch buffer; 0 marks one that became part of the
    // constant buffer and is not allocated.
    std::vector<size_t> scratch_bytes;
    size_t constant_bytes = 0;        // the constant stage's kept results
    std::vector<size_t> constant_ports; // inputs the stage reads (cache key)
    std::string name;
};

class partition_executor_t : public compiler::kernel_t {
public:
    partition_executor_t(
            std::shared_ptr<const device_impl_t> dev, launch_plan_t plan)
        : dev_(std::move(dev)), plan_(std::move(plan)) {}
    ~partition_executor_t() override;
    const char *name() const override { return plan_.name.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override;

private:
    enum class which_t { all, constant, rest };
    struct bind_t {
        const compiler::exec_ctx_t &ctx;
        const std::vector<void *> &scratch;
        void *constant_base;
    };
    // Enqueues the steps selected by `which`; the first launch waits for
    // `deps` (the queue is in order, so later ones follow). Call under mu_.
    status_t enqueue(cl_command_queue q, const bind_t &b, which_t which,
            const cl_event *deps, cl_uint ndeps, bool *enqueued) const;
    // The constant buffer: from the cache (computing it through `b` on a
    // miss), or nullptr when the cache is disabled. Call under mu_.
    status_t cached_constants(cl_command_queue q, const bind_t &b,
            const cl_event *deps, cl_uint ndeps, rt::constant_ptr_t &out) const;
    // Keeps cached constant buffers alive until the launches reading them
    // complete (an eviction may drop the cache's reference meanwhile).
    void hold_until(cl_event done, rt::constant_ptr_t buf) const;
    void drop_completed() const;

    std::shared_ptr<const device_impl_t> dev_;
    launch_plan_t plan_;
    mutable std::mutex mu_; // kernel arguments are per cl_kernel
    mutable std::vector<std::pair<cl_event, rt::constant_ptr_t>> in_use_;
};

} // namespace ocl
} // namespace llga
