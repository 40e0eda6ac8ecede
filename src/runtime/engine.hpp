// runtime/engine.hpp — an execution device. The CPU engine is the only kind
// today. It owns a copy of the allocator used for library buffers; the copy
// is shared (shared_ptr) with buffers that may outlive the engine, such as
// constant tensor cache entries, so they are freed through the allocator
// that made them.
#pragma once

#include <memory>

#include "base/c_types.hpp"
#include "runtime/allocator.hpp"

namespace llga {
namespace rt {

class engine_t {
public:
    engine_t(engine_kind_t kind, size_t index, const allocator_t &alloc)
        : kind_(kind)
        , index_(index)
        , alloc_(std::make_shared<const allocator_t>(alloc)) {}
    virtual ~engine_t() = default;

    engine_kind_t kind() const { return kind_; }
    size_t index() const { return index_; }
    const allocator_t &allocator() const { return *alloc_; }
    const std::shared_ptr<const allocator_t> &allocator_ptr() const {
        return alloc_;
    }

    static size_t count(engine_kind_t kind);
    // Checks kind/index; starts the runtime (thread pool) on first use.
    static status_t check_create(engine_kind_t kind, size_t index);

private:
    engine_kind_t kind_;
    size_t index_;
    std::shared_ptr<const allocator_t> alloc_;
};

} // namespace rt
} // namespace llga
