// SPDX-License-Identifier: Apache-2.0
// backends/ocl/backend.cpp — the OpenCL backend of one device: compiles any
// partition whose ops all have kernels into a partition executor that runs
// the per-op launches in the partition's op order on the stream's in-order
// queue, with intermediates in device scratch memory freed (through the
// engine's allocator) with the completion event.
#include <algorithm>
#include <mutex>
#include <unordered_map>

#include "backends/ocl/cl_status.hpp"
#include "backends/ocl/device.hpp"
#include "backends/ocl/kernels_family.hpp"
#include "backends/ocl/sources.hpp"
#include "base/verbose.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace ocl {

builder_fn_t find_builder(op_kind_t kind) {
    switch (kind) {
#define LLGA_OCL_KERNEL(k, fn) \
    case dnnl_graph_op_##k: return fn;
#include "backends/ocl/kernels.def"
#undef LLGA_OCL_KERNEL
        default: return nullptr;
    }
}

namespace {

struct slot_t {
    enum class where_t { input, output, scratch } where;
    size_t index;
    bool scalar = false; // a host scalar, passed by value (int)
};

struct step_t {
    cl_kernel kernel = nullptr;
    std::vector<slot_t> args;
    size_t work = 0;
    std::string name;
};

class ocl_kernel_t : public compiler::kernel_t {
public:
    explicit ocl_kernel_t(std::shared_ptr<const device_impl_t> dev)
        : dev_(std::move(dev)) {}
    ~ocl_kernel_t() override {
        for (step_t &s : steps_)
            if (s.kernel) clReleaseKernel(s.kernel);
    }
    const char *name() const override { return name_.c_str(); }

    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        auto *q = ctx.stream ? dynamic_cast<queue_impl_t *>(ctx.stream->queue())
                             : nullptr;
        if (!q)
            return fail(dnnl_invalid_arguments,
                    "partition compiled for a GPU engine needs a stream on a "
                    "GPU engine");
        if (q->device().context() != dev_->context()
                || q->device().device() != dev_->device())
            return fail(dnnl_invalid_arguments,
                    "the stream's OpenCL device/context is not the one the "
                    "partition was compiled for");
        const cl_command_queue cq = q->get();
        std::vector<void *> scratch(scratch_bytes_.size(), nullptr);
        status_t st = dnnl_success;
        for (size_t k = 0; k < scratch.size() && st == dnnl_success; ++k) {
            scratch[k] = ctx.allocator->allocate(
                    scratch_bytes_[k], rt::lifetime_t::temp);
            if (!scratch[k])
                st = fail(dnnl_out_of_memory,
                        "allocating %zu bytes of device memory for an "
                        "intermediate tensor",
                        scratch_bytes_[k]);
        }
        auto resolve = [&](const slot_t &s) -> const void * {
            switch (s.where) {
                case slot_t::where_t::input: return ctx.inputs[s.index];
                case slot_t::where_t::output: return ctx.outputs[s.index];
                default: return scratch[s.index];
            }
        };
        const cl_event *deps
                = reinterpret_cast<const cl_event *>(ctx.events.deps);
        cl_uint ndeps = static_cast<cl_uint>(
                ctx.events.deps ? std::max(ctx.events.ndeps, 0) : 0);
        {
            std::lock_guard<std::mutex> lock(mu_);
            for (size_t i = 0; i < steps_.size() && st == dnnl_success; ++i) {
                const step_t &s = steps_[i];
                if (s.work == 0) continue;
                for (size_t a = 0; a < s.args.size() && st == dnnl_success; ++a) {
                    const cl_int err = s.args[a].scalar
                            ? clSetKernelArg(s.kernel, static_cast<cl_uint>(a),
                                    sizeof(cl_int), resolve(s.args[a]))
                            : dev_->set_arg_pointer(s.kernel,
                                    static_cast<cl_uint>(a), resolve(s.args[a]));
                    if (err != CL_SUCCESS)
                        st = cl_fail(err, ("setting an argument of kernel "
                                                  + s.name)
                                                  .c_str());
                }
                if (st != dnnl_success) break;
                const size_t gws = s.work;
                const cl_int err = clEnqueueNDRangeKernel(cq, s.kernel, 1,
                        nullptr, &gws, nullptr, ndeps, ndeps ? deps : nullptr,
                        nullptr);
                if (err != CL_SUCCESS)
                    st = cl_fail(err, ("enqueueing kernel " + s.name).c_str());
                ndeps = 0; // the queue is in order: later steps follow
            }
        }
        // An event after everything enqueued (and after the deps when
        // nothing ran).
        cl_event done = nullptr;
        const bool want_event = ctx.events.done || !scratch.empty();
        if (want_event) {
            const cl_int err = clEnqueueMarkerWithWaitList(
                    cq, ndeps, ndeps ? deps : nullptr, &done);
            if (err != CL_SUCCESS) {
                if (st == dnnl_success) st = cl_fail(err, "clEnqueueMarker");
                clFinish(cq);
                done = nullptr;
            }
        }
        for (size_t k = 0; k < scratch.size(); ++k)
            if (scratch[k])
                ctx.allocator->deallocate(scratch[k], scratch_bytes_[k],
                        rt::lifetime_t::temp, done);
        if (ctx.events.done && st == dnnl_success) {
            *ctx.events.done = done;
        } else if (done) {
            clReleaseEvent(done);
        }
        if (st == dnnl_success && verbose_level() >= 2) clFinish(cq);
        return st;
    }

    std::shared_ptr<const device_impl_t> dev_;
    std::vector<step_t> steps_;
    std::vector<size_t> scratch_bytes_;
    std::string name_;
    mutable std::mutex mu_; // kernel arguments are per cl_kernel
};

class ocl_backend_t : public compiler::backend_t {
public:
    explicit ocl_backend_t(const device_impl_t &dev) : dev_(dev) {}
    const char *name() const override { return "ocl"; }
    // Every partition: compile() names the op that has no kernel.
    bool supports(const compiler::plan_t &) const override { return true; }

    status_t compile(const compiler::plan_t &plan,
            std::shared_ptr<const compiler::kernel_t> &out) const override {
        auto k = std::make_shared<ocl_kernel_t>(dev_.shared_from_this());
        std::unordered_map<size_t, slot_t> slots;
        for (size_t i = 0; i < plan.inputs.size(); ++i)
            slots[plan.inputs[i].id] = {slot_t::where_t::input, i,
                    plan.inputs[i].property
                            == dnnl_graph_tensor_property_host_scalar};
        for (size_t i = 0; i < plan.outputs.size(); ++i)
            slots[plan.outputs[i].id] = {slot_t::where_t::output, i};
        std::string names;
        for (const ir::op_t &op : plan.ops) {
            const builder_fn_t b = find_builder(op.kind);
            if (!b)
                return fail(dnnl_unimplemented,
                        "the OpenCL engine has no kernel for op kind %s (op "
                        "%zu '%s' in partition %zu)",
                        ops::op_kind_name(op.kind), op.id, op.name.c_str(),
                        plan.partition ? plan.partition->id : 0);
            std::vector<launch_desc_t> launches;
            LLGA_RETURN_IF_ERROR(b(op, launches));
            for (const auto &lt : op.outputs)
                if (!slots.count(lt.id)) {
                    const size_t bytes = ir::mem_size(lt);
                    if (bytes == static_cast<size_t>(-1))
                        return fail(dnnl_unimplemented,
                                "intermediate tensor %zu of %s has no known "
                                "size",
                                lt.id, ops::op_kind_name(op.kind));
                    slots[lt.id] = {slot_t::where_t::scratch,
                            k->scratch_bytes_.size()};
                    k->scratch_bytes_.push_back(bytes);
                }
            // The op's temporaries: one scratch slot each, sized by the
            // largest request among its launches.
            std::vector<size_t> temp_slot;
            for (const launch_desc_t &l : launches)
                for (size_t t = 0; t < l.temp_bytes.size(); ++t) {
                    if (t == temp_slot.size()) {
                        temp_slot.push_back(k->scratch_bytes_.size());
                        k->scratch_bytes_.push_back(1);
                    }
                    size_t &bytes = k->scratch_bytes_[temp_slot[t]];
                    bytes = std::max(bytes, l.temp_bytes[t]);
                }
            for (const launch_desc_t &l : launches) {
                step_t s;
                LLGA_RETURN_IF_ERROR(make_cl_kernel(l, s.kernel));
                k->steps_.push_back(s); // released by ~ocl_kernel_t
                step_t &ks = k->steps_.back();
                ks.work = l.work;
                ks.name = l.family + ":" + l.kernel;
                for (const arg_ref_t &a : l.args) {
                    if (a.temp_index >= 0) {
                        if (static_cast<size_t>(a.temp_index) >= temp_slot.size())
                            return fail(dnnl_runtime_error,
                                    "kernel %s of %s uses temporary %d that "
                                    "no launch sized",
                                    l.kernel.c_str(),
                                    ops::op_kind_name(op.kind), a.temp_index);
                        ks.args.push_back({slot_t::where_t::scratch,
                                temp_slot[static_cast<size_t>(a.temp_index)]});
                        continue;
                    }
                    auto it = slots.find(a.id);
                    if (it == slots.end())
                        return fail(dnnl_runtime_error,
                                "tensor %zu of %s is neither a port nor "
                                "produced earlier in the partition",
                                a.id, ops::op_kind_name(op.kind));
                    ks.args.push_back(it->second);
                }
            }
            names += (names.empty() ? "" : "+") + std::string(ops::op_kind_name(op.kind));
        }
        k->name_ = "ocl:" + names;
        out = k;
        return dnnl_success;
    }

    std::string config_key() const override { return dev_.tag(); }

private:
    status_t make_cl_kernel(const launch_desc_t &l, cl_kernel &out) const {
        const char *common = kernel_source("common");
        const char *body = kernel_source(l.family);
        if (!common || !body)
            return fail(dnnl_runtime_error, "no OpenCL source for family %s",
                    l.family.c_str());
        const std::string src = std::string(common) + "\n" + body;
        const std::string opts
                = "-cl-std=CL1.2 -cl-fp32-correctly-rounded-divide-sqrt"
                + l.options;
        cl_program p = nullptr;
        LLGA_RETURN_IF_ERROR(
                dev_.programs().get(src, opts, l.family + ":" + l.kernel, p));
        cl_int err = CL_SUCCESS;
        out = clCreateKernel(p, l.kernel.c_str(), &err);
        if (err != CL_SUCCESS)
            return cl_fail(err, ("clCreateKernel " + l.kernel).c_str());
        return dnnl_success;
    }

    const device_impl_t &dev_;
};

} // namespace

std::unique_ptr<compiler::backend_t> make_backend(const device_impl_t &dev) {
    return std::unique_ptr<compiler::backend_t>(new ocl_backend_t(dev));
}

} // namespace ocl
} // namespace llga
