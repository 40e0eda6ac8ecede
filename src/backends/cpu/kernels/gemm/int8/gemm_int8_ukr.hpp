// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/int8/gemm_int8_ukr.hpp — the int8 GEMM micro-kernel
// family: flavours (AVX512-VNNI zmm, AVX-VNNI ymm, AMX-INT8, AVX2 ymm
// without VNNI), their tile shapes, the argument block the generated code
// reads by offset, and the getters that generate each variant once
// (gemm_int8_ukr.cpp). asmjit-free.
#pragma once

#include <cstdint>

#include "backends/cpu/isa.hpp"
#include "base/status.hpp"

namespace llga {
namespace cpu {
namespace gemm_int8 {

// Flavours (gemm_flavours.def).
enum class i8_kind_t : int {
#define LLGA_GEMM_I8_UKR(kind, mr, nr, width, kalign, isa, name) kind,
#include "backends/cpu/kernels/gemm/gemm_flavours.def"
#undef LLGA_GEMM_I8_UKR
};

// Destination types of the epilogue.
enum class i8_dst_t : int { f32 = 0, bf16, s32, s8, u8 };

struct i8_shape_t {
    int mr;    // rows per call
    int nr;    // columns per call (packed B strip width)
    int width; // s32 lanes per vector
    int kalign; // packed K is padded to a multiple of this (4 or 64)
};
i8_shape_t i8_shape(i8_kind_t kind);
isa_t i8_isa(i8_kind_t kind);
const char *i8_kind_name(i8_kind_t kind);
const char *i8_dst_name(i8_dst_t dt);
int i8_dst_bytes(i8_dst_t dt);

// Flags of i8_args_t::flags.
enum : int64_t {
    k_i8_accumulate = 1, // add the s32 partial sums at `acc` first
    k_i8_last = 2,       // run the epilogue and store to dst (else to acc)
    k_i8_bias = 4,       // add bias[] (f32 per column) after scaling
    k_i8_rowterm = 8,    // add rowterm[] (s32 per row) before scaling
    k_i8_amx_config = 16,  // AMX: load the tile configuration first
    k_i8_amx_release = 32, // AMX: release the tiles before returning
};

// Argument block of one call. The generators read fields by offsetof.
struct i8_args_t {
    // VNNI: packed A panel, per k-quad `mr` groups of 4 bytes (u8; s8 src
    // is stored shifted by +128). AMX: rows of A, `lda` bytes apart, 64
    // more bytes per chunk.
    const void *a;
    // Packed B strip: per k-quad `nr` groups of 4 s8 (one column each).
    const void *b;
    int64_t k;       // k-quads (VNNI) or 64-k chunks (AMX); 0 = epilogue only
    int32_t *acc;    // s32 partial sums, rows `ldacc` bytes apart
    int64_t ldacc;
    void *dst;       // rows `ldd` bytes apart; whole vectors are stored
    int64_t ldd;
    const int32_t *comp;    // per column, added on the last block
    const int32_t *rowterm; // per row, with k_i8_rowterm
    const float *scale;     // per column multiplier (f32/bf16/s8/u8 dst)
    const float *bias;      // per column, with k_i8_bias
    int64_t flags;
    int64_t lda;            // AMX only
    float dst_mul, dst_zp;  // s8/u8 dst: q = x * dst_mul + dst_zp
    float lo, hi;           // s8/u8 dst: saturation bounds
    int32_t one, round_bias; // 1 and 0x7fff (bf16 rounding on the bits)
    // AMX panel kernel only: 32-column strips per panel, rows in all.
    int64_t nstrips, rows;
};

using i8_fn_t = void (*)(const i8_args_t *args);

// VNNI tile for `m` rows (1..mr) and `nv` vectors (1..nr/width) writing
// `dt`; generated once per descriptor. The flavour's ISA must be available.
// `a7` (AVX2 flavour only): every A byte of the panel is at most 127, and A
// comes packed as bytes (pack_a_vnni) instead of words; the products then
// go through vpmaddubsw, whose 16-bit pair sums cannot saturate for such
// A (2 * 127 * 128 < 2^15), at one multiply-add fewer per vector.
status_t get_i8_ukernel(i8_kind_t kind, int m, int nv, i8_dst_t dt,
        i8_fn_t *fn, bool a7 = false);
// The AMX block kernel: 32 x 32 s32 at acc (loaded when k_i8_accumulate,
// else zeroed) += A (32 rows) x B (packed 32-column strip, 2048 bytes per
// chunk) over args->k chunks, with tdpbssd when `s8s8`. The first call of
// a task sets k_i8_amx_config and its last k_i8_amx_release; vector code
// may run in between (it leaves the tiles alone).
status_t get_i8_amx_kernel(bool s8s8, i8_fn_t *fn);
// The AMX panel kernel: for the ceil(rows / 32) panels of 32 rows and
// `nstrips` whole 32-column strips (packed B strips back to back, args->k
// chunks each), the block kernel's products and the VNNI tiles' epilogue
// (comp, row term when `rowterm`, scale, bias with k_i8_bias, conversion
// to `dt`) in one call; each strip's epilogue runs inside the next strip's
// K loop, so the vector work overlaps the tile products. args: a, lda
// (panels 32 * lda apart), b, k, acc (two 4 KB blocks, 8 KB), dst/ldd
// (row 0 of the first strip), comp, scale, bias (strip 0; 32 columns
// more per strip), rowterm (row 0), rows, nstrips, flags (config,
// release, bias), dst_mul/dst_zp/lo/hi.
status_t get_i8_amx_panel_kernel(bool s8s8, i8_dst_t dt, bool rowterm,
        i8_fn_t *fn);

} // namespace gemm_int8
} // namespace cpu
} // namespace llga
