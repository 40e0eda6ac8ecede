// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/gemm_pack.hpp — copies strided A and B blocks into
// the panel layouts the micro-kernels read: A as k-major groups of MR rows,
// B as k-major rows of NR-column strips; bf16 keeps k pairs adjacent (the operand
// layout of vdpbf16ps). Padding (rows/columns past the edge, an odd last k)
// is zero so tails never need masked loads in the K loop.
#pragma once

#include <cstdint>

namespace llga {
namespace cpu {
namespace gemm {

// out[k * mr + i] = a[i * sam + k * sak] for i < m, k < kc.
void pack_a_f32(const float *a, int64_t sam, int64_t sak, int m, int64_t kc,
        int mr, float *out);
// bf16 A widened to f32, k-major: out[k * mr + i] = f32(a[i * sam + k * sak]).
void pack_a_bf16_to_f32(const uint16_t *a, int64_t sam, int64_t sak, int m,
        int64_t kc, int mr, float *out);
// out[(p * mr + i) * 2 + t] = a[i * sam + (2p + t) * sak], 0 past kc.
void pack_a_bf16(const uint16_t *a, int64_t sam, int64_t sak, int m,
        int64_t kc, int mr, uint16_t *out);
// B block of n columns as strips of nr columns, strip s at
// out + s * kc * nr: out[s][k * nr + j] = b[k * sbk + (s * nr + j) * sbn],
// 0 past n. With contiguous columns each B row is read once, left to right
// across all strips, so the hardware prefetcher sees long sequential runs.
void pack_b_f32(const float *b, int64_t sbk, int64_t sbn, int n, int64_t kc,
        int nr, float *out);
// n values of 16-bit storage widened to f32 (bf16 when `f16` is false),
// exactly; AVX2/F16C (the f32_avx2 GEMMs' 16-bit B^T blocks, which are
// then packed by pack_b_f32).
void widen_16(const uint16_t *s, bool f16, int64_t n, float *d);
// 16-bit B (bf16, or f16 when `f16`) widened exactly to f32 and packed
// as pack_b_f32 packs f32 B (AVX2/F16C; the f32_avx2 GEMMs of bf16/f16
// MatMuls). Row-major B is widened as it is copied, k-contiguous B (B^T)
// through 8 x 8 register transposes; any other layout goes column by
// column through `tmp` (n * kc floats), then pack_b_f32.
void pack_b_16(const uint16_t *b, int64_t sbk, int64_t sbn, int n,
        int64_t kc, int nr, bool f16, float *out, float *tmp);
// The same for bf16 with k pairs: strip s at out + s * ceil(kc/2) * nr * 2,
// out[s][(p * nr + j) * 2 + t] = b[(2p + t) * sbk + (s * nr + j) * sbn].
// kc_pad > kc pads every strip with zero pairs up to ceil(kc_pad / 2)
// (AMX needs whole 32-k chunks); the strip stride follows kc_pad.
void pack_b_bf16(const uint16_t *b, int64_t sbk, int64_t sbn, int n,
        int64_t kc, int nr, uint16_t *out, int64_t kc_pad = 0);
// A panel of `rows` (32 or 16) rows for AMX, chunk-major so each tile load
// reads 1 KiB of consecutive lines: for every chunk c of 32 k values,
// `rows` rows of 64 bytes:
// out[(c * rows + r) * 32 + kk] = a[r * sam + (32c + kk) * sak], 0 for
// r >= m or k >= kc.
void pack_a_amx(const uint16_t *a, int64_t sam, int64_t sak, int m,
        int64_t kc, uint16_t *out, int rows = 32);

} // namespace gemm
} // namespace cpu
} // namespace llga
