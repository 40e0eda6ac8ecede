// SPDX-License-Identifier: Apache-2.0
// tools/run/fill.hpp — host buffers keyed by tensor id and the deterministic
// input data llga-run feeds both execution paths. Values depend on the input's
// role (which op consumes it, at which port), so that every graph computes
// something meaningful: small exactly-representable floats by default,
// integer ranges for quantized tensors, positive variances, power-of-two
// scales and divisors, positive inputs for Log/Sqrt/Pow, valid zero points.
#pragma once

#include <cstdint>
#include <map>
#include <new>
#include <string>
#include <vector>

#include "prepare.hpp"

namespace llga_run {

// Storage on 64-byte boundaries, as the frameworks' allocators (and
// oneDNN's own memory objects) give: kernels that stream large outputs
// past the caches need aligned vectors, and a malloc'd multi-MB buffer
// sits 16 bytes past a page boundary, so measurements on it would not be
// what a framework gets.
template <typename T>
struct aligned64_allocator_t {
    using value_type = T;
    aligned64_allocator_t() = default;
    template <typename U>
    aligned64_allocator_t(const aligned64_allocator_t<U> &) {}
    T *allocate(size_t n) {
        return static_cast<T *>(
                ::operator new(n * sizeof(T), std::align_val_t(64)));
    }
    void deallocate(T *p, size_t) { ::operator delete(p, std::align_val_t(64)); }
    template <typename U>
    bool operator==(const aligned64_allocator_t<U> &) const { return true; }
    template <typename U>
    bool operator!=(const aligned64_allocator_t<U> &) const { return false; }
};

struct buffer_t {
    llga::logical_tensor_t lt {};
    std::vector<uint64_t, aligned64_allocator_t<uint64_t>> storage;
    void *data() { return storage.data(); }
    const void *data() const { return storage.data(); }
    // Allocates zeroed storage for `bytes` bytes (at least one element).
    void resize(size_t bytes) { storage.assign(bytes / 8 + 2, 0); }
};

using buffers_t = std::map<size_t, buffer_t>;

// Calls fn(a, b) with the element offsets of two tensors of the same shape
// (strides sa, sb) in logical row-major order, updating offsets
// incrementally so huge tensors cost no index arrays.
template <typename F>
void for_each_offset2(const llga::dims_t &dims, const llga::dims_t &sa,
        const llga::dims_t &sb, F fn) {
    int64_t n = 1;
    for (auto d : dims) n *= d;
    if (n <= 0) return;
    const size_t nd = dims.size();
    std::vector<int64_t> idx(nd, 0);
    int64_t a = 0, b = 0;
    for (int64_t e = 0; e < n; ++e) {
        fn(a, b);
        for (size_t d = nd; d-- > 0;) {
            if (++idx[d] < dims[d]) {
                a += sa[d];
                b += sb[d];
                break;
            }
            a -= sa[d] * (dims[d] - 1);
            b -= sb[d] * (dims[d] - 1);
            idx[d] = 0;
        }
    }
}
// Strides of a strided tensor, dense ones if unknown.
llga::dims_t strides_or_dense(const llga::logical_tensor_t &lt);

// Short role name of a graph input, for reports ("variance", "scales", ...).
std::string input_role(const prepared_t &g, size_t tensor_id);

// Allocates and fills every graph input of `g` (seeded by tensor id).
void fill_inputs(const prepared_t &g, buffers_t &bufs);

} // namespace llga_run
