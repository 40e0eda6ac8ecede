// SPDX-License-Identifier: Apache-2.0
// runtime/allocator.hpp — host memory for everything the library allocates at
// execute time. Wraps the user's callbacks (or an aligned default) and counts
// live bytes and blocks, in total and per lifetime class, so tests can prove
// no allocation bypasses it or leaks.
#pragma once

#include <atomic>
#include <cstddef>

#include <memory>

#include "oneapi/dnnl/dnnl_graph_types.h"
#include "runtime/device.hpp"

namespace llga {
namespace rt {

// Why a buffer exists; decides who frees it and when:
//   persistent — outlives executions (constant tensor cache entries); freed
//                when evicted/flushed and no execution still uses it;
//   output     — a DNNL_MEMORY_ALLOCATE tensor; freed with the tensor;
//   temp       — scratch of one execution (intermediates, uncached prepared
//                constants); freed before execute returns.
enum class lifetime_t { persistent = 0, output = 1, temp = 2 };
constexpr int lifetime_count = 3;

class allocator_t {
public:
    static constexpr size_t default_alignment = 64;

    // Device callbacks (OpenCL allocate/deallocate) are kept type-erased:
    // the device backend that uses them casts them back.
    using generic_fn_t = void (*)();

    allocator_t() = default;
    allocator_t(dnnl_graph_host_allocate_f a, dnnl_graph_host_deallocate_f f);
    // An allocator made from device callbacks (dnnl_graph_ocl_interop_*).
    static allocator_t make_device(generic_fn_t a, generic_fn_t f);
    // Copies take the callbacks, not the counters: each copy (each engine)
    // accounts for its own allocations.
    allocator_t(const allocator_t &o)
        : alloc_(o.alloc_)
        , free_(o.free_)
        , dev_alloc_(o.dev_alloc_)
        , dev_free_(o.dev_free_)
        , device_(o.device_) {}
    allocator_t &operator=(const allocator_t &o) {
        alloc_ = o.alloc_;
        free_ = o.free_;
        dev_alloc_ = o.dev_alloc_;
        dev_free_ = o.dev_free_;
        device_ = o.device_;
        return *this;
    }

    // nullptr on failure (or when the user's callback returns nullptr).
    void *allocate(size_t size, lifetime_t life,
            size_t alignment = default_alignment) const;
    // `size` and `life` must be those given to allocate(). On a device,
    // the memory is freed once `event` (native, may be null) completes.
    void deallocate(void *p, size_t size, lifetime_t life,
            void *event = nullptr) const;

    // The library's own host memory (no user callbacks, no device).
    bool is_default() const { return alloc_ == nullptr && !device_; }
    // Made from device callbacks: only a device engine can use it.
    bool has_device_callbacks() const { return dev_alloc_ != nullptr; }
    generic_fn_t device_alloc_fn() const { return dev_alloc_; }
    generic_fn_t device_free_fn() const { return dev_free_; }
    // Routes allocate/deallocate to a device (done by the engine that owns
    // this copy).
    void bind_device(std::shared_ptr<const device_t> d) { device_ = std::move(d); }
    const device_t *device() const { return device_.get(); }
    // Identity of the memory source (the user's callbacks), for cache keys.
    const void *source_id() const {
        return reinterpret_cast<const void *>(alloc_);
    }
    size_t live_bytes() const { return live_bytes_.load(); }
    size_t live_blocks() const { return live_blocks_.load(); }
    size_t live_bytes(lifetime_t life) const {
        return live_by_life_[static_cast<int>(life)].load();
    }

private:
    dnnl_graph_host_allocate_f alloc_ = nullptr;
    dnnl_graph_host_deallocate_f free_ = nullptr;
    generic_fn_t dev_alloc_ = nullptr;
    generic_fn_t dev_free_ = nullptr;
    std::shared_ptr<const device_t> device_;
    mutable std::atomic<size_t> live_bytes_ {0};
    mutable std::atomic<size_t> live_blocks_ {0};
    mutable std::atomic<size_t> live_by_life_[lifetime_count] = {};
};

} // namespace rt
} // namespace llga
