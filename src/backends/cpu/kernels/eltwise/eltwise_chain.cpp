// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/eltwise/eltwise_chain.cpp — the elementwise chain
// kernel: which multi-op plans form a chain it can run (unary ops of the
// eltwise family and binary ops whose other operand is a dense or
// single-element partition input), the generated loop that loads each operand
// once, applies every op in registers and stores once, and the kernel_t that
// splits the tensor into chunks like the eltwise kernels do.
#include "backends/cpu/kernels/eltwise/eltwise_chain_p.hpp"

#include <algorithm>
#include <cstring>

#include "backends/cpu/jit_runtime.hpp"
#include "backends/cpu/kernels/eltwise/eltwise_impl_p.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace cpu {
namespace eltwise {

using namespace asmjit;

namespace {

// The op sequence offers runs of at most 8 ops; the fused families have 5.
constexpr int k_max_ops = 8;
// Register budget: dense operands each hold a pointer in one of six GP
// registers (r8-r11, rbx, r12); single-element operands stay broadcast in
// v8..v13 for the whole call (the math uses v0..v7, AVX2 keeps v14/v15).
constexpr int k_max_dense = 6;
constexpr int k_max_scalar = 6;
constexpr int k_max_slots = k_max_dense + k_max_scalar;
constexpr int k_chain = -1; // an op source that is the running value

struct step_t {
    alg_t alg = alg_t::relu;
    float alpha = 0.f, beta = 0.f;
    int src[2] = {k_chain, k_chain}; // k_chain or a slot index
};

// A partition input the loop reads: its port and how it is read.
struct slot_t {
    int port = -1;
    bool scalar = false;
    int reg = 0; // GP register index (dense) or v(8 + reg) (scalar)
};

struct chain_t {
    io_t io = io_t::f32; // every tensor's type (eltwise_impl.hpp)
    int nops = 0, nslots = 0, ndense = 0, nscalar = 0;
    step_t ops[k_max_ops];
    slot_t slots[k_max_slots];
    int64_t n = 0;
};

// The cache key. Plain 4-byte fields only, so the raw bytes are the key.
struct desc_t {
    char family[8];
    int32_t isa, tail, nops, nslots;
    int32_t stream; // whole vectors stored non-temporally (64-byte aligned dst)
    int32_t io;
    int32_t slot_scalar[k_max_slots];
    struct {
        int32_t alg;
        float alpha, beta;
        int32_t src[2];
    } ops[k_max_ops];
};

using chain_fn_t = void (*)(const float *const *in, float *dst, size_t n);

bool commutes(alg_t a) {
    return a == alg_t::add || a == alg_t::mul || a == alg_t::max
            || a == alg_t::min;
}

std::string kind_name(const ir::op_t &op) {
    const char *k = ops::op_kind_name(op.kind);
    return k ? k : "?";
}

bool analyse(const compiler::plan_t &plan, chain_t &c, std::string *why) {
    auto decline = [&](const std::string &msg) {
        if (why) *why = msg;
        return false;
    };
    const auto &ops = plan.ops;
    if (ops.size() < 2) return decline("single op: the eltwise family's");
    if (ops.size() > static_cast<size_t>(k_max_ops))
        return decline("more than " + std::to_string(k_max_ops) + " ops");
    if (plan.outputs.size() != 1
            || plan.outputs[0].id != ops.back().outputs.at(0).id)
        return decline("an intermediate value leaves the partition");
    c.nops = static_cast<int>(ops.size());
    c.n = ir::nelems(ops.back().outputs[0]);
    // Every multi-element tensor laid out exactly as the chain's output,
    // which is dense in some order (row-major, channel-last, ...): the
    // loop walks memory flat, visiting the same logical element in each.
    const logical_tensor_t &o0 = ops.back().outputs[0];
    if (!ir::is_dense_any_order(o0))
        return decline("output is not dense in any order");
    auto like_output = [&](const logical_tensor_t &lt) {
        return ir::nelems(lt) == 1 || ir::same_layout(lt, o0);
    };
    // One storage type for every tensor, intermediates included (each op
    // rounds its result to it, as the reference stores it).
    const data_type_t dt = o0.data_type;
    if (dt != dnnl_f32 && dt != dnnl_bf16 && dt != dnnl_f16)
        return decline(std::string(ir::dtype_name(dt))
                + " is not f32, bf16 or f16");
    c.io = io_of(dt);
    for (size_t i = 0; i < ops.size(); ++i) {
        const ir::op_t &op = ops[i];
        const std::string kind = kind_name(op);
        step_t &s = c.ops[i];
        if (!params_of(op, &s.alg, &s.alpha, &s.beta))
            return decline(kind + " is not an eltwise-family op");
        const size_t nin = is_binary(s.alg) ? 2 : 1;
        if (op.inputs.size() != nin || op.outputs.size() != 1)
            return decline(kind + ": unexpected port count");
        for (const auto *v : {&op.inputs, &op.outputs})
            for (const auto &lt : *v) {
                if (lt.data_type != dt)
                    return decline(kind + ": mixed types (tensor "
                            + std::to_string(lt.id) + " is not "
                            + ir::dtype_name(dt) + ")");
                if (!like_output(lt))
                    return decline(kind + ": tensor " + std::to_string(lt.id)
                            + " is not laid out as the chain's output");
            }
        // Same element count in a dense layout is the same memory order.
        if (ir::nelems(op.outputs[0]) != c.n)
            return decline(kind + ": chain values differ in shape");
        // The running value: the previous op's output, read only here.
        int side = -1;
        if (i > 0) {
            const size_t prev = ops[i - 1].outputs[0].id;
            int reads = 0;
            for (size_t k = 0; k < nin; ++k)
                if (op.inputs[k].id == prev) side = static_cast<int>(k), ++reads;
            int elsewhere = 0;
            for (const auto &other : ops)
                for (const auto &lt : other.inputs)
                    elsewhere += lt.id == prev;
            if (reads == 0) return decline(kind + ": ops do not form a chain");
            if (reads > 1 || elsewhere > 1)
                return decline(kind + ": intermediate " + std::to_string(prev)
                        + " is read more than once (swish-like)");
            if (side == 1 && !commutes(s.alg))
                return decline(kind + ": running value on input 1");
        }
        for (size_t k = 0; k < nin; ++k) {
            if (static_cast<int>(k) == side) continue;
            const logical_tensor_t &lt = op.inputs[k];
            const int port = compiler::find_port(plan.inputs, lt.id);
            if (port < 0)
                return decline(kind + ": operand " + std::to_string(lt.id)
                        + " is produced inside the partition");
            const int64_t ne = ir::nelems(lt);
            if (ne != c.n && ne != 1)
                return decline(kind + ": broadcast of "
                        + ir::dims_to_string(ir::dims_of(lt))
                        + " is neither same-shape nor scalar");
            int slot = -1;
            for (int j = 0; j < c.nslots; ++j)
                if (c.slots[j].port == port) slot = j;
            if (slot < 0) {
                slot_t sl;
                sl.port = port;
                sl.scalar = ne != c.n;
                sl.reg = sl.scalar ? c.nscalar++ : c.ndense++;
                if (c.ndense > k_max_dense || c.nscalar > k_max_scalar)
                    return decline("more than " + std::to_string(k_max_dense)
                            + " dense or scalar operands");
                slot = c.nslots;
                c.slots[c.nslots++] = sl;
            }
            s.src[k] = slot;
        }
    }
    return true;
}

// void f(const float *const *in /*rdi*/, float *dst /*rsi*/,
//        size_t n /*rdx*/): in[k] is slot k's pointer (already at this
// chunk for dense slots). With 16-bit storage (c.io) the pointers carry
// bf16/f16 elements, n is whole vectors (the caller pads the tail), and
// every intermediate result is rounded to the type.
status_t emit_chain(
        x86::Assembler &a, const chain_t &c, bool avx512, bool stream) {
    vec_emitter_t e(a, avx512);
    const int W = e.width();
    const bool half = c.io != io_t::f32, f16 = c.io == io_t::f16;
    const int step = half ? W * 2 : e.vlen();
    const x86::Gp gp[k_max_dense]
            = {x86::r8, x86::r9, x86::r10, x86::r11, x86::rbx, x86::r12};
    const x86::Gp in = x86::rdi, dst = x86::rsi, n = x86::rdx;
    const x86::Gp off = x86::rdi; // byte offset, once the pointers are read
    Label loop = a.newLabel(), tail = a.newLabel(), done = a.newLabel(),
          masks = a.newLabel();
    // rbx and r12 are callee-saved.
    for (int j = 4; j < c.ndense; ++j)
        a.push(gp[j]);
    for (int k = 0; k < c.nslots; ++k) {
        const slot_t &s = c.slots[k];
        if (s.scalar) {
            a.mov(x86::rax, x86::ptr(in, 8 * k));
            if (half)
                e.bcast_16(e.v(8 + s.reg), x86::ptr(x86::rax), f16);
            else
                a.vbroadcastss(e.v(8 + s.reg), x86::dword_ptr(x86::rax));
        } else {
            a.mov(gp[s.reg], x86::ptr(in, 8 * k));
        }
    }
    a.xor_(off.r32(), off.r32());

    auto load = [&](const x86::Vec &v, int slot, bool masked) {
        const slot_t &s = c.slots[slot];
        if (s.scalar)
            a.vmovaps(v, e.v(8 + s.reg));
        else if (half)
            e.load_16(v, x86::ptr(gp[s.reg], off), f16);
        else if (masked)
            e.load_tail(v, x86::ptr(gp[s.reg], off));
        else
            a.vmovups(v, x86::ptr(gp[s.reg], off));
    };
    // One vector through the whole chain: the running value is v0 between
    // ops; each op leaves its result in v1.
    auto body = [&](bool masked) {
        for (int i = 0; i < c.nops; ++i) {
            const step_t &s = c.ops[i];
            if (!is_binary(s.alg)) {
                if (s.src[0] != k_chain) load(e.v(0), s.src[0], masked);
                emit_unary_math(e, a, s.alg, s.alpha, s.beta);
            } else {
                // Operand order is kept (not swapped for commuting ops) so
                // Maximum/Minimum return the same NaN as the single op.
                if (s.src[0] == k_chain) {
                    load(e.v(6), s.src[1], masked);
                } else if (s.src[1] == k_chain) {
                    a.vmovaps(e.v(6), e.v(0));
                    load(e.v(0), s.src[0], masked);
                } else {
                    load(e.v(0), s.src[0], masked);
                    load(e.v(6), s.src[1], masked);
                }
                emit_binary_math(e, a, s.alg);
            }
            if (i + 1 < c.nops) {
                // The intermediate as the reference stores it: rounded to
                // the 16-bit type (v0 and v6 are free until the next op).
                if (half && f16) {
                    a.vcvtps2ph(avx512 ? x86::Vec(e.v(0).ymm())
                                       : x86::Vec(e.v(0).xmm()),
                            e.v(1), 0);
                    a.vcvtph2ps(e.v(1), avx512 ? x86::Vec(e.v(0).ymm())
                                               : x86::Vec(e.v(0).xmm()));
                } else if (half) {
                    e.bf16_bits(e.v(0), e.v(1), e.v(6));
                    a.vpslld(e.v(1), e.v(0), 16);
                }
                a.vmovaps(e.v(0), e.v(1));
            }
        }
    };

    a.cmp(n, W);
    a.jb(tail);
    a.bind(loop);
    body(false);
    if (half)
        e.store_16(x86::ptr(dst, off), e.v(1), f16, e.v(0), e.v(6));
    else if (stream)
        a.vmovntps(x86::ptr(dst, off), e.v(1));
    else
        a.vmovups(x86::ptr(dst, off), e.v(1));
    a.add(off, step);
    a.sub(n, W);
    a.cmp(n, W);
    a.jae(loop);
    a.bind(tail);
    if (half) a.jmp(done);
    a.test(n, n);
    a.jz(done);
    emit_tail_mask(e, a, n, masks);
    body(true);
    e.store_tail(x86::ptr(dst, off), e.v(1));
    a.bind(done);
    // Non-temporal stores are weakly ordered: fence them before the
    // results are handed on.
    if (stream) a.sfence();
    for (int j = c.ndense - 1; j >= 4; --j)
        a.pop(gp[j]);
    a.vzeroupper();
    a.ret();
    e.emit_pool();
    emit_mask_table(a, masks);
    return dnnl_success;
}

desc_t make_desc(const chain_t &c, bool avx512, bool stream) {
    desc_t d;
    std::memset(&d, 0, sizeof(d));
    std::memcpy(d.family, "echain", 7);
    d.isa = static_cast<int32_t>(avx512 ? isa_t::avx512_core : isa_t::avx2);
    d.stream = stream ? 1 : 0;
    d.io = static_cast<int32_t>(c.io);
    d.tail = avx512 ? 0 : 1;
    d.nops = c.nops;
    d.nslots = c.nslots;
    for (int k = 0; k < c.nslots; ++k)
        d.slot_scalar[k] = c.slots[k].scalar;
    for (int i = 0; i < c.nops; ++i) {
        d.ops[i].alg = static_cast<int32_t>(c.ops[i].alg);
        d.ops[i].alpha = c.ops[i].alpha;
        d.ops[i].beta = c.ops[i].beta;
        d.ops[i].src[0] = c.ops[i].src[0];
        d.ops[i].src[1] = c.ops[i].src[1];
    }
    return d;
}

std::string chain_name(const chain_t &c, bool avx512) {
    std::string s = "eltwise_chain_";
    for (int i = 0; i < c.nops; ++i)
        s += std::string(i ? "+" : "") + alg_name(c.ops[i].alg);
    static const char *const types[] = {"f32", "bf16", "f16"};
    return s + "_" + types[static_cast<int>(c.io)] + "_"
            + (avx512 ? "avx512" : "avx2");
}

class chain_kernel_t : public compiler::kernel_t {
public:
    chain_kernel_t(std::string name, chain_fn_t fn, chain_fn_t stream_fn,
            const chain_t &c, int width)
        : name_(std::move(name)), fn_(fn), stream_fn_(stream_fn), c_(c),
          W_(width) {}
    const char *name() const override { return name_.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const char *base[k_max_slots] = {};
        for (int k = 0; k < c_.nslots; ++k)
            base[k] = static_cast<const char *>(ctx.inputs[c_.slots[k].port]);
        char *dst = static_cast<char *>(ctx.outputs[0]);
        const int64_t es = c_.io == io_t::f32 ? 4 : 2;
        // The generated function's pointers: slot k at element `at`.
        const auto call = [&](chain_fn_t f, int64_t at, char *d, size_t n) {
            const float *p[k_max_slots] = {};
            for (int k = 0; k < c_.nslots; ++k)
                p[k] = reinterpret_cast<const float *>(
                        c_.slots[k].scalar ? base[k] : base[k] + at * es);
            f(p, reinterpret_cast<float *>(d), n);
        };
        for_each_chunk(c_.n, k_chunk, reinterpret_cast<float *>(dst),
                stream_fn_ != nullptr, [&](int64_t off, int64_t len, bool nt) {
                    if (c_.io == io_t::f32) {
                        call(nt ? stream_fn_ : fn_, off, dst + off * es,
                                static_cast<size_t>(len));
                        return;
                    }
                    // 16-bit: whole vectors in place, the last len % W
                    // through padded copies of every dense operand.
                    run_16(len, W_, [&](int64_t o, int64_t m, bool pad) {
                        char *d = dst + (off + o) * es;
                        if (!pad) {
                            call(fn_, off + o, d, static_cast<size_t>(m));
                            return;
                        }
                        vec16_t in[k_max_slots], out;
                        const float *p[k_max_slots] = {};
                        for (int k = 0; k < c_.nslots; ++k)
                            p[k] = reinterpret_cast<const float *>(
                                    c_.slots[k].scalar
                                            ? base[k]
                                            : in[k].from(base[k] + (off + o) * es,
                                                      m * es));
                        fn_(p, reinterpret_cast<float *>(out.b),
                                static_cast<size_t>(W_));
                        out.to(d, m * es);
                    });
                });
        return dnnl_success;
    }

private:
    std::string name_;
    chain_fn_t fn_;
    chain_fn_t stream_fn_; // nullptr: the output is small enough to cache
    chain_t c_;
    int W_; // lanes per vector
};

} // namespace

bool accepts_chain(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    if (!vector_loop_isa(isa, why)) return false;
    chain_t c;
    return analyse(plan, c, why);
}

status_t create_chain(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    chain_t c;
    std::string why;
    if (!analyse(plan, c, &why))
        return fail(dnnl_unimplemented, "cpu eltwise chain: %s", why.c_str());
    if ((isa != isa_t::avx512_core && isa != isa_t::avx2)
            || !isa_available(isa))
        return fail(dnnl_unimplemented,
                "cpu eltwise chain: isa %s not available", isa_name(isa));
    const bool avx512 = isa == isa_t::avx512_core;
    const std::string name = chain_name(c, avx512);
    chain_fn_t fn = nullptr, stream_fn = nullptr;
    LLGA_RETURN_IF_ERROR(jit_get_fn(jit_key(make_desc(c, avx512, false)), name,
            [&](x86::Assembler &a) { return emit_chain(a, c, avx512, false); },
            &fn));
    if (c.io == io_t::f32 && c.n * 4 >= stream_min_bytes())
        LLGA_RETURN_IF_ERROR(jit_get_fn(jit_key(make_desc(c, avx512, true)),
                name + "_nt",
                [&](x86::Assembler &a) {
                    return emit_chain(a, c, avx512, true);
                },
                &stream_fn));
    out = std::make_shared<chain_kernel_t>(
            name, fn, stream_fn, c, avx512 ? 16 : 8);
    return dnnl_success;
}

} // namespace eltwise
} // namespace cpu
} // namespace llga
