// backends/cpu/kernels/movement.hpp — the data-movement family: Reorder,
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

// The simplified copy of tensor `src` into the memory layout of `like`
// (same dims; `es`-byte elements): how a kernel that walks its output's
// memory flat reads an input stored in another order.
copy_desc_t copy_into_layout_of(const logical_tensor_t &src,
        const logical_tensor_t &like, size_t es);

// Runs the copy on the runtime's threads (llga::parallel_for). src and dst
// point at element 0 of each side.
void strided_copy(const copy_desc_t &d, const void *src, void *dst);

// The kernel-table hooks (single-op partitions only).
bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace movement
} // namespace cpu
} // namespace llga
