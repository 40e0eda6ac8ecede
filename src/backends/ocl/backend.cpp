// SPDX-License-Identifier: Apache-2.0
// backends/ocl/backend.cpp — the OpenCL backend of one device: compiles any
// partition whose ops all have kernels into a launch plan (per-op launches in
// the partition's op order; intermediates and op temporaries in scratch; the
// constant stage's kept results in one constant buffer) that
// partition_executor_t (executor.cpp) runs.
#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include "backends/ocl/cl_status.hpp"
#include "backends/ocl/device.hpp"
#include "backends/ocl/executor.hpp"
#include "backends/ocl/kernels_family.hpp"
#include "backends/ocl/sources.hpp"
#include "base/checked_size.hpp"
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

class ocl_backend_t : public compiler::backend_t {
public:
    explicit ocl_backend_t(const device_impl_t &dev) : dev_(dev) {}
    const char *name() const override { return "ocl"; }
    // Every partition: compile() names the op that has no kernel.
    bool supports(const compiler::plan_t &) const override { return true; }

    status_t compile(const compiler::plan_t &plan,
            std::shared_ptr<const compiler::kernel_t> &out) const override {
        launch_plan_t lp;
        // Steps own their cl_kernel from creation: released on every exit.
        struct release_t {
            launch_plan_t &p;
            bool armed = true;
            ~release_t() {
                if (armed)
                    for (step_t &s : p.steps)
                        if (s.kernel) clReleaseKernel(s.kernel);
            }
        } release {lp};
        std::unordered_map<size_t, slot_t> slots;
        // Tensors whose value is the same in every execution: constant
        // ports (not host scalars: those are copied per execution) and the
        // results of ops that read only such tensors.
        std::unordered_map<size_t, bool> is_const;
        for (size_t i = 0; i < plan.inputs.size(); ++i) {
            const auto &in = plan.inputs[i];
            const bool scalar
                    = in.property == dnnl_graph_tensor_property_host_scalar;
            slots[in.id] = {slot_t::where_t::input, i, scalar};
            is_const[in.id] = !scalar
                    && in.property == dnnl_graph_tensor_property_constant;
        }
        for (size_t i = 0; i < plan.outputs.size(); ++i)
            slots[plan.outputs[i].id] = {slot_t::where_t::output, i};
        std::vector<bool> scratch_const; // per scratch slot
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
            bool op_const = !op.inputs.empty();
            for (const auto &lt : op.inputs)
                op_const = op_const && is_const[lt.id];
            for (const auto &lt : op.outputs)
                op_const = op_const && !slots.count(lt.id);
            for (const auto &lt : op.outputs)
                if (!slots.count(lt.id)) {
                    const size_t bytes = ir::mem_size(lt);
                    if (bytes == static_cast<size_t>(-1))
                        return fail(dnnl_unimplemented,
                                "intermediate tensor %zu of %s has no known "
                                "size",
                                lt.id, ops::op_kind_name(op.kind));
                    slots[lt.id] = {slot_t::where_t::scratch,
                            lp.scratch_bytes.size()};
                    lp.scratch_bytes.push_back(bytes);
                    scratch_const.push_back(op_const);
                    is_const[lt.id] = op_const;
                }
            // The op's temporaries: one scratch slot each, sized by the
            // largest request among its launches.
            std::vector<size_t> temp_slot;
            for (const launch_desc_t &l : launches)
                for (size_t t = 0; t < l.temp_bytes.size(); ++t) {
                    if (t == temp_slot.size()) {
                        temp_slot.push_back(lp.scratch_bytes.size());
                        lp.scratch_bytes.push_back(1);
                        scratch_const.push_back(false);
                    }
                    size_t &bytes = lp.scratch_bytes[temp_slot[t]];
                    bytes = std::max(bytes, l.temp_bytes[t]);
                }
            for (const launch_desc_t &l : launches) {
                lp.steps.emplace_back();
                step_t &ks = lp.steps.back();
                LLGA_RETURN_IF_ERROR(make_cl_kernel(l, ks.kernel));
                ks.work = l.work;
                ks.name = l.family + ":" + l.kernel;
                ks.constant = op_const;
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
        LLGA_RETURN_IF_ERROR(place_constants(plan, scratch_const, lp));
        lp.name = "ocl:" + names;
        release.armed = false;
        out = std::make_shared<partition_executor_t>(
                dev_.shared_from_this(), std::move(lp));
        return dnnl_success;
    }

    std::string config_key() const override { return dev_.tag(); }

private:
    // Moves the constant stage's results that later launches read into the
    // constant buffer (one region each, 256-byte aligned) and records the
    // constant ports the stage reads. Without such results the stage is
    // ordinary work (nothing to keep).
    static status_t place_constants(const compiler::plan_t &plan,
            const std::vector<bool> &scratch_const, launch_plan_t &lp) {
        std::vector<size_t> offset(lp.scratch_bytes.size(), SIZE_MAX);
        for (const step_t &s : lp.steps) {
            if (s.constant) continue;
            for (const slot_t &a : s.args)
                if (a.where == slot_t::where_t::scratch
                        && scratch_const[a.index]
                        && offset[a.index] == SIZE_MAX) {
                    offset[a.index] = lp.constant_bytes;
                    size_t end = 0;
                    if (!checked_add(lp.constant_bytes,
                                lp.scratch_bytes[a.index], end)
                            || !checked_add(end, size_t(255), end))
                        return fail(dnnl_invalid_shape,
                                "constant intermediates of partition %zu "
                                "overflow size_t",
                                plan.partition ? plan.partition->id : 0);
                    lp.constant_bytes = end / 256 * 256;
                }
        }
        if (lp.constant_bytes == 0) {
            for (step_t &s : lp.steps)
                s.constant = false;
            return dnnl_success;
        }
        std::vector<bool> port_used(plan.inputs.size(), false);
        for (step_t &s : lp.steps)
            for (slot_t &a : s.args) {
                if (a.where == slot_t::where_t::scratch
                        && offset[a.index] != SIZE_MAX)
                    a = {slot_t::where_t::constant, offset[a.index]};
                else if (s.constant && a.where == slot_t::where_t::input)
                    port_used[a.index] = true;
            }
        for (size_t k = 0; k < offset.size(); ++k)
            if (offset[k] != SIZE_MAX) lp.scratch_bytes[k] = 0;
        for (size_t i = 0; i < port_used.size(); ++i)
            if (port_used[i]) lp.constant_ports.push_back(i);
        return dnnl_success;
    }

    status_t make_cl_kernel(const launch_desc_t &l, cl_kernel &out) const {
        const char *common = kernel_source("common");
        const char *lowp = kernel_source("lowp");
        const char *body = kernel_source(l.family);
        if (!common || !lowp || !body)
            return fail(dnnl_runtime_error, "no OpenCL source for family %s",
                    l.family.c_str());
        // The f8 and s4/u4 helpers only where a tensor has such a type (see
        // kernels/lowp.cl for why).
        const bool low_precision = l.options.find("_DT=f8_") != std::string::npos
                || l.options.find("_DT=s4") != std::string::npos
                || l.options.find("_DT=u4") != std::string::npos;
        const std::string src = std::string(common) + "\n"
                + (low_precision ? std::string(lowp) + "\n" : std::string())
                + body;
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
