// SPDX-License-Identifier: Apache-2.0
// runtime/allocator.cpp — default aligned allocation and user callbacks.
#include "runtime/allocator.hpp"

#include <cstdlib>

namespace llga {
namespace rt {

allocator_t::allocator_t(
        dnnl_graph_host_allocate_f a, dnnl_graph_host_deallocate_f f) {
    // Both callbacks or neither: a lone one would pair foreign free/alloc.
    if (a && f) {
        alloc_ = a;
        free_ = f;
    }
}

allocator_t allocator_t::make_device(generic_fn_t a, generic_fn_t f) {
    allocator_t r;
    if (a && f) {
        r.dev_alloc_ = a;
        r.dev_free_ = f;
    }
    return r;
}

void *allocator_t::allocate(
        size_t size, lifetime_t life, size_t alignment) const {
    if (size == 0) size = 1; // distinct non-null pointer for empty tensors
    void *p = nullptr;
    if (device_) {
        p = device_->allocate(size, alignment);
    } else if (alloc_) {
        p = alloc_(size, alignment);
    } else {
        // aligned_alloc needs a multiple of the alignment.
        const size_t rounded = (size + alignment - 1) / alignment * alignment;
        p = std::aligned_alloc(alignment, rounded);
    }
    if (p) {
        live_bytes_ += size;
        ++live_blocks_;
        live_by_life_[static_cast<int>(life)] += size;
    }
    return p;
}

void allocator_t::deallocate(
        void *p, size_t size, lifetime_t life, void *event) const {
    if (!p) return;
    if (size == 0) size = 1;
    live_bytes_ -= size;
    --live_blocks_;
    live_by_life_[static_cast<int>(life)] -= size;
    if (device_)
        device_->deallocate(p, event);
    else if (free_)
        free_(p);
    else
        std::free(p);
}

} // namespace rt
} // namespace llga
