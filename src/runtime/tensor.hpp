// SPDX-License-Identifier: Apache-2.0
// runtime/tensor.hpp — a logical tensor bound to memory: a user pointer (not
// owned), a library allocation (owned, through the engine's allocator, which
// the tensor keeps alive until it frees the buffer), no buffer yet, or a host
// scalar whose value is copied in at creation.
#pragma once

#include <memory>

#include "base/c_types.hpp"
#include "runtime/engine.hpp"

namespace llga {
namespace rt {

class tensor_t {
public:
    tensor_t() = default;
    tensor_t(const tensor_t &) = delete;
    tensor_t &operator=(const tensor_t &) = delete;
    virtual ~tensor_t();

    // handle may be a user pointer, DNNL_MEMORY_ALLOCATE or DNNL_MEMORY_NONE.
    // Opaque layouts are sized through the layout registry.
    status_t init(const logical_tensor_t &lt, engine_t *engine, void *handle);
    status_t init_scalar(const logical_tensor_t &lt, const void *value);

    const logical_tensor_t &desc() const { return lt_; }
    engine_t *engine() const { return engine_; }
    bool is_host_scalar() const {
        return lt_.property == dnnl_graph_tensor_property_host_scalar;
    }
    // For host scalars this points at the copied value.
    void *data() const {
        return is_host_scalar() ? const_cast<int32_t *>(&scalar_) : handle_;
    }
    void *user_handle() const { return is_host_scalar() ? nullptr : handle_; }
    int32_t scalar_value() const { return scalar_; }
    status_t set_handle(void *h);

private:
    void release();
    logical_tensor_t lt_ {};
    engine_t *engine_ = nullptr;
    void *handle_ = nullptr;
    size_t owned_bytes_ = 0; // non-zero when handle_ is a library allocation
    std::shared_ptr<const allocator_t> owner_; // set when handle_ is owned
    int32_t scalar_ = 0;
};

} // namespace rt
} // namespace llga
