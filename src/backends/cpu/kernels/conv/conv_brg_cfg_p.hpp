// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_brg_cfg_p.hpp — the layout of a direct
// ("batch-reduce") Convolution (conv_brg.cpp): how the layer is tiled and
// which input copy it reads, the packed weight layout of both flavours
// (AVX-512 [OC block][KH][KW][IC][32], bf16 pairs; AMX 32-value chunks)
// and the copies. asmjit-free.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/conv/conv_analysis_p.hpp"
#include "compiler/plan.hpp"

namespace llga {
namespace cpu {
namespace conv {

struct brg_cfg_t {
    conv_desc_t d;
    // Geometry as the kernel sees it (dense 1x1 stride 1: one row).
    int64_t IH = 1, IW = 1, OH = 1, OW = 1;
    int64_t sh = 0, sw = 0, dh = 0, dw = 0; // src/dst row and pixel strides
    int nv = 4;           // zmm per full OC block
    int64_t ocb = 64;     // channels per OC block
    int64_t nocb = 1;
    int last_nv = 4, last_tail = 0;
    int ur = 7;
    int64_t ksteps = 0;   // per input pixel (IC, bf16: IC / 2)
    // Border pixels (padding): the input is copied with zero borders
    // (dense pixels) so every output pixel sees every tap; IH/IW/sh/sw then
    // describe the copy, PH/PW are 0 and sn its image stride.
    bool pad = false;
    int64_t PH = 0, PW = 0, PHt = 0, PWl = 0, sn = 0;
    // Short rows: tiles of rh whole rows (rh * OW <= ur pixels).
    int64_t rh = 1;
    // Dense pixels and no column dilation: the KW taps of a kernel row are
    // one contiguous run of KW * ksteps k steps (one tap per kernel row).
    bool merge_kw = false;
    int64_t cw = 0;       // output columns per task chunk
    int64_t nch = 1;      // chunks per row
    // AMX flavour: 32-channel blocks, up to 32 pixels of a row per call;
    // K per tap run (runk values) a multiple of 32.
    bool amx = false;
    int64_t runk = 0;
    int64_t src_bytes = 0; // readable bytes of the in-place src
    // AMX, strides 1, padded copy: output rows flattened over the padded
    // width ("virtual" pixels q = oh * IW + ow, those with ow >= OW are
    // computed but not stored), so 32-pixel tiles span short rows.
    bool vflat = false;
    int64_t Qv = 0; // virtual pixels per image
    // Strides as the kernel sees them; AMX strided 1x1 reads a dense copy
    // of the pixels it uses (sub) as one stride-1 row per image.
    int64_t SH = 1, SW = 1;
    bool sub = false;
    // AMX with small IC (K per tap run not a multiple of 32, e.g. the 7x7
    // stem): per call, patch rows of all KH*KW*IC values (zero-padded to
    // runk) are built from the padded copy and run as one tap.
    bool patch = false;
    // AMX, strided multi-tap (3x3 stride 2): the padded input split into
    // SH x SW phase images (pixels (i * SH + a, j * SW + b)), psz elements
    // each; every tap is then a stride-1 offset inside one phase, so the
    // virtual pixels of vflat apply over the phase width (IW).
    bool phase = false;
    int64_t psz = 0;
};

// Fills `c` for the candidate at `isa` (avx512_core: f32, avx512_core_bf16:
// bf16 with even IC, avx512_core_amx: bf16); false with the reason in *why.
bool configure_brg(const compiler::plan_t &plan, isa_t isa, int nthreads,
        brg_cfg_t &c, std::string *why);

// Bytes of the packed weights (all OC blocks, equal sizes) and the byte
// offset of tap (kh, kw)'s weights within a block.
size_t brg_weight_bytes(const brg_cfg_t &c);
int64_t brg_woff(const brg_cfg_t &c, int64_t kh, int64_t kw);
// Packs the user's weights (any strides, see conv_desc_t::ws) into `out`
// (brg_weight_bytes), OC tails and K padding zeroed. Threaded.
void brg_pack_weights(const brg_cfg_t &c, const void *wei, char *out);
// The input with zero borders (c.pad), rows c.sh and images c.sn elements
// apart; the caller allocates slack past the end for AMX tiles.
void brg_pad_src(const brg_cfg_t &c, const char *src, char *out);
// The pixels a strided 1x1 reads (c.sub), dense, bf16.
void brg_sub_src(const brg_cfg_t &c, const char *src, char *out);
// The zero-bordered input as phase images (c.phase), bf16.
void brg_phase_src(const brg_cfg_t &c, const char *src, char *out);

} // namespace conv
} // namespace cpu
} // namespace llga
