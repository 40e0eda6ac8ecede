// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/eltwise/eltwise_impl_p.hpp — what the elementwise
// family's two halves share inside the backend: the storage types the generated
// loops read and write, the task size, and the generator entry points with
// those types (eltwise.cpp generates; eltwise_plan.cpp analyses partitions and
// runs the loops). Not for other families: they use eltwise.hpp.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "backends/cpu/kernels/eltwise/eltwise.hpp"

namespace llga {
namespace cpu {
namespace eltwise {

// The tensors' storage type. Math is f32 whatever it is: bf16/f16 values
// are widened exactly as loaded and rounded (nearest even) as stored, which
// is what the reference does around its own f32 result. With 16-bit
// storage the generated functions take bf16/f16 element pointers (through
// the float pointer types) and whole vectors only.
enum class io_t : int { f32, bf16, f16 };

inline io_t io_of(data_type_t dt) {
    return dt == dnnl_bf16 ? io_t::bf16 : dt == dnnl_f16 ? io_t::f16 : io_t::f32;
}

// Elements per parallel task: large enough to amortise scheduling, a
// multiple of every vector width so only the last chunk has a tail.
constexpr int64_t k_chunk = 16384;

// One vector of 16-bit elements on the stack, zero past what is copied
// in: the padded last piece the whole-vector 16-bit loops read and write.
struct vec16_t {
    alignas(64) char b[64] = {};
    const char *from(const char *src, int64_t bytes) {
        std::memcpy(b, src, static_cast<size_t>(bytes));
        return b;
    }
    void to(char *dst, int64_t bytes) const {
        std::memcpy(dst, b, static_cast<size_t>(bytes));
    }
};

// `len` elements of 16-bit storage as call(first, count, padded): the
// whole vectors in place, then the last len % W (< W), which the caller
// runs through vec16_t copies as one whole vector.
template <typename Call>
void run_16(int64_t len, int W, const Call &call) {
    const int64_t whole = len / W * W;
    if (whole > 0) call(int64_t(0), whole, false);
    if (whole < len) call(whole, len - whole, true);
}

// get_unary / get_binary with the storage type, and `stream`: whole
// vectors stored non-temporally (f32 only).
status_t get_unary_fn(alg_t alg, float alpha, float beta, isa_t isa,
        bool stream, io_t io, unary_fn_t *fn);
status_t get_binary_fn(alg_t alg, scalar_t scalar, isa_t isa, bool stream,
        io_t io, binary_fn_t *fn);

// "eltwise_<alg>_<type>_<isa>[_bcast0|_bcast1]".
std::string kernel_name(alg_t alg, scalar_t s, bool avx512, io_t io);

} // namespace eltwise
} // namespace cpu
} // namespace llga
