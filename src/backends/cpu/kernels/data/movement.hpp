// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/data/movement.hpp — the data-movement family: Reorder,
// StaticReshape, StaticTranspose and Concat as strided copies (any element
// type of 1, 2, 4 or 8 bytes; the values are moved, never converted). Each
// op becomes one or more copies of a logical shape between two stride sets;
// a copy is simplified (unit dims dropped, dims ordered by the destination
// strides, contiguous runs merged) and then runs as memcpy of whole runs,
// as 2D tiles when the source's unit-stride dim is not the destination's
// (transposes), or element by element. No code generation: the copies are
// bound by memory, and plain C++ loops keep them there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace movement {

// dst[i] = src[i] for every index i of `dims`; strides in elements, for
// each side. `es` is the element size in bytes (1, 2, 4 or 8).
struct copy_desc_t {
    size_t es = 4;
    std::vector<int64_t> dims, src_strides, dst_strides;
};

// The same copy with unit dims dropped, dims in decreasing destination
// stride, and neighbours merged where both sides are contiguous across
// them. An empty copy (a zero dim) comes back with dims = {0}.
copy_desc_t simplify(const copy_desc_t &d);

// An input that a kernel reads in another layout than its own (a kernel
// that walks its output's memory flat, say): the copy into that layout, or
// nothing when the layouts already agree.
struct relayout_t {
    copy_desc_t copy; // empty dims: read in place
    size_t bytes = 0; // the copy's memory span
    bool active() const { return !copy.dims.empty(); }
    // `src` itself, or its copy in a buffer taken from `frame`.
    const void *apply(const void *src, scratch_frame_t &frame) const;
};

// The copy of tensor `src` (`es`-byte elements) into the memory layout of
// `like` (same dims), or an inactive one when they share a layout.
relayout_t relayout(const logical_tensor_t &src, const logical_tensor_t &like,
        size_t es);

// Runs the copy on the runtime's threads (llga::parallel_for). src and dst
// point at element 0 of each side.
void strided_copy(const copy_desc_t &d, const void *src, void *dst);

// n bytes from s to d with non-temporal (streaming) stores from the
// first 32-byte aligned destination byte; AVX2 hosts only. For copies far
// larger than the caches (strided_copy takes it from 128 MiB of
// destination on): their destination lines would otherwise be read in
// before being overwritten, a third of the traffic, and evict everything
// else on the way. The caller issues _mm_sfence once its stores are done.
void copy_bytes_stream(char *d, const char *s, size_t n);
// Tests: copies from now on stream from `bytes` of destination on (< 0:
// back to the default, 128 MiB).
void set_stream_bytes_for_testing(int64_t bytes);

// The same walk for 1-byte elements, each byte mapped through `lut`
// (dst[i] = lut[src[i]]): a requantizing copy, whose result depends on
// nothing but the byte (concat_quant.cpp).
void strided_map_bytes(const copy_desc_t &d, const uint8_t *lut,
        const void *src, void *dst);

// The kernel-table hooks (single-op partitions only).
bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

// An 8 x 8 block of 4-byte elements (AVX2): source rows (8 consecutive i)
// `sj` elements apart become destination rows (8 consecutive j) `di`
// apart. Also the conv kernels' NCX <-> NXC moves (conv_copy.cpp).
void transpose8x8_4b(const uint32_t *src, int64_t sj, uint32_t *dst,
        int64_t di);

} // namespace movement
} // namespace cpu
} // namespace llga
