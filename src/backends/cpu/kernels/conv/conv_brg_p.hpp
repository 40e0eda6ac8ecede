// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_brg_p.hpp — the JIT side of the direct
// batch-reduce Convolution (driver in conv_brg.cpp): the call argument, the
// kernel descriptor and the generators — AVX-512 register tiles (FMA or
// vdpbf16ps, conv_brg_jit.cpp) and AMX tiles (tdpbf16ps, conv_brg_amx.cpp).
// asmjit-free.
#pragma once

#include <cstdint>

#include "base/status.hpp"

namespace llga {
namespace cpu {
namespace conv {

// The kernels' single argument; the generators read it by offsetof.
struct brg_args_t {
    const char *src;     // input of pixel 0 at tap offset 0
    const char *wei;     // this OC block's packed weights
    const int64_t *taps; // (src byte offset, weight byte offset) pairs
    int64_t ntaps;
    char *dst;           // output pixel 0, channel 0 of the block
    const float *bias;   // the block's bias (padded), or unused
    int64_t m;           // AMX: valid pixels (rows) of this call, 1..32
    float *acc;          // AMX: 64-byte aligned [32][32] f32 scratch
    // AMX with brg_desc_t::rowtab: byte offset from dst of each row's
    // output pixel, negative to skip the row (pixels of the padding).
    const int64_t *rows;
};
using brg_fn_t = void (*)(const brg_args_t *);
using brg_void_fn_t = void (*)();

// zmm per OC block of the AVX-512 kernels (32 channels) by default; the
// generator handles up to 4 (then 6 pixels), used for dense 1x1.
constexpr int k_max_nv = 2;

// Raw bytes of this are the JIT cache key: zero it before filling.
struct brg_desc_t {
    char family[8];
    // ur: pixels per call (AVX-512; AMX: A tiles of 16 rows, 1 or 2);
    // nv: channel vectors stored (the last `tail` lanes wide, 0 = 16).
    int32_t ur, nv, tail, bf16, dst_bf16, bias;
    int64_t ksteps;   // k steps per tap: input channels (bf16: pairs)
    int64_t sstep;    // bytes between the inputs of consecutive pixels
    int64_t dstep;    // bytes between consecutive output pixels
    int64_t wstride;  // AVX-512: bytes of weights per k step (nv_full * 64)
    // AVX-512: the ur pixels are rows of rw pixels (rw >= ur: one row);
    // srow / drow are the bytes between those rows in src / dst.
    int64_t rw, srow, drow;
    int64_t rowtab; // AMX: rows stored through args->rows, not dstep
};

// AVX-512: acc[ur][nv] = bias; per tap and k step, nv weight vectors times
// the broadcast input of each pixel (f32 FMA, or bf16 pairs with
// vdpbf16ps); store f32 or bf16. Weights per tap: [k step][nv_full * 16]
// (bf16: [pair][channel][2]).
status_t get_brg_kernel(const brg_desc_t &d, brg_fn_t *fn);

// AMX (bf16): C[up to 32 pixels][32 channels] in four tiles; per tap and
// chunk of 32 k values, A rows are the pixels' inputs read in place
// (`sstep` apart, always 16 rows per A tile: memory up to 16 * ur rows
// must be readable), B the packed chunk [2 halves][16 pairs][16][2]
// (2048 bytes). The epilogue stores m rows through args->acc with bias.
// Needs the tile configuration of get_brg_amx_cfg loaded.
status_t get_brg_amx_kernel(const brg_desc_t &d, brg_fn_t *fn);
// Loads / releases the kernels' tile configuration (every tile 16 rows x
// 64 bytes): once per task, not per call.
status_t get_brg_amx_cfg(brg_void_fn_t *load, brg_void_fn_t *release);

} // namespace conv
} // namespace cpu
} // namespace llga
