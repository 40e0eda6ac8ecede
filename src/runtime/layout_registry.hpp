// SPDX-License-Identifier: Apache-2.0
// runtime/layout_registry.hpp — what an opaque layout id means. llga's opaque
// layouts are kernel-chosen dense permutations of the logical dims (format
// tags such as "acb" or "ba"): the registry maps each layout_id to the order
// of the dims in memory, outermost first. Every opaque layout is therefore
// expressible as strides, so any kernel (the reference backend included) can
// read and write it through strides, and reordering to a strided layout is a
// strided copy. Identity orders are never registered: plain row-major
// layouts are reported as strided, as oneDNN does for plain formats.
// Ids are process-local, start at first_id and are never reused. Thread-safe.
#pragma once

#include <mutex>
#include <vector>

#include "base/c_types.hpp"

namespace llga {
namespace rt {

struct opaque_layout_t {
    int ndims = 0;
    int order[DNNL_MAX_NDIMS] = {}; // order[0] = outermost logical dim
};

class layout_registry_t {
public:
    static constexpr size_t first_id = 0x4c4c0001; // "LL": stray ids fail
    static layout_registry_t &instance();

    // Same description, same id.
    size_t register_layout(const opaque_layout_t &l);
    bool find(size_t id, opaque_layout_t &out) const;

    // Makes `lt` (known shape) use the dims order `order`: opaque with a
    // registered id, or dense strided when `order` is the identity.
    static status_t apply_order(logical_tensor_t &lt, const std::vector<int> &order);
    // Physical strides of a strided or opaque tensor with known shape.
    static status_t strides_of(const logical_tensor_t &lt, dims_t &strides);
    // The strided equivalent of an opaque tensor (strided ones are copied).
    static status_t to_strided(const logical_tensor_t &lt, logical_tensor_t &out);
    // Bytes needed; strided as ir::mem_size, opaque from the registry;
    // (size_t)-1 for any/undef, unknown shapes or unknown ids.
    static size_t mem_size(const logical_tensor_t &lt);

private:
    layout_registry_t() = default;
    mutable std::mutex mutex_;
    std::vector<opaque_layout_t> layouts_; // id - first_id -> layout
};

} // namespace rt
} // namespace llga
