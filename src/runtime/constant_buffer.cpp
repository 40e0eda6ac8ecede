// SPDX-License-Identifier: Apache-2.0
// runtime/constant_buffer.cpp — allocation and release of cached constants.
#include "runtime/constant_buffer.hpp"

namespace llga {
namespace rt {

std::shared_ptr<constant_buffer_t> constant_buffer_t::create(size_t size,
        std::shared_ptr<const allocator_t> alloc, lifetime_t life) {
    if (!alloc) return nullptr;
    // The owner exists before the block: if making it throws (no memory),
    // no block is left without one.
    std::shared_ptr<constant_buffer_t> b(new constant_buffer_t());
    void *p = alloc->allocate(size, life);
    if (!p) return nullptr;
    b->data_ = p;
    b->size_ = size;
    b->life_ = life;
    b->alloc_ = std::move(alloc);
    return b;
}

constant_buffer_t::~constant_buffer_t() {
    if (alloc_) alloc_->deallocate(data_, size_, life_);
}

} // namespace rt
} // namespace llga
