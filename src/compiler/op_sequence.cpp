// SPDX-License-Identifier: Apache-2.0
// compiler/op_sequence.cpp — a partition as a sequence of steps, each the
// longest run of ops one kernel takes, run in dependency order.
#include "compiler/op_sequence.hpp"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/status.hpp"
#include "ir/logical_tensor.hpp"

namespace llga {
namespace compiler {

namespace {

// Where a step's tensor lives during one execution.
struct slot_t {
    enum class where_t { input, output, scratch } where;
    size_t index; // into ctx.inputs, ctx.outputs or the scratch list
};

// Longest run of ops offered to the backends as one step (a quantized
// MatMul head with its tails is 6 ops; longer runs only add compile time).
constexpr size_t k_max_step_ops = 8;

struct step_t {
    std::shared_ptr<const kernel_t> kernel;
    std::vector<slot_t> inputs, outputs; // the step plan's port order
};

// Intermediates, when the engine uses the default allocator, live in one
// per-thread arena that only grows. A fresh multi-MiB block per run costs a
// page fault per 4 KiB on first touch: an int8 1x1 convolution partition
// ran 27.8 ms with per-run blocks against 14.8 ms op by op (whose
// intermediates are the user's, allocated once). A user allocator is asked
// per run instead (its memory policy wins). `busy` catches re-entry (an
// execute started from a task this thread picked up while waiting inside
// another execute): that run allocates per run.
struct scratch_arena_t {
    char *base = nullptr;
    size_t size = 0;
    bool busy = false;
    ~scratch_arena_t() { std::free(base); }
    char *get(size_t bytes) {
        if (bytes <= size) return base;
        std::free(base);
        size = (bytes + 4095) / 4096 * 4096;
        base = static_cast<char *>(std::aligned_alloc(4096, size));
        if (!base) size = 0;
        return base;
    }
};

class op_sequence_kernel_t : public kernel_t {
public:
    const char *name() const override { return name_.c_str(); }
    bool sized_for_threads() const override {
        for (const step_t &step : steps_)
            if (step.kernel->sized_for_threads()) return true;
        return false;
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        thread_local scratch_arena_t arena;
        std::vector<void *> scratch(scratch_bytes_.size(), nullptr);
        const bool use_arena = ctx.allocator->is_default() && !arena.busy;
        status_t st = dnnl_success;
        if (use_arena && !scratch.empty()) {
            char *base = arena.get(scratch_total_);
            if (!base)
                return fail(dnnl_out_of_memory,
                        "allocating %zu bytes for intermediate tensors",
                        scratch_total_);
            for (size_t k = 0; k < scratch.size(); ++k)
                scratch[k] = base + scratch_offset_[k];
            arena.busy = true;
        } else {
            for (size_t k = 0; k < scratch.size() && st == dnnl_success; ++k) {
                scratch[k] = ctx.allocator->allocate(
                        scratch_bytes_[k], rt::lifetime_t::temp);
                if (!scratch[k])
                    st = fail(dnnl_out_of_memory,
                            "allocating %zu bytes for an intermediate tensor",
                            scratch_bytes_[k]);
            }
        }
        auto resolve = [&](const slot_t &s) -> void * {
            switch (s.where) {
                case slot_t::where_t::input:
                    return const_cast<void *>(ctx.inputs[s.index]);
                case slot_t::where_t::output: return ctx.outputs[s.index];
                default: return scratch[s.index];
            }
        };
        for (size_t i = 0; i < steps_.size() && st == dnnl_success; ++i) {
            const step_t &step = steps_[i];
            exec_ctx_t sub;
            sub.stream = ctx.stream;
            sub.engine = ctx.engine;
            sub.allocator = ctx.allocator;
            for (const slot_t &s : step.inputs)
                sub.inputs.push_back(resolve(s));
            for (const slot_t &s : step.outputs)
                sub.outputs.push_back(resolve(s));
            st = step.kernel->execute(sub);
        }
        if (use_arena) {
            if (!scratch.empty()) arena.busy = false;
            return st;
        }
        for (size_t k = 0; k < scratch.size(); ++k)
            if (scratch[k])
                ctx.allocator->deallocate(
                        scratch[k], scratch_bytes_[k], rt::lifetime_t::temp);
        return st;
    }

    // Intermediate k at arena offset scratch_offset_[k] (64-byte aligned).
    void add_scratch(size_t bytes) {
        scratch_bytes_.push_back(bytes);
        scratch_offset_.push_back(scratch_total_);
        scratch_total_ += (bytes + 63) / 64 * 64;
    }

    std::string name_;
    std::vector<step_t> steps_;
    std::vector<size_t> scratch_bytes_, scratch_offset_;
    size_t scratch_total_ = 0;
};

// The one-step plan for ops [first, last] of `plan`: inputs are the
// tensors the range reads and does not produce (first-use order), outputs
// the tensors it produces that a later op reads or that are partition
// outputs. Partition ports keep what the user gave (property, opaque
// layout); intermediates the ops' concrete strided tensors.
plan_t range_plan(const plan_t &plan, size_t first, size_t last) {
    auto port_of = [&](const logical_tensor_t &lt) {
        for (const auto &p : plan.inputs)
            if (p.id == lt.id) return p;
        for (const auto &p : plan.outputs)
            if (p.id == lt.id) return p;
        return lt;
    };
    plan_t sub;
    sub.partition = plan.partition;
    sub.ops.assign(plan.ops.begin() + static_cast<long>(first),
            plan.ops.begin() + static_cast<long>(last) + 1);
    auto produced_inside = [&](size_t id) {
        for (const auto &op : sub.ops)
            for (const auto &lt : op.outputs)
                if (lt.id == id) return true;
        return false;
    };
    for (const auto &op : sub.ops)
        for (const auto &lt : op.inputs)
            if (!produced_inside(lt.id) && find_port(sub.inputs, lt.id) < 0)
                sub.inputs.push_back(port_of(lt));
    for (const auto &op : sub.ops)
        for (const auto &lt : op.outputs) {
            bool needed = find_port(plan.outputs, lt.id) >= 0;
            for (size_t j = last + 1; j < plan.ops.size() && !needed; ++j)
                for (const auto &in : plan.ops[j].inputs)
                    needed = needed || in.id == lt.id;
            if (needed) sub.outputs.push_back(port_of(lt));
        }
    return sub;
}

} // namespace

status_t compile_op_sequence(const plan_t &plan, const backend_list_t &backends,
        std::shared_ptr<const kernel_t> &out) {
    auto k = std::make_shared<op_sequence_kernel_t>();
    std::unordered_map<size_t, slot_t> slots;
    for (size_t i = 0; i < plan.inputs.size(); ++i)
        slots[plan.inputs[i].id] = {slot_t::where_t::input, i};
    for (size_t i = 0; i < plan.outputs.size(); ++i)
        slots[plan.outputs[i].id] = {slot_t::where_t::output, i};
    bool any_specialised = false;
    k->name_ = "seq(";
    const size_t n = plan.ops.size();
    for (size_t first = 0; first < n;) {
        // The longest run of ops from `first` that a specialised kernel
        // takes whole (the whole plan was already offered), else one op on
        // the first backend that runs it.
        plan_t sub;
        const backend_t *chosen = nullptr;
        for (size_t last = std::min(n - 1, first + k_max_step_ops - 1);
                last > first && !chosen; --last) {
            if (first == 0 && last == n - 1) continue;
            sub = range_plan(plan, first, last);
            for (const backend_t *b : backends)
                if (!b->runs_any_partition() && b->supports(sub)) {
                    chosen = b;
                    break;
                }
        }
        if (!chosen) {
            sub = range_plan(plan, first, first);
            for (const backend_t *b : backends)
                if (b->supports(sub)) {
                    chosen = b;
                    break;
                }
        }
        if (!chosen) return dnnl_unimplemented; // the caller reports it
        step_t step;
        for (const auto &lt : sub.inputs) {
            auto it = slots.find(lt.id);
            assert(it != slots.end() && "ops are in dependency order");
            step.inputs.push_back(it->second);
        }
        for (const auto &op : sub.ops)
            for (const auto &lt : op.outputs) {
                if (find_port(sub.outputs, lt.id) < 0 || slots.count(lt.id))
                    continue;
                // Read by a later step: a scratch buffer for one execution.
                const size_t bytes = ir::mem_size(lt);
                if (bytes == static_cast<size_t>(-1)) return dnnl_unimplemented;
                slots[lt.id] = {slot_t::where_t::scratch,
                        k->scratch_bytes_.size()};
                k->add_scratch(bytes);
            }
        for (const auto &lt : sub.outputs)
            step.outputs.push_back(slots.at(lt.id));
        any_specialised = any_specialised || !chosen->runs_any_partition();
        LLGA_RETURN_IF_ERROR(chosen->compile(sub, step.kernel));
        k->name_ += std::string(k->steps_.empty() ? "" : "+")
                + step.kernel->name();
        k->steps_.push_back(std::move(step));
        first += sub.ops.size();
    }
    k->name_ += ")";
    // All steps on the reference: running the partition whole is the same
    // work with fewer calls; the caller does that (no error to report).
    if (!any_specialised) return dnnl_unimplemented;
    out = k;
    return dnnl_success;
}

} // namespace compiler
} // namespace llga
