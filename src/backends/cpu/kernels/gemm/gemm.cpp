// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/gemm.cpp — generates the GEMM micro-kernels (the
// AMX one is in gemm_amx.cpp): one
// function per (flavour, rows m, vectors nv, dst type) that keeps an m x nv
// tile of C in registers over a K loop unrolled by 4, then runs the fused
// epilogue (add earlier partial sums, add bias, convert and store, masking
// the last vector for N tails) while the tile is still in registers.
#include "backends/cpu/kernels/gemm/gemm.hpp"

#include <cstddef>
#include <cstring>
#include <string>

#include "backends/cpu/jit_runtime.hpp"
#include "backends/cpu/kernels/gemm/gemm_postops_jit_p.hpp"

namespace llga {
namespace cpu {
namespace gemm {

using namespace asmjit;

namespace {

// K steps per unrolled loop iteration: enough to hide the loop overhead
// and let A offsets be immediates, small enough to keep code in the uop
// cache for the largest tile.
constexpr int k_unroll = 4;
// K steps before the end of the loop at which the earlier partial sums
// are requested into L1 (~12 cycles per step: covers an L2 hit with room).
constexpr int k_acc_pf_steps = 24;

struct desc_t {
    char family[8];
    int32_t kind, m, nv, dst_bf16;
    int32_t wide; // small-M kernel (see get_wide_ukernel)
    int32_t bcvt; // wide: b16_t of B rows read in place, widened to f32
    int32_t a_rows; // AVX2 tile kernel: A read from the user's rows
};

class ukr_gen_t {
public:
    ukr_gen_t(x86::Assembler &a, ukr_kind_t kind, int m, int nv, bool dst_bf16,
            const postops_t &po, bool wide = false, b16_t bcvt = b16_t::none,
            bool a_rows = false)
        : a_(a), kind_(kind), s_(ukr_shape(kind)), m_(m), nv_(nv), wide_(wide),
          bcvt_(bcvt), a_rows_(a_rows),
          dst_bf16_(dst_bf16), z_(kind != ukr_kind_t::f32_avx2), po_(po),
          ve_(a, z_), pe_(a, ve_, po, dst_bf16) {}

    void emit() {
        const x86::Gp args = x86::rdi, pa = x86::rax, pb = x86::rcx,
                      ldb = x86::rdx, kcnt = x86::r8;
        Label strip_top = a_.newLabel();
        if (a_rows_) {
            // Row strides for the broadcasts: rows 0..5 are [pa],
            // [pa + lda], [pa + 2 lda], [pa + 3 lda], [pa + 4 lda],
            // [pa + 5 lda] with lda, 3 lda and 5 lda in registers.
            a_.push(a_l3());
            a_.push(a_l5());
            a_.mov(a_ld(), field(offsetof(ukr_args_t, lda)));
            a_.lea(a_l3(), x86::ptr(a_ld(), a_ld(), 1));
            a_.lea(a_l5(), x86::ptr(a_ld(), a_ld(), 2));
        }
        if (strip_loop()) {
            a_.push(strip_off());
            a_.push(strips_left());
            a_.xor_(strip_off(), strip_off());
            a_.mov(strips_left(), field(offsetof(ukr_args_t, strips)));
            a_.bind(strip_top);
        }
        a_.mov(pa, field(offsetof(ukr_args_t, a)));
        a_.mov(pb, field(offsetof(ukr_args_t, b)));
        if (strip_loop() && bcvt_ != b16_t::none) {
            // 16-bit B: a strip is half as many bytes of B as of sums.
            a_.mov(x86::r11, strip_off());
            a_.shr(x86::r11, 1);
            a_.add(pb, x86::r11);
        } else if (strip_loop()) {
            a_.add(pb, strip_off());
        }
        a_.mov(ldb, field(offsetof(ukr_args_t, ldb)));
        a_.mov(kcnt, field(offsetof(ukr_args_t, k)));
        (void)args;
        for (int i = 0; i < m_; ++i)
            for (int v = 0; v < nv_; ++v)
                a_.vxorps(acc(i, v), acc(i, v), acc(i, v));
        // Wide kernels prefetch B `pf` bytes past the row being read.
        if (wide_) a_.mov(x86::rsi, field(offsetof(ukr_args_t, pf)));
        // A bytes per k step: one float of each row in place, else the
        // packed panel's MR (wide: m) values.
        const int astep = a_rows_ ? 4 : (wide_ ? m_ : s_.mr) * 4;
        auto unrolled = [&] {
            for (int u = 0; u < k_unroll; ++u) {
                k_step(u, u);
                a_.add(pb, ldb);
            }
            a_.add(pa, k_unroll * astep);
            a_.sub(kcnt, k_unroll);
        };

        Label loop = a_.newLabel(), rem = a_.newLabel(),
              rem_loop = a_.newLabel(), done = a_.newLabel();
        if (!wide_) {
            // The earlier partial sums go to L2 now and into L1 only
            // k_acc_pf_steps before the end: requested into L1 at the
            // start, the B strip streaming through L1 would evict them.
            prefetch_acc(false);
            Label loop1 = a_.newLabel(), pf = a_.newLabel();
            a_.cmp(kcnt, k_unroll + k_acc_pf_steps);
            a_.jb(pf);
            a_.align(AlignMode::kCode, 16);
            a_.bind(loop1);
            unrolled();
            a_.cmp(kcnt, k_unroll + k_acc_pf_steps);
            a_.jae(loop1);
            a_.bind(pf);
            prefetch_acc(true);
        }
        a_.cmp(kcnt, k_unroll);
        a_.jb(rem);
        a_.align(AlignMode::kCode, 16);
        a_.bind(loop);
        unrolled();
        a_.cmp(kcnt, k_unroll);
        a_.jae(loop);
        a_.bind(rem);
        a_.test(kcnt, kcnt);
        a_.jz(done);
        a_.bind(rem_loop);
        k_step(0, 0);
        a_.add(pb, ldb);
        a_.add(pa, astep);
        a_.dec(kcnt);
        a_.jnz(rem_loop);
        a_.bind(done);
        epilogue();
        if (strip_loop()) {
            // Next strip: B and the partial sums move one strip right.
            a_.add(strip_off(), nv_ * vlen());
            a_.dec(strips_left());
            a_.jg(strip_top);
            a_.pop(strips_left());
            a_.pop(strip_off());
        }
        if (a_rows_) {
            a_.pop(a_l5());
            a_.pop(a_l3());
        }
        a_.vzeroupper();
        a_.ret();
        if (!po_.empty()) ve_.emit_pool();
    }

private:
    // AVX2 wide kernels walk args->strips strips per call (see ukr_args_t):
    // with B read in place in short K blocks a call covers little work,
    // and one call per strip cost as much as the strip's products. The
    // AVX-512 flavours keep one strip per call (tuned on their hosts).
    bool strip_loop() const { return wide_ && !z_; }
    // A in place (a_rows_): the row stride and 3x / 5x it. rsi is free in
    // the tile kernels (only the wide ones use it, for the prefetch).
    static x86::Gp a_ld() { return x86::rsi; }
    static x86::Gp a_l3() { return x86::rbx; }
    static x86::Gp a_l5() { return x86::r12; }
    // Row i of A at k step u.
    x86::Mem a_row(int i, int u) const {
        const x86::Gp pa = x86::rax;
        const int32_t d = u * 4;
        switch (i) {
            case 0: return x86::dword_ptr(pa, d);
            case 1: return x86::dword_ptr(pa, a_ld(), 0, d);
            case 2: return x86::dword_ptr(pa, a_ld(), 1, d);
            case 3: return x86::dword_ptr(pa, a_l3(), 0, d);
            case 4: return x86::dword_ptr(pa, a_ld(), 2, d);
            default: return x86::dword_ptr(pa, a_l5(), 0, d);
        }
    }
    // Bytes from the first strip to the current one (callee-saved).
    static x86::Gp strip_off() { return x86::rbx; }
    static x86::Gp strips_left() { return x86::r12; }

    x86::Mem field(size_t off) const {
        return x86::qword_ptr(x86::rdi, static_cast<int32_t>(off));
    }
    x86::Vec vreg(int i) const {
        return z_ ? x86::Vec(x86::zmm(i)) : x86::Vec(x86::ymm(i));
    }
    int vlen() const { return s_.width * 4; }
    // Accumulators take the low registers: row i, vector v.
    x86::Vec acc(int i, int v) const {
        return vreg(wide_ ? i * nv_ + v : i * 2 + v);
    }
    // B vectors: two sets alternating between unrolled steps so a load
    // never waits for the FMAs that read the previous step's values.
    x86::Vec bvec(int v, int set) const {
        return z_ ? vreg(24 + set % 2 * 2 + v) : vreg(12 + v);
    }
    // AVX2 broadcast register (ymm14/ymm15 alternating; ymm15 is the tail
    // mask only after the K loop).
    x86::Vec bcast(int i) const { return vreg(14 + i % 2); }

    void fma(const x86::Vec &c, const x86::Vec &x, const Operand &y) {
        const bool bf = kind_ == ukr_kind_t::bf16_avx512 && bcvt_ == b16_t::none;
        if (y.isMem()) {
            if (bf)
                a_.vdpbf16ps(c, x, y.as<x86::Mem>());
            else
                a_.vfmadd231ps(c, x, y.as<x86::Mem>());
        } else {
            if (bf)
                a_.vdpbf16ps(c, x, y.as<x86::Vec>());
            else
                a_.vfmadd231ps(c, x, y.as<x86::Vec>());
        }
    }

    // Wide (small-M) k step: one row of nv vectors of B, read straight
    // from memory (m = 1) or into registers after the accumulators, plus
    // one prefetch per cache line of the row `pf` bytes ahead.
    // B vector v of the current row into `dst`: as is, or (bcvt) W bf16
    // widened to f32 (the bf16 bits become the high half of each lane), or
    // W f16 converted exactly (F16C vcvtph2ps).
    void load_b(const x86::Vec &dst, int v) {
        const x86::Gp pb = x86::rcx;
        if (bcvt_ == b16_t::f16) {
            a_.vcvtph2ps(dst, x86::ptr(pb, v * s_.width * 2));
        } else if (bcvt_ == b16_t::bf16) {
            a_.vpmovzxwd(dst, x86::ptr(pb, v * s_.width * 2));
            a_.vpslld(dst, dst, 16);
        } else {
            a_.vmovups(dst, x86::ptr(pb, v * vlen()));
        }
    }

    void k_step_wide(int u) {
        const x86::Gp pa = x86::rax, pb = x86::rcx, pf = x86::rsi;
        const int row_bytes = nv_ * s_.width * (bcvt_ != b16_t::none ? 2 : 4);
        for (int l = 0; l < (row_bytes + 63) / 64; ++l)
            a_.prefetcht0(x86::ptr(pb, pf, 0, l * 64));
        const int32_t aoff = u * m_ * 4;
        if (m_ == 1) {
            const x86::Vec ab = z_ ? vreg(16 + u % 4) : vreg(14 + u % 2);
            a_.vbroadcastss(ab, x86::dword_ptr(pa, aoff));
            for (int v = 0; v < nv_; ++v) {
                if (bcvt_ == b16_t::none) {
                    fma(acc(0, v), ab, x86::ptr(pb, v * vlen()));
                    continue;
                }
                // Past the accumulators (AVX2: ymm0..7, broadcasts 14/15).
                const x86::Vec t = vreg((z_ ? 20 : 8) + v % 4);
                load_b(t, v);
                fma(acc(0, v), ab, t);
            }
            return;
        }
        for (int v = 0; v < nv_; ++v)
            load_b(vreg(m_ * nv_ + v), v);
        for (int i = 0; i < m_; ++i) {
            const int32_t off = aoff + i * 4;
            if (z_) {
                const x86::Mem am = x86::dword_ptr(pa, off)._1to16();
                for (int v = 0; v < nv_; ++v)
                    fma(acc(i, v), vreg(m_ * nv_ + v), am);
            } else {
                a_.vbroadcastss(bcast(i), x86::dword_ptr(pa, off));
                for (int v = 0; v < nv_; ++v)
                    fma(acc(i, v), vreg(m_ * nv_ + v), bcast(i));
            }
        }
    }

    // One k step: load nv B vectors, then m broadcasts of A times them.
    void k_step(int u, int set) {
        if (wide_) {
            k_step_wide(u);
            return;
        }
        const x86::Gp pa = x86::rax, pb = x86::rcx;
        for (int v = 0; v < nv_; ++v)
            a_.vmovups(bvec(v, set), x86::ptr(pb, v * vlen()));
        for (int i = 0; i < m_; ++i) {
            const int32_t off = (u * s_.mr + i) * 4;
            if (z_) {
                const x86::Mem am = x86::dword_ptr(pa, off)._1to16();
                for (int v = 0; v < nv_; ++v) {
                    if (kind_ == ukr_kind_t::bf16_avx512)
                        a_.vdpbf16ps(acc(i, v), bvec(v, set), am);
                    else
                        a_.vfmadd231ps(acc(i, v), bvec(v, set), am);
                }
            } else {
                a_.vbroadcastss(bcast(i),
                        a_rows_ ? a_row(i, u) : x86::dword_ptr(pa, off));
                for (int v = 0; v < nv_; ++v)
                    a_.vfmadd231ps(acc(i, v), bvec(v, set), bcast(i));
            }
        }
    }

    // The earlier partial sums are read only after the K loop; with K
    // split they come from L2 or further (C rows are often a power-of-two
    // stride apart, so they also conflict in L1), and the miss would stall
    // the epilogue. Requesting them during the loop hides that.
    void prefetch_acc(bool l1) {
        const x86::Gp row = x86::r9, ld = x86::r10;
        Label skip = a_.newLabel();
        a_.test(field(offsetof(ukr_args_t, flags)), k_ukr_accumulate);
        a_.jz(skip);
        a_.mov(row, field(offsetof(ukr_args_t, acc)));
        a_.mov(ld, field(offsetof(ukr_args_t, ldacc)));
        const int lines = (nv_ * vlen() + 63) / 64;
        for (int i = 0; i < m_; ++i) {
            for (int l = 0; l < lines; ++l) {
                if (l1)
                    a_.prefetcht0(x86::ptr(row, l * 64));
                else
                    a_.prefetcht1(x86::ptr(row, l * 64));
            }
            if (i + 1 < m_) a_.add(row, ld);
        }
        a_.bind(skip);
    }

    // acc += row of f32 values at [p]; the last vector is masked.
    void add_row(int i, const x86::Gp &p) {
        for (int v = 0; v < nv_; ++v) {
            const x86::Mem m = x86::ptr(p, v * vlen());
            const bool last = tail_masked(v == nv_ - 1);
            if (!last) {
                a_.vaddps(acc(i, v), acc(i, v), m);
            } else if (z_) {
                // Masked-out lanes are not read, so no fault past the end.
                a_.k(x86::k1).vaddps(acc(i, v), acc(i, v), m);
            } else {
                a_.vmaskmovps(bvec(0, 0), tail_mask(), m);
                a_.vaddps(acc(i, v), acc(i, v), bvec(0, 0));
            }
        }
    }

    void store_row_f32(int i, const x86::Gp &p) {
        for (int v = 0; v < nv_; ++v) {
            const x86::Mem m = x86::ptr(p, v * vlen());
            if (!tail_masked(v == nv_ - 1))
                a_.vmovups(m, acc(i, v));
            else if (z_)
                a_.k(x86::k1).vmovups(m, acc(i, v));
            else
                a_.vmaskmovps(m, tail_mask(), acc(i, v));
        }
    }

    // Round-to-nearest-even to bf16 (NaN made quiet), 16 bf16 values per
    // zmm accumulator: vcvtneps2bf16 in the AVX512-BF16 kernels, the bit
    // pattern otherwise (zmm24/25 are free in the epilogue).
    void store_row_bf16(int i, const x86::Gp &p) {
        po_regs_t r;
        r.t[0] = x86::zmm(24);
        r.t[1] = x86::zmm(25);
        for (int v = 0; v < nv_; ++v)
            pe_.store_bf16(acc(i, v), x86::ptr(p, v * 32), v == nv_ - 1,
                    has_cvtne(), r);
    }

    // vcvtneps2bf16 exists on the hosts of the AVX512-BF16 kernels (and
    // AMX); f32_avx512 also runs where it does not (int8 chains on
    // avx512_core_vnni).
    bool has_cvtne() const { return kind_ == ukr_kind_t::bf16_avx512; }

    // ymm14: where vec_emitter_t (the post-op math) expects it; ymm15 is
    // its compare mask.
    x86::Vec tail_mask() const { return vreg(14); }

    po_dt_t dst_dt() const {
        return po_.dst_dt == po_dt_t::f32 && dst_bf16_ ? po_dt_t::bf16
                                                        : po_.dst_dt;
    }

    // `r`: the chain's temporaries (a bf16 store uses two).
    void store_vec(const x86::Vec &x, const x86::Mem &m, bool last,
            const po_regs_t &r) {
        switch (dst_dt()) {
            case po_dt_t::f32:
                if (!last)
                    a_.vmovups(m, x);
                else if (z_)
                    a_.k(x86::k1).vmovups(m, x);
                else
                    a_.vmaskmovps(m, tail_mask(), x);
                break;
            case po_dt_t::bf16: pe_.store_bf16(x, m, last, has_cvtne(), r); break;
            case po_dt_t::s8:
            case po_dt_t::u8: pe_.store_int8(x, m, last, r); break;
        }
    }

    // The last K block with a post-op chain: row by row, each vector goes
    // through the chain and is stored. AVX-512 keeps the tile in place and
    // lends zmm24..30 as temporaries; AVX2 has too few free registers, so
    // the tile is spilled to the stack (L1) and each vector is processed in
    // ymm0 with ymm1..7 as temporaries.
    void store_rows_with_postops() {
        const x86::Gp row = x86::r9, ld = x86::r10;
        const int es = static_cast<int>(po_dt_size(dst_dt()));
        a_.mov(row, field(offsetof(ukr_args_t, dst)));
        a_.mov(ld, field(offsetof(ukr_args_t, ldd)));
        pe_.load_table(field(offsetof(ukr_args_t, po)));
        po_regs_t r;
        const int tile_bytes = m_ * nv_ * 32;
        if (!z_ && pe_.in_place_ok()) {
            // Bias-add-ReLU style chains run on the accumulators with
            // memory operands, the operand's row address once per tile
            // row: no spill (ymm12 = +0, ymm13 = temporary, ymm14 = mask).
            // Zen 3, 1 thread, add(full) + ReLU, best of 8 alternating
            // processes: 3136x256x64 79.1 -> 81.6 GFLOP/s, 784x512x128
            // 89.4 -> 90.8 (the operand's memory traffic is most of what
            // the chain costs).
            if (pe_.has_relu()) a_.vxorps(x86::ymm12, x86::ymm12, x86::ymm12);
            for (int i = 0; i < m_; ++i) {
                x86::Vec xs[2];
                for (int v = 0; v < nv_; ++v)
                    xs[v] = acc(i, v);
                pe_.apply_row_in_place(xs, nv_, i, tail_masked(true),
                        x86::ymm13, x86::ymm12);
                for (int v = 0; v < nv_; ++v)
                    store_vec(acc(i, v), x86::ptr(row, v * s_.width * es),
                            tail_masked(v == nv_ - 1), r);
                if (i + 1 < m_) a_.add(row, ld);
            }
            return;
        }
        if (z_) {
            for (int k = 0; k < 7; ++k)
                r.t[k] = x86::zmm(24 + k);
        } else {
            for (int k = 0; k < 7; ++k)
                r.t[k] = x86::ymm(1 + k);
            a_.sub(x86::rsp, tile_bytes);
            for (int i = 0; i < m_; ++i)
                for (int v = 0; v < nv_; ++v)
                    a_.vmovups(x86::ptr(x86::rsp, (i * nv_ + v) * 32),
                            acc(i, v));
        }
        for (int i = 0; i < m_; ++i) {
            for (int v = 0; v < nv_; ++v) {
                const bool last = tail_masked(v == nv_ - 1);
                const x86::Mem m = x86::ptr(row, v * s_.width * es);
                x86::Vec x = acc(i, v);
                if (!z_) {
                    x = x86::ymm0;
                    a_.vmovups(x, x86::ptr(x86::rsp, (i * nv_ + v) * 32));
                }
                pe_.apply(x, i, v, last, m, r);
                store_vec(x, m, last, r);
            }
            if (i + 1 < m_) a_.add(row, ld);
        }
        if (!z_) a_.add(x86::rsp, tile_bytes);
    }

    void epilogue() {
        const x86::Gp tmp = x86::r11;
        if (z_) {
            a_.mov(tmp, field(offsetof(ukr_args_t, kmask)));
            a_.kmovw(x86::k1, tmp.r32());
            epilogue_body();
            return;
        }
        a_.mov(tmp, field(offsetof(ukr_args_t, ymask)));
        a_.vmovdqu(tail_mask(), x86::ptr(tmp));
        // AVX2 has no cheap masked store: vmaskmovps to memory is
        // microcoded on AMD Zen (~40 uops), one per tile row. When the
        // mask is whole (its last lane set: masks are prefixes), a second
        // copy of the epilogue stores and loads the last vector plainly.
        // Zen 3, 6 x 16 tile, K = 64, sums accumulated: 65% -> ~85% of peak.
        Label masked = a_.newLabel(), end = a_.newLabel();
        a_.cmp(x86::dword_ptr(tmp, 28), 0);
        a_.je(masked);
        full_tail_ = true;
        epilogue_body();
        full_tail_ = false;
        a_.jmp(end);
        a_.bind(masked);
        epilogue_body();
        a_.bind(end);
    }

    // Whether the last vector of a row needs the tail mask.
    bool tail_masked(bool last) const { return last && !full_tail_; }

    void epilogue_body() {
        const x86::Gp row = x86::r9, ld = x86::r10, tmp = x86::r11;
        Label no_acc = a_.newLabel(), to_acc = a_.newLabel(),
              no_bias = a_.newLabel(), end = a_.newLabel();
        a_.test(field(offsetof(ukr_args_t, flags)), k_ukr_accumulate);
        a_.jz(no_acc);
        a_.mov(row, field(offsetof(ukr_args_t, acc)));
        if (strip_loop()) a_.add(row, strip_off());
        a_.mov(ld, field(offsetof(ukr_args_t, ldacc)));
        for (int i = 0; i < m_; ++i) {
            add_row(i, row);
            if (i + 1 < m_) a_.add(row, ld);
        }
        a_.bind(no_acc);
        a_.test(field(offsetof(ukr_args_t, flags)), k_ukr_last);
        a_.jz(to_acc);
        a_.test(field(offsetof(ukr_args_t, flags)), k_ukr_bias);
        a_.jz(no_bias);
        // The bias buffer is padded to whole tiles: plain loads are safe.
        a_.mov(tmp, field(offsetof(ukr_args_t, bias)));
        for (int i = 0; i < m_; ++i)
            for (int v = 0; v < nv_; ++v)
                a_.vaddps(acc(i, v), acc(i, v), x86::ptr(tmp, v * vlen()));
        a_.bind(no_bias);
        if (!po_.empty()) {
            store_rows_with_postops();
            a_.jmp(end);
        }
        a_.mov(row, field(offsetof(ukr_args_t, dst)));
        a_.mov(ld, field(offsetof(ukr_args_t, ldd)));
        for (int i = 0; i < m_; ++i) {
            if (dst_bf16_)
                store_row_bf16(i, row);
            else
                store_row_f32(i, row);
            if (i + 1 < m_) a_.add(row, ld);
        }
        a_.jmp(end);
        a_.bind(to_acc);
        a_.mov(row, field(offsetof(ukr_args_t, acc)));
        if (strip_loop()) a_.add(row, strip_off());
        a_.mov(ld, field(offsetof(ukr_args_t, ldacc)));
        for (int i = 0; i < m_; ++i) {
            store_row_f32(i, row);
            if (i + 1 < m_) a_.add(row, ld);
        }
        a_.bind(end);
    }

    x86::Assembler &a_;
    ukr_kind_t kind_;
    ukr_shape_t s_;
    int m_, nv_;
    bool wide_;
    b16_t bcvt_;
    bool a_rows_;
    bool dst_bf16_;
    bool z_; // zmm (AVX-512) or ymm (AVX2)
    bool full_tail_ = false; // emitting the AVX2 whole-mask epilogue
    const postops_t &po_;
    eltwise::vec_emitter_t ve_;
    po_emitter_t pe_;
};

} // namespace

ukr_shape_t ukr_shape(ukr_kind_t kind) {
    switch (kind) {
#define LLGA_GEMM_UKR(kind, mr, nr, width, kpack, isa, name) \
    case ukr_kind_t::kind: return {mr, nr, width, kpack};
#include "backends/cpu/kernels/gemm/gemm_flavours.def"
#undef LLGA_GEMM_UKR
    }
    return {0, 0, 0, 0};
}

isa_t ukr_isa(ukr_kind_t kind) {
    switch (kind) {
#define LLGA_GEMM_UKR(kind, mr, nr, width, kpack, isa, name) \
    case ukr_kind_t::kind: return isa_t::isa;
#include "backends/cpu/kernels/gemm/gemm_flavours.def"
#undef LLGA_GEMM_UKR
    }
    return isa_t::isa_default;
}

const char *ukr_name(ukr_kind_t kind) {
    switch (kind) {
#define LLGA_GEMM_UKR(kind, mr, nr, width, kpack, isa, name) \
    case ukr_kind_t::kind: return name;
#include "backends/cpu/kernels/gemm/gemm_flavours.def"
#undef LLGA_GEMM_UKR
    }
    return "?";
}

status_t get_ukernel(ukr_kind_t kind, int m, int nv, bool dst_bf16,
        ukr_fn_t *fn) {
    return get_ukernel(kind, m, nv, dst_bf16, postops_t(), fn);
}

namespace {
status_t get_kernel(ukr_kind_t kind, int m, int nv, bool dst_bf16,
        const postops_t &po, bool wide, b16_t bcvt, ukr_fn_t *fn,
        bool a_rows = false) {
    const ukr_shape_t s = ukr_shape(kind);
    if (kind == ukr_kind_t::bf16_amx)
        return fail(dnnl_invalid_arguments, "cpu gemm: use get_amx_kernel");
    const int mmax = wide ? wide_max_rows(kind) : s.mr;
    const int vmax = wide ? wide_vectors(kind, m) : s.nr / s.width;
    if (m < 1 || m > mmax || nv < 1 || nv > vmax)
        return fail(dnnl_invalid_arguments,
                "cpu gemm: tile %dx%d vectors is outside %dx%d", m, nv, mmax,
                vmax);
    if (dst_bf16 && kind == ukr_kind_t::f32_avx2)
        return fail(dnnl_unimplemented, "cpu gemm: no bf16 store on avx2");
    if (!isa_available(ukr_isa(kind)))
        return fail(dnnl_unimplemented,
                "cpu gemm: isa %s is not available (max %s)",
                isa_name(ukr_isa(kind)), isa_name(max_isa()));
    LLGA_RETURN_IF_ERROR(
            check_postops(po, kind != ukr_kind_t::f32_avx2, dst_bf16));
    if (a_rows && (wide || kind != ukr_kind_t::f32_avx2))
        return fail(dnnl_unimplemented,
                "cpu gemm: A in place is an AVX2 tile-kernel variant");
    desc_t d;
    std::memset(&d, 0, sizeof(d));
    std::memcpy(d.family, "gemm", 5);
    d.kind = static_cast<int32_t>(kind);
    d.m = m;
    d.nv = nv;
    d.dst_bf16 = dst_bf16 ? 1 : 0;
    d.wide = wide ? 1 : 0;
    d.bcvt = static_cast<int32_t>(bcvt);
    d.a_rows = a_rows ? 1 : 0;
    const std::string name = std::string(wide ? "gemm_wide_" : "gemm_ukr_")
            + ukr_name(kind)
            + (bcvt == b16_t::bf16     ? "_bcvt_"
                            : bcvt == b16_t::f16 ? "_f16cvt_"
                                                 : "_")
            + (a_rows ? "arows_" : "") + std::to_string(m) + "x"
            + std::to_string(nv * s.width) + (dst_bf16 ? "_bf16dst" : "")
            + (po.empty() ? std::string() : "_po:" + po.str());
    const std::string key = po.empty() ? jit_key(d) : jit_key(d) + po.key();
    return jit_get_fn(key, name,
            [&](x86::Assembler &a) {
                ukr_gen_t(a, kind, m, nv, dst_bf16, po, wide, bcvt, a_rows)
                        .emit();
                return dnnl_success;
            },
            fn);
}
} // namespace

status_t get_ukernel(ukr_kind_t kind, int m, int nv, bool dst_bf16,
        const postops_t &po, ukr_fn_t *fn, bool a_rows) {
    return get_kernel(
            kind, m, nv, dst_bf16, po, false, b16_t::none, fn, a_rows);
}

int wide_max_rows(ukr_kind_t kind) {
    return kind == ukr_kind_t::f32_avx2 ? 6 : 8;
}

int wide_vectors(ukr_kind_t kind, int m) {
    // Accumulators stay below the post-op temporaries (zmm24.., ymm14/15)
    // and leave room for the row of B (m > 1) or the A broadcasts (m = 1).
    static const int z[] = {16, 8, 6, 5, 4, 3, 3, 3};
    static const int y[] = {8, 4, 3, 2, 2, 2};
    if (m < 1 || m > wide_max_rows(kind)) return 0;
    return kind == ukr_kind_t::f32_avx2 ? y[m - 1] : z[m - 1];
}

status_t get_wide_ukernel(ukr_kind_t kind, int m, int nv, bool dst_bf16,
        const postops_t &po, ukr_fn_t *fn, b16_t b16) {
    const bool ok = b16 == b16_t::none
            || (b16 == b16_t::bf16 && kind == ukr_kind_t::bf16_avx512)
            || kind == ukr_kind_t::f32_avx2;
    if (!ok)
        return fail(dnnl_invalid_arguments,
                "cpu gemm: 16-bit B in place needs the bf16 flavour (bf16) "
                "or f32_avx2");
    return get_kernel(kind, m, nv, dst_bf16, po, true, b16, fn);
}

} // namespace gemm
} // namespace cpu
} // namespace llga
