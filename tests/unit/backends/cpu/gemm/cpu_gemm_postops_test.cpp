// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/gemm/cpu_gemm_postops_test.cpp — the fused GEMM
// epilogue (gemm_postops.hpp) on every micro-kernel flavour the host runs, each
// at its own max ISA: every eltwise alone, scale, every binary op with every
// broadcast and operand type (f32, bf16, dequantized s8/u8), sum, the int8/bf16
// destinations and a few chains, on random shapes with M/N tails, padded (odd)
// strides and more than one K block, against a plain double-precision loop
// written here.
//
// Tolerances: f32 dst |got - want| <= 2e-4 * (1 + |want|) (GEMM rounding,
// ~1e-6 relative, amplified by the eltwise derivative plus the vector math
// error, a few ulp); bf16 dst adds 2^-8 relative (one bf16 rounding); int8
// dst may differ by 1 (a tie rounded the other way by GEMM rounding).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/gemm/gemm_driver.hpp"
#include "cpu_gemm_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace {

using namespace gemm;

using test_isa::isa_guard_t;

float bf16_round(float x) { return ir::bf16_to_f32(ir::f32_to_bf16(x)); }

double ref_eltwise(const postop_t &p, double x) {
    const double a = p.alpha, b = p.beta;
    auto sig = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
    switch (p.alg) {
        case po_eltwise_t::relu:
        case po_eltwise_t::leaky_relu: return x >= 0 ? x : a * x;
        case po_eltwise_t::gelu_erf:
            return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
        case po_eltwise_t::gelu_tanh:
            return 0.5 * x
                    * (1.0
                            + std::tanh(std::sqrt(2.0 / M_PI)
                                    * (x + 0.044715 * x * x * x)));
        case po_eltwise_t::sigmoid: return sig(x);
        case po_eltwise_t::tanh: return std::tanh(x);
        case po_eltwise_t::swish: return x * sig(a * x);
        case po_eltwise_t::clamp: return std::min(std::max(x, a), b);
        case po_eltwise_t::elu: return x > 0 ? x : a * (std::exp(x) - 1.0);
        case po_eltwise_t::exp: return std::exp(x);
        case po_eltwise_t::log: return std::log(x);
        case po_eltwise_t::square: return x * x;
        case po_eltwise_t::abs: return std::fabs(x);
        case po_eltwise_t::sqrt: return std::sqrt(x);
        case po_eltwise_t::hardsigmoid:
            return std::max(0.0, std::min(1.0, a * x + b));
        case po_eltwise_t::hardswish:
            return x * std::max(0.0, std::min(1.0, a * x + b));
        case po_eltwise_t::linear: return a * x + b;
        case po_eltwise_t::round_bf16: return bf16_round(static_cast<float>(x));
    }
    return x;
}

double ref_binary(po_binary_t op, double x, double y) {
    switch (op) {
        case po_binary_t::add: return x + y;
        case po_binary_t::sub: return x - y;
        case po_binary_t::mul: return x * y;
        case po_binary_t::div: return x / y;
        case po_binary_t::max: return std::max(x, y);
        case po_binary_t::min: return std::min(x, y);
    }
    return x;
}

struct operand_t {
    std::vector<float> f;   // values (bf16-exact when src_dt is bf16;
                            // dequantized when it is s8/u8)
    std::vector<uint16_t> h; // bf16 storage
    std::vector<uint8_t> q;  // s8/u8 storage
    const void *ptr() const {
        if (!q.empty()) return q.data();
        return h.empty() ? static_cast<const void *>(f.data()) : h.data();
    }
};

// One run: C = A x B (+ bias) then `po`, by `kind`, on a random shape.
// `fixed_n` > 0: that many columns and 17 rows or more (past the
// few-row paths: the narrow-N path, or the regular one's last strip).
void run_case(ukr_kind_t kind, const postops_t &po_in, bool dst_bf16,
        std::mt19937 &gen, const std::string &what, int64_t fixed_n = 0) {
    std::uniform_int_distribution<int> um(1, 45), un(1, 90), uk(1, 700),
            upad(0, 5), unarrow(17, 45);
    // One case in four is a single row (the dot-product path when B is
    // transposed, which one case in two then is).
    const int64_t M = fixed_n > 0 ? unarrow(gen)
            : gen() % 4 == 0        ? 1
                                    : um(gen);
    const int64_t N = fixed_n > 0 ? fixed_n : un(gen), K = uk(gen);
    const bool bt = gen() % 2 == 0;
    const int64_t lda = K + upad(gen), ldb = (bt ? K : N) + upad(gen),
                  ldd = N + upad(gen);
    const bool bf16_in = kind == ukr_kind_t::bf16_avx512
            || kind == ukr_kind_t::bf16_amx;
    std::uniform_real_distribution<float> u(-1.f, 1.f), upos(0.5f, 1.5f);
    const float bscale = 1.7f / std::sqrt(static_cast<float>(K));
    std::vector<float> af(M * lda, 0.f), bf((bt ? N : K) * ldb, 0.f),
            bias(N + 64, 0.f);
    for (auto &v : af) v = bf16_in ? bf16_round(u(gen)) : u(gen);
    for (auto &v : bf) v = bf16_in ? bf16_round(u(gen) * bscale) : u(gen) * bscale;
    for (int64_t n = 0; n < N; ++n) bias[n] = 0.3f * u(gen);
    std::vector<uint16_t> ah(af.size()), bh(bf.size());
    for (size_t i = 0; i < af.size(); ++i) ah[i] = ir::f32_to_bf16(af[i]);
    for (size_t i = 0; i < bf.size(); ++i) bh[i] = ir::f32_to_bf16(bf[i]);

    postops_t po = po_in;
    // Operands: row strides padded; per-row/full operands get their own ld.
    std::vector<operand_t> ops;
    std::vector<const void *> args;
    for (postop_t &p : po.ops) {
        if (!p.has_operand()) continue;
        int64_t n = 1;
        if (p.bcast == po_bcast_t::col) n = N;
        if (p.bcast == po_bcast_t::row || p.bcast == po_bcast_t::full)
            p.ld = (p.bcast == po_bcast_t::full ? N : 1) + upad(gen);
        if (p.bcast == po_bcast_t::row) n = M * p.ld;
        if (p.bcast == po_bcast_t::full) n = M * p.ld;
        operand_t o;
        o.f.resize(n);
        const bool int8 = p.src_dt == po_dt_t::s8 || p.src_dt == po_dt_t::u8;
        if (int8) { // dequantized by the kernel: (q - q_zp) * q_scale
            p.q_scale = 0.03125f;
            p.q_zp = p.src_dt == po_dt_t::s8 ? -7 : 131;
        }
        for (auto &v : o.f) {
            v = upos(gen) * (p.op == po_binary_t::div ? 1.f : (u(gen) < 0 ? -1.f : 1.f));
            if (p.src_dt == po_dt_t::bf16) v = bf16_round(v);
            if (int8) {
                // Divide keeps q - q_zp away from 0 (q_zp + 16 .. + 48).
                int q = p.op == po_binary_t::div
                        ? p.q_zp + 16 + static_cast<int>(gen() % 32)
                        : static_cast<int>(gen() % 256)
                                - (p.src_dt == po_dt_t::s8 ? 128 : 0);
                q = std::max(p.src_dt == po_dt_t::s8 ? -128 : 0,
                        std::min(p.src_dt == po_dt_t::s8 ? 127 : 255, q));
                o.q.push_back(static_cast<uint8_t>(q));
                v = static_cast<float>((q - p.q_zp) * double(p.q_scale));
            }
        }
        if (p.src_dt == po_dt_t::bf16)
            for (float v : o.f) o.h.push_back(ir::f32_to_bf16(v));
        ops.push_back(std::move(o));
    }
    for (auto &o : ops) args.push_back(o.ptr());

    const po_dt_t ddt = dst_bf16 ? po_dt_t::bf16 : po.dst_dt;
    const size_t des = po_dt_size(ddt);
    std::vector<char> dst(M * ldd * des);
    std::vector<double> prev(M * ldd);
    for (int64_t i = 0; i < M * ldd; ++i) {
        float v = 2.f * u(gen);
        char *p = dst.data() + i * des;
        if (ddt == po_dt_t::f32) std::memcpy(p, &v, 4);
        if (ddt == po_dt_t::bf16) {
            const uint16_t h = ir::f32_to_bf16(v);
            std::memcpy(p, &h, 2);
            v = ir::bf16_to_f32(h);
        }
        if (ddt == po_dt_t::s8) {
            const int8_t q = static_cast<int8_t>(std::lround(v * 40));
            std::memcpy(p, &q, 1);
            v = q;
        }
        if (ddt == po_dt_t::u8) {
            const uint8_t q = static_cast<uint8_t>(std::lround(v * 40 + 100));
            std::memcpy(p, &q, 1);
            v = q;
        }
        prev[i] = v;
    }

    gemm_desc_t d;
    d.kind = kind;
    d.dst_bf16 = dst_bf16;
    d.has_bias = true;
    d.M = M;
    d.N = N;
    d.K = K;
    d.sam = lda;
    d.sak = 1;
    d.sbk = bt ? 1 : ldb;
    d.sbn = bt ? ldb : 1;
    d.sdm = ldd;
    d.post = po;
    gemm_t g;
    isa_guard_t guard(ukr_isa(kind));
    ASSERT_EQ(g.init(d, 2), dnnl_success) << what;
    const std::vector<char> before = dst;
    std::vector<float> biasp(g.bias_cols(), 0.f);
    std::copy(bias.begin(), bias.begin() + N, biasp.begin());
    g.execute(bf16_in ? static_cast<const void *>(ah.data()) : af.data(),
            bf16_in ? static_cast<const void *>(bh.data()) : bf.data(),
            biasp.data(), dst.data(), nullptr, args.data());

    int bad = 0;
    for (int64_t m = 0; m < M && bad < 5; ++m)
        for (int64_t n = 0; n < N && bad < 5; ++n) {
            double x = bias[n];
            for (int64_t k = 0; k < K; ++k)
                x += double(af[m * lda + k]) * bf[bt ? n * ldb + k : k * ldb + n];
            int oi = 0;
            for (const postop_t &p : po.ops) {
                if (p.kind == postop_kind_t::eltwise) {
                    x = ref_eltwise(p, x);
                } else if (p.kind == postop_kind_t::sum) {
                    x += p.sum_scale * (prev[m * ldd + n] - p.sum_zp);
                } else {
                    const operand_t &o = ops[oi++];
                    double y = 0;
                    switch (p.bcast) {
                        case po_bcast_t::scalar: y = o.f[0]; break;
                        case po_bcast_t::col: y = o.f[n]; break;
                        case po_bcast_t::row: y = o.f[m * p.ld]; break;
                        case po_bcast_t::full: y = o.f[m * p.ld + n]; break;
                    }
                    x = p.kind == postop_kind_t::scale
                            ? x * y
                            : ref_binary(p.op, x, y);
                }
            }
            const char *pd = dst.data() + (m * ldd + n) * des;
            double got = 0, tol = 2e-4 * (1 + std::fabs(x));
            if (ddt == po_dt_t::f32) {
                float f;
                std::memcpy(&f, pd, 4);
                got = f;
            } else if (ddt == po_dt_t::bf16) {
                uint16_t h;
                std::memcpy(&h, pd, 2);
                got = ir::bf16_to_f32(h);
                tol += std::fabs(x) / 256;
            } else {
                const double lo = ddt == po_dt_t::s8 ? -128 : 0;
                const double hi = ddt == po_dt_t::s8 ? 127 : 255;
                x = std::nearbyint(
                        std::min(hi, std::max(lo, x / po.dst_scale + po.dst_zp)));
                got = ddt == po_dt_t::s8
                        ? static_cast<double>(*reinterpret_cast<const int8_t *>(pd))
                        : static_cast<double>(*reinterpret_cast<const uint8_t *>(pd));
                tol = 1.0;
            }
            const bool ok = std::isnan(x) ? std::isnan(got)
                                          : std::fabs(got - x) <= tol;
            if (!ok) {
                ++bad;
                ADD_FAILURE() << what << " " << ukr_name(kind) << " "
                              << g.blocking_str() << " M=" << M
                              << " N=" << N << " K=" << K << " at (" << m
                              << "," << n << "): got " << got << " want " << x;
            }
        }
    // Padding columns of dst rows are never written.
    for (int64_t m = 0; m < M; ++m)
        for (size_t b = N * des; b < static_cast<size_t>(ldd) * des; ++b)
            if (dst[m * ldd * des + b] != before[m * ldd * des + b]) {
                ADD_FAILURE() << what << " " << ukr_name(kind) << " M=" << M
                              << " N=" << N << ": row " << m
                              << " written past column N (byte " << b << ")";
                return;
            }
}

using gemm_test::host_kinds;

postops_t chain(std::initializer_list<postop_t> l,
        po_dt_t dst = po_dt_t::f32) {
    postops_t p;
    p.ops = l;
    p.dst_dt = dst;
    return p;
}

TEST(CpuGemmPostops, EachEltwiseAlone) {
    std::mt19937 gen(7);
    using E = po_eltwise_t;
    const std::vector<std::pair<std::string, postops_t>> cases = {
            {"relu", chain({postop_t::make_eltwise(E::relu)})},
            {"leaky_relu", chain({postop_t::make_eltwise(E::leaky_relu, 0.1f)})},
            {"gelu_erf", chain({postop_t::make_eltwise(E::gelu_erf)})},
            {"gelu_tanh", chain({postop_t::make_eltwise(E::gelu_tanh)})},
            {"sigmoid", chain({postop_t::make_eltwise(E::sigmoid)})},
            {"tanh", chain({postop_t::make_eltwise(E::tanh)})},
            {"swish", chain({postop_t::make_eltwise(E::swish, 1.5f)})},
            {"clamp", chain({postop_t::make_eltwise(E::clamp, -0.5f, 0.7f)})},
            {"elu", chain({postop_t::make_eltwise(E::elu, 0.8f)})},
            {"exp", chain({postop_t::make_eltwise(E::exp)})},
            {"square", chain({postop_t::make_eltwise(E::square)})},
            {"abs", chain({postop_t::make_eltwise(E::abs)})},
            {"hardsigmoid",
                    chain({postop_t::make_eltwise(E::hardsigmoid, 1.f / 6, 0.5f)})},
            {"hardswish",
                    chain({postop_t::make_eltwise(E::hardswish, 1.f / 6, 0.5f)})},
            {"linear", chain({postop_t::make_eltwise(E::linear, -2.f, 0.25f)})},
            // log and sqrt on x^2 + 0.5 / |x| + 0.1 keep the inputs where
            // GEMM rounding is not amplified without bound.
            {"log", chain({postop_t::make_eltwise(E::square),
                            postop_t::make_eltwise(E::linear, 1.f, 0.5f),
                            postop_t::make_eltwise(E::log)})},
            {"sqrt", chain({postop_t::make_eltwise(E::abs),
                             postop_t::make_eltwise(E::linear, 1.f, 0.1f),
                             postop_t::make_eltwise(E::sqrt)})},
    };
    int n = 0;
    for (ukr_kind_t k : host_kinds())
        for (const auto &c : cases)
            for (int rep = 0; rep < 2; ++rep) {
                run_case(k, c.second, false, gen, c.first);
                ++n;
            }
    std::printf("[ postops  ] eltwise: %d runs\n", n);
}

TEST(CpuGemmPostops, ScaleAndBinaryEveryBroadcast) {
    std::mt19937 gen(11);
    int n = 0;
    for (ukr_kind_t k : host_kinds()) {
        for (bool per_col : {false, true})
            run_case(k, chain({postop_t::make_scale(per_col)}), false, gen,
                    per_col ? "scale:col" : "scale:scalar");
        for (int op = 0; op < 6; ++op)
            for (int bc = 0; bc < 4; ++bc)
                for (po_dt_t dt : {po_dt_t::f32, po_dt_t::bf16, po_dt_t::s8,
                             po_dt_t::u8}) {
                    const postops_t p = chain({postop_t::make_binary(
                            static_cast<po_binary_t>(op),
                            static_cast<po_bcast_t>(bc), dt)});
                    run_case(k, p, false, gen, "binary " + p.str());
                    ++n;
                }
    }
    std::printf("[ postops  ] binary: %d runs\n", n);
}

TEST(CpuGemmPostops, SumAndDestinationTypes) {
    std::mt19937 gen(13);
    for (ukr_kind_t k : host_kinds()) {
        const bool z = k != ukr_kind_t::f32_avx2;
        run_case(k, chain({postop_t::make_sum()}), false, gen, "sum");
        run_case(k, chain({postop_t::make_sum(0.5f)}), false, gen, "sum 0.5");
        // int8 destinations on every flavour (AVX2 stores a tail vector's
        // bytes one by one; random N leaves tails of every width).
        for (po_dt_t dt : {po_dt_t::s8, po_dt_t::u8})
            for (int rep = 0; rep < 3; ++rep) {
                postops_t p = chain({}, dt);
                p.dst_scale = 0.02f;
                p.dst_zp = dt == po_dt_t::u8 ? 128 : 3;
                run_case(k, p, false, gen, "int8 dst");
            }
        // bf16 destinations (AVX2 stores a tail's words one by one).
        for (int rep = 0; rep < 3; ++rep)
            run_case(k, chain({postop_t::make_eltwise(po_eltwise_t::relu)},
                                po_dt_t::bf16),
                    false, gen, "relu->bf16");
        if (!z) continue; // AVX2 sums into an f32 dst only
        run_case(k, chain({postop_t::make_sum(0.75f)}), true, gen, "sum bf16");
        run_case(k, chain({postop_t::make_eltwise(po_eltwise_t::relu)}), true,
                gen, "relu bf16");
        for (po_dt_t dt : {po_dt_t::s8, po_dt_t::u8}) {
            postops_t p = chain({}, dt);
            p.dst_scale = 0.02f;
            p.dst_zp = dt == po_dt_t::u8 ? 128 : 3;
            postops_t s = chain({postop_t::make_sum(1.f, p.dst_zp)}, dt);
            s.dst_scale = 1.f;
            s.dst_zp = p.dst_zp;
            run_case(k, s, false, gen, "int8 dst + sum");
        }
    }
}

TEST(CpuGemmPostops, Chains) {
    std::mt19937 gen(17);
    using E = po_eltwise_t;
    for (ukr_kind_t k : host_kinds()) {
        const bool z = k != ukr_kind_t::f32_avx2;
        run_case(k,
                chain({postop_t::make_scale(true),
                        postop_t::make_binary(po_binary_t::add,
                                po_bcast_t::full),
                        postop_t::make_eltwise(E::gelu_erf)}),
                false, gen, "scale+add+gelu");
        run_case(k,
                chain({postop_t::make_eltwise(E::swish, 1.f),
                        postop_t::make_binary(po_binary_t::mul,
                                po_bcast_t::row),
                        postop_t::make_sum(0.5f),
                        postop_t::make_eltwise(E::clamp, -1.f, 1.f)}),
                false, gen, "swish+mul+sum+clamp");
        postops_t t = chain({postop_t::make_binary(po_binary_t::max,
                                     po_bcast_t::col),
                                    postop_t::make_eltwise(E::tanh)},
                po_dt_t::u8);
        t.dst_scale = 0.01f;
        t.dst_zp = 100;
        run_case(k, t, false, gen, "max+tanh->u8");
        run_case(k,
                chain({postop_t::make_binary(po_binary_t::mul,
                               po_bcast_t::full, po_dt_t::bf16),
                        postop_t::make_eltwise(E::gelu_tanh)},
                        po_dt_t::bf16),
                false, gen, "mul(bf16)+gelu->bf16");
        if (!z) continue;
        postops_t q = chain({postop_t::make_binary(po_binary_t::max,
                                     po_bcast_t::col, po_dt_t::bf16),
                                    postop_t::make_eltwise(E::tanh),
                                    postop_t::make_scale(false)},
                po_dt_t::s8);
        q.dst_scale = 0.01f;
        run_case(k, q, false, gen, "max+tanh+scale->s8");
        run_case(k,
                chain({postop_t::make_eltwise(E::sigmoid),
                        postop_t::make_binary(po_binary_t::sub,
                                po_bcast_t::full, po_dt_t::bf16),
                        postop_t::make_sum()}),
                true, gen, "sigmoid+sub+sum->bf16");
    }
}

// The narrow-N path (1..4 columns) and the regular path's last strip of
// one column (N = NR + 1) finish their dot products with the tile
// kernels' epilogue: operands of every broadcast, scale and sum, and the
// int8 and bf16 destinations.
TEST(CpuGemmPostops, NarrowColumns) {
    std::mt19937 gen(19);
    using E = po_eltwise_t;
    for (ukr_kind_t k : host_kinds())
        for (int64_t cols : {int64_t(1), int64_t(2), int64_t(3), int64_t(4),
                     int64_t(ukr_shape(k).nr) + 1}) {
            for (int bc = 0; bc < 4; ++bc) {
                const postops_t p = chain({postop_t::make_binary(
                                                   po_binary_t::add,
                                                   static_cast<po_bcast_t>(bc)),
                        postop_t::make_eltwise(E::gelu_erf)});
                run_case(k, p, false, gen, "narrow " + p.str(), cols);
            }
            run_case(k,
                    chain({postop_t::make_scale(true), postop_t::make_sum(0.5f)}),
                    false, gen, "narrow scale+sum", cols);
            postops_t t = chain({postop_t::make_eltwise(E::tanh)}, po_dt_t::u8);
            t.dst_scale = 0.01f;
            t.dst_zp = 100;
            run_case(k, t, false, gen, "narrow tanh->u8", cols);
            if (k != ukr_kind_t::f32_avx2)
                run_case(k, chain({postop_t::make_eltwise(E::relu)}), true, gen,
                        "narrow relu->bf16", cols);
        }
}

} // namespace
} // namespace cpu
} // namespace llga

namespace llga {
namespace cpu {
namespace {

// Batched GEMM with a per-batch [M, N] binary operand and a per-row one:
// once with gaps between batches (not foldable: runs batched) and once
// packed tightly with shared B (folded into M), on every flavour.
TEST(CpuGemmPostops, BatchStridesOfOperands) {
    std::mt19937 gen(29);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    for (ukr_kind_t kind : host_kinds()) {
        isa_guard_t guard(ukr_isa(kind));
        const bool bf = kind == ukr_kind_t::bf16_avx512
                || kind == ukr_kind_t::bf16_amx;
        for (int64_t M : {1, 5, 37})
            for (bool gaps : {true, false}) {
                const int64_t NB = 3, N = 45, K = 70, gap = gaps ? 7 : 0;
                const int64_t abs_ = M * K + gap, dbs = M * N + gap;
                const int64_t fld = N + (gaps ? 2 : 0), fbs = M * fld + gap;
                std::vector<float> af(NB * abs_), bfv(K * N), full(NB * fbs),
                        rowv(NB * M);
                auto rnd = [&] {
                    const float v = u(gen);
                    return bf ? ir::bf16_to_f32(ir::f32_to_bf16(v)) : v;
                };
                for (auto &v : af) v = rnd();
                for (auto &v : bfv) v = rnd();
                for (auto &v : full) v = u(gen);
                for (auto &v : rowv) v = u(gen);
                std::vector<uint16_t> ah(af.size()), bh(bfv.size());
                for (size_t i = 0; i < af.size(); ++i) ah[i] = ir::f32_to_bf16(af[i]);
                for (size_t i = 0; i < bfv.size(); ++i) bh[i] = ir::f32_to_bf16(bfv[i]);
                gemm_desc_t d = gemm_test::dense_desc(kind, M, N, K);
                d.batch = {NB};
                d.a_bs = {abs_};
                d.b_bs = {0};
                d.d_bs = {dbs};
                postop_t add = postop_t::make_binary(
                        po_binary_t::add, po_bcast_t::full, po_dt_t::f32, fld);
                add.bs = {fbs};
                postop_t mul = postop_t::make_binary(
                        po_binary_t::mul, po_bcast_t::row, po_dt_t::f32, 1);
                mul.bs = {M};
                d.post.ops = {add, mul};
                fold_batch_into_m(d);
                // One row folds whatever the gaps (batch strides become row
                // strides).
                EXPECT_EQ(d.batch.empty(), !gaps || M == 1);
                gemm_t g;
                ASSERT_EQ(g.init(d, 2), dnnl_success);
                std::vector<float> c(NB * dbs, 0.f);
                const void *args[] = {full.data(), rowv.data()};
                g.execute(bf ? static_cast<const void *>(ah.data()) : af.data(),
                        bf ? static_cast<const void *>(bh.data()) : bfv.data(),
                        nullptr, c.data(), nullptr, args);
                int bad = 0;
                for (int64_t b = 0; b < NB; ++b)
                    for (int64_t m = 0; m < M; ++m)
                        for (int64_t n = 0; n < N; ++n) {
                            double x = 0;
                            for (int64_t k = 0; k < K; ++k)
                                x += double(af[b * abs_ + m * K + k])
                                        * bfv[k * N + n];
                            x = (x + full[b * fbs + m * fld + n])
                                    * rowv[b * M + m];
                            const double got = c[b * dbs + m * N + n];
                            if (!(std::fabs(got - x) <= 1e-4 * (1 + std::fabs(x)))
                                    && bad++ < 3)
                                ADD_FAILURE() << ukr_name(kind) << " M=" << M
                                              << " gaps=" << gaps << " b=" << b
                                              << " (" << m << "," << n
                                              << ") got " << got << " want "
                                              << x << " " << g.blocking_str();
                        }
            }
    }
}

// The AVX2 in-place chain (operands as memory operands, no spill) and the
// others: a full and a per-column operand each ending at a guard page, so
// a tail vector read without its mask faults; A's row 1 is NaN and must
// stay NaN through the ReLU (the reference's max keeps it). The regular
// tiles (37 rows) and the few-row kernels (3 rows), N = 20 (a tail of 4).
TEST(CpuGemmPostops, OperandTailsStayInsideAndReluKeepsNaN) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (ukr_kind_t kind : {ukr_kind_t::f32_avx2, ukr_kind_t::f32_avx512}) {
        if (!host_supports(ukr_isa(kind))) continue;
        isa_guard_t guard(ukr_isa(kind));
        for (int64_t M : {3, 37}) {
            const int64_t N = 20, K = 37;
            gemm_test::guarded_floats_t full(static_cast<size_t>(M * N)),
                    col(static_cast<size_t>(N));
            ASSERT_TRUE(full.ok() && col.ok());
            std::vector<float> a(static_cast<size_t>(M * K)),
                    b(static_cast<size_t>(K * N)),
                    dst(static_cast<size_t>(M * N), -1.f);
            for (size_t i = 0; i < a.size(); ++i)
                a[i] = i / K == 1 ? nan : static_cast<float>(i % 5) - 2.f;
            for (size_t i = 0; i < b.size(); ++i)
                b[i] = static_cast<float>(i % 7) - 3.f;
            for (int64_t i = 0; i < M * N; ++i)
                full.data()[i] = static_cast<float>(i % 9) - 4.f;
            for (int64_t j = 0; j < N; ++j)
                col.data()[j] = static_cast<float>(j % 3) - 1.f;
            gemm_desc_t d = gemm_test::dense_desc(kind, M, N, K);
            d.post = chain({postop_t::make_binary(po_binary_t::add,
                                    po_bcast_t::full, po_dt_t::f32, N),
                    postop_t::make_binary(po_binary_t::mul, po_bcast_t::col,
                            po_dt_t::f32, 0),
                    postop_t::make_eltwise(po_eltwise_t::relu)});
            gemm_t g;
            ASSERT_EQ(g.init(d, 1), dnnl_success);
            const void *args[2] = {full.data(), col.data()};
            g.execute(a.data(), b.data(), nullptr, dst.data(), nullptr, args);
            for (int64_t m = 0; m < M; ++m)
                for (int64_t n = 0; n < N; ++n) {
                    const float got = dst[static_cast<size_t>(m * N + n)];
                    if (m == 1) {
                        EXPECT_TRUE(std::isnan(got)) << ukr_name(kind) << " "
                                                     << n << ": " << got;
                        continue;
                    }
                    double x = 0;
                    for (int64_t k = 0; k < K; ++k)
                        x += double(a[size_t(m * K + k)]) * b[size_t(k * N + n)];
                    x = (x + full.data()[m * N + n]) * col.data()[n];
                    EXPECT_EQ(got, static_cast<float>(std::max(x, 0.0)))
                            << ukr_name(kind) << " M=" << M << " (" << m
                            << "," << n << ")";
                }
        }
    }
}

// s8/u8 operands (dequantized in the chain): a full s8 and a per-column
// u8 operand each ending at a guard page, N = 21 (a tail of 5 lanes), so
// a tail vector's bytes read past the last valid one fault. The values are
// small integers and multiples of 1/4: every result is exact.
TEST(CpuGemmPostops, Int8OperandTailsStayInside) {
    for (ukr_kind_t kind : {ukr_kind_t::f32_avx2, ukr_kind_t::f32_avx512}) {
        if (!host_supports(ukr_isa(kind))) continue;
        isa_guard_t guard(ukr_isa(kind));
        for (int64_t M : {3, 37}) {
            const int64_t N = 21, K = 19;
            gemm_test::guarded_floats_t full(static_cast<size_t>(M * N), 1),
                    col(static_cast<size_t>(N), 1);
            ASSERT_TRUE(full.ok() && col.ok());
            std::vector<float> a(static_cast<size_t>(M * K)),
                    b(static_cast<size_t>(K * N)),
                    dst(static_cast<size_t>(M * N), -1.f);
            for (size_t i = 0; i < a.size(); ++i)
                a[i] = static_cast<float>(i % 5) - 2.f;
            for (size_t i = 0; i < b.size(); ++i)
                b[i] = static_cast<float>(i % 7) - 3.f;
            for (int64_t i = 0; i < M * N; ++i)
                full.bytes()[i] = static_cast<uint8_t>(
                        static_cast<int8_t>(i % 251 - 125));
            for (int64_t j = 0; j < N; ++j)
                col.bytes()[j] = static_cast<uint8_t>(90 + 3 * j);
            postop_t add = postop_t::make_binary(
                    po_binary_t::add, po_bcast_t::full, po_dt_t::s8, N);
            add.q_scale = 0.5f;
            add.q_zp = 3;
            postop_t mul = postop_t::make_binary(
                    po_binary_t::mul, po_bcast_t::col, po_dt_t::u8, 0);
            mul.q_scale = 0.25f;
            mul.q_zp = 100;
            gemm_desc_t d = gemm_test::dense_desc(kind, M, N, K);
            d.post = chain({add, mul});
            gemm_t g;
            ASSERT_EQ(g.init(d, 1), dnnl_success);
            const void *args[2] = {full.bytes(), col.bytes()};
            g.execute(a.data(), b.data(), nullptr, dst.data(), nullptr, args);
            for (int64_t m = 0; m < M; ++m)
                for (int64_t n = 0; n < N; ++n) {
                    double x = 0;
                    for (int64_t k = 0; k < K; ++k)
                        x += double(a[size_t(m * K + k)]) * b[size_t(k * N + n)];
                    const int q = static_cast<int8_t>(full.bytes()[m * N + n]);
                    x = (x + (q - 3) * 0.5) * ((col.bytes()[n] - 100) * 0.25);
                    EXPECT_EQ(dst[static_cast<size_t>(m * N + n)],
                            static_cast<float>(x))
                            << ukr_name(kind) << " M=" << M << " (" << m << ","
                            << n << ")";
                }
        }
    }
}

} // namespace
} // namespace cpu
} // namespace llga
