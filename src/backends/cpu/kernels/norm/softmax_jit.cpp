// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/softmax_jit.cpp — the softmax family's generators,
// written once for zmm (AVX-512, k-mask tails) and ymm (AVX2).
#include "backends/cpu/kernels/norm/softmax_jit.hpp"

#include <cstring>
#include <functional>
#include <limits>
#include <string>

#include "backends/cpu/jit_runtime.hpp"
#include "backends/cpu/kernels/eltwise/eltwise_jit_math.hpp"
#include "backends/cpu/kernels/norm/softmax_norm_io.hpp"

namespace llga {
namespace cpu {
namespace softmax {

using namespace asmjit;
using norm::dt_t;
using norm::fn_t;

namespace {

// The cache key; plain 4-byte fields so the raw bytes are the key.
struct desc_t {
    char family[8];
    int32_t isa;
    int32_t kind;
    int32_t src_dt, dst_dt;
    int32_t log;    // LogSoftmax form
    int32_t tail;   // column functions: lanes < W (masked)
    int32_t stored; // SoftMax: reduce keeps e^(x-m) in args.tmp for apply
    int32_t zero_empty; // row_block: an all -inf row becomes zeros
};


// e^r = 1 + r*Q(r) on |r| <= ln2/2; Q of degree 5, highest first (Chebyshev
// fit with mpmath for this file: 1.0e-8 relative error of 1 + r*Q(r) with
// these f32 coefficients).
constexpr float k_exp_q[] = {1.393364160e-03f, 8.369148709e-03f,
        4.166646674e-02f, 1.666650474e-01f, 5.000000000e-01f,
        1.000000000e+00f};
constexpr float k_log2e = 1.44269502163f;
// ln2 split so that n*ln2_hi is exact for |n| <= 2^9.
constexpr float k_ln2_hi = 0.693145751953125f;
constexpr float k_ln2_lo = 1.428606765330187e-06f;

// y = e^x for softmax arguments (x = v - max <= 0, or NaN), so no
// overflow side: only the low clamp, which maps -inf to e^-104 (rounds to
// 0) and keeps n finite; NaN passes through. x is clobbered. Both ISAs
// share the reduction and the polynomial; the 2^n step differs:
// - AVX-512: vscalefps applies 2^n with a single rounding (subnormal
//   results come out right).
// - AVX2: 2^(n+24) is built in the exponent field (n >= -150, so it is
//   normal) and the product, exact, is then scaled by 2^-24, which rounds
//   once into the subnormal range. eltwise's exp, which must also handle
//   overflow, splits 2^n in two integer halves instead (~25 operations;
//   this is ~18, softmax rows ~1.3x faster on Zen 3).
// Accuracy (CpuSoftmax.ExpAccuracy): within 2 ulp of e^x over [-103, 0],
// subnormal results included.
void softmax_exp_n(eltwise::vec_emitter_t &e, x86::Assembler &a,
        const x86::Vec *y, const x86::Vec *x, const x86::Vec *t1, int n) {
    // Each step for all n vectors before the next: n independent chains
    // of ~18 dependent operations interleave in program order, which the
    // out-of-order window did not do across whole chains. Zen 3, f32 rows
    // of 384 in L1, best of 30, one process: 1.08 TSC ticks per element
    // one vector at a time, 1.02 two, 0.95 three, 0.90 four.
    const auto each = [n](const auto &f) {
        for (int k = 0; k < n; ++k)
            f(k);
    };
    each([&](int k) { e.load(t1[k], -104.f); });
    // t1 > x ? t1 : x -> a NaN x survives
    each([&](int k) { a.vmaxps(t1[k], t1[k], x[k]); });
    each([&](int k) { a.vmulps(y[k], t1[k], e.c(k_log2e)); });
    // n: nearest even, no precision exception
    each([&](int k) {
        if (e.avx512())
            a.vrndscaleps(y[k], y[k], 0x08);
        else
            a.vroundps(y[k], y[k], 0x08);
    });
    each([&](int k) { a.vfnmadd231ps(t1[k], y[k], e.c(k_ln2_hi)); });
    each([&](int k) { a.vfnmadd231ps(t1[k], y[k], e.c(k_ln2_lo)); });
    each([&](int k) { a.vmovups(x[k], e.c(k_exp_q[0])); });
    for (size_t i = 1; i < sizeof(k_exp_q) / sizeof(k_exp_q[0]); ++i)
        each([&](int k) { a.vfmadd213ps(x[k], t1[k], e.c(k_exp_q[i])); });
    each([&](int k) { a.vfmadd213ps(x[k], t1[k], e.c(1.f)); }); // 1 + r*Q(r)
    if (e.avx512()) {
        each([&](int k) { a.vscalefps(y[k], x[k], y[k]); }); // e^r * 2^n
        return;
    }
    constexpr int k_pre = 24; // 2^(n + 24) is normal for n >= -150
    // n (NaN lanes: garbage, x is NaN)
    each([&](int k) { a.vcvtps2dq(y[k], y[k]); });
    each([&](int k) { a.vpaddd(y[k], y[k], e.ci(127 + k_pre)); });
    each([&](int k) { a.vpslld(y[k], y[k], 23); });
    each([&](int k) { a.vmulps(x[k], x[k], y[k]); }); // exact
    each([&](int k) {
        a.vmulps(y[k], x[k], e.c(1.f / (1 << k_pre))); // one rounding
    });
}

void softmax_exp(eltwise::vec_emitter_t &e, x86::Assembler &a,
        const x86::Vec &y, const x86::Vec &x, const x86::Vec &t1,
        const x86::Vec &t2) {
    (void)t2;
    softmax_exp_n(e, a, &y, &x, &t1, 1);
}

// Row functions: rsi = src, rdx = dst, r8 = len, r9 = element index,
// rbx = loop limit, rdi = args, r12 = tmp. Vectors: accumulators v0..v3,
// max/params v12, v13. The passes are members so that the row-block
// function (several rows per call) runs the very same code per row.
class row_emitter_t {
public:
    row_emitter_t(x86::Assembler &a, const spec_t &s)
        : a_(a), s_(s), e_(a, s.avx512), io_(a, e_), W_(e_.width()),
          ss_(norm::dt_shift(s.sdt)), ds_(norm::dt_shift(s.ddt)) {}

    void emit() {
        io_.prologue();
        if (s_.kind == fkind_t::row_block) {
            emit_block();
        } else {
            a_.mov(tmp_, x86::ptr(args_, norm::k_arg_tmp));
            a_.mov(src_, x86::ptr(args_, norm::k_arg_src));
            a_.mov(dst_, x86::ptr(args_, norm::k_arg_dst));
            load_len();
            if (s_.kind == fkind_t::row_reduce) {
                reduce([&] {
                    a_.mov(x86::rax, x86::ptr(args_, norm::k_arg_stats));
                    a_.vmovss(x86::dword_ptr(x86::rax), x86::xmm0);
                });
                a_.mov(x86::rax, x86::ptr(args_, norm::k_arg_stats));
                a_.vmovss(x86::dword_ptr(x86::rax, 4), x86::xmm0);
            } else {
                apply();
            }
        }
        io_.epilogue();
        io_.emit_data();
    }

private:
    x86::Mem at_src(int u) const {
        return x86::ptr(src_, i_, ss_, (u * W_) << ss_);
    }
    x86::Mem at_dst(int u) const {
        return x86::ptr(dst_, i_, ds_, (u * W_) << ds_);
    }
    x86::Mem at_tmp(int u) const {
        return x86::ptr(tmp_, i_, 2, u * W_ * 4);
    }

    void load_len() {
        a_.mov(n_, x86::ptr(args_, norm::k_arg_len));
        a_.mov(x86::rax, n_);
        a_.and_(x86::rax, W_ - 1);
        io_.set_tail(x86::rax);
    }

    // The max pass, then got_max() with the max in lane 0 of xmm0 (rax
    // free), then the exp-sum pass (storing e^(x-m) at tmp when stored);
    // ends with the sum in lane 0 of xmm0.
    void reduce(const std::function<void()> &got_max) {
        const x86::Vec ninf = e_.v(13), m = e_.v(12);
        e_.load(ninf, -std::numeric_limits<float>::infinity());
        for (int u = 0; u < 4; ++u)
            a_.vmovaps(e_.v(u), ninf);
        norm::emit_row_loop(a_, W_, n_, i_, lim_, 4, [&](int u, bool tail) {
            const x86::Vec x = e_.v(4 + u);
            io_.load(x, at_src(u), s_.sdt, tail);
            if (tail) io_.fill_tail(x, ninf);
            a_.vmaxps(e_.v(u), e_.v(u), x);
        });
        a_.vmaxps(e_.v(0), e_.v(0), e_.v(1));
        a_.vmaxps(e_.v(2), e_.v(2), e_.v(3));
        a_.vmaxps(e_.v(0), e_.v(0), e_.v(2));
        io_.hmax(e_.v(0), e_.v(1));
        got_max();
        a_.vbroadcastss(m, x86::xmm0);
        // The sum in v0, the max moved to v1; four vectors at a time in
        // v2..v13 (x, y, t1 each), their exponentials interleaved.
        const x86::Vec m1 = e_.v(1);
        a_.vmovaps(m1, m);
        a_.vxorps(e_.v(0), e_.v(0), e_.v(0));
        constexpr int U = 4;
        x86::Vec xs[4], ys[4], ts[4];
        for (int u = 0; u < U; ++u) {
            xs[u] = e_.v(2 + 3 * u);
            ys[u] = e_.v(3 + 3 * u);
            ts[u] = e_.v(4 + 3 * u);
        }
        const auto load_sub = [&](int u, bool tail) {
            io_.load(xs[u], at_src(u), s_.sdt, tail);
            a_.vsubps(xs[u], xs[u], m1);
        };
        const bool stored = s_.stored;
        norm::emit_row_loop_grouped(
                a_, W_, n_, i_, lim_, U,
                [&] {
                    for (int u = 0; u < U; ++u)
                        load_sub(u, false);
                    softmax_exp_n(e_, a_, ys, xs, ts, U);
                    for (int u = 0; u < U && stored; ++u)
                        io_.store(at_tmp(u), ys[u], dt_t::f32, false, ts[u],
                                xs[u]);
                    for (int w = 1; w < U; w *= 2) // a tree: short chains
                        for (int u = 0; u + w < U; u += 2 * w)
                            a_.vaddps(ys[u], ys[u], ys[u + w]);
                    a_.vaddps(e_.v(0), e_.v(0), ys[0]);
                },
                [&](bool tail) {
                    load_sub(0, tail);
                    softmax_exp_n(e_, a_, ys, xs, ts, 1);
                    if (tail) io_.zero_tail(ys[0]);
                    a_.vaddps(e_.v(0), e_.v(0), ys[0]);
                    if (stored)
                        io_.store(at_tmp(0), ys[0], dt_t::f32, tail, ts[0],
                                xs[0]);
                });
        io_.hsum(e_.v(0), e_.v(1));
    }

    // dst = the apply form with p0 = v12, p1 = v13 (loaded from
    // args.params unless `params_in_regs`).
    void apply(bool params_in_regs = false) {
        const x86::Vec p0 = e_.v(12), p1 = e_.v(13);
        if (!params_in_regs) {
            a_.mov(x86::rax, x86::ptr(args_, norm::k_arg_params));
            a_.vbroadcastss(p0, x86::dword_ptr(x86::rax));
            a_.vbroadcastss(p1, x86::dword_ptr(x86::rax, 4));
        }
        if (s_.log) {
            norm::emit_row_loop(a_, W_, n_, i_, lim_, 4, [&](int u, bool tail) {
                const x86::Vec x = e_.v(3 * u), t1 = e_.v(3 * u + 1),
                               t2 = e_.v(3 * u + 2);
                io_.load(x, at_src(u), s_.sdt, tail);
                a_.vsubps(x, x, p0);
                a_.vsubps(x, x, p1);
                io_.store(at_dst(u), x, s_.ddt, tail, t1, t2);
            });
            return;
        }
        norm::emit_row_loop(a_, W_, n_, i_, lim_, s_.stored ? 4 : 2,
                [&](int u, bool tail) {
                    if (s_.stored) {
                        const x86::Vec y = e_.v(3 * u), t1 = e_.v(3 * u + 1),
                                       t2 = e_.v(3 * u + 2);
                        io_.load(y, at_tmp(u), dt_t::f32, tail);
                        a_.vmulps(y, y, p1);
                        io_.store(at_dst(u), y, s_.ddt, tail, t1, t2);
                        return;
                    }
                    const x86::Vec x = e_.v(2 + 4 * u), y = e_.v(3 + 4 * u),
                                   t1 = e_.v(4 + 4 * u),
                                   t2 = e_.v(5 + 4 * u);
                    io_.load(x, at_src(u), s_.sdt, tail);
                    a_.vsubps(x, x, p0);
                    softmax_exp(e_, a_, y, x, t1, t2);
                    a_.vmulps(y, y, p1);
                    io_.store(at_dst(u), y, s_.ddt, tail, t1, t2);
                });
    }

    // row_block: args.lanes f32 rows of args.len values, args.inner
    // elements apart from args.src, in place: per row m (written to
    // args.stats[row]), the stored exponentials, then e^(x-m) * (1 / s),
    // with 1 / s rounded once to f32 (what 1.0 / double(s) rounded to f32
    // gives: double rounding is innocuous for a quotient of f32 values).
    // A row whose max is -inf (all -inf) becomes zeros with inf_as_zero,
    // else NaN (its exponentials are NaN), as score_rows_t::softmax_row
    // makes it. r13 = row stride in bytes, r14 = rows left, r15 = the
    // row's stats slot.
    void emit_block() {
        const x86::Gp stride = x86::r13, left = x86::r14, slot = x86::r15;
        a_.push(x86::r14);
        a_.push(x86::r15);
        a_.mov(src_, x86::ptr(args_, norm::k_arg_src));
        a_.mov(stride, x86::ptr(args_, norm::k_arg_inner));
        a_.shl(stride, 2);
        a_.mov(left, x86::ptr(args_, norm::k_arg_lanes));
        a_.mov(slot, x86::ptr(args_, norm::k_arg_stats));
        load_len();
        Label row = a_.newLabel(), next = a_.newLabel(), done = a_.newLabel();
        a_.test(left, left);
        a_.jz(done);
        a_.bind(row);
        a_.mov(dst_, src_);
        a_.mov(tmp_, src_);
        Label empty = a_.newLabel();
        reduce([&] {
            a_.vmovss(x86::dword_ptr(slot), x86::xmm0);
            if (s_.zero_empty) {
                // m == -inf (ordered): the row is all -inf.
                Label full = a_.newLabel();
                a_.vucomiss(x86::xmm0,
                        e_.c(-std::numeric_limits<float>::infinity()));
                a_.jp(full);
                a_.je(empty);
                a_.bind(full);
            }
        });
        // p1 = 1 / s in lane 0 of xmm13's register, broadcast.
        const x86::Vec p1 = e_.v(13);
        a_.vmovss(x86::xmm1, e_.c(1.f));
        a_.vdivss(x86::xmm1, x86::xmm1, x86::xmm0);
        a_.vbroadcastss(p1, x86::xmm1);
        apply(true);
        a_.jmp(next);
        a_.bind(empty);
        if (s_.zero_empty) {
            const x86::Vec z = e_.v(12);
            a_.vxorps(z, z, z);
            norm::emit_row_loop(a_, W_, n_, i_, lim_, 4, [&](int u, bool tail) {
                io_.store(at_dst(u), z, dt_t::f32, tail, e_.v(3 * u + 1),
                        e_.v(3 * u + 2));
            });
        }
        a_.bind(next);
        a_.add(src_, stride);
        a_.add(slot, 4);
        a_.dec(left);
        a_.jnz(row);
        a_.bind(done);
        a_.pop(x86::r15);
        a_.pop(x86::r14);
    }

    x86::Assembler &a_;
    const spec_t &s_;
    eltwise::vec_emitter_t e_;
    norm::io_t io_;
    const int W_, ss_, ds_;
    const x86::Gp src_ = x86::rsi, dst_ = x86::rdx, n_ = x86::r8, i_ = x86::r9,
                  lim_ = x86::rbx, args_ = x86::rdi, tmp_ = x86::r12;
};

void emit_row(x86::Assembler &a, const spec_t &s) {
    row_emitter_t(a, s).emit();
}

// Column functions: one block of `lanes` columns, `len` rows apart by
// `inner` elements. rsi/rdx = src/dst row pointers, r8 = rows left,
// r9/rdi = src/dst row strides in bytes (rdi after the args are read),
// rbx = the reduce pass's running pointer, r12 = tmp row pointer (a dense
// len x W f32 block).
void emit_col(x86::Assembler &a, const spec_t &s) {
    eltwise::vec_emitter_t e(a, s.avx512);
    norm::io_t io(a, e);
    const int W = e.width();
    const int ss = norm::dt_shift(s.sdt), ds = norm::dt_shift(s.ddt);
    const x86::Gp args = x86::rdi;
    io.prologue();
    if (s.tail) {
        a.mov(x86::rax, x86::ptr(args, norm::k_arg_lanes));
        io.set_tail(x86::rax);
    }
    a.mov(x86::rsi, x86::ptr(args, norm::k_arg_src));
    a.mov(x86::r8, x86::ptr(args, norm::k_arg_len));
    a.mov(x86::r9, x86::ptr(args, norm::k_arg_inner));
    a.shl(x86::r9, ss);
    const x86::Gp tmp = x86::r12;
    // Two rows per step (independent chains hide the op latency), then one.
    // The body gets the row's src, dst and tmp addresses; tmp advances by
    // one vector per row.
    using body_t = std::function<void(int, const x86::Mem &, const x86::Mem &,
            const x86::Mem &)>;
    auto rows = [&](const x86::Gp &p, const x86::Gp &pd, const x86::Gp &sd,
                        const x86::Gp &cnt, const body_t &body) {
        Label two = a.newLabel(), one = a.newLabel(), done = a.newLabel();
        a.bind(two);
        a.cmp(cnt, 2);
        a.jb(one);
        body(0, x86::ptr(p), x86::ptr(pd), x86::ptr(tmp));
        body(1, x86::ptr(p, x86::r9), x86::ptr(pd, sd), x86::ptr(tmp, W * 4));
        a.lea(p, x86::ptr(p, x86::r9, 1));
        if (pd != p) a.lea(pd, x86::ptr(pd, sd, 1));
        a.add(tmp, 2 * W * 4);
        a.sub(cnt, 2);
        a.jmp(two);
        a.bind(one);
        a.test(cnt, cnt);
        a.jz(done);
        body(0, x86::ptr(p), x86::ptr(pd), x86::ptr(tmp));
        a.bind(done);
    };
    if (s.kind == fkind_t::col_reduce) {
        const x86::Vec ninf = e.v(13), m = e.v(12);
        e.load(ninf, -std::numeric_limits<float>::infinity());
        a.vmovaps(e.v(0), ninf);
        a.vmovaps(e.v(1), ninf);
        a.mov(x86::rbx, x86::rsi);
        a.mov(x86::rdx, x86::r8);
        rows(x86::rbx, x86::rbx, x86::r9, x86::rdx,
                [&](int u, const x86::Mem &ms, const x86::Mem &,
                        const x86::Mem &) {
                    const x86::Vec x = e.v(4 + u);
                    io.load(x, ms, s.sdt, s.tail);
                    a.vmaxps(e.v(u), e.v(u), x);
                });
        a.vmaxps(m, e.v(0), e.v(1));
        a.mov(x86::rax, x86::ptr(args, norm::k_arg_stats));
        a.vmovups(x86::ptr(x86::rax), m);
        a.vxorps(e.v(0), e.v(0), e.v(0));
        a.vxorps(e.v(1), e.v(1), e.v(1));
        a.mov(x86::rbx, x86::rsi);
        a.mov(x86::rdx, x86::r8);
        a.mov(tmp, x86::ptr(args, norm::k_arg_tmp));
        rows(x86::rbx, x86::rbx, x86::r9, x86::rdx,
                [&](int u, const x86::Mem &ms, const x86::Mem &,
                        const x86::Mem &mt) {
                    const x86::Vec x = e.v(2 + 4 * u), y = e.v(3 + 4 * u),
                                   t1 = e.v(4 + 4 * u), t2 = e.v(5 + 4 * u);
                    io.load(x, ms, s.sdt, s.tail);
                    a.vsubps(x, x, m);
                    softmax_exp(e, a, y, x, t1, t2);
                    if (s.tail) io.zero_tail(y); // lanes past `lanes` read 0
                    a.vaddps(e.v(u), e.v(u), y);
                    if (s.stored) a.vmovups(mt, y);
                });
        a.vaddps(e.v(0), e.v(0), e.v(1));
        a.mov(x86::rax, x86::ptr(args, norm::k_arg_stats));
        a.vmovups(x86::ptr(x86::rax, W * 4), e.v(0));
    } else {
        const x86::Vec p0 = e.v(12), p1 = e.v(13);
        a.mov(x86::rdx, x86::ptr(args, norm::k_arg_dst));
        a.mov(x86::rax, x86::ptr(args, norm::k_arg_params));
        a.vmovups(p0, x86::ptr(x86::rax));
        a.vmovups(p1, x86::ptr(x86::rax, W * 4));
        a.mov(tmp, x86::ptr(args, norm::k_arg_tmp));
        a.mov(x86::rdi, x86::ptr(args, norm::k_arg_inner));
        a.shl(x86::rdi, ds); // args pointer no longer needed
        rows(x86::rsi, x86::rdx, x86::rdi, x86::r8,
                [&](int u, const x86::Mem &ms, const x86::Mem &md,
                        const x86::Mem &mt) {
                    const x86::Vec x = e.v(2 + 4 * u), y = e.v(3 + 4 * u),
                                   t1 = e.v(4 + 4 * u), t2 = e.v(5 + 4 * u);
                    if (s.stored) {
                        a.vmulps(y, p1, mt);
                        io.store(md, y, s.ddt, s.tail, t1, t2);
                        return;
                    }
                    io.load(x, ms, s.sdt, s.tail);
                    a.vsubps(x, x, p0);
                    if (s.log) {
                        a.vsubps(y, x, p1);
                    } else {
                        softmax_exp(e, a, y, x, t1, t2);
                        a.vmulps(y, y, p1);
                    }
                    io.store(md, y, s.ddt, s.tail, t1, t2);
                });
    }
    io.epilogue();
    io.emit_data();
}

// Streaming functions: one row segment, per-column accumulators in memory.
// rsi = src, rdx = dst or accumulator, rdi = params (m or p0), r12 = tmp
// or p1, r8 = len, r9 = element index, rbx = loop limit.
void emit_strm(x86::Assembler &a, const spec_t &s) {
    eltwise::vec_emitter_t e(a, s.avx512);
    norm::io_t io(a, e);
    const int W = e.width();
    const int ss = norm::dt_shift(s.sdt), ds = norm::dt_shift(s.ddt);
    const x86::Gp src = x86::rsi, dst = x86::rdx, par = x86::rdi,
                  aux = x86::r12, n = x86::r8, i = x86::r9, lim = x86::rbx;
    auto at = [&](const x86::Gp &p, int shift, int u) {
        return x86::ptr(p, i, shift, (u * W) << shift);
    };
    io.prologue();
    a.mov(src, x86::ptr(x86::rdi, norm::k_arg_src));
    a.mov(n, x86::ptr(x86::rdi, norm::k_arg_len));
    if (s.kind == fkind_t::strm_apply) {
        a.mov(dst, x86::ptr(x86::rdi, norm::k_arg_dst));
        a.mov(aux, x86::ptr(x86::rdi, s.stored ? norm::k_arg_tmp
                                               : norm::k_arg_gamma));
        if (s.stored) {
            // p1 replaces p0 in par; tmp stays in aux.
            a.mov(par, x86::ptr(x86::rdi, norm::k_arg_gamma));
        } else {
            a.mov(par, x86::ptr(x86::rdi, norm::k_arg_params));
        }
    } else {
        a.mov(dst, x86::ptr(x86::rdi, norm::k_arg_stats));
        a.mov(aux, x86::ptr(x86::rdi, norm::k_arg_tmp));
        a.mov(par, x86::ptr(x86::rdi, norm::k_arg_params));
    }
    a.mov(x86::rax, n);
    a.and_(x86::rax, W - 1);
    io.set_tail(x86::rax);
    switch (s.kind) {
        case fkind_t::strm_max:
            norm::emit_row_loop(a, W, n, i, lim, 4, [&](int u, bool tail) {
                const x86::Vec x = e.v(2 * u), m = e.v(2 * u + 1);
                io.load(x, at(src, ss, u), s.sdt, tail);
                io.load(m, at(dst, 2, u), dt_t::f32, tail);
                a.vmaxps(m, m, x);
                io.store(at(dst, 2, u), m, dt_t::f32, tail, x, x);
            });
            break;
        case fkind_t::strm_exp:
            norm::emit_row_loop(a, W, n, i, lim, 2, [&](int u, bool tail) {
                const x86::Vec x = e.v(5 * u), y = e.v(5 * u + 1),
                               t1 = e.v(5 * u + 2), t2 = e.v(5 * u + 3),
                               acc = e.v(5 * u + 4);
                io.load(x, at(src, ss, u), s.sdt, tail);
                io.load(t1, at(par, 2, u), dt_t::f32, tail);
                a.vsubps(x, x, t1);
                softmax_exp(e, a, y, x, t1, t2);
                io.load(acc, at(dst, 2, u), dt_t::f32, tail);
                a.vaddps(acc, acc, y);
                io.store(at(dst, 2, u), acc, dt_t::f32, tail, t1, t2);
                if (s.stored) io.store(at(aux, 2, u), y, dt_t::f32, tail, t1, t2);
            });
            break;
        default: // strm_apply
            norm::emit_row_loop(a, W, n, i, lim, 2, [&](int u, bool tail) {
                const x86::Vec x = e.v(5 * u), y = e.v(5 * u + 1),
                               t1 = e.v(5 * u + 2), t2 = e.v(5 * u + 3),
                               p = e.v(5 * u + 4);
                if (s.stored) {
                    io.load(y, at(aux, 2, u), dt_t::f32, tail);
                    io.load(p, at(par, 2, u), dt_t::f32, tail);
                    a.vmulps(y, y, p);
                } else {
                    io.load(x, at(src, ss, u), s.sdt, tail);
                    io.load(p, at(par, 2, u), dt_t::f32, tail);
                    a.vsubps(x, x, p);
                    io.load(p, at(aux, 2, u), dt_t::f32, tail);
                    if (s.log) {
                        a.vsubps(y, x, p);
                    } else {
                        softmax_exp(e, a, y, x, t1, t2);
                        a.vmulps(y, y, p);
                    }
                }
                io.store(at(dst, ds, u), y, s.ddt, tail, t1, t2);
            });
            break;
    }
    io.epilogue();
    io.emit_data();
}

} // namespace

status_t get_fn(isa_t isa, const spec_t &s, fn_t *fn) {
    desc_t d;
    std::memset(&d, 0, sizeof(d));
    std::memcpy(d.family, "softmax", 8);
    d.isa = static_cast<int32_t>(isa);
    d.kind = static_cast<int32_t>(s.kind);
    d.src_dt = static_cast<int32_t>(s.sdt);
    d.dst_dt = static_cast<int32_t>(s.ddt);
    d.log = s.log;
    d.tail = s.tail;
    d.stored = s.stored;
    d.zero_empty = s.zero_empty;
    static const char *const kinds[] = {"row_reduce", "row_apply",
            "col_reduce", "col_apply", "strm_max", "strm_exp", "strm_apply",
            "row_block"};
    const std::string name = std::string("softmax_")
            + kinds[static_cast<int>(s.kind)] + (s.log ? "_log_" : "_")
            + norm::dt_name(s.sdt) + "_" + norm::dt_name(s.ddt)
            + (s.tail ? "_tail" : "") + (s.zero_empty ? "_zero_empty" : "")
            + (s.stored ? "_stored_" : "_")
            + (s.avx512 ? "avx512" : "avx2");
    const bool row = s.kind == fkind_t::row_reduce
            || s.kind == fkind_t::row_apply || s.kind == fkind_t::row_block;
    const bool strm = s.kind >= fkind_t::strm_max
            && s.kind <= fkind_t::strm_apply;
    return jit_get_fn(jit_key(d), name,
            [&](x86::Assembler &a) {
                if (strm)
                    emit_strm(a, s);
                else if (row)
                    emit_row(a, s);
                else
                    emit_col(a, s);
                return dnnl_success;
            },
            fn);
}

} // namespace softmax
} // namespace cpu
} // namespace llga
