// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/layernorm.cpp — LayerNorm and GroupNorm forward:
// the generated functions (row statistics; row apply with per-element or scalar
// affine), which plans they take, and the kernel_t objects that run rows
// (LayerNorm) or channels-first (batch, group) slices (GroupNorm; NXC with
// spatial dims is groupnorm.cpp) with llga::parallel_for.
//
// Statistics are two-pass in f32 over L1-resident blocks of 2048: the mean
// first, then the mean of (x - mean)^2, so no cancellation of
// E[x^2] - E[x]^2; 4 vector accumulators (64 or 32 partial sums) per block,
// blocks merged in double. Limitation: |x - mean| above ~1e19 overflows the
// f32 squares (the variance becomes inf).
#include "backends/cpu/kernels/norm/layernorm.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "backends/cpu/jit_runtime.hpp"
#include "backends/cpu/kernels/data/movement.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "backends/cpu/kernels/norm/groupnorm_p.hpp"
#include "backends/cpu/kernels/norm/softmax_norm_io.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "ops/norm_common.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace cpu {
namespace layernorm {

using namespace asmjit;
using norm::args_t;
using norm::dt_t;
using norm::fn_t;

namespace {

constexpr int64_t k_grain_elems = 32768;
// Statistics run over blocks of this many elements (see execute()).
constexpr int64_t k_block = 2048;

// stats: args.stats = {mean, variance} of args.src[0, len).
// apply_vec: dst = (x - p0) * p1 * gamma[i] + beta[i].
// apply_scalar: dst = (x - p0) * p1 + p2.
enum class fkind_t : int32_t { stats, apply_vec, apply_scalar };

struct desc_t {
    char family[8];
    int32_t isa;
    int32_t kind;
    int32_t src_dt, dst_dt;
    int32_t par_dt; // apply_vec: gamma/beta type
};

// rsi = src, rdx = dst, r8 = len, r9 = element index, rbx = loop limit,
// rdi = args then gamma, r12 = beta.
void emit(x86::Assembler &a, fkind_t kind, dt_t sdt, dt_t ddt, dt_t pdt,
        bool z) {
    eltwise::vec_emitter_t e(a, z);
    norm::io_t io(a, e);
    const int W = e.width();
    const int ss = norm::dt_shift(sdt), ds = norm::dt_shift(ddt);
    const x86::Gp src = x86::rsi, dst = x86::rdx, n = x86::r8, i = x86::r9,
                  lim = x86::rbx, args = x86::rdi, gamma = x86::rdi,
                  beta = x86::r12;
    auto at_src = [&](int u) { return x86::ptr(src, i, ss, (u * W) << ss); };
    auto at_dst = [&](int u) { return x86::ptr(dst, i, ds, (u * W) << ds); };
    const int ps = norm::dt_shift(pdt);
    auto at_par = [&](const x86::Gp &p, int u) {
        return x86::ptr(p, i, ps, (u * W) << ps);
    };
    io.prologue();
    a.mov(src, x86::ptr(args, norm::k_arg_src));
    a.mov(dst, x86::ptr(args, norm::k_arg_dst));
    a.mov(n, x86::ptr(args, norm::k_arg_len));
    a.mov(x86::rax, n);
    a.and_(x86::rax, W - 1);
    io.set_tail(x86::rax);
    if (kind == fkind_t::stats) {
        const x86::Vec m = e.v(12);
        // *stats[k] = hsum(v0..v3) / n
        auto finish = [&](int k) {
            a.vaddps(e.v(0), e.v(0), e.v(1));
            a.vaddps(e.v(2), e.v(2), e.v(3));
            a.vaddps(e.v(0), e.v(0), e.v(2));
            io.hsum(e.v(0), e.v(1));
            a.vcvtsi2ss(x86::xmm1, x86::xmm1, n);
            a.vdivss(x86::xmm0, x86::xmm0, x86::xmm1);
            a.mov(x86::rax, x86::ptr(args, norm::k_arg_stats));
            a.vmovss(x86::dword_ptr(x86::rax, 4 * k), x86::xmm0);
        };
        for (int u = 0; u < 4; ++u)
            a.vxorps(e.v(u), e.v(u), e.v(u));
        norm::emit_row_loop(a, W, n, i, lim, 4, [&](int u, bool tail) {
            const x86::Vec x = e.v(4 + u);
            io.load(x, at_src(u), sdt, tail); // tail lanes read as 0
            a.vaddps(e.v(u), e.v(u), x);
        });
        finish(0);
        a.vbroadcastss(m, x86::xmm0);
        for (int u = 0; u < 4; ++u)
            a.vxorps(e.v(u), e.v(u), e.v(u));
        norm::emit_row_loop(a, W, n, i, lim, 4, [&](int u, bool tail) {
            const x86::Vec x = e.v(4 + u);
            io.load(x, at_src(u), sdt, tail);
            a.vsubps(x, x, m);
            if (tail) io.zero_tail(x);
            a.vfmadd231ps(e.v(u), x, x);
        });
        finish(1);
    } else {
        const x86::Vec p0 = e.v(12), p1 = e.v(13), p2 = e.v(11);
        a.mov(x86::rax, x86::ptr(args, norm::k_arg_params));
        a.vbroadcastss(p0, x86::dword_ptr(x86::rax));
        a.vbroadcastss(p1, x86::dword_ptr(x86::rax, 4));
        const bool vec = kind == fkind_t::apply_vec;
        if (vec) {
            a.mov(beta, x86::ptr(args, norm::k_arg_beta));
            a.mov(gamma, x86::ptr(args, norm::k_arg_gamma)); // args last use
        } else {
            a.vbroadcastss(p2, x86::dword_ptr(x86::rax, 8));
        }
        norm::emit_row_loop(a, W, n, i, lim, 2, [&](int u, bool tail) {
            const x86::Vec x = e.v(4 * u), g = e.v(4 * u + 1),
                           b = e.v(4 * u + 2);
            io.load(x, at_src(u), sdt, tail);
            a.vsubps(x, x, p0);
            if (vec) {
                a.vmulps(x, x, p1);
                io.load(g, at_par(gamma, u), pdt, tail);
                io.load(b, at_par(beta, u), pdt, tail);
                a.vfmadd213ps(x, g, b);
            } else {
                a.vfmadd213ps(x, p1, p2);
            }
            io.store(at_dst(u), x, ddt, tail, g, b);
        });
    }
    io.epilogue();
    io.emit_data();
}

status_t get_fn(isa_t isa, fkind_t kind, dt_t sdt, dt_t ddt, dt_t pdt,
        fn_t *fn) {
    const bool z = isa == isa_t::avx512_core;
    desc_t d;
    std::memset(&d, 0, sizeof(d));
    std::memcpy(d.family, "lnorm", 6);
    d.isa = static_cast<int32_t>(isa);
    d.kind = static_cast<int32_t>(kind);
    d.src_dt = static_cast<int32_t>(sdt);
    d.dst_dt = kind == fkind_t::stats ? 0 : static_cast<int32_t>(ddt);
    if (kind != fkind_t::apply_vec) pdt = dt_t::f32;
    d.par_dt = static_cast<int32_t>(pdt);
    static const char *const kinds[] = {"stats", "apply", "apply_scalar"};
    const std::string name = std::string("norm_")
            + kinds[static_cast<int>(kind)] + "_" + norm::dt_name(sdt) + "_"
            + norm::dt_name(ddt)
            + (pdt != dt_t::f32 ? std::string("_par_") + norm::dt_name(pdt) : "")
            + (z ? "_avx512" : "_avx2");
    return jit_get_fn(jit_key(d), name,
            [&](x86::Assembler &a) {
                emit(a, kind, sdt, ddt, pdt, z);
                return dnnl_success;
            },
            fn);
}

// ---- plan side -------------------------------------------------------------

struct layout_t {
    bool group = false, affine = false, stats = false;
    bool nxc = false; // GroupNorm channels-last with spatial dims
    dt_t sdt = dt_t::f32, ddt = dt_t::f32;
    dt_t pdt = dt_t::f32;  // gamma/beta
    dt_t stdt = dt_t::f32; // mean/variance
    int in[3] = {-1, -1, -1};  // src, gamma, beta ports
    int out[3] = {-1, -1, -1}; // dst, mean, variance ports
    float eps = 1e-5f;
    // LayerNorm: rows x len. GroupNorm: batch x groups slices of
    // cg channels x sp positions each.
    int64_t rows = 0, len = 0;
    int64_t batch = 0, groups = 0, cg = 0, sp = 0;
    // src copied row-major first.
    movement::relayout_t reorder;
};

bool analyse(const compiler::plan_t &plan, bool group, layout_t &l,
        std::string *why) {
    auto decline = [&](const std::string &msg) {
        if (why) *why = msg;
        return false;
    };
    const ir::op_t *single = compiler::single_op(plan, why);
    if (!single) return false;
    const ir::op_t &op = *single;
    const op_kind_t want
            = group ? dnnl_graph_op_group_norm : dnnl_graph_op_layer_norm;
    const std::string kind = group ? "GroupNorm" : "LayerNorm";
    if (op.kind != want) return decline("not " + kind);
    l.group = group;
    if ((op.inputs.size() != 1 && op.inputs.size() != 3)
            || (op.outputs.size() != 1 && op.outputs.size() != 3))
        return decline(kind + ": unexpected port count");
    l.affine = op.get_bool(dnnl_graph_op_attr_use_affine, true)
            && op.inputs.size() == 3;
    l.stats = op.outputs.size() == 3;
    for (const auto *v : {&op.inputs, &op.outputs})
        for (const auto &lt : *v) {
            if (!ir::shape_known(lt))
                return decline(kind + ": tensor " + std::to_string(lt.id)
                        + " has no known shape");
            if (ir::is_dense(lt)) continue;
            // A src in another dense order (a channel-last tensor under
            // data_format NCX) is copied row-major first.
            if (&lt == &op.inputs[0] && ir::is_dense_any_order(lt)
                    && ir::is_dense(op.outputs[0])
                    && ir::dims_of(lt) == ir::dims_of(op.outputs[0])) {
                l.reorder = movement::relayout(lt, op.outputs[0],
                        ir::dtype_storage_bytes(lt.data_type, 1));
                continue;
            }
            return decline(kind + ": tensor " + std::to_string(lt.id)
                    + " is not dense row-major (or a src in another dense "
                      "order)");
        }
    if (!norm::dt_of(op.inputs[0].data_type, &l.sdt)
            || !norm::dt_of(op.outputs[0].data_type, &l.ddt))
        return decline(kind + ": only f32/bf16/f16 src and dst");
    // gamma/beta (and mean/variance) share one type each: f32, or bf16/f16
    // where the op's verifier allows it.
    for (size_t k = 1; k < op.inputs.size(); ++k)
        if (!norm::dt_of(op.inputs[k].data_type, &l.pdt)
                || op.inputs[k].data_type != op.inputs[1].data_type)
            return decline(kind + ": gamma and beta must share an f32, bf16 "
                                  "or f16 type");
    for (size_t k = 1; k < op.outputs.size(); ++k)
        if (!norm::dt_of(op.outputs[k].data_type, &l.stdt)
                || op.outputs[k].data_type != op.outputs[1].data_type)
            return decline(kind + ": mean and variance must share an f32, "
                                  "bf16 or f16 type");
    const dims_t d = ir::dims_of(op.inputs[0]);
    if (d.empty()) return decline(kind + ": rank-0 input");
    if (ir::dims_of(op.outputs[0]) != d)
        return decline(kind + ": dst shape differs from src");
    l.eps = op.get_f32(dnnl_graph_op_attr_epsilon, 1e-5f);
    const int r = static_cast<int>(d.size());
    if (!group) {
        int64_t a = 0;
        if (!ir::normalize_axis(
                    op.get_s64(dnnl_graph_op_attr_begin_norm_axis, -1), r, a))
            return decline(kind + ": begin_norm_axis out of range");
        l.rows = 1;
        l.len = 1;
        for (int k = 0; k < r; ++k)
            (k < a ? l.rows : l.len) *= d[static_cast<size_t>(k)];
        if (l.affine)
            for (size_t k = 1; k < 3; ++k)
                if (ir::nelems(op.inputs[k]) != l.len)
                    return decline(kind + ": gamma/beta size differs from "
                                          "the normalized size");
    } else {
        if (r < 2) return decline(kind + ": rank below 2");
        const int cax = ops::norm_channel_axis(op, r);
        l.batch = d[0];
        const int64_t c = d[static_cast<size_t>(cax)];
        l.groups = op.get_s64(dnnl_graph_op_attr_groups, 1);
        if (l.groups < 1 || c % l.groups != 0)
            return decline(kind + ": groups do not divide the channels");
        l.cg = c / l.groups;
        l.sp = 1;
        for (int k = 2; k < r; ++k)
            l.sp *= d[static_cast<size_t>(cax == 1 ? k : k - 1)];
        // Channels-last with spatial positions interleaves the groups:
        // groupnorm.cpp handles that layout.
        l.nxc = cax != 1 && l.sp != 1;
        if (l.nxc && l.reorder.active())
            return decline(kind + ": channel-last data with src in another "
                                  "order");
        if (l.affine)
            for (size_t k = 1; k < 3; ++k)
                if (ir::nelems(op.inputs[k]) != c)
                    return decline(kind + ": gamma/beta are not [C]");
    }
    for (size_t k = 0; k < op.inputs.size(); ++k) {
        l.in[k] = compiler::find_port(plan.inputs, op.inputs[k].id);
        if (l.in[k] < 0) return decline(kind + ": input is not a port");
    }
    for (size_t k = 0; k < op.outputs.size(); ++k) {
        l.out[k] = compiler::find_port(plan.outputs, op.outputs[k].id);
        if (l.out[k] < 0) return decline(kind + ": output is not a port");
    }
    return true;
}

class kernel_t : public compiler::kernel_t {
public:
    kernel_t(std::string name, const layout_t &l, fn_t stats, fn_t apply)
        : name_(std::move(name)), l_(l), stats_(stats), apply_(apply) {}
    const char *name() const override { return name_.c_str(); }

    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const char *src = static_cast<const char *>(ctx.inputs[l_.in[0]]);
        scratch_frame_t frame;
        src = static_cast<const char *>(l_.reorder.apply(src, frame));
        char *dst = static_cast<char *>(ctx.outputs[l_.out[0]]);
        const void *gamma = l_.affine ? ctx.inputs[l_.in[1]] : nullptr;
        const void *beta = l_.affine ? ctx.inputs[l_.in[2]] : nullptr;
        void *mean = l_.stats ? ctx.outputs[l_.out[1]] : nullptr;
        void *var = l_.stats ? ctx.outputs[l_.out[2]] : nullptr;
        const int ss = norm::dt_shift(l_.sdt), ds = norm::dt_shift(l_.ddt);
        const int64_t rows = l_.group ? l_.batch * l_.groups : l_.rows;
        const int64_t len = l_.group ? l_.cg * l_.sp : l_.len;
        if (rows == 0) return dnnl_success;
        const int64_t grain
                = std::max<int64_t>(1, k_grain_elems / std::max<int64_t>(len, 1));
        parallel_for(rows, grain, [&](int64_t b, int64_t e) {
            float st[2] = {0.f, 0.f}, pr[3];
            args_t a {};
            a.stats = st;
            a.params = pr;
            a.gamma = gamma;
            a.beta = beta;
            for (int64_t r = b; r < e; ++r) {
                // Blocks of k_block elements, merged in double (Chan et
                // al.'s pairwise update), keep each f32 partial sum short.
                double cnt = 0, mean_d = 0, m2 = 0;
                for (int64_t j = 0; j < len; j += k_block) {
                    a.src = src + ((r * len + j) << ss);
                    a.len = std::min(k_block, len - j);
                    stats_(&a);
                    const double nb = double(a.len), d = st[0] - mean_d;
                    const double tot = cnt + nb;
                    mean_d += d * nb / tot;
                    m2 += double(st[1]) * nb + d * d * cnt * nb / tot;
                    cnt = tot;
                }
                const float mu = static_cast<float>(mean_d);
                const float v = cnt > 0 ? static_cast<float>(m2 / cnt) : 0.f;
                a.src = src + ((r * len) << ss);
                a.len = len;
                const double rstd
                        = 1.0 / std::sqrt(static_cast<double>(v) + l_.eps);
                if (mean) {
                    norm::write_f32(mean, l_.stdt, r, mu);
                    norm::write_f32(var, l_.stdt, r, v);
                }
                if (len == 0) continue;
                pr[0] = mu;
                if (!l_.group) {
                    pr[1] = static_cast<float>(rstd);
                    pr[2] = 0.f;
                    a.dst = dst + ((r * len) << ds);
                    apply_(&a);
                    continue;
                }
                // GroupNorm: one call per channel of the group, each with
                // its own scale and shift.
                const int64_t c0 = (r % l_.groups) * l_.cg;
                a.len = l_.sp;
                for (int64_t cc = 0; cc < l_.cg; ++cc) {
                    const int64_t c = c0 + cc;
                    pr[1] = static_cast<float>(gamma
                                    ? rstd * norm::read_f32(gamma, l_.pdt, c)
                                    : rstd);
                    pr[2] = beta ? norm::read_f32(beta, l_.pdt, c) : 0.f;
                    const int64_t off = r * len + cc * l_.sp;
                    a.src = src + (off << ss);
                    a.dst = dst + (off << ds);
                    apply_(&a);
                }
            }
        });
        return dnnl_success;
    }

private:
    std::string name_;
    layout_t l_;
    fn_t stats_, apply_;
};

bool accepts_impl(const compiler::plan_t &plan, bool group, isa_t isa,
        std::string *why) {
    if (!vector_loop_isa(isa, why)) return false;
    layout_t l;
    return analyse(plan, group, l, why);
}

status_t create_impl(const compiler::plan_t &plan, bool group, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    layout_t l;
    std::string why;
    if (!analyse(plan, group, l, &why))
        return fail(dnnl_unimplemented, "cpu norm: %s", why.c_str());
    if (isa != isa_t::avx512_core && isa != isa_t::avx2)
        return fail(dnnl_unimplemented, "cpu norm: no generator for %s",
                isa_name(isa));
    if (l.nxc) {
        norm::gn_nxc_t g;
        g.batch = l.batch;
        g.sp = l.sp;
        g.channels = l.cg * l.groups;
        g.groups = l.groups;
        g.eps = l.eps;
        g.affine = l.affine;
        g.stats = l.stats;
        g.sdt = l.sdt;
        g.ddt = l.ddt;
        g.pdt = l.pdt;
        g.stdt = l.stdt;
        std::copy(l.in, l.in + 3, g.in);
        std::copy(l.out, l.out + 3, g.out);
        return norm::create_gn_nxc(g, isa, out);
    }
    fn_t stats = nullptr, apply = nullptr;
    LLGA_RETURN_IF_ERROR(
            get_fn(isa, fkind_t::stats, l.sdt, l.ddt, l.pdt, &stats));
    const fkind_t ak = (!group && l.affine) ? fkind_t::apply_vec
                                            : fkind_t::apply_scalar;
    LLGA_RETURN_IF_ERROR(get_fn(isa, ak, l.sdt, l.ddt, l.pdt, &apply));
    const std::string name = std::string(group ? "groupnorm_" : "layernorm_")
            + norm::dt_name(l.sdt) + "_" + norm::dt_name(l.ddt)
            + (isa == isa_t::avx512_core ? "_avx512" : "_avx2");
    out = std::make_shared<kernel_t>(name, l, stats, apply);
    return dnnl_success;
}

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    return accepts_impl(plan, false, isa, why);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    return create_impl(plan, false, isa, out);
}

bool accepts_group(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    return accepts_impl(plan, true, isa, why);
}

status_t create_group(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    return create_impl(plan, true, isa, out);
}

} // namespace layernorm
} // namespace cpu
} // namespace llga
