// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/softmax_norm_io.cpp — dtype conversion and tails
// for the row-wise JIT families, written once for zmm and ymm.
#include "backends/cpu/kernels/norm/softmax_norm_io.hpp"

namespace llga {
namespace cpu {
namespace norm {

using namespace asmjit;

namespace {
// Bounce buffer for AVX2 16-bit tails (8 words used).
constexpr int k_stack = 32;
} // namespace

bool dt_of(data_type_t t, dt_t *out) {
    switch (t) {
        case dnnl_f32: *out = dt_t::f32; return true;
        case dnnl_bf16: *out = dt_t::bf16; return true;
        case dnnl_f16: *out = dt_t::f16; return true;
        default: return false;
    }
}

const char *dt_name(dt_t t) {
    return t == dt_t::f32 ? "f32" : t == dt_t::bf16 ? "bf16" : "f16";
}

io_t::io_t(x86::Assembler &a, eltwise::vec_emitter_t &e)
    : a_(a), e_(e), masks_(a.newLabel()) {}

void io_t::prologue() {
    a_.push(x86::rbx);
    a_.push(x86::r12);
    a_.push(x86::r13);
    a_.sub(x86::rsp, k_stack);
}

void io_t::epilogue() {
    a_.add(x86::rsp, k_stack);
    a_.pop(x86::r13);
    a_.pop(x86::r12);
    a_.pop(x86::rbx);
    a_.vzeroupper();
    a_.ret();
}

void io_t::emit_data() {
    e_.emit_pool();
    // AVX2 tail masks: 8 all-ones lanes then 8 zero lanes; a load at lane
    // 8 - rem gives rem leading ones.
    a_.align(AlignMode::kData, 32);
    a_.bind(masks_);
    a_.embedUInt32(0xffffffffu, 8);
    a_.embedUInt32(0u, 8);
}

void io_t::set_tail(const x86::Gp &rem) {
    a_.mov(x86::r10, rem);
    if (e_.avx512()) {
        a_.mov(x86::ecx, x86::r10d);
        a_.mov(x86::eax, 1);
        a_.shl(x86::eax, x86::cl);
        a_.dec(x86::eax);
        a_.kmovw(x86::k1, x86::eax);
    } else {
        a_.lea(x86::rax, x86::ptr(masks_));
        a_.mov(x86::ecx, 8);
        a_.sub(x86::rcx, x86::r10);
        a_.vmovups(e_.tail_mask(), x86::ptr(x86::rax, x86::rcx, 2));
    }
}

// Copies r10 16-bit words between `from` and the bounce buffer at [rsp]
// (zero-filled first when loading, so unused lanes read as +0).
void io_t::copy_words(const x86::Mem &from, bool to_stack) {
    Label loop = a_.newLabel();
    a_.lea(x86::r11, from);
    if (to_stack) {
        a_.mov(x86::qword_ptr(x86::rsp), 0);
        a_.mov(x86::qword_ptr(x86::rsp, 8), 0);
    }
    a_.xor_(x86::ecx, x86::ecx);
    a_.bind(loop);
    if (to_stack) {
        a_.movzx(x86::eax, x86::word_ptr(x86::r11, x86::rcx, 1));
        a_.mov(x86::word_ptr(x86::rsp, x86::rcx, 1), x86::ax);
    } else {
        a_.movzx(x86::eax, x86::word_ptr(x86::rsp, x86::rcx, 1));
        a_.mov(x86::word_ptr(x86::r11, x86::rcx, 1), x86::ax);
    }
    a_.inc(x86::rcx);
    a_.cmp(x86::rcx, x86::r10);
    a_.jb(loop);
}

void io_t::load(const x86::Vec &dst, const x86::Mem &m, dt_t dt, bool tail) {
    if (dt == dt_t::f32) {
        if (tail)
            e_.load_tail(dst, m);
        else
            a_.vmovups(dst, m);
        return;
    }
    const bool z = e_.avx512();
    x86::Mem src = m;
    if (tail && !z) {
        copy_words(m, true);
        src = x86::ptr(x86::rsp);
    }
    if (z) {
        src.setSize(32);
        if (tail) {
            if (dt == dt_t::bf16)
                a_.k(x86::k1).z().vpmovzxwd(dst, src);
            else
                a_.k(x86::k1).z().vcvtph2ps(dst, src);
        } else {
            if (dt == dt_t::bf16)
                a_.vpmovzxwd(dst, src);
            else
                a_.vcvtph2ps(dst, src);
        }
    } else {
        src.setSize(16);
        if (dt == dt_t::bf16)
            a_.vpmovzxwd(dst, src);
        else
            a_.vcvtph2ps(dst, src);
    }
    if (dt == dt_t::bf16) a_.vpslld(dst, dst, 16);
}

void io_t::store(const x86::Mem &m, const x86::Vec &src, dt_t dt, bool tail,
        const x86::Vec &t1, const x86::Vec &t2) {
    if (dt == dt_t::f32) {
        if (tail)
            e_.store_tail(m, src);
        else
            a_.vmovups(m, src);
        return;
    }
    const bool z = e_.avx512();
    const bool bounce = tail && !z;
    x86::Mem dst = bounce ? x86::ptr(x86::rsp) : m;
    dst.setSize(z ? 32 : 16);
    const x86::Xmm t1x = x86::xmm(t1.id()), t2x = x86::xmm(t2.id());
    if (dt == dt_t::f16) {
        // imm 0: round to nearest even regardless of MXCSR.
        if (z) {
            if (tail)
                a_.k(x86::k1).vcvtps2ph(dst, src, 0);
            else
                a_.vcvtps2ph(dst, src, 0);
        } else {
            a_.vcvtps2ph(dst, src, 0);
        }
    } else {
        // ir::f32_to_bf16's rounding and NaN rule (vec_emitter_t::bf16_bits).
        e_.bf16_bits(t1, src, t2);
        if (z) {
            if (tail)
                a_.k(x86::k1).vpmovdw(dst, t1);
            else
                a_.vpmovdw(dst, t1);
        } else {
            a_.vextracti128(t2x, t1, 1);
            a_.vpackusdw(t1x, t1x, t2x); // values <= 0xffff: exact
            a_.vmovdqu(dst, t1x);
        }
    }
    if (bounce) copy_words(m, false);
}

void io_t::fill_tail(const x86::Vec &v, const x86::Vec &fill) {
    if (e_.avx512())
        a_.k(x86::k1).vblendmps(v, fill, v);
    else
        a_.vblendvps(v, fill, v, e_.tail_mask());
}

void io_t::zero_tail(const x86::Vec &v) {
    if (e_.avx512())
        a_.k(x86::k1).z().vmovaps(v, v);
    else
        a_.vandps(v, v, e_.tail_mask());
}

void io_t::hreduce(const x86::Vec &v, const x86::Vec &tmp, bool max) {
    const x86::Ymm vy = x86::ymm(v.id()), ty = x86::ymm(tmp.id());
    const x86::Xmm vx = x86::xmm(v.id()), tx = x86::xmm(tmp.id());
    auto op = [&](const x86::Vec &d, const x86::Vec &b) {
        if (max)
            a_.vmaxps(d, d, b);
        else
            a_.vaddps(d, d, b);
    };
    if (e_.avx512()) {
        a_.vextractf32x8(ty, v, 1);
        op(vy, ty);
    }
    a_.vextractf128(tx, vy, 1);
    op(vx, tx);
    a_.vmovhlps(tx, tx, vx);
    op(vx, tx);
    a_.vmovshdup(tx, vx);
    op(vx, tx);
}

void io_t::hmax(const x86::Vec &v, const x86::Vec &tmp) {
    hreduce(v, tmp, true);
}

void io_t::hsum(const x86::Vec &v, const x86::Vec &tmp) {
    hreduce(v, tmp, false);
}

void emit_row_loop(x86::Assembler &a, int W, const x86::Gp &n,
        const x86::Gp &i, const x86::Gp &lim, int U,
        const std::function<void(int u, bool tail)> &body) {
    emit_row_loop_grouped(
            a, W, n, i, lim, U,
            [&] {
                for (int u = 0; u < U; ++u)
                    body(u, false);
            },
            [&](bool tail) { body(0, tail); });
}

void emit_row_loop_grouped(x86::Assembler &a, int W, const x86::Gp &n,
        const x86::Gp &i, const x86::Gp &lim, int U,
        const std::function<void()> &group,
        const std::function<void(bool tail)> &one) {
    Label block = a.newLabel(), single = a.newLabel(), next = a.newLabel(),
          tail = a.newLabel(), done = a.newLabel();
    a.xor_(i, i);
    if (U > 1) {
        a.mov(lim, n);
        a.and_(lim, -int64_t(U * W));
        a.bind(block);
        a.cmp(i, lim);
        a.jae(single);
        group();
        a.add(i, U * W);
        a.jmp(block);
    }
    a.bind(single);
    a.mov(lim, n);
    a.and_(lim, -int64_t(W));
    a.bind(next);
    a.cmp(i, lim);
    a.jae(tail);
    one(false);
    a.add(i, W);
    a.jmp(next);
    a.bind(tail);
    a.cmp(i, n);
    a.jae(done);
    one(true);
    a.bind(done);
}

} // namespace norm
} // namespace cpu
} // namespace llga
