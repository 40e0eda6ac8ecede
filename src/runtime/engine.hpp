// SPDX-License-Identifier: Apache-2.0
// runtime/engine.hpp — an execution device: the host CPU, or a device behind
// a device_t (the OpenCL GPU engine, made by backends/ocl). It owns a copy of the allocator used for library buffers; the copy
// is shared (shared_ptr) with buffers that may outlive the engine, such as
// constant tensor cache entries, so they are freed through the allocator
// that made them.
#pragma once

#include <memory>

#include "base/c_types.hpp"
#include "runtime/allocator.hpp"
#include "runtime/device.hpp"

namespace llga {
namespace rt {

class engine_t {
public:
    engine_t(engine_kind_t kind, size_t index, const allocator_t &alloc)
        : kind_(kind)
        , index_(index)
        , alloc_(std::make_shared<const allocator_t>(alloc)) {}
    // A device engine: its allocator copy allocates on `device`.
    engine_t(engine_kind_t kind, size_t index, const allocator_t &alloc,
            std::shared_ptr<const device_t> device)
        : kind_(kind), index_(index), device_(std::move(device)) {
        auto a = std::make_shared<allocator_t>(alloc);
        a->bind_device(device_);
        alloc_ = std::move(a);
    }
    virtual ~engine_t() = default;

    engine_kind_t kind() const { return kind_; }
    size_t index() const { return index_; }
    const allocator_t &allocator() const { return *alloc_; }
    const std::shared_ptr<const allocator_t> &allocator_ptr() const {
        return alloc_;
    }

    // The device behind a non-host engine (nullptr for the CPU engine).
    const device_t *device() const { return device_.get(); }
    const std::shared_ptr<const device_t> &device_ptr() const { return device_; }

    static size_t count(engine_kind_t kind);
    // Checks kind/index; starts the runtime (thread pool) on first use.
    static status_t check_create(engine_kind_t kind, size_t index);

private:
    engine_kind_t kind_;
    size_t index_;
    std::shared_ptr<const device_t> device_;
    std::shared_ptr<const allocator_t> alloc_;
};

} // namespace rt
} // namespace llga
