// runtime/allocator.hpp — host memory for everything the library allocates at
// execute time. Wraps the user's callbacks (or an aligned default) and counts
// live bytes and blocks so tests can prove no allocation bypasses it or leaks.
#pragma once

#include <atomic>
#include <cstddef>

#include "oneapi/dnnl/dnnl_graph_types.h"

namespace llga {
namespace rt {

// Why a buffer exists; decides who frees it and when.
enum class lifetime_t { persistent, output, temp };

class allocator_t {
public:
    static constexpr size_t default_alignment = 64;

    allocator_t() = default;
    allocator_t(dnnl_graph_host_allocate_f a, dnnl_graph_host_deallocate_f f);
    allocator_t(const allocator_t &o) : alloc_(o.alloc_), free_(o.free_) {}
    allocator_t &operator=(const allocator_t &o) {
        alloc_ = o.alloc_;
        free_ = o.free_;
        return *this;
    }

    // nullptr on failure (or when the user's callback returns nullptr).
    void *allocate(size_t size, lifetime_t life,
            size_t alignment = default_alignment) const;
    void deallocate(void *p, size_t size) const;

    bool is_default() const { return alloc_ == nullptr; }
    size_t live_bytes() const { return live_bytes_.load(); }
    size_t live_blocks() const { return live_blocks_.load(); }

private:
    dnnl_graph_host_allocate_f alloc_ = nullptr;
    dnnl_graph_host_deallocate_f free_ = nullptr;
    mutable std::atomic<size_t> live_bytes_ {0};
    mutable std::atomic<size_t> live_blocks_ {0};
};

} // namespace rt
} // namespace llga
