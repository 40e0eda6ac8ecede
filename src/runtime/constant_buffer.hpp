// SPDX-License-Identifier: Apache-2.0
// runtime/constant_buffer.hpp — one prepared constant tensor (a reordered or
// converted copy of a constant input) as the constant tensor cache holds it.
// The buffer comes from an engine's allocator and keeps that allocator alive,
// so it can outlive the engine; it is freed when its last holder (the cache,
// or an execution still using an evicted entry) lets go.
#pragma once

#include <cstddef>
#include <memory>

#include "runtime/allocator.hpp"

namespace llga {
namespace rt {

class constant_buffer_t {
public:
    // nullptr when the allocation fails. `life` is persistent for buffers
    // the cache keeps and temp for ones computed for one execution only.
    static std::shared_ptr<constant_buffer_t> create(size_t size,
            std::shared_ptr<const allocator_t> alloc, lifetime_t life);
    ~constant_buffer_t();
    constant_buffer_t(const constant_buffer_t &) = delete;
    constant_buffer_t &operator=(const constant_buffer_t &) = delete;

    void *data() const { return data_; }
    size_t size() const { return size_; }
    lifetime_t lifetime() const { return life_; }

private:
    constant_buffer_t() = default;
    void *data_ = nullptr;
    size_t size_ = 0;
    lifetime_t life_ = lifetime_t::persistent;
    std::shared_ptr<const allocator_t> alloc_;
};

using constant_ptr_t = std::shared_ptr<constant_buffer_t>;

} // namespace rt
} // namespace llga
