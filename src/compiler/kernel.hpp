// compiler/kernel.hpp — the executable form of a compiled partition and the
// backend interface that produces it. Backends live in backends/* and are
// handed to the compiler by the C API layer, so the compiler never includes
// them.
#pragma once

#include <memory>
#include <vector>

#include "compiler/plan.hpp"
#include "runtime/stream.hpp"

namespace llga {
namespace compiler {

struct exec_ctx_t {
    rt::stream_t *stream = nullptr;
    const rt::allocator_t *allocator = nullptr;
    std::vector<const void *> inputs; // plan.inputs order
    std::vector<void *> outputs;      // plan.outputs order
};

class kernel_t {
public:
    virtual ~kernel_t() = default;
    virtual const char *name() const = 0;
    // Must be safe to call concurrently from many threads.
    virtual status_t execute(const exec_ctx_t &ctx) const = 0;
};

class backend_t {
public:
    virtual ~backend_t() = default;
    virtual const char *name() const = 0;
    virtual bool supports(const plan_t &plan) const = 0;
    virtual status_t compile(
            const plan_t &plan, std::shared_ptr<const kernel_t> &out) const = 0;
};

} // namespace compiler
} // namespace llga
