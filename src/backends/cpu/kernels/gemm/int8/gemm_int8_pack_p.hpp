// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/int8/gemm_int8_pack_p.hpp — copies strided int8 A
// and B blocks into the layouts the int8 micro-kernels read (groups of 4
// consecutive k per column / row: the vpdpbusd and AMX VNNI layout), and
// computes the sums the zero-point and s8-shift compensation need. Padding is
// zero so the K loop never needs masks.
#pragma once

#include <cstdint>

namespace llga {
namespace cpu {
namespace gemm_int8 {

// VNNI A panel: out[(q * mr + i) * 4 + t] = a[i * sam + (4q + t) * sak]
// (xor 0x80 when `shift`: s8 + 128 as u8), 0 for 4q + t >= kc. Rows past m
// are left unwritten (never stored by the kernel).
void pack_a_vnni(const uint8_t *a, int64_t sam, int64_t sak, int m,
        int64_t kc, int mr, bool shift, uint8_t *out);
// The same panel for the AVX2 kernels without VNNI, widened: per k-quad
// and row 4 u16 (a0, a2, a1, a3), so each pair is one dword to broadcast
// against B's even or odd k (gemm_int8_ukr.cpp, k_step_emulated).
void pack_a_words(const uint8_t *a, int64_t sam, int64_t sak, int m,
        int64_t kc, int mr, bool shift, uint16_t *out);
// Whether a[i * sam + k * sak] < 128 for every i < m, k < kc.
bool bytes_below_128(const uint8_t *a, int64_t sam, int64_t sak, int m,
        int64_t kc);
// AMX A panel: 32 rows `ld` bytes apart (ld >= kpad):
// out[r * ld + k] = a[r*sam + k*sak], 0 for r >= m or kc <= k < kpad.
void pack_a_amx(const uint8_t *a, int64_t sam, int64_t sak, int m,
        int64_t kc, int64_t kpad, int64_t ld, uint8_t *out);
// B block of n columns as strips of nr columns, strip s at
// out + s * kq * nr * 4 with kq = kpad / 4 (kpad >= kc, a multiple of 4):
// out[s][(q * nr + j) * 4 + t] = b[(4q + t) * sbk + (s * nr + j) * sbn],
// 0 past n or kc. When colsum is given, colsum[j] += sum over k of column j
// (j < n). `flip` (0 or 0x80) is XORed into every byte of B read: 0x80
// turns u8 values into the s8 values b - 128.
void pack_b_int8(const int8_t *b, int64_t sbk, int64_t sbn, int n,
        int64_t kc, int nr, int64_t kpad, int8_t *out, int32_t *colsum,
        uint8_t flip = 0);
// Column sums of B only (the prepacked path still needs them per call).
void colsum_b(const int8_t *b, int64_t sbk, int64_t sbn, int n, int64_t k,
        int32_t *colsum, uint8_t flip = 0);
// out[i] = sum over k < K of A[i, k] (as u8 or s8), i < m.
void rowsum_a(const void *a, bool a_signed, int64_t sam, int64_t sak, int m,
        int64_t K, int32_t *out);

} // namespace gemm_int8
} // namespace cpu
} // namespace llga
