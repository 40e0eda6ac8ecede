// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/cpu_plan_test_util.hpp — what the suites that build
// partition plans by hand share: random tensor contents, the op-by-op
// reference run of a plan (independent code in ops/, the oracle), and one
// run through the cpu backend.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.hpp"
#include "base/status.hpp"
#include "compiler/plan.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "runtime/constant_cache.hpp"
#include "runtime/engine.hpp"

namespace llga {
namespace cpu {
namespace plan_test {

using bytes_t = std::vector<char>;

// Uniform values in [lo, hi) stored in lt's data type.
inline bytes_t random_bytes(const logical_tensor_t &lt, std::mt19937 &gen,
        float lo, float hi) {
    bytes_t b(ir::mem_size(lt));
    std::uniform_real_distribution<float> u(lo, hi);
    const size_t n = b.size() / ir::dtype_storage_bytes(lt.data_type, 1);
    for (size_t i = 0; i < n; ++i)
        ir::store_value(lt.data_type, b.data(), static_cast<int64_t>(i), u(gen));
    return b;
}

// Quantized-test inputs: u8/s8 tensors over their whole range, anything
// else uniform in [-2, 2).
inline bytes_t random_quant_bytes(const logical_tensor_t &t, std::mt19937 &gen) {
    const size_t n = ir::mem_size(t) / ir::dtype_storage_bytes(t.data_type, 1);
    bytes_t b(ir::mem_size(t));
    std::uniform_int_distribution<int> u8(0, 255), s8(-128, 127);
    std::uniform_real_distribution<float> f(-2.f, 2.f);
    for (size_t i = 0; i < n; ++i) {
        const double v = t.data_type == dnnl_u8 ? u8(gen)
                : t.data_type == dnnl_s8        ? s8(gen)
                                                : f(gen);
        ir::store_value(t.data_type, b.data(), static_cast<int64_t>(i), v);
    }
    return b;
}

// q saturated to the u8/s8 range, then rounded half to even.
inline double saturate_rne(double q, data_type_t dt) {
    const double lo = dt == dnnl_u8 ? 0 : -128, hi = dt == dnnl_u8 ? 255 : 127;
    return std::nearbyint(std::min(hi, std::max(lo, q)));
}

// The bytes of f32 values, as inputs are passed.
inline bytes_t f32_bytes(const std::vector<float> &v) {
    bytes_t b(v.size() * 4);
    if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
    return b;
}

// Two f32 buffers equal element by element, any NaN matching any NaN.
inline bool same_f32(const bytes_t &a, const bytes_t &b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i + 4 <= a.size(); i += 4) {
        float x, y;
        std::memcpy(&x, &a[i], 4);
        std::memcpy(&y, &b[i], 4);
        if (!(x == y || (std::isnan(x) && std::isnan(y)))) return false;
    }
    return true;
}

// Elements of type `dt` (any whole-byte type) where `got` and `want`
// differ bit for bit, any NaN matching any NaN; the first three are
// reported as failures labelled `what`. Returns how many differ.
inline int value_mismatches(const bytes_t &got, const bytes_t &want,
        data_type_t dt, const std::string &what) {
    EXPECT_EQ(got.size(), want.size()) << what;
    const size_t es = ir::dtype_storage_bytes(dt, 1);
    int bad = 0;
    for (size_t i = 0; i + es <= std::min(got.size(), want.size()); i += es) {
        const int64_t k = static_cast<int64_t>(i / es);
        const double g = ir::load_value(dt, got.data(), k);
        const double w = ir::load_value(dt, want.data(), k);
        if (std::memcmp(&got[i], &want[i], es) == 0
                || (std::isnan(g) && std::isnan(w)))
            continue;
        if (bad++ < 3)
            ADD_FAILURE() << what << " element " << k << ": got " << g
                          << " want " << w;
    }
    return bad;
}

// The plan of a partition holding only `op`, its tensors as ports.
inline compiler::plan_t plan_of(const ir::op_t &op) {
    compiler::plan_t p;
    p.ops = {op};
    p.inputs = op.inputs;
    p.outputs = op.outputs;
    return p;
}

// A partition built op by op; every tensor dense unless strides are given.
struct plan_builder_t {
    std::vector<ir::op_t> ops;
    std::vector<logical_tensor_t> ins;
    size_t next = 100;

    logical_tensor_t in(const dims_t &d, data_type_t dt = dnnl_f32,
            const dims_t &strides = {}) {
        logical_tensor_t lt = ir::make_lt(next++, dt, d);
        for (size_t i = 0; i < strides.size(); ++i)
            lt.layout.strides[i] = strides[i];
        ins.push_back(lt);
        return lt;
    }
    logical_tensor_t add(op_kind_t k, std::vector<logical_tensor_t> inputs,
            const dims_t &out, data_type_t dt = dnnl_f32,
            std::function<void(ir::op_t &)> attrs = nullptr) {
        ir::op_t op;
        op.kind = k;
        op.id = ops.size() + 1;
        op.inputs = std::move(inputs);
        op.outputs.push_back(ir::make_lt(next++, dt, out));
        if (attrs) attrs(op);
        ops.push_back(op);
        return op.outputs[0];
    }
    // The last op's output becomes the partition's output; `strides`
    // (optional) give it a padded layout.
    compiler::plan_t plan(const dims_t &out_strides = {}) {
        if (!out_strides.empty()) {
            for (size_t i = 0; i < out_strides.size(); ++i)
                ops.back().outputs[0].layout.strides[i] = out_strides[i];
        }
        compiler::plan_t p;
        p.ops = ops;
        p.inputs = ins;
        p.outputs = {ops.back().outputs[0]};
        return p;
    }
};

// Runs the plan's ops one by one with the reference kernels, returning
// every tensor by id. `after(lt, buf)` may change a value once produced.
using hook_t = std::function<void(const logical_tensor_t &, bytes_t &)>;
inline std::map<size_t, bytes_t> run_ref(const compiler::plan_t &p,
        const std::vector<bytes_t> &in, const hook_t &after = nullptr) {
    std::map<size_t, bytes_t> v;
    for (size_t i = 0; i < p.inputs.size(); ++i)
        v[p.inputs[i].id] = in[i];
    for (const ir::op_t &op : p.ops) {
        std::vector<const void *> ip;
        for (const auto &lt : op.inputs)
            ip.push_back(v.at(lt.id).data());
        bytes_t &o = v[op.outputs[0].id];
        o.assign(ir::mem_size(op.outputs[0]), 0);
        std::vector<void *> op_out = {o.data()};
        EXPECT_EQ(ops::find_op_def(op.kind)->ref(op, ip, op_out), dnnl_success)
                << last_error();
        if (after) after(op.outputs[0], o);
    }
    return v;
}

// Through the cpu backend (one output); false if it declined.
inline bool run_jit(const compiler::plan_t &p, const std::vector<bytes_t> &in,
        bytes_t &out, std::string *kname) {
    const compiler::backend_t &be = cpu_backend();
    if (!be.supports(p)) return false;
    std::shared_ptr<const compiler::kernel_t> k;
    EXPECT_EQ(be.compile(p, k), dnnl_success) << last_error();
    if (!k) return false;
    *kname = k->name();
    out.assign(ir::mem_size(p.outputs[0]), 0);
    compiler::exec_ctx_t ctx;
    for (const auto &b : in)
        ctx.inputs.push_back(b.data());
    ctx.outputs.push_back(out.data());
    EXPECT_EQ(k->execute(ctx), dnnl_success) << last_error();
    return true;
}

// Every output of `p` through the cpu backend; false if it declined.
inline bool run_jit_all(const compiler::plan_t &p,
        const std::vector<bytes_t> &in, std::vector<bytes_t> &out,
        std::string *kname) {
    const compiler::backend_t &be = cpu_backend();
    if (!be.supports(p)) return false;
    std::shared_ptr<const compiler::kernel_t> k;
    EXPECT_EQ(be.compile(p, k), dnnl_success) << last_error();
    if (!k) return false;
    *kname = k->name();
    compiler::exec_ctx_t ctx;
    for (const auto &b : in)
        ctx.inputs.push_back(b.data());
    out.clear();
    for (const auto &lt : p.outputs)
        out.emplace_back(ir::mem_size(lt), 0);
    for (auto &b : out)
        ctx.outputs.push_back(b.data());
    EXPECT_EQ(k->execute(ctx), dnnl_success) << last_error();
    return true;
}

// Every output of the single op of `p` by its reference kernel, the
// outputs first filled with `fill` bytes.
// Runs kernel k of a two-input plan on engine eng with A = a and B = each
// of bs[calls[i]] in turn (weights in distinct buffers), expecting every
// result to equal the reference's exactly.
inline void expect_weight_calls(const compiler::kernel_t &k,
        const compiler::plan_t &p, const rt::engine_t &eng, const bytes_t &a,
        const std::vector<bytes_t> &bs, const std::vector<size_t> &calls) {
    for (size_t call : calls) {
        const bytes_t &b = bs[call];
        bytes_t got(ir::mem_size(p.outputs[0]));
        compiler::exec_ctx_t ctx;
        ctx.engine = &eng;
        ctx.inputs = {a.data(), b.data()};
        ctx.outputs = {got.data()};
        ASSERT_EQ(k.execute(ctx), dnnl_success);
        EXPECT_EQ(got, run_ref(p, {a, b}).at(p.outputs[0].id))
                << "weights buffer " << call;
    }
}

inline std::vector<bytes_t> run_ref_all(const compiler::plan_t &p,
        const std::vector<bytes_t> &in, unsigned char fill = 0) {
    const ir::op_t &op = p.ops.at(0);
    std::vector<const void *> ip;
    for (const auto &b : in)
        ip.push_back(b.data());
    std::vector<bytes_t> want;
    for (const auto &lt : op.outputs)
        want.emplace_back(ir::mem_size(lt), static_cast<char>(fill));
    std::vector<void *> op_out;
    for (auto &b : want)
        op_out.push_back(b.data());
    EXPECT_EQ(ops::find_op_def(op.kind)->ref(op, ip, op_out), dnnl_success)
            << last_error();
    return want;
}

// The exact-match suites (kernels that evaluate the reference's own
// expressions): `p` through the cpu backend at avx2 and avx512_core (those
// the host has) on `in`; the kernel name must contain `kernel` and the
// single f32 output must equal `want` (NaN matching NaN). `what` labels
// failures.
inline void expect_f32_like(const compiler::plan_t &p,
        const std::vector<bytes_t> &in, const bytes_t &want,
        const std::string &kernel, const std::string &what) {
    for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
        test_isa::isa_guard_t guard(isa);
        bytes_t got;
        std::string kname;
        ASSERT_TRUE(run_jit(p, in, got, &kname)) << what;
        ASSERT_NE(kname.find(kernel), std::string::npos) << kname;
        EXPECT_TRUE(same_f32(got, want))
                << what << " at " << isa_name(isa) << " (" << kname << ")";
    }
}

// The same for a single op with several outputs: every output of `p`
// through the cpu backend equals the reference's (NaN matching NaN), and
// the kernel name contains `kernel`.
inline void expect_all_f32_like(const compiler::plan_t &p,
        const std::vector<bytes_t> &in, const std::string &kernel,
        const std::string &what) {
    const std::vector<bytes_t> want = run_ref_all(p, in);
    for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
        test_isa::isa_guard_t guard(isa);
        std::vector<bytes_t> got;
        std::string kname;
        ASSERT_TRUE(run_jit_all(p, in, got, &kname)) << what;
        ASSERT_NE(kname.find(kernel), std::string::npos) << kname;
        for (size_t k = 0; k < want.size(); ++k)
            EXPECT_TRUE(same_f32(got[k], want[k]))
                    << "output " << k << " " << what << " at "
                    << isa_name(isa);
    }
}

// The reference run of `p` with f32 tensor `id` moved, as soon as it is
// produced, by e * sums[j] (+ a tiny nudge in e's direction) per element.
inline std::map<size_t, bytes_t> shifted_ref(const compiler::plan_t &p,
        const std::vector<bytes_t> &in, size_t id, const bytes_t &sums,
        double e) {
    return run_ref(p, in, [&](const logical_tensor_t &lt, bytes_t &b) {
        if (lt.id != id) return;
        for (size_t j = 0; j < b.size() / 4; ++j) {
            const int64_t o = static_cast<int64_t>(j);
            const double x = ir::load_value(dnnl_f32, b.data(), o);
            const double s = ir::load_value(dnnl_f32, sums.data(), o);
            ir::store_value(dnnl_f32, b.data(), o,
                    x + e * s + (e < 0 ? -1e-30 : 1e-30));
        }
    });
}

// A reference run of a fused plan and two more with the anchor's output
// (tensor `anchor_out` of op `anchor`, a MatMul or Convolution summing
// `kdim` products) moved by -e and +e, e = (kdim + 4) u sum|x||w|
// (u = 2^-24; the sums from the anchor alone on absolute inputs): what the
// rest of the chain makes of the anchor's f32 summation error (the ops are
// monotone over so short an interval, or flat).
struct anchor_bounds_t {
    std::map<size_t, bytes_t> want, lo, hi;
};

inline anchor_bounds_t reference_bounds(const compiler::plan_t &p,
        const std::vector<bytes_t> &in, size_t anchor, size_t anchor_out,
        int64_t kdim) {
    anchor_bounds_t r;
    r.want = run_ref(p, in);
    compiler::plan_t anchor_only = p;
    anchor_only.ops = {p.ops[anchor]};
    std::vector<bytes_t> abs_in = in;
    for (size_t i = 0; i < abs_in.size(); ++i) {
        const data_type_t dt = p.inputs[i].data_type;
        const size_t n = abs_in[i].size() / ir::dtype_storage_bytes(dt, 1);
        for (size_t j = 0; j < n; ++j) {
            const int64_t o = static_cast<int64_t>(j);
            ir::store_value(dt, abs_in[i].data(), o,
                    std::fabs(ir::load_value(dt, abs_in[i].data(), o)));
        }
    }
    const bytes_t sabs = run_ref(anchor_only, abs_in).at(anchor_out);
    const double e_mul = static_cast<double>(kdim + 4) * std::ldexp(1.0, -24);
    r.hi = shifted_ref(p, in, anchor_out, sabs, e_mul);
    r.lo = shifted_ref(p, in, anchor_out, sabs, -e_mul);
    return r;
}

// Element `o` of output `oid` checked against the bounds, each widened by
// 2e-4 (1 + |want|) for the epilogue's vector math. Fills what a failure
// message shows.
struct bound_check_t {
    bool ok;
    double got, want, min, max;
};

inline bound_check_t check_element(const anchor_bounds_t &r, size_t oid,
        const bytes_t &got, int64_t o) {
    const double w = ir::load_value(dnnl_f32, r.want.at(oid).data(), o);
    const double g = ir::load_value(dnnl_f32, got.data(), o);
    const double a = ir::load_value(dnnl_f32, r.lo.at(oid).data(), o);
    const double b = ir::load_value(dnnl_f32, r.hi.at(oid).data(), o);
    const double slack = 2e-4 * (1.0 + std::fabs(w));
    const double mn = std::min({w, a, b}) - slack;
    const double mx = std::max({w, a, b}) + slack;
    const bool ok = std::isnan(w) ? std::isnan(g) : (g >= mn && g <= mx);
    return {ok, g, w, mn, mx};
}

// Sums |x_f||w_f| + |bias| per output of a quantized anchor: the anchor
// alone re-run on the absolute values of the reference's own dequantized
// inputs (`want`, by tensor id; f32, or a bf16 bias, taken as f32), read
// at tensor `anchor_out`.
inline bytes_t abs_sums(const compiler::plan_t &anchor_only,
        const std::map<size_t, bytes_t> &want, size_t anchor_out) {
    compiler::plan_t a = anchor_only;
    std::vector<bytes_t> abs_in;
    for (auto &t : a.inputs) {
        const bytes_t &b = want.at(t.id);
        const int64_t n = static_cast<int64_t>(
                b.size() / ir::dtype_storage_bytes(t.data_type, 1));
        bytes_t f(static_cast<size_t>(n) * 4);
        for (int64_t j = 0; j < n; ++j)
            ir::store_value(dnnl_f32, f.data(), j,
                    std::fabs(ir::load_value(t.data_type, b.data(), j)));
        abs_in.push_back(f);
        for (ir::op_t &op : a.ops)
            for (logical_tensor_t &x : op.inputs)
                if (x.id == t.id) x.data_type = dnnl_f32;
        t.data_type = dnnl_f32;
    }
    return run_ref(a, abs_in).at(anchor_out);
}

// One output of a quantized GEMM against the reference's pre-Quantize
// value f (|f| sums `sabs`): an f32 output within e = 8u sabs; a u8/s8
// output between the saturated, rounded q -+ (e / scale + 4u|q|), q taken
// from f clamped to [lo, hi] (the folded ReLU/Clamp).
inline bool int8_output_ok(double f, double sabs, double got, data_type_t dt,
        double lo, double hi, double dst_scale, double dst_zp) {
    const double u = std::ldexp(1.0, -24);
    const double e = 8 * u * sabs + 1e-30;
    if (dt == dnnl_f32) return std::fabs(got - f) <= e;
    const double fc = std::min(hi, std::max(lo, f));
    const double q = fc * (1.0 / dst_scale) + dst_zp;
    const double d = e / dst_scale + 4 * u * std::fabs(q);
    return got >= saturate_rne(q - d, dt) && got <= saturate_rne(q + d, dt);
}

// An op of kind `k` reading `in`, writing `out` (attributes to be set).
// The static quantization attributes of a (De)Quantize: scales, zero
// points (none when empty), axis, and per-channel or per-tensor qtype.
inline void set_quant(ir::op_t &op, const std::vector<float> &scales,
        const std::vector<int64_t> &zps, int64_t axis = 1,
        bool per_channel = false) {
    using ir::attr_value_t;
    op.set_attr(dnnl_graph_op_attr_qtype,
            attr_value_t::make_str(per_channel ? "per_channel" : "per_tensor"));
    op.set_attr(dnnl_graph_op_attr_scales, attr_value_t::make_f32s(scales));
    if (!zps.empty())
        op.set_attr(dnnl_graph_op_attr_zps, attr_value_t::make_s64s(zps));
    op.set_attr(dnnl_graph_op_attr_axis, attr_value_t::make_s64(axis));
}

// One scale and zero point (per tensor, axis 1).
inline void set_quant(ir::op_t &op, float scale, int64_t zp) {
    set_quant(op, std::vector<float> {scale}, std::vector<int64_t> {zp});
}

inline ir::op_t make_op(op_kind_t k, std::vector<logical_tensor_t> in,
        logical_tensor_t out) {
    ir::op_t op;
    op.kind = k;
    op.inputs = std::move(in);
    op.outputs = {out};
    return op;
}

// The int8 epilogue the quantized suites append after value `y`: the
// clamps `clamp` selects (1: ReLU; 2: Clamp [-0.3, 0.8]; 3: ReLU, then
// Clamp [-1, 0.5]) and a per-tensor Quantize to `dst` with `scale`, `zp`.
// [lo, hi] narrows to what the clamps keep; `new_lt(dt)` makes each new
// tensor (y's shape). Returns the Quantize's output.
inline logical_tensor_t append_int8_tail(compiler::plan_t &p,
        logical_tensor_t y, int clamp, data_type_t dst, float scale,
        int64_t zp, double &lo, double &hi,
        const std::function<logical_tensor_t(data_type_t)> &new_lt) {
    auto add_unary = [&](op_kind_t k, float a, float b) {
        const logical_tensor_t z = new_lt(dnnl_f32);
        p.ops.push_back(make_op(k, {y}, z));
        if (k == dnnl_graph_op_clamp) {
            p.ops.back().set_attr(
                    dnnl_graph_op_attr_min, ir::attr_value_t::make_f32(a));
            p.ops.back().set_attr(
                    dnnl_graph_op_attr_max, ir::attr_value_t::make_f32(b));
        }
        lo = std::min<double>(std::max<double>(lo, a), b);
        hi = std::min<double>(std::max<double>(hi, a), b);
        y = z;
    };
    if (clamp == 1 || clamp == 3) add_unary(dnnl_graph_op_relu, 0.f, INFINITY);
    if (clamp == 2) add_unary(dnnl_graph_op_clamp, -0.3f, 0.8f);
    if (clamp == 3) add_unary(dnnl_graph_op_clamp, -1.f, 0.5f);
    const logical_tensor_t q = new_lt(dst);
    ir::op_t &op = (p.ops.push_back(make_op(dnnl_graph_op_quantize, {y}, q)),
            p.ops.back());
    op.set_attr(dnnl_graph_op_attr_qtype, ir::attr_value_t::make_str("per_tensor"));
    op.set_attr(dnnl_graph_op_attr_scales, ir::attr_value_t::make_f32s({scale}));
    op.set_attr(dnnl_graph_op_attr_zps, ir::attr_value_t::make_s64s({zp}));
    op.set_attr(dnnl_graph_op_attr_axis, ir::attr_value_t::make_s64(1));
    return q;
}

// What a quantized partition's output is checked against: the reference
// run (`want`, by tensor id), its f32 value before the clamps and Quantize
// (tensor `pre_q`), the anchor's |x||w| sums, and the epilogue's clamp
// bounds and destination quantization.
struct int8_expect_t {
    const std::map<size_t, bytes_t> *want = nullptr;
    size_t pre_q = 0;
    const bytes_t *sabs = nullptr;
    double lo = -INFINITY, hi = INFINITY, dst_scale = 1, dst_zp = 0;
};

// The expectation of a built quantized case `b` (any suite's case record
// with pre_q, lo, hi, dst_scale and dst_zp).
template <typename B>
int8_expect_t int8_expect_of(const B &b,
        const std::map<size_t, bytes_t> &want, const bytes_t &sabs) {
    int8_expect_t e;
    e.want = &want;
    e.pre_q = b.pre_q;
    e.sabs = &sabs;
    e.lo = b.lo;
    e.hi = b.hi;
    e.dst_scale = b.dst_scale;
    e.dst_zp = static_cast<double>(b.dst_zp);
    return e;
}

// Runs kernel `k` twice on `in` (with constant weights the second run
// reads the cached packed weights) and checks every element of output
// `out` with int8_output_ok. With `constant`, the engine's cache must hold
// the packed weights; for int8 outputs at most `max_differ` elements may
// differ from the reference at all.
inline void run_twice_int8(const compiler::kernel_t &k,
        const std::vector<bytes_t> &in, const logical_tensor_t &out,
        const int8_expect_t &e, const rt::engine_t *eng, bool constant,
        int64_t max_differ, const std::string &what) {
    const int64_t n = ir::nelems(out);
    compiler::exec_ctx_t ctx;
    ctx.engine = eng;
    if (eng) ctx.allocator = &eng->allocator();
    for (const auto &b : in)
        ctx.inputs.push_back(b.data());
    for (int run = 0; run < 2; ++run) {
        bytes_t got(ir::mem_size(out), 0);
        ctx.outputs = {got.data()};
        ASSERT_EQ(k.execute(ctx), dnnl_success) << last_error();
        int bad = 0, differ = 0;
        for (int64_t i = 0; i < n; ++i) {
            const double f = ir::load_value(dnnl_f32, e.want->at(e.pre_q).data(), i);
            const double g = ir::load_value(out.data_type, got.data(), i);
            const double w
                    = ir::load_value(out.data_type, e.want->at(out.id).data(), i);
            const bool ok = int8_output_ok(f,
                    ir::load_value(dnnl_f32, e.sabs->data(), i), g,
                    out.data_type, e.lo, e.hi, e.dst_scale, e.dst_zp);
            differ += g != w;
            if (!ok && bad++ < 5)
                ADD_FAILURE() << what << " " << k.name() << " run " << run
                              << " [" << i << "]: got " << g << " want " << w
                              << " (f " << f << ")";
        }
        EXPECT_EQ(bad, 0) << what;
        // Constant weights: the packed form is in the engine's cache
        // (while the kernel, its owner, lives).
        if (eng && constant) {
            EXPECT_GT(rt::constant_cache_t::get(eng->kind(), eng->index()).size(),
                    0u) << "packed weights were not cached";
        }
        if (out.data_type != dnnl_f32) {
            EXPECT_LE(differ, max_differ) << what;
        }
    }
}

// Quantized partitions with a post-op chain (int8 MatMul/Convolution ->
// [bias] -> ops -> [Quantize]). The int8 GEMM's f32 value before the
// chain (tensor `pre_chain`) is within e = 8u sum|a_f||b_f| (+|bias|) of
// the reference's (u = 2^-24; the sums from `anchor_only`, the anchor and
// its bias, on the reference's own dequantized values). The reference is
// run twice more with that value moved by -e and +e (the chain is
// monotone, or flat, over so short an interval); every output must lie
// within the three results, widened by 2e-4 (1 + |v|) for the chain's
// vector math. An int8 output is checked one step earlier, on the
// Quantize's input v (tensor `pre_q`): it must lie between the saturated,
// rounded v / scale + zp at the two ends of that widened range; and at
// most 1% (+1) of the outputs may differ from the reference at all.
// `pre_q_dt` is the type of tensor pre_q (f32, or bf16 for a bf16
// output); a chain of bf16 values with approximated math (GELU, Tanh, ...)
// sets rel_slack to two bf16 units (2^-7), as the math's error may tip one
// of the chain's roundings.
struct int8_chain_expect_t {
    std::map<size_t, bytes_t> want, lo, hi;
    size_t pre_q = 0;
    data_type_t pre_q_dt = dnnl_f32;
    double dst_scale = 1, dst_zp = 0;
    double rel_slack = 0;
};

inline int8_chain_expect_t int8_chain_expect(const compiler::plan_t &p,
        const std::vector<bytes_t> &in, const compiler::plan_t &anchor_only,
        size_t pre_chain, size_t pre_q, double dst_scale, double dst_zp) {
    int8_chain_expect_t r;
    r.want = run_ref(p, in);
    r.pre_q = pre_q;
    r.dst_scale = dst_scale;
    r.dst_zp = dst_zp;
    const bytes_t sabs = abs_sums(anchor_only, r.want, pre_chain);
    const double e_mul = 8 * std::ldexp(1.0, -24);
    r.lo = shifted_ref(p, in, pre_chain, sabs, -e_mul);
    r.hi = shifted_ref(p, in, pre_chain, sabs, e_mul);
    return r;
}

// Runs `k` on `in` and checks output `out` against `e` (see above).
inline void expect_int8_chain(const compiler::kernel_t &k,
        const std::vector<bytes_t> &in, const logical_tensor_t &out,
        const int8_chain_expect_t &e, const std::string &what) {
    const int64_t n = ir::nelems(out);
    bytes_t got(ir::mem_size(out), 0);
    compiler::exec_ctx_t ctx;
    for (const auto &b : in)
        ctx.inputs.push_back(b.data());
    ctx.outputs = {got.data()};
    ASSERT_EQ(k.execute(ctx), dnnl_success) << last_error();
    int bad = 0, differ = 0;
    for (int64_t i = 0; i < n; ++i) {
        const data_type_t vt = e.pre_q_dt;
        const double w = ir::load_value(vt, e.want.at(e.pre_q).data(), i);
        const double a = ir::load_value(vt, e.lo.at(e.pre_q).data(), i);
        const double b = ir::load_value(vt, e.hi.at(e.pre_q).data(), i);
        const double slack = 2e-4 * (1.0 + std::fabs(w))
                + e.rel_slack * std::fabs(w);
        const double vmin = std::min({w, a, b}) - slack;
        const double vmax = std::max({w, a, b}) + slack;
        const double g = ir::load_value(out.data_type, got.data(), i);
        bool ok;
        if (out.data_type == dnnl_f32 || out.data_type == dnnl_bf16) {
            ok = std::isnan(w) ? std::isnan(g) : g >= vmin && g <= vmax;
        } else {
            const double inv = 1.0 / e.dst_scale;
            const double qa = vmin * inv + e.dst_zp, qb = vmax * inv + e.dst_zp;
            const double u4 = 4 * std::ldexp(1.0, -24);
            ok = g >= saturate_rne(qa - u4 * std::fabs(qa), out.data_type)
                    && g <= saturate_rne(qb + u4 * std::fabs(qb), out.data_type);
            differ += g
                    != ir::load_value(
                            out.data_type, e.want.at(out.id).data(), i);
        }
        if (!ok && bad++ < 5)
            ADD_FAILURE() << what << " " << k.name() << " [" << i << "]: got "
                          << g << ", value before any Quantize " << w
                          << " in [" << vmin << ", " << vmax << "]";
    }
    EXPECT_EQ(bad, 0) << what;
    EXPECT_LE(differ, n / 100 + 1) << what;
}

} // namespace plan_test
} // namespace cpu
} // namespace llga
