// SPDX-License-Identifier: Apache-2.0
// compiler/kernel.hpp — the executable form of a compiled partition and the
// backend interface that produces it. Backends live in backends/* and are
// handed to the compiler by the C API layer, so the compiler never includes
// them. The runtime services a kernel may use at execute time (the engine's
// allocator, the constant tensor cache through compiler/constant_prep.hpp)
// are reached through exec_ctx_t.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/plan.hpp"
#include "runtime/stream.hpp"

namespace llga {
namespace compiler {

// Ordering of a device execution (OpenCL interop): native events to wait
// for before the first kernel, and where to return an event that completes
// with the execution (caller-owned). Host kernels ignore them.
struct device_events_t {
    void *const *deps = nullptr;
    int ndeps = 0;
    void **done = nullptr;
};

struct exec_ctx_t {
    rt::stream_t *stream = nullptr;
    const rt::engine_t *engine = nullptr;       // the stream's engine
    const rt::allocator_t *allocator = nullptr; // engine->allocator()
    // plan.inputs order. Host scalars point at a copy of the value made for
    // this execution (never at the user's tensor).
    std::vector<const void *> inputs;
    std::vector<void *> outputs; // plan.outputs order
    // Constant inputs a wrapper replaced by a converted copy (staged
    // bf16/f16 kernels): the user's buffer per input index, nullptr where
    // the input is the user's own. Prepared constants are keyed by the
    // user's buffer, so a copy's address (which a later copy may reuse for
    // other weights) never keys anything.
    std::vector<const void *> const_keys;
    device_events_t events;
    // What keys input i's prepared constants: its user buffer.
    const void *const_key(size_t i) const {
        return i < const_keys.size() && const_keys[i] ? const_keys[i]
                                                      : inputs[i];
    }
};

class kernel_t {
public:
    kernel_t();
    // Drops this kernel's entries from every constant tensor cache: they are
    // keyed by id() and nobody can ask for them again. This is what makes
    // clearing the compiled-partition cache release cached constants.
    virtual ~kernel_t();

    // Unique for the process lifetime (never reused), for cache keys.
    size_t id() const { return id_; }
    virtual const char *name() const = 0;
    // Must be safe to call concurrently from many threads, on different
    // streams and tensors (docs/runtime.md, "Concurrency contract").
    virtual status_t execute(const exec_ctx_t &ctx) const = 0;
    // True when the kernel split its work for the thread count that
    // rt::max_threads() gave while it was created (GEMM blocks, conv and
    // attention tasks). A partition run under another count then gets a
    // kernel made for that count (compiled_t::kernel_for): a plan for 2
    // threads run on 1 repacks more than needed, and one for 1 thread
    // run on 2 leaves a core idle. Wrappers answer for what they wrap.
    virtual bool sized_for_threads() const { return false; }

private:
    size_t id_;
};

class backend_t {
public:
    virtual ~backend_t() = default;
    virtual const char *name() const = 0;
    virtual bool supports(const plan_t &plan) const = 0;
    virtual status_t compile(
            const plan_t &plan, std::shared_ptr<const kernel_t> &out) const = 0;

    // Layout wanted for an output port the user left as `any` (shape
    // known): the order of its dims in memory, outermost first. Asked in
    // backend priority order before kernel selection; the first `true`
    // wins; false everywhere gives dense row-major. Non-identity orders
    // become opaque layout ids (runtime/layout_registry.hpp) that every
    // kernel reads through strides.
    virtual bool choose_layout(const plan_t &plan, const logical_tensor_t &out,
            std::vector<int> &order) const {
        return false;
    }
    // Settings that change what compile() produces (ISA limits, layout
    // modes); part of the compiled-partition cache key.
    virtual std::string config_key() const { return std::string(); }
    // True for a backend that takes any partition whole (the reference).
    // The compiler asks it last for multi-op partitions: running each op
    // on its best kernel (compiler/op_sequence.hpp) beats running them all
    // on the reference.
    virtual bool runs_any_partition() const { return false; }
};

using backend_list_t = std::vector<const backend_t *>;

} // namespace compiler
} // namespace llga
