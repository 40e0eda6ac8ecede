// SPDX-License-Identifier: Apache-2.0
// runtime/tensor.cpp — tensor creation, ownership and handle updates.
#include "runtime/tensor.hpp"

#include <cstring>

#include "base/status.hpp"
#include "ir/logical_tensor.hpp"
#include "runtime/layout_registry.hpp"

namespace llga {
namespace rt {

status_t tensor_t::init(const logical_tensor_t &lt, engine_t *engine,
        void *handle) {
    if (!engine)
        return fail(dnnl_invalid_arguments, "tensor %zu: engine is null", lt.id);
    if (lt.property == dnnl_graph_tensor_property_host_scalar)
        return fail(dnnl_invalid_arguments,
                "tensor %zu is a host scalar; create it with "
                "dnnl_graph_tensor_create_scalar",
                lt.id);
    if (lt.ndims > DNNL_MAX_NDIMS || lt.ndims < DNNL_GRAPH_UNKNOWN_NDIMS)
        return fail(dnnl_invalid_arguments, "tensor %zu: invalid rank %d",
                lt.id, lt.ndims);
    void *buffer = handle;
    size_t owned = 0;
    if (handle == DNNL_MEMORY_ALLOCATE) {
        const size_t bytes = layout_registry_t::mem_size(lt);
        if (bytes == static_cast<size_t>(-1))
            return fail(dnnl_invalid_arguments,
                    "tensor %zu: the library can only allocate a tensor "
                    "whose shape and layout are known (%s)",
                    lt.id, ir::lt_to_string(lt).c_str());
        buffer = engine->allocator().allocate(bytes, lifetime_t::output);
        if (!buffer)
            return fail(dnnl_out_of_memory,
                    "tensor %zu: allocating %zu bytes failed", lt.id, bytes);
        owned = bytes;
        owner_ = engine->allocator_ptr();
    }
    lt_ = lt;
    engine_ = engine;
    handle_ = buffer;
    owned_bytes_ = owned;
    return dnnl_success;
}

status_t tensor_t::init_scalar(const logical_tensor_t &lt, const void *value) {
    if (lt.property != dnnl_graph_tensor_property_host_scalar)
        return fail(dnnl_invalid_arguments,
                "tensor %zu: scalar tensors need property host_scalar", lt.id);
    if (lt.data_type != dnnl_s32)
        return fail(dnnl_invalid_arguments,
                "tensor %zu: host scalars must be s32", lt.id);
    if (!value || value == DNNL_MEMORY_ALLOCATE)
        return fail(dnnl_invalid_arguments,
                "tensor %zu: a host scalar needs a pointer to its value", lt.id);
    lt_ = lt;
    std::memcpy(&scalar_, value, sizeof(int32_t));
    return dnnl_success;
}

void tensor_t::release() {
    if (owner_) owner_->deallocate(handle_, owned_bytes_, lifetime_t::output);
    owner_.reset();
    owned_bytes_ = 0;
}

tensor_t::~tensor_t() { release(); }

status_t tensor_t::set_handle(void *h) {
    if (is_host_scalar())
        return fail(dnnl_invalid_arguments,
                "tensor %zu is a host scalar and has no data handle", lt_.id);
    release();
    handle_ = h;
    return dnnl_success;
}

} // namespace rt
} // namespace llga
