// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_brg_jit.cpp — the AVX-512 generator of the
// direct Convolution (see conv_brg.hpp): an ur-pixel x nv-vector register
// tile, per tap a counted k loop (unrolled by 4) that loads the nv weight
// vectors once and broadcasts each pixel's input once into a register.
#include <cstddef>
#include <cstring>
#include <string>

#include "backends/cpu/jit_runtime.hpp"
#include "backends/cpu/kernels/conv/conv_brg_p.hpp"

namespace llga {
namespace cpu {
namespace conv {

namespace {

using namespace asmjit;

class brg_gen_t {
public:
    brg_gen_t(x86::Assembler &a, const brg_desc_t &d) : a_(a), d_(d) {}

    void emit() {
        const int ur = d_.ur, nv = d_.nv;
        for (const x86::Gp &r : {x86::rbx, x86::rbp, x86::r12, x86::r13})
            a_.push(r);
        a_.mov(x86::rsi, field(offsetof(brg_args_t, src)));
        a_.mov(x86::r8, field(offsetof(brg_args_t, wei)));
        a_.mov(x86::r10, field(offsetof(brg_args_t, taps)));
        a_.mov(x86::r11, field(offsetof(brg_args_t, ntaps)));
        a_.mov(x86::rdx, field(offsetof(brg_args_t, dst)));
        a_.mov(x86::r9, field(offsetof(brg_args_t, bias)));
        if (d_.tail) {
            a_.mov(x86::eax, (1u << d_.tail) - 1);
            a_.kmovw(x86::k1, x86::eax);
        }
        // Start from the bias (or zero).
        for (int v = 0; v < nv; ++v) {
            if (d_.bias)
                a_.vmovups(acc(0, v), x86::ptr(x86::r9, v * 64));
            else
                a_.vpxord(acc(0, v), acc(0, v), acc(0, v));
            for (int p = 1; p < ur; ++p)
                a_.vmovaps(acc(p, v), acc(0, v));
        }
        Label tap = a_.newLabel(), tdone = a_.newLabel();
        a_.test(x86::r11, x86::r11);
        a_.jz(tdone);
        a_.bind(tap);
        a_.mov(x86::rax, x86::qword_ptr(x86::r10));
        a_.mov(x86::r12, x86::qword_ptr(x86::r10, 8));
        a_.add(x86::rax, x86::rsi);
        a_.add(x86::r12, x86::r8);
        // k steps: unrolled by k_unroll inside a counted loop, then the rest.
        const int64_t full = d_.ksteps / k_unroll;
        const int rest = static_cast<int>(d_.ksteps % k_unroll);
        if (full > 0) {
            Label kl = a_.newLabel();
            a_.mov(x86::rcx, full);
            a_.bind(kl);
            for (int u = 0; u < k_unroll; ++u)
                kstep(u);
            a_.add(x86::rax, k_unroll * kbytes());
            a_.add(x86::r12, k_unroll * d_.wstride);
            a_.dec(x86::rcx);
            a_.jnz(kl);
        }
        for (int u = 0; u < rest; ++u)
            kstep(u);
        a_.add(x86::r10, 16);
        a_.dec(x86::r11);
        a_.jnz(tap);
        a_.bind(tdone);
        store();
        for (const x86::Gp &r : {x86::r13, x86::r12, x86::rbp, x86::rbx})
            a_.pop(r);
        a_.vzeroupper();
        a_.ret();
    }

private:
    static constexpr int k_unroll = 4;

    x86::Mem field(size_t off) const {
        return x86::qword_ptr(x86::rdi, static_cast<int32_t>(off));
    }
    x86::Zmm acc(int p, int v) const { return x86::zmm(p * d_.nv + v); }
    // Registers: accumulators from zmm0, then nv weight vectors, then two
    // alternating broadcast registers (ur * nv + nv + 2 <= 32).
    x86::Zmm wvec(int v) const { return x86::zmm(d_.ur * d_.nv + v); }
    x86::Zmm bvec(int p) const {
        return x86::zmm(d_.ur * d_.nv + d_.nv + (p & 1));
    }
    // Bytes of input per k step: one f32 or one bf16 pair.
    int kbytes() const { return 4; }

    // One k step u of the unrolled group: rax/r12 point at the group start.
    void kstep(int u) {
        const int nv = d_.nv;
        for (int v = 0; v < nv; ++v)
            a_.vmovups(wvec(v),
                    x86::ptr(x86::r12,
                            static_cast<int32_t>(u * d_.wstride + v * 64)));
        // One broadcast load per pixel into a register (an embedded
        // broadcast would repeat the load for every channel vector).
        for (int p = 0; p < d_.ur; ++p) {
            const x86::Mem m = x86::dword_ptr(x86::rax,
                    static_cast<int32_t>(p / d_.rw * d_.srow
                            + p % d_.rw * d_.sstep + u * kbytes()));
            const x86::Zmm b = bvec(p);
            a_.vpbroadcastd(b, m);
            for (int v = 0; v < nv; ++v) {
                if (d_.bf16)
                    a_.vdpbf16ps(acc(p, v), wvec(v), b);
                else
                    a_.vfmadd231ps(acc(p, v), wvec(v), b);
            }
        }
    }

    void store() {
        const int nv = d_.nv;
        for (int p = 0; p < d_.ur; ++p)
            for (int v = 0; v < nv; ++v) {
                const bool masked = d_.tail && v == nv - 1;
                const int32_t off = static_cast<int32_t>(
                        p / d_.rw * d_.drow + p % d_.rw * d_.dstep
                        + v * (d_.dst_bf16 ? 32 : 64));
                const x86::Mem m = x86::ptr(x86::rdx, off);
                if (d_.dst_bf16) {
                    const x86::Ymm h = x86::ymm(31);
                    a_.vcvtneps2bf16(h, acc(p, v));
                    if (masked)
                        a_.k(x86::k1).vmovdqu16(m, h);
                    else
                        a_.vmovdqu16(m, h);
                } else if (masked) {
                    a_.k(x86::k1).vmovups(m, acc(p, v));
                } else {
                    a_.vmovups(m, acc(p, v));
                }
            }
    }

    x86::Assembler &a_;
    const brg_desc_t &d_;
};

} // namespace

status_t get_brg_kernel(const brg_desc_t &d, brg_fn_t *fn) {
    const std::string name = std::string("conv_brg_avx512")
            + (d.bf16 ? "_bf16" : "_f32") + "_ur" + std::to_string(d.ur)
            + "_nv" + std::to_string(d.nv);
    return jit_get_fn(jit_key(d), name,
            [&](x86::Assembler &a) {
                brg_gen_t(a, d).emit();
                return dnnl_success;
            },
            fn);
}

} // namespace conv
} // namespace cpu
} // namespace llga
