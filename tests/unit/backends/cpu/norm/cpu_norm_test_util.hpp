// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/norm/cpu_norm_test_util.hpp — helpers shared by the
// softmax and layernorm JIT tests: JIT ISA levels, typed buffers holding
// f32/bf16/f16 data, compiling and running a one-op plan on the cpu
// backend, and a tolerance check with readable failures; and, for the
// normalisation-backward and batch-norm suites, a byte-exact check of a
// one-op plan of any data types against the reference and f32 inputs
// whose sums show their order.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/isa.hpp"
#include "base/status.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace cpu {
namespace normtest {

inline std::vector<isa_t> jit_levels() {
    return test_isa::host_levels({isa_t::avx512_core, isa_t::avx2});
}

inline const char *isa_suffix(isa_t i) {
    return i == isa_t::avx512_core ? "avx512" : "avx2";
}

using test_isa::isa_guard_t;

// Values of one tensor stored as `dt`.
struct buf_t {
    data_type_t dt = dnnl_f32;
    std::vector<unsigned char> bytes;

    buf_t() = default;
    buf_t(data_type_t t, size_t n)
        : dt(t), bytes(n * (t == dnnl_f32 ? 4 : 2)) {}
    // Rounds each value to dt (round to nearest even, like the library).
    static buf_t from(data_type_t t, const std::vector<float> &v) {
        buf_t b(t, v.size());
        for (size_t i = 0; i < v.size(); ++i)
            b.set(i, v[i]);
        return b;
    }
    size_t size() const { return bytes.size() / (dt == dnnl_f32 ? 4 : 2); }
    void set(size_t i, float v) {
        if (dt == dnnl_f32) {
            std::memcpy(&bytes[i * 4], &v, 4);
            return;
        }
        const uint16_t h
                = dt == dnnl_bf16 ? ir::f32_to_bf16(v) : ir::f32_to_f16(v);
        std::memcpy(&bytes[i * 2], &h, 2);
    }
    float at(size_t i) const {
        if (dt == dnnl_f32) {
            float v;
            std::memcpy(&v, &bytes[i * 4], 4);
            return v;
        }
        uint16_t h;
        std::memcpy(&h, &bytes[i * 2], 2);
        return dt == dnnl_bf16 ? ir::bf16_to_f32(h) : ir::f16_to_f32(h);
    }
    std::vector<float> f32() const {
        std::vector<float> v(size());
        for (size_t i = 0; i < v.size(); ++i)
            v[i] = at(i);
        return v;
    }
};

using plan_test::plan_of;

// Compiles `op` on the cpu backend (which must accept it) and runs it;
// outputs are allocated from the op's output tensors and filled with a
// garbage pattern first, so unwritten elements show up.
inline std::vector<buf_t> run_jit(const ir::op_t &op,
        const std::vector<buf_t> &in, std::string *kernel_name) {
    const compiler::plan_t plan = plan_of(op);
    const compiler::backend_t &be = cpu_backend();
    EXPECT_TRUE(be.supports(plan)) << ops::describe(op);
    std::shared_ptr<const compiler::kernel_t> k;
    EXPECT_EQ(be.compile(plan, k), dnnl_success) << last_error();
    if (!k) return {};
    if (kernel_name) *kernel_name = k->name();
    std::vector<buf_t> out;
    for (const auto &lt : op.outputs) {
        out.emplace_back(lt.data_type, static_cast<size_t>(ir::nelems(lt)));
        std::fill(out.back().bytes.begin(), out.back().bytes.end(), 0x7b);
    }
    compiler::exec_ctx_t ctx;
    for (const auto &b : in)
        ctx.inputs.push_back(b.bytes.data());
    for (auto &b : out)
        ctx.outputs.push_back(b.bytes.data());
    EXPECT_EQ(k->execute(ctx), dnnl_success) << last_error();
    return out;
}

// |got - want| <= rtol*|want| + atol per element; NaN must match NaN and
// infinities must match exactly. Returns the largest relative error seen.
inline double expect_close(const buf_t &got, const std::vector<double> &want,
        double rtol, double atol, const std::string &what) {
    EXPECT_EQ(got.size(), want.size()) << what;
    double worst = 0;
    int bad = 0;
    for (size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
        const double g = got.at(i), w = want[i];
        bool ok;
        if (std::isnan(w) || std::isnan(g))
            ok = std::isnan(w) && std::isnan(g);
        else if (std::isinf(w) || std::isinf(g))
            ok = g == w;
        else {
            const double d = std::fabs(g - w);
            ok = d <= rtol * std::fabs(w) + atol;
            if (std::fabs(w) > 1e-30) worst = std::max(worst, d / std::fabs(w));
        }
        if (!ok && bad++ < 5)
            ADD_FAILURE() << what << ": element " << i << " got " << g
                          << " want " << w;
    }
    return worst;
}

// Every output of the single op of `p` through the cpu backend, at each
// JIT level the host has, must hold the reference's bytes (outputs of
// any type; the inputs must hold no NaN); the kernel name must contain
// `kernel` (e.g. the data type it reports). `what` labels failures.
inline void expect_same_bytes(const compiler::plan_t &p,
        const std::vector<plan_test::bytes_t> &in, const std::string &kernel,
        const std::string &what) {
    const std::vector<plan_test::bytes_t> want = plan_test::run_ref_all(p, in);
    for (isa_t isa : jit_levels()) {
        isa_guard_t guard(isa);
        std::vector<plan_test::bytes_t> got;
        std::string kname;
        ASSERT_TRUE(plan_test::run_jit_all(p, in, got, &kname)) << what;
        ASSERT_NE(kname.find(kernel), std::string::npos)
                << kname << " (want " << kernel << ") " << what;
        for (size_t k = 0; k < want.size(); ++k) {
            const data_type_t dt = p.outputs[k].data_type;
            const size_t es = ir::dtype_storage_bytes(dt, 1);
            size_t bad = 0;
            for (size_t i = 0; i + es <= want[k].size(); i += es)
                if (std::memcmp(&got[k][i], &want[k][i], es) != 0 && bad++ < 3)
                    ADD_FAILURE() << what << " at " << isa_suffix(isa)
                                  << ": output " << k << " element " << i / es
                                  << " got "
                                  << ir::load_value(dt, got[k].data(),
                                             static_cast<int64_t>(i / es))
                                  << " want "
                                  << ir::load_value(dt, want[k].data(),
                                             static_cast<int64_t>(i / es));
        }
    }
}

// Makes a double sum over a sequence of f32 values order-sensitive: of
// the `len` elements at f32 offsets off(0), ..., off(len - 1) (summation
// order) in `b`, one past the first becomes 2^50 and a later one -2^50.
// Summed in order, the pair absorbs the low bits of everything before it
// and then cancels; in another order other bits are lost, which shows in
// a mean of order 1. Returns the two positions (0, 0 when len < 3).
template <typename Off>
std::pair<int64_t, int64_t> plant_cancelling_pair(plan_test::bytes_t &b,
        int64_t len, Off &&off, std::mt19937 &gen) {
    if (len < 3) return {0, 0};
    const int64_t p1 = 1 + static_cast<int64_t>(gen() % (len - 2));
    const int64_t p2 = p1 + 1 + static_cast<int64_t>(gen() % (len - 1 - p1));
    ir::store_value(dnnl_f32, b.data(), off(p1), std::ldexp(1.0, 50));
    ir::store_value(dnnl_f32, b.data(), off(p2), -std::ldexp(1.0, 50));
    return {p1, p2};
}

inline const char *dt_str(data_type_t t) {
    return t == dnnl_f32 ? "f32" : t == dnnl_bf16 ? "bf16" : "f16";
}

} // namespace normtest
} // namespace cpu
} // namespace llga
