// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/sdpa/cpu_sdpa_test_util.hpp — what the SDPA suites
// share (cpu_sdpa_test.cpp, cpu_sdpa_skip_test.cpp): op attribute helpers,
// input generation, the check against the reference ops at every host ISA
// level, an SDPA graph builder, the implicit-causal-mask case, and the NaN rows
// of V that the kernel must not read.
#pragma once

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/isa.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"

namespace llga {
namespace cpu {
namespace sdpa_test {

using ir::attr_value_t;
using plan_test::bytes_t;
using plan_test::plan_builder_t;


inline const float k_ninf = -std::numeric_limits<float>::infinity();

inline void axis(ir::op_t &op, int64_t a) {
    op.set_attr(dnnl_graph_op_attr_axis, attr_value_t::make_s64(a));
}
inline void inf_as_zero(ir::op_t &op) {
    axis(op, -1);
    op.set_attr(dnnl_graph_op_attr_mode, attr_value_t::make_str("inf_as_zero"));
}
inline void transpose_b(ir::op_t &op) {
    op.set_attr(dnnl_graph_op_attr_transpose_b, attr_value_t::make_bool(true));
}

// Sets an environment variable for a scope (the LLGA_* knobs are read
// when a kernel is created).
class env_guard_t {
public:
    env_guard_t(const char *name, const char *value) : name_(name) {
        const char *old = std::getenv(name);
        had_ = old != nullptr;
        if (had_) old_ = old;
        setenv(name, value, 1);
    }
    ~env_guard_t() {
        if (had_)
            setenv(name_.c_str(), old_.c_str(), 1);
        else
            unsetenv(name_.c_str());
    }
    env_guard_t(const env_guard_t &) = delete;
    env_guard_t &operator=(const env_guard_t &) = delete;

private:
    std::string name_, old_;
    bool had_ = false;
};

// Input contents: uniform in [lo, hi) (by default [-1, 1), or the whole
// u8/s8 range), a fixed value when given for that tensor id, and booleans
// true four times in five.
struct fill_t {
    size_t id;
    float lo, hi;
    bool fixed = false;
    float value = 0.f;
};

inline std::vector<bytes_t> make_inputs(const compiler::plan_t &p,
        const std::vector<fill_t> &fills, unsigned seed) {
    std::mt19937 gen(seed);
    std::vector<bytes_t> in;
    for (const auto &lt : p.inputs) {
        // int8 tensors over their whole range, the rest in [-1, 1).
        float lo = lt.data_type == dnnl_u8 ? 0.f
                : lt.data_type == dnnl_s8  ? -128.f
                                           : -1.f;
        float hi = lt.data_type == dnnl_u8 ? 255.f
                : lt.data_type == dnnl_s8  ? 127.f
                                           : 1.f;
        const fill_t *f = nullptr;
        for (const auto &x : fills)
            if (x.id == lt.id) f = &x;
        if (f) {
            lo = f->lo;
            hi = f->hi;
        }
        bytes_t b = plan_test::random_bytes(lt, gen, lo, hi);
        const int64_t n = ir::nelems(lt);
        if (lt.data_type == dnnl_boolean) {
            // About one element in five false.
            std::bernoulli_distribution keep(0.8);
            for (int64_t i = 0; i < n; ++i)
                b[static_cast<size_t>(i)] = keep(gen) ? 1 : 0;
        } else if (f && f->fixed) {
            for (int64_t i = 0; i < n; ++i)
                ir::store_value(lt.data_type, b.data(), i, f->value);
        }
        in.push_back(b);
    }
    return in;
}

// Runs the plan through the backend at every host level and compares with
// the reference: |got - want| <= tol (1 + max|want|). The output must come
// from the fused kernel. The reference reads `ref_in` when given.
inline void check(const compiler::plan_t &p, const std::vector<bytes_t> &in,
        double tol, const std::string &what,
        const std::vector<bytes_t> *ref_in = nullptr) {
    const auto ref = plan_test::run_ref(p, ref_in ? *ref_in : in);
    const logical_tensor_t &out = p.outputs[0];
    const bytes_t &want = ref.at(out.id);
    const int64_t n = ir::nelems(out);
    const dims_t d = ir::dims_of(out), st = ir::strides_of(out);
    const data_type_t odt = out.data_type;
    double scale = 0;
    for (int64_t i = 0; i < n; ++i)
        scale = std::max(scale, std::fabs(ir::load_value(odt, want.data(), i)));
    for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
        test_isa::isa_guard_t guard(isa);
        bytes_t got;
        std::string kname;
        ASSERT_TRUE(plan_test::run_jit(p, in, got, &kname))
                << what << " at " << isa_name(isa);
        EXPECT_EQ(kname.rfind("sdpa_", 0), 0u) << what << ": " << kname;
        int64_t idx[DNNL_MAX_NDIMS] = {};
        int bad = 0;
        for (int64_t i = 0; i < n; ++i, ir::next_index(idx, d)) {
            const int64_t o = ir::offset_of(idx, st.data(), out.ndims);
            const double w = ir::load_value(odt, want.data(), o);
            const double g = ir::load_value(odt, got.data(), o);
            const bool ok = std::isnan(w) ? std::isnan(g)
                                          : std::fabs(g - w) <= tol * (1 + scale);
            if (!ok && bad++ < 5)
                ADD_FAILURE() << what << " at " << isa_name(isa)
                              << ": element " << i << " got " << g
                              << " want " << w;
        }
        EXPECT_EQ(bad, 0) << what << " at " << isa_name(isa);
    }
}

// Runs the plan at each of `levels` the host has, with the Q·Kᵀ
// epilogue's power-of-two divisions as multiplications (the default) and
// without (LLGA_SDPA_DIV_AS_MUL=0): the output bytes must be the same.
inline void expect_div_twin_exact(const compiler::plan_t &p,
        const std::vector<bytes_t> &in, const std::string &what,
        std::initializer_list<isa_t> levels = {isa_t::avx2, isa_t::avx512_core}) {
    for (isa_t isa : test_isa::host_levels(levels)) {
        test_isa::isa_guard_t guard(isa);
        bytes_t mul, div;
        std::string kname;
        ASSERT_TRUE(plan_test::run_jit(p, in, mul, &kname)) << what;
        {
            env_guard_t divide("LLGA_SDPA_DIV_AS_MUL", "0");
            ASSERT_TRUE(plan_test::run_jit(p, in, div, &kname)) << what;
        }
        EXPECT_EQ(kname.rfind("sdpa_", 0), 0u) << what << ": " << kname;
        EXPECT_TRUE(mul == div) << what << " at " << isa_name(isa);
    }
}

// Q [b.., Sq, D] x K [b.., Skv, D] (transpose_b) -> scores.
struct sdpa_t {
    plan_builder_t g;
    logical_tensor_t q, k, v, s;
    dims_t sdims;
    data_type_t io = dnnl_f32; // Q, K, V, probabilities and output
    sdpa_t(const dims_t &batch, int64_t sq, int64_t skv, int64_t d,
            data_type_t io_dt = dnnl_f32, data_type_t s_dt = dnnl_f32)
        : io(io_dt) {
        dims_t qd = batch, kd = batch;
        qd.insert(qd.end(), {sq, d});
        kd.insert(kd.end(), {skv, d});
        sdims = batch;
        sdims.insert(sdims.end(), {sq, skv});
        q = g.in(qd, io);
        k = g.in(kd, io);
        s = g.add(dnnl_graph_op_matmul, {q, k}, sdims, s_dt, transpose_b);
    }
    // GenIndex along axis `ax` of the scores' shape (read from `like`).
    logical_tensor_t index(const logical_tensor_t &like, int64_t ax) {
        return g.add(dnnl_graph_op_gen_index, {like}, sdims, dnnl_s32,
                [ax](ir::op_t &op) { axis(op, ax); });
    }
    // The corpus graphs' implicit causal condition on 4-D scores:
    // GreaterEqual(GenIndex(rows) + adds - subs, GenIndex(columns)).
    logical_tensor_t causal_cond(const logical_tensor_t &like,
            const std::vector<logical_tensor_t> &adds,
            const std::vector<logical_tensor_t> &subs) {
        logical_tensor_t row = index(like, 2);
        for (const auto &t : adds)
            row = g.add(dnnl_graph_op_add, {row, t}, sdims, dnnl_s32);
        for (const auto &t : subs)
            row = g.add(dnnl_graph_op_subtract, {row, t}, sdims, dnnl_s32);
        return g.add(dnnl_graph_op_greater_equal, {row, index(like, -1)},
                sdims, dnnl_boolean);
    }
    // A score op keeping the scores' type.
    logical_tensor_t op(op_kind_t kind, std::vector<logical_tensor_t> ins) {
        const data_type_t dt = s.data_type;
        return s = g.add(kind, std::move(ins), sdims, dt);
    }
    // SoftMax (inf_as_zero) and P x V with V [vbatch.., Skv, Dv].
    logical_tensor_t finish(const dims_t &vbatch, int64_t dv) {
        s = g.add(dnnl_graph_op_softmax, {s}, sdims, io, inf_as_zero);
        dims_t vd = vbatch, od(sdims.begin(), sdims.end() - 1);
        vd.insert(vd.end(), {sdims.back(), dv});
        od.push_back(dv);
        v = g.in(vd, io);
        return g.add(dnnl_graph_op_matmul, {s, v}, od, io);
    }
};

// V rows [from, skv) of the first `heads` (batch, head) slices of a dense
// [.., skv, dv] V: NaN in the kernel's inputs `in`, 0 in the reference's
// `ref_in` (a copy of `in` made before).
inline void poison_v_rows(const compiler::plan_t &p, size_t v_id,
        std::vector<bytes_t> &in, std::vector<bytes_t> &ref_in, int64_t heads,
        int64_t skv, int64_t dv, int64_t from) {
    const size_t vp = static_cast<size_t>(compiler::find_port(p.inputs, v_id));
    float *vn = reinterpret_cast<float *>(in[vp].data());
    float *vz = reinterpret_cast<float *>(ref_in[vp].data());
    for (int64_t bh = 0; bh < heads; ++bh)
        for (int64_t j = from; j < skv; ++j)
            for (int64_t e = 0; e < dv; ++e) {
                vn[(bh * skv + j) * dv + e] = std::numeric_limits<float>::quiet_NaN();
                vz[(bh * skv + j) * dv + e] = 0.f;
            }
}

// Top-left (shift 0), bottom-right (Skv - Sq) and a shift that masks the
// first rows entirely (inf_as_zero makes them 0): row index + a - b >= col,
// the other scores set to `fill`. `v_nan_from`: V rows from there on are
// NaN for the kernel and 0 for the reference (no query row may keep them).
inline void causal_case(int64_t sq, int64_t skv, int32_t a_shift, int32_t b_shift,
        const std::string &what, float fill_value = k_ninf,
        int64_t v_nan_from = -1) {
    sdpa_t a({2, 2}, sq, skv, 32);
    const logical_tensor_t scale = a.g.in({1});
    const logical_tensor_t scaled = a.op(dnnl_graph_op_multiply, {a.s, scale});
    const logical_tensor_t sa = a.g.in({1}, dnnl_s32);
    const logical_tensor_t sb = a.g.in({1}, dnnl_s32);
    const logical_tensor_t cond = a.causal_cond(scaled, {sa}, {sb});
    const logical_tensor_t fill = a.g.in({1});
    a.s = scaled;
    a.op(dnnl_graph_op_select, {cond, scaled, fill});
    a.finish({2, 2}, 16);
    const compiler::plan_t p = a.g.plan();
    std::vector<bytes_t> in = make_inputs(p,
            {{scale.id, 0, 0, true, 0.25f}, {sa.id, 0, 0, true, float(a_shift)},
                    {sb.id, 0, 0, true, float(b_shift)},
                    {fill.id, 0, 0, true, fill_value}},
            2);
    if (v_nan_from < 0) {
        check(p, in, 1e-5, what);
        return;
    }
    std::vector<bytes_t> ref_in = in;
    poison_v_rows(p, a.v.id, in, ref_in, 4, skv, 16, v_nan_from);
    check(p, in, 1e-5, what, &ref_in);
}

} // namespace sdpa_test
} // namespace cpu
} // namespace llga
