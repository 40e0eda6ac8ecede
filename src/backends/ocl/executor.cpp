// SPDX-License-Identifier: Apache-2.0
// backends/ocl/executor.cpp — execution of a compiled OpenCL partition:
// scratch from the engine's allocator (freed with the completion event),
// the constant stage through the constant tensor cache, launches on the
// stream's in-order queue.
#include "backends/ocl/executor.hpp"

#include <algorithm>
#include <functional>

#include "backends/ocl/cl_status.hpp"
#include "base/verbose.hpp"
#include "compiler/constant_prep.hpp"

namespace llga {
namespace ocl {

partition_executor_t::~partition_executor_t() {
    for (auto &e : in_use_) {
        clWaitForEvents(1, &e.first);
        clReleaseEvent(e.first);
    }
    in_use_.clear(); // buffers go back to their allocator now
    for (step_t &s : plan_.steps)
        if (s.kernel) clReleaseKernel(s.kernel);
}

status_t partition_executor_t::enqueue(cl_command_queue q, const bind_t &b,
        which_t which, const cl_event *deps, cl_uint ndeps,
        bool *enqueued) const {
    auto resolve = [&](const slot_t &s) -> const void * {
        switch (s.where) {
            case slot_t::where_t::input: return b.ctx.inputs[s.index];
            case slot_t::where_t::output: return b.ctx.outputs[s.index];
            case slot_t::where_t::constant:
                return static_cast<char *>(b.constant_base) + s.index;
            default: return b.scratch[s.index];
        }
    };
    for (const step_t &s : plan_.steps) {
        if (s.work == 0) continue;
        if ((which == which_t::constant && !s.constant)
                || (which == which_t::rest && s.constant))
            continue;
        for (size_t a = 0; a < s.args.size(); ++a) {
            const cl_uint idx = static_cast<cl_uint>(a);
            const cl_int err = s.args[a].scalar
                    ? clSetKernelArg(s.kernel, idx, sizeof(cl_int),
                            resolve(s.args[a]))
                    : dev_->set_arg_pointer(s.kernel, idx, resolve(s.args[a]));
            if (err != CL_SUCCESS)
                return cl_fail(err,
                        ("setting an argument of kernel " + s.name).c_str());
        }
        const size_t gws = s.work;
        const cl_int err = clEnqueueNDRangeKernel(q, s.kernel, 1, nullptr,
                &gws, nullptr, ndeps, ndeps ? deps : nullptr, nullptr);
        if (err != CL_SUCCESS)
            return cl_fail(err, ("enqueueing kernel " + s.name).c_str());
        ndeps = 0;
        if (enqueued) *enqueued = true;
    }
    return dnnl_success;
}

status_t partition_executor_t::cached_constants(cl_command_queue q,
        const bind_t &b, const cl_event *deps, cl_uint ndeps,
        rt::constant_ptr_t &out) const {
    out.reset();
    if (plan_.constant_bytes == 0 || plan_.constant_ports.empty()
            || !compiler::constant_cache_enabled(b.ctx))
        return dnnl_success;
    // The stage's result depends on the user's constant buffers (the shapes
    // are fixed by the compiled partition, whose id is in the key).
    size_t detail = plan_.constant_ports.size();
    for (size_t port : plan_.constant_ports)
        detail = detail * 1000003u
                ^ std::hash<const void *>()(b.ctx.const_key(port));
    compiler::constant_request_t req;
    req.backend = compiler::backend_id::ocl;
    req.slot = plan_.constant_ports.front();
    req.src = b.ctx.inputs[req.slot];
    req.bytes = plan_.constant_bytes;
    req.detail = detail;
    auto fill = [&](void *dst) -> status_t {
        const bind_t into {b.ctx, b.scratch, dst};
        LLGA_RETURN_IF_ERROR(
                enqueue(q, into, which_t::constant, deps, ndeps, nullptr));
        // Other executions (other threads, other queues) read the entry as
        // soon as the fill returns.
        const cl_int err = clFinish(q);
        return err == CL_SUCCESS
                ? dnnl_success
                : cl_fail(err, "clFinish after the constant stage");
    };
    return compiler::get_prepared_constant(b.ctx, *this, req, fill, out);
}

void partition_executor_t::drop_completed() const {
    auto done = [](const std::pair<cl_event, rt::constant_ptr_t> &e) {
        cl_int st = CL_QUEUED;
        const cl_int err = clGetEventInfo(e.first,
                CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, nullptr);
        if (err != CL_SUCCESS || st <= CL_COMPLETE) {
            clReleaseEvent(e.first);
            return true;
        }
        return false;
    };
    in_use_.erase(std::remove_if(in_use_.begin(), in_use_.end(), done),
            in_use_.end());
}

void partition_executor_t::hold_until(
        cl_event done, rt::constant_ptr_t buf) const {
    if (clRetainEvent(done) != CL_SUCCESS) {
        clWaitForEvents(1, &done); // cannot track it: keep it safe instead
        return;
    }
    in_use_.emplace_back(done, std::move(buf));
}

status_t partition_executor_t::execute(const compiler::exec_ctx_t &ctx) const {
    auto *q = ctx.stream ? dynamic_cast<queue_impl_t *>(ctx.stream->queue())
                         : nullptr;
    if (!q)
        return fail(dnnl_invalid_arguments,
                "partition compiled for a GPU engine needs a stream on a GPU "
                "engine");
    if (q->device().context() != dev_->context()
            || q->device().device() != dev_->device())
        return fail(dnnl_invalid_arguments,
                "the stream's OpenCL device/context is not the one the "
                "partition was compiled for");
    const cl_command_queue cq = q->get();
    const std::vector<size_t> &bytes = plan_.scratch_bytes;
    // The constant buffer is scratch too when the cache does not keep it.
    std::vector<void *> scratch(bytes.size() + 1, nullptr);
    const size_t const_scratch = bytes.size();
    status_t st = dnnl_success;
    auto size_of = [&](size_t k) {
        return k == const_scratch ? plan_.constant_bytes : bytes[k];
    };
    auto alloc = [&](size_t k) {
        if (st != dnnl_success || size_of(k) == 0) return;
        scratch[k] = ctx.allocator->allocate(size_of(k), rt::lifetime_t::temp);
        if (!scratch[k])
            st = fail(dnnl_out_of_memory,
                    "allocating %zu bytes of device memory for an "
                    "intermediate tensor",
                    size_of(k));
    };
    for (size_t k = 0; k < bytes.size(); ++k)
        alloc(k);
    const cl_event *deps = reinterpret_cast<const cl_event *>(ctx.events.deps);
    const cl_uint ndeps = static_cast<cl_uint>(
            ctx.events.deps ? std::max(ctx.events.ndeps, 0) : 0);
    bool enqueued = false;
    rt::constant_ptr_t cached;
    cl_event done = nullptr;
    {
        std::lock_guard<std::mutex> lock(mu_);
        drop_completed();
        if (st == dnnl_success)
            st = cached_constants(cq, {ctx, scratch, nullptr}, deps, ndeps,
                    cached);
        if (st == dnnl_success && !cached) alloc(const_scratch);
        const bind_t bind {ctx, scratch,
                cached ? cached->data() : scratch[const_scratch]};
        if (st == dnnl_success)
            st = enqueue(cq, bind, cached ? which_t::rest : which_t::all, deps,
                    ndeps, &enqueued);
        // An event after everything enqueued (after the deps when nothing
        // ran).
        const bool any_scratch = std::any_of(scratch.begin(), scratch.end(),
                [](void *p) { return p != nullptr; });
        if (ctx.events.done || any_scratch || cached) {
            const cl_uint nwait = enqueued ? 0 : ndeps;
            const cl_int err = clEnqueueMarkerWithWaitList(
                    cq, nwait, nwait ? deps : nullptr, &done);
            if (err != CL_SUCCESS) {
                if (st == dnnl_success) st = cl_fail(err, "clEnqueueMarker");
                clFinish(cq);
                done = nullptr;
            }
        }
        if (cached && done) hold_until(done, std::move(cached));
    }
    for (size_t k = 0; k < scratch.size(); ++k)
        if (scratch[k])
            ctx.allocator->deallocate(
                    scratch[k], size_of(k), rt::lifetime_t::temp, done);
    if (ctx.events.done && st == dnnl_success) {
        *ctx.events.done = done;
    } else if (done) {
        clReleaseEvent(done);
    }
    if (st == dnnl_success && verbose_level() >= 2) clFinish(cq);
    return st;
}

} // namespace ocl
} // namespace llga
