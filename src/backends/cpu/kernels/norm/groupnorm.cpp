// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/groupnorm.cpp — GroupNorm forward, channels-last
// with spatial dims. Per batch item, three walks over the positions, each
// position a contiguous row of C channels handled by a generated function:
//   sum:    acc[c] += x[c]
//   sq:     acc[c] += (x[c] - mean[c])^2        (two-pass variance)
//   affine: dst[c] = (x[c] - mean[c]) * scale[c] + shift[c]
// with mean[c] the mean of c's group, scale = rstd * gamma, shift = beta.
// The f32 per-channel accumulators are flushed into double totals every
// k_flush positions, so f32 rounding grows with at most k_flush terms.
// Each walk is parallel over (batch item, chunk of positions).
#include "backends/cpu/kernels/norm/groupnorm_p.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "backends/cpu/jit_runtime.hpp"
#include "backends/cpu/kernels/eltwise/eltwise_jit_math.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"

namespace llga {
namespace cpu {
namespace norm {

using namespace asmjit;
using norm::args_t;
using norm::dt_t;
using norm::fn_t;

namespace {

constexpr int64_t k_flush = 64;

enum class gkind_t : int32_t { sum, sq, affine };

struct desc_t {
    char family[8];
    int32_t isa;
    int32_t kind;
    int32_t src_dt, dst_dt;
};

// rsi = src, rdx = dst or accumulator (stats), rdi = mean (params),
// r12 = scale (gamma), r13 = shift (beta), r8 = len (channels), r9 = index,
// rbx = loop limit.
void emit(x86::Assembler &a, gkind_t kind, dt_t sdt, dt_t ddt, bool z) {
    eltwise::vec_emitter_t e(a, z);
    norm::io_t io(a, e);
    const int W = e.width();
    const int ss = norm::dt_shift(sdt), ds = norm::dt_shift(ddt);
    const x86::Gp src = x86::rsi, dst = x86::rdx, mean = x86::rdi,
                  scale = x86::r12, shift = x86::r13, n = x86::r8,
                  i = x86::r9, lim = x86::rbx;
    auto at = [&](const x86::Gp &p, int shift_bits, int u) {
        return x86::ptr(p, i, shift_bits, (u * W) << shift_bits);
    };
    io.prologue();
    a.mov(src, x86::ptr(x86::rdi, norm::k_arg_src));
    a.mov(n, x86::ptr(x86::rdi, norm::k_arg_len));
    a.mov(dst, x86::ptr(x86::rdi, kind == gkind_t::affine
                                    ? norm::k_arg_dst
                                    : norm::k_arg_stats));
    a.mov(scale, x86::ptr(x86::rdi, norm::k_arg_gamma));
    a.mov(shift, x86::ptr(x86::rdi, norm::k_arg_beta));
    a.mov(mean, x86::ptr(x86::rdi, norm::k_arg_params)); // args last use
    a.mov(x86::rax, n);
    a.and_(x86::rax, W - 1);
    io.set_tail(x86::rax);
    norm::emit_row_loop(a, W, n, i, lim, 2, [&](int u, bool tail) {
        const x86::Vec x = e.v(5 * u), acc = e.v(5 * u + 1),
                       t = e.v(5 * u + 2), t1 = e.v(5 * u + 3),
                       t2 = e.v(5 * u + 4);
        io.load(x, at(src, ss, u), sdt, tail);
        switch (kind) {
            case gkind_t::sum:
                io.load(acc, at(dst, 2, u), dt_t::f32, tail);
                a.vaddps(acc, acc, x);
                io.store(at(dst, 2, u), acc, dt_t::f32, tail, t1, t2);
                break;
            case gkind_t::sq:
                io.load(t, at(mean, 2, u), dt_t::f32, tail);
                a.vsubps(x, x, t);
                io.load(acc, at(dst, 2, u), dt_t::f32, tail);
                a.vfmadd231ps(acc, x, x);
                io.store(at(dst, 2, u), acc, dt_t::f32, tail, t1, t2);
                break;
            case gkind_t::affine:
                io.load(t, at(mean, 2, u), dt_t::f32, tail);
                a.vsubps(x, x, t);
                io.load(t, at(scale, 2, u), dt_t::f32, tail);
                io.load(acc, at(shift, 2, u), dt_t::f32, tail);
                a.vfmadd213ps(x, t, acc);
                io.store(at(dst, ds, u), x, ddt, tail, t1, t2);
                break;
        }
    });
    io.epilogue();
    io.emit_data();
}

status_t get_fn(isa_t isa, gkind_t kind, dt_t sdt, dt_t ddt, fn_t *fn) {
    const bool z = isa == isa_t::avx512_core;
    desc_t d;
    std::memset(&d, 0, sizeof(d));
    std::memcpy(d.family, "gnnxc", 6);
    d.isa = static_cast<int32_t>(isa);
    d.kind = static_cast<int32_t>(kind);
    d.src_dt = static_cast<int32_t>(sdt);
    d.dst_dt = kind == gkind_t::affine ? static_cast<int32_t>(ddt) : 0;
    static const char *const kinds[] = {"sum", "sq", "affine"};
    const std::string name = std::string("groupnorm_nxc_")
            + kinds[static_cast<int>(kind)] + "_" + norm::dt_name(sdt) + "_"
            + norm::dt_name(ddt) + (z ? "_avx512" : "_avx2");
    return jit_get_fn(jit_key(d), name,
            [&](x86::Assembler &a) {
                emit(a, kind, sdt, ddt, z);
                return dnnl_success;
            },
            fn);
}

class kernel_t : public compiler::kernel_t {
public:
    kernel_t(std::string name, const gn_nxc_t &g, fn_t sum, fn_t sq,
            fn_t affine)
        : name_(std::move(name)), g_(g), sum_(sum), sq_(sq), affine_(affine) {}
    const char *name() const override { return name_.c_str(); }

    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const char *src = static_cast<const char *>(ctx.inputs[g_.in[0]]);
        char *dst = static_cast<char *>(ctx.outputs[g_.out[0]]);
        const void *gamma = g_.affine ? ctx.inputs[g_.in[1]] : nullptr;
        const void *beta = g_.affine ? ctx.inputs[g_.in[2]] : nullptr;
        void *mean_out = g_.stats ? ctx.outputs[g_.out[1]] : nullptr;
        void *var_out = g_.stats ? ctx.outputs[g_.out[2]] : nullptr;
        const int64_t C = g_.channels, G = g_.groups, cg = C / G, sp = g_.sp;
        const int64_t N = g_.batch;
        if (N == 0 || sp == 0 || C == 0) return dnnl_success;
        const int ss = norm::dt_shift(g_.sdt), ds = norm::dt_shift(g_.ddt);
        // Work items: (batch item, chunk of pc positions), pc a multiple of
        // k_flush with >= 16384 elements, so a batch of 1 still spreads
        // over threads. Each item leaves per-channel double totals in
        // `part`; the group sums are folded serially (items * C adds).
        const int64_t pc = std::max<int64_t>(1, (16384 / C + k_flush - 1)
                                                         / k_flush)
                * k_flush;
        const int64_t nch = (sp + pc - 1) / pc, items = N * nch;
        const int64_t grain = std::max<int64_t>(
                1, 32768 / (std::min(sp, pc) * C));
        const size_t nc = static_cast<size_t>(C);
        std::vector<double> part(static_cast<size_t>(items) * nc);
        std::vector<double> gm(size_t(N * G)), gv(size_t(N * G));
        std::vector<float> mean_c(size_t(N) * nc), scale(size_t(N) * nc),
                shift(size_t(N) * nc);
        const double cnt = double(cg * sp);
        auto position = [&](int64_t n, int64_t p) { return (n * sp + p) * C; };
        // per_g[n*G + g] = (sum over the group's channels and positions of
        // what fn accumulates) / cnt.
        auto reduce = [&](fn_t fn, std::vector<double> &per_g) {
            parallel_for(items, grain, [&](int64_t b, int64_t e) {
                std::vector<float> acc(nc);
                args_t a {};
                a.len = C;
                a.stats = acc.data();
                for (int64_t w = b; w < e; ++w) {
                    const int64_t n = w / nch, ch = w % nch;
                    a.params = mean_c.data() + n * C;
                    double *tot = part.data() + w * C;
                    std::fill(tot, tot + C, 0.0);
                    const int64_t pend = std::min(sp, (ch + 1) * pc);
                    for (int64_t p0 = ch * pc; p0 < pend; p0 += k_flush) {
                        std::fill(acc.begin(), acc.end(), 0.f);
                        for (int64_t p = p0; p < std::min(pend, p0 + k_flush);
                                ++p) {
                            a.src = src + (position(n, p) << ss);
                            fn(&a);
                        }
                        for (int64_t c = 0; c < C; ++c)
                            tot[c] += acc[size_t(c)];
                    }
                }
            });
            for (int64_t n = 0; n < N; ++n)
                for (int64_t g = 0; g < G; ++g) {
                    double t = 0;
                    for (int64_t ch = 0; ch < nch; ++ch) {
                        const double *tot = part.data() + (n * nch + ch) * C;
                        for (int64_t c = g * cg; c < (g + 1) * cg; ++c)
                            t += tot[c];
                    }
                    per_g[size_t(n * G + g)] = t / cnt;
                }
        };
        reduce(sum_, gm);
        for (int64_t n = 0; n < N; ++n)
            for (int64_t c = 0; c < C; ++c)
                mean_c[size_t(n * C + c)]
                        = static_cast<float>(gm[size_t(n * G + c / cg)]);
        reduce(sq_, gv);
        for (int64_t n = 0; n < N; ++n)
            for (int64_t c = 0; c < C; ++c) {
                const double rstd
                        = 1.0 / std::sqrt(gv[size_t(n * G + c / cg)] + g_.eps);
                scale[size_t(n * C + c)] = static_cast<float>(gamma
                                ? rstd * norm::read_f32(gamma, g_.pdt, c)
                                : rstd);
                shift[size_t(n * C + c)]
                        = beta ? norm::read_f32(beta, g_.pdt, c) : 0.f;
            }
        parallel_for(items, grain, [&](int64_t b, int64_t e) {
            args_t a {};
            a.len = C;
            for (int64_t w = b; w < e; ++w) {
                const int64_t n = w / nch, ch = w % nch;
                a.params = mean_c.data() + n * C;
                a.gamma = scale.data() + n * C;
                a.beta = shift.data() + n * C;
                for (int64_t p = ch * pc; p < std::min(sp, (ch + 1) * pc);
                        ++p) {
                    a.src = src + (position(n, p) << ss);
                    a.dst = dst + (position(n, p) << ds);
                    affine_(&a);
                }
            }
        });
        if (mean_out)
            for (int64_t i = 0; i < N * G; ++i) {
                norm::write_f32(mean_out, g_.stdt, i,
                        static_cast<float>(gm[size_t(i)]));
                norm::write_f32(var_out, g_.stdt, i,
                        static_cast<float>(gv[size_t(i)]));
            }
        return dnnl_success;
    }

private:
    std::string name_;
    gn_nxc_t g_;
    fn_t sum_, sq_, affine_;
};

} // namespace

status_t create_gn_nxc(const gn_nxc_t &g, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    if (isa != isa_t::avx512_core && isa != isa_t::avx2)
        return fail(dnnl_unimplemented, "cpu groupnorm: no generator for %s",
                isa_name(isa));
    fn_t sum = nullptr, sq = nullptr, affine = nullptr;
    LLGA_RETURN_IF_ERROR(get_fn(isa, gkind_t::sum, g.sdt, g.ddt, &sum));
    LLGA_RETURN_IF_ERROR(get_fn(isa, gkind_t::sq, g.sdt, g.ddt, &sq));
    LLGA_RETURN_IF_ERROR(get_fn(isa, gkind_t::affine, g.sdt, g.ddt, &affine));
    const std::string name = std::string("groupnorm_nxc_")
            + norm::dt_name(g.sdt) + "_" + norm::dt_name(g.ddt)
            + (isa == isa_t::avx512_core ? "_avx512" : "_avx2");
    out = std::make_shared<kernel_t>(name, g, sum, sq, affine);
    return dnnl_success;
}

} // namespace norm
} // namespace cpu
} // namespace llga
