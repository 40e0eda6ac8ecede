// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/common/amx_tiles.hpp — emitters shared by the AMX GEMM
// kernels (bf16 in gemm_amx.cpp, int8 in gemm_int8_ukr.cpp, and the tile
// configuration also for conv_brg_amx.cpp): the 32 x 32
// f32/s32 C block held in tmm0..tmm3 (2 x 2 tiles of 16 rows x 64 bytes;
// 16 x 32 in tmm0/tmm1 for short GEMMs), loaded from or stored to memory
// with row stride `ldc`.
#pragma once

#include <cstdint>

#include "backends/cpu/jit_runtime.hpp"

namespace llga {
namespace cpu {
namespace common {

// t = c + 16 rows: where the lower two C tiles start.
inline void lower_rows(asmjit::x86::Assembler &a, const asmjit::x86::Gp &t,
        const asmjit::x86::Gp &c, const asmjit::x86::Gp &ldc) {
    a.mov(t, ldc);
    a.shl(t, 4);
    a.add(t, c);
}

// If `flags` (a register) has `accumulate_bit`, loads the C block from
// [c] (clobbers `flags`), else zeroes it; then binds `loop` (16-byte
// aligned), where the K loop starts. `tile_rows` is 2 for the 32-row block
// (tmm0..tmm3) and 1 for the 16-row block (tmm0, tmm1).
inline void start_c_block(asmjit::x86::Assembler &a,
        const asmjit::x86::Gp &flags, int64_t accumulate_bit,
        const asmjit::x86::Gp &c, const asmjit::x86::Gp &ldc,
        const asmjit::Label &loop, int tile_rows = 2) {
    using namespace asmjit;
    Label zero = a.newLabel();
    a.test(flags, accumulate_bit);
    a.jz(zero);
    a.tileloadd(x86::tmm0, x86::ptr(c, ldc));
    a.tileloadd(x86::tmm1, x86::ptr(c, ldc, 0, 64));
    if (tile_rows == 2) {
        lower_rows(a, flags, c, ldc);
        a.tileloadd(x86::tmm2, x86::ptr(flags, ldc));
        a.tileloadd(x86::tmm3, x86::ptr(flags, ldc, 0, 64));
    }
    a.jmp(loop);
    a.bind(zero);
    for (int i = 0; i < 2 * tile_rows; ++i)
        a.tilezero(x86::tmm(i));
    a.align(AlignMode::kCode, 16);
    a.bind(loop);
}

// Binds `cfg` (64-byte aligned) to the tile configuration every AMX
// kernel here uses: palette 1, eight tiles of 16 rows x 64 bytes. Emit it
// in the function's data, after its ret.
inline void embed_tile_config(
        asmjit::x86::Assembler &a, const asmjit::Label &cfg) {
    a.align(asmjit::AlignMode::kData, 64);
    a.bind(cfg);
    uint8_t bytes[64] = {};
    bytes[0] = 1; // palette
    for (int i = 0; i < 8; ++i) {
        bytes[16 + 2 * i] = 64; // bytes per row, little-endian uint16
        bytes[48 + i] = 16;     // rows
    }
    a.embed(bytes, sizeof(bytes));
}

// Stores the C block (tmm0..tmm3, or tmm0/tmm1 with tile_rows == 1) to
// [c] (uses `t` as scratch).
inline void store_c_block(asmjit::x86::Assembler &a, const asmjit::x86::Gp &t,
        const asmjit::x86::Gp &c, const asmjit::x86::Gp &ldc,
        int tile_rows = 2) {
    using namespace asmjit;
    a.tilestored(x86::ptr(c, ldc), x86::tmm0);
    a.tilestored(x86::ptr(c, ldc, 0, 64), x86::tmm1);
    if (tile_rows == 2) {
        lower_rows(a, t, c, ldc);
        a.tilestored(x86::ptr(t, ldc), x86::tmm2);
        a.tilestored(x86::ptr(t, ldc, 0, 64), x86::tmm3);
    }
}

} // namespace common
} // namespace cpu
} // namespace llga
