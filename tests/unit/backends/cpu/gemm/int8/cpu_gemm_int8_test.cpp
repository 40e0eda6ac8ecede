// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/gemm/int8/cpu_gemm_int8_test.cpp — the int8 GEMM
// driver (gemm_int8_t) against a plain-loop formula at every ISA level the host
// has (AMX-INT8, AVX512-VNNI, AVX-VNNI, AVX2): random shapes with M/N/K tails,
// odd and transposed strides, broadcast batches, u8 and s8 src, every dst type,
// per-tensor and per-column scales, zero points, bias, prepacked B; extreme
// values (exact, no 16-bit saturation); and a clean decline below AVX2.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/gemm/int8/gemm_int8.hpp"
#include "cpu_test_isa.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace gemm_int8 {
namespace {

std::vector<isa_t> levels() {
    return test_isa::host_levels({isa_t::avx2, isa_t::avx2_vnni, isa_t::avx512_core_vnni,
                 isa_t::avx512_core_amx});
}

using test_isa::isa_guard_t;

class CpuGemmInt8 : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

float bf16_to_f32(uint16_t h) {
    uint32_t u = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

struct case_t {
    int64_t M, N, K;
    bool src_s8;
    i8_dst_t dst;
    bool ta = false, tb = false; // column-major A / B
    int64_t pad = 0;             // extra elements per row/column stride
    std::vector<int64_t> batch;
    std::vector<int64_t> a_bcast, b_bcast; // 1: broadcast along dim
    bool per_col = false, bias = false, zps = false, prepack = false;
    bool b_u8 = false; // B holds u8 values (gemm_int8_desc_t::wei_u8)
    int threads = 4;
    // Execute once on other A values first: a packed A kept from one
    // execute must never be reused by the next.
    bool rerun = false;
    // A starts this many bytes past a 64-byte boundary (AMX reads whole,
    // line-aligned A rows in place; anything else is packed).
    int a_off = 0;
    // u8 A values: 0 over 0..255; 1 all below 128 (the AVX2 7-bit
    // kernels); 2 the same except a pair of 255 in the middle row against
    // B rows of 127, a pair sum (64770) vpmaddubsw would saturate.
    int a7 = 0;
};

case_t mk(int64_t M, int64_t N, int64_t K, bool s8, i8_dst_t dst) {
    case_t c;
    c.M = M;
    c.N = N;
    c.K = K;
    c.src_s8 = s8;
    c.dst = dst;
    return c;
}

std::string describe(const case_t &c) {
    std::string s = std::to_string(c.M) + "x" + std::to_string(c.N) + "x"
            + std::to_string(c.K) + (c.src_s8 ? " s8" : " u8") + " dst="
            + i8_dst_name(c.dst) + (c.ta ? " ta" : "") + (c.tb ? " tb" : "")
            + " pad=" + std::to_string(c.pad) + " batch=" + std::to_string(c.batch.size())
            + (c.per_col ? " percol" : "") + (c.bias ? " bias" : "")
            + (c.zps ? " zps" : "") + (c.prepack ? " prepack" : "")
            + (c.b_u8 ? " b_u8" : "")
            + " thr=" + std::to_string(c.threads) + (c.rerun ? " rerun" : "")
            + " a_off=" + std::to_string(c.a_off)
            + (c.a7 ? " a7=" + std::to_string(c.a7) : "");
    return s;
}

// Runs one case on the current ISA limit and compares every element.
void run_case(const case_t &c, std::mt19937 &rng) {
    SCOPED_TRACE(describe(c));
    gemm_int8_desc_t d;
    d.src_s8 = c.src_s8;
    d.wei_u8 = c.b_u8;
    d.dst = c.dst;
    d.has_bias = c.bias;
    d.wei_scale_per_col = c.per_col;
    d.M = c.M;
    d.N = c.N;
    d.K = c.K;
    // Matrix strides (elements), with padding to make them odd.
    if (c.ta) { d.sak = c.M + c.pad; d.sam = 1; }
    else { d.sam = c.K + c.pad; d.sak = 1; }
    if (c.tb) { d.sbn = c.K + c.pad; d.sbk = 1; }
    else { d.sbk = c.N + c.pad; d.sbn = 1; }
    d.sdm = c.N + c.pad;
    const int64_t a_mat = c.ta ? c.K * d.sak : c.M * d.sam;
    const int64_t b_mat = c.tb ? c.N * d.sbn : c.K * d.sbk;
    const int64_t d_mat = c.M * d.sdm;
    int64_t na = a_mat, nb = b_mat, nd = d_mat;
    d.batch = c.batch;
    d.a_bs.assign(c.batch.size(), 0);
    d.b_bs.assign(c.batch.size(), 0);
    d.d_bs.assign(c.batch.size(), 0);
    for (size_t i = c.batch.size(); i-- > 0;) {
        const bool ab = i < c.a_bcast.size() && c.a_bcast[i];
        const bool bb = i < c.b_bcast.size() && c.b_bcast[i];
        d.a_bs[i] = ab ? 0 : na;
        d.b_bs[i] = bb ? 0 : nb;
        d.d_bs[i] = nd;
        if (!ab) na *= c.batch[i];
        if (!bb) nb *= c.batch[i];
        nd *= c.batch[i];
    }
    std::vector<uint8_t> abuf(na + 128);
    uint8_t *A = abuf.data()
            + (64 - reinterpret_cast<uintptr_t>(abuf.data()) % 64) % 64 + c.a_off;
    std::vector<int8_t> B(nb);
    std::uniform_int_distribution<int> u8d(0, 255), s8d(-128, 127);
    std::uniform_int_distribution<int> u7d(0, 127);
    for (int64_t i = 0; i < na; ++i)
        A[i] = static_cast<uint8_t>(c.a7 ? u7d(rng) : u8d(rng));
    for (auto &x : B) x = static_cast<int8_t>(s8d(rng));
    if (c.a7 == 2) {
        const int64_t r = c.M / 2, k0 = c.K / 12 * 4; // k0, k0 + 1: a pair
        for (int64_t k = k0; k < k0 + 2; ++k) {
            A[c.ta ? k * d.sak + r : r * d.sam + k] = 255;
            for (int64_t j = 0; j < c.N; ++j)
                B[c.tb ? j * d.sbn + k : k * d.sbk + j] = 127;
        }
    }
    std::uniform_real_distribution<float> fd(0.5f, 2.f);
    gemm_int8_params_t p;
    std::vector<float> wsc(c.per_col ? c.N : 1), bias(c.N);
    for (auto &x : wsc) x = fd(rng) * 0.01f;
    for (auto &x : bias) x = fd(rng) - 1.25f;
    p.src_scale = fd(rng) * 0.05f;
    p.wei_scales = wsc.data();
    if (c.bias) p.bias = bias.data();
    p.dst_scale = fd(rng) * (c.dst == i8_dst_t::f32 ? 1.f : 0.2f);
    if (c.zps) {
        p.src_zp = std::uniform_int_distribution<int>(-5, 20)(rng);
        p.wei_zp = std::uniform_int_distribution<int>(-3, 3)(rng);
        if (c.b_u8) p.wei_zp += 128; // around the middle of the u8 range
        p.dst_zp = std::uniform_int_distribution<int>(-10, 10)(rng);
    }
    const int es = c.dst == i8_dst_t::f32 || c.dst == i8_dst_t::s32 ? 4
            : c.dst == i8_dst_t::bf16 ? 2 : 1;
    std::vector<char> D(nd * es, 0x5a), D0 = D;

    gemm_int8_t g;
    ASSERT_EQ(g.init(d, c.threads), dnnl_success);
    std::vector<char> packed;
    if (c.prepack) {
        ASSERT_TRUE(g.can_prepack_b());
        packed.resize(g.packed_b_bytes());
        g.prepack_b(B.data(), packed.data());
    }
    if (c.rerun) {
        std::vector<uint8_t> A2(na);
        for (auto &x : A2) x = static_cast<uint8_t>(u8d(rng));
        g.execute(A2.data(), B.data(), D.data(), p,
                c.prepack ? packed.data() : nullptr);
    }
    g.execute(A, B.data(), D.data(), p,
            c.prepack ? packed.data() : nullptr);

    // Plain loops over every batch index.
    int64_t nbt = 1;
    for (int64_t b : c.batch) nbt *= b;
    int bad = 0;
    for (int64_t bt = 0; bt < nbt; ++bt) {
        int64_t ao = 0, bo = 0, dof = 0, r = bt;
        for (size_t i = c.batch.size(); i-- > 0;) {
            const int64_t idx = r % c.batch[i];
            r /= c.batch[i];
            ao += idx * d.a_bs[i];
            bo += idx * d.b_bs[i];
            dof += idx * d.d_bs[i];
        }
        for (int64_t m = 0; m < c.M; ++m)
            for (int64_t n = 0; n < c.N + c.pad; ++n) {
                const int64_t off = dof + m * d.sdm + n;
                if (n >= c.N) { // padding columns stay untouched
                    if (std::memcmp(&D[off * es], &D0[off * es], es) != 0 && bad++ < 5)
                        ADD_FAILURE() << "wrote padding at " << m << "," << n;
                    continue;
                }
                int64_t acc = 0;
                for (int64_t k = 0; k < c.K; ++k) {
                    const uint8_t araw = A[ao + m * d.sam + k * d.sak];
                    const int64_t av = c.src_s8 ? static_cast<int8_t>(araw) : araw;
                    const int8_t braw = B[bo + k * d.sbk + n * d.sbn];
                    const int64_t bv = c.b_u8 ? static_cast<uint8_t>(braw) : braw;
                    acc += (av - p.src_zp) * (bv - p.wei_zp);
                }
                const int32_t r32 = static_cast<int32_t>(acc);
                const float f = static_cast<float>(r32)
                                * (p.src_scale * wsc[c.per_col ? n : 0])
                        + (c.bias ? bias[n] : 0.f);
                const char *got = &D[off * es];
                bool ok = true;
                double g_v = 0, e_v = 0;
                switch (c.dst) {
                    case i8_dst_t::s32: {
                        int32_t v;
                        std::memcpy(&v, got, 4);
                        ok = v == r32;
                        g_v = v;
                        e_v = r32;
                        break;
                    }
                    case i8_dst_t::f32: {
                        float v;
                        std::memcpy(&v, got, 4);
                        ok = std::fabs(v - f) <= 1e-5f * std::max(1.f, std::fabs(f));
                        g_v = v;
                        e_v = f;
                        break;
                    }
                    case i8_dst_t::bf16: {
                        uint16_t h;
                        std::memcpy(&h, got, 2);
                        const float v = bf16_to_f32(h);
                        ok = std::fabs(v - f) <= std::fabs(f) / 256.f + 1e-6f;
                        g_v = v;
                        e_v = f;
                        break;
                    }
                    case i8_dst_t::s8:
                    case i8_dst_t::u8: {
                        const bool s8 = c.dst == i8_dst_t::s8;
                        float q = f * (1.f / p.dst_scale) + p.dst_zp;
                        q = std::min(std::max(q, s8 ? -128.f : 0.f), s8 ? 127.f : 255.f);
                        const int e = static_cast<int>(std::nearbyint(q));
                        const int v = s8 ? static_cast<int8_t>(*got)
                                         : static_cast<uint8_t>(*got);
                        // A fused multiply-add may round across .5 once.
                        ok = std::abs(v - e) <= (std::fabs(q - std::floor(q) - 0.5f) < 1e-3f ? 1 : 0);
                        g_v = v;
                        e_v = e;
                        break;
                    }
                }
                if (!ok && bad++ < 5)
                    ADD_FAILURE() << "batch " << bt << " at (" << m << "," << n
                                  << "): got " << g_v << " want " << e_v;
            }
    }
    EXPECT_EQ(bad, 0);
}

const i8_dst_t k_dsts[] = {i8_dst_t::f32, i8_dst_t::bf16, i8_dst_t::s32,
        i8_dst_t::s8, i8_dst_t::u8};

TEST_F(CpuGemmInt8, RandomShapesEveryIsaAndDst) {
    const auto lv = levels();
    if (lv.empty()) GTEST_SKIP() << "host has no int8 dot-product ISA";
    for (isa_t isa : lv) {
        isa_guard_t guard(isa);
        SCOPED_TRACE(isa_name(isa));
        std::mt19937 rng(1234 + static_cast<int>(isa));
        std::uniform_int_distribution<int> md(1, 70), nd(1, 100), kd(1, 300);
        for (int it = 0; it < 40; ++it) {
            case_t c;
            c.M = md(rng);
            c.N = nd(rng);
            c.K = kd(rng);
            c.src_s8 = it % 2;
            c.dst = k_dsts[it % 5];
            c.ta = it % 7 == 3;
            c.tb = it % 3 == 1;
            c.pad = it % 4 == 0 ? 0 : it % 5 + 1;
            c.per_col = it % 3 == 0;
            c.bias = c.dst != i8_dst_t::s32 && it % 2 == 0;
            c.zps = it % 4 >= 2;
            c.prepack = it % 6 == 5;
            c.b_u8 = it % 5 == 2;
            run_case(c, rng);
        }
    }
}

TEST_F(CpuGemmInt8, LargeMultiBlock) {
    // Several M, N and K blocks (K > the 1024 / 512 K blocks, N > 512) and
    // tails.
    for (isa_t isa : levels()) {
        isa_guard_t guard(isa);
        SCOPED_TRACE(isa_name(isa));
        std::mt19937 rng(77);
        for (int s8 = 0; s8 < 2; ++s8) {
            case_t c = mk(131, 577, 1100, s8 == 1, s8 ? i8_dst_t::u8 : i8_dst_t::f32);
            c.zps = true;
            c.per_col = true;
            c.bias = true;
            c.prepack = s8 == 1;
            run_case(c, rng);
            case_t g = mk(1, 1000, 1030, s8 == 1, i8_dst_t::s32); // GEMV
            g.zps = s8 == 0;
            run_case(g, rng);
        }
    }
}

// AMX runs all of K in one block with the C tiles in registers; tile-edge
// rows and columns (15/16/17, 31/32/33), K around the 64-byte chunk, and
// the per-thread packed A block reused across N blocks (one thread, several
// N blocks because the 1 MB B block cap limits nc for long K). Every level.
TEST_F(CpuGemmInt8, TileEdgesAndLongK) {
    for (isa_t isa : levels()) {
        isa_guard_t guard(isa);
        SCOPED_TRACE(isa_name(isa));
        std::mt19937 rng(4242);
        const int64_t ms[] = {1, 12, 15, 16, 17, 31, 32, 33, 65};
        const int64_t ns[] = {1, 15, 16, 17, 31, 32, 33, 97};
        const int64_t ks[] = {1, 4, 63, 64, 65, 127, 128, 193};
        for (int it = 0; it < 24; ++it) {
            case_t c = mk(ms[it % 9], ns[(it * 5 + 1) % 8], ks[(it * 3 + 2) % 8],
                    it % 2 == 1, k_dsts[it % 5]);
            c.pad = it % 3 == 0 ? 0 : 2 * (it % 4) + 1; // odd strides
            c.zps = it % 4 == 1;
            c.per_col = it % 2 == 0;
            c.bias = c.dst != i8_dst_t::s32 && it % 3 != 2;
            c.prepack = it % 5 == 4;
            c.threads = it % 3 == 0 ? 1 : 4;
            c.rerun = it % 6 == 0;
            run_case(c, rng);
        }
        // Long K (not a multiple of 64): several N blocks per M block,
        // packed A reused across them on one thread and on four; odd strides.
        for (int t : {1, 4}) {
            case_t c = mk(70, 300, 4200, t == 4, t == 1 ? i8_dst_t::f32 : i8_dst_t::s8);
            c.pad = 3;
            c.zps = true;
            c.per_col = true;
            c.bias = true;
            c.prepack = t == 1;
            c.threads = t;
            c.rerun = true;
            run_case(c, rng);
        }
        // Batch with its own A per batch (the packed A key includes it).
        case_t b = mk(33, 40, 200, false, i8_dst_t::s32);
        b.batch = {3};
        b.b_bcast = {1};
        b.threads = 1;
        b.rerun = true;
        run_case(b, rng);
    }
}

// AMX reads A's rows in place when K is whole 64-byte chunks, rows are
// line-aligned and the stride spreads a tile over enough L1 sets; the
// partial last panel is packed, and so is every A that fails a condition
// (misaligned, padded stride, 1 KB stride). The panel kernel then runs in
// two calls (in place, packed), the partial strip through the block
// kernel. Every level (the others always pack).
TEST_F(CpuGemmInt8, AmxAInPlaceAndPacked) {
    for (isa_t isa : levels()) {
        isa_guard_t guard(isa);
        SCOPED_TRACE(isa_name(isa));
        std::mt19937 rng(909);
        const int64_t ms[] = {32, 64, 77, 100};
        const int64_t ks[] = {64, 256, 320, 512, 1024};
        for (int it = 0; it < 20; ++it) {
            case_t c = mk(ms[it % 4], it % 3 == 0 ? 97 : 64, ks[it % 5],
                    it % 2 == 1, k_dsts[it % 5]);
            c.a_off = it % 7 == 3 ? 16 : 0;
            c.pad = it % 9 == 8 ? 64 : 0; // stride K + 64: still in place
            c.zps = it % 4 == 2;
            c.per_col = true;
            c.bias = c.dst != i8_dst_t::s32;
            c.prepack = it % 2 == 0;
            c.threads = it % 3 == 1 ? 4 : 1;
            c.rerun = it % 5 == 0;
            run_case(c, rng);
        }
        case_t b = mk(64, 64, 128, false, i8_dst_t::f32); // per-batch A
        b.batch = {3};
        b.b_bcast = {1};
        b.threads = 1;
        b.rerun = true;
        run_case(b, rng);
    }
}

TEST_F(CpuGemmInt8, BatchBroadcast) {
    for (isa_t isa : levels()) {
        isa_guard_t guard(isa);
        SCOPED_TRACE(isa_name(isa));
        std::mt19937 rng(99);
        for (int it = 0; it < 6; ++it) {
            case_t c = mk(17 + it, 33 + 5 * it, 45 + 13 * it, it % 2 == 1,
                    k_dsts[it % 5]);
            c.batch = {2, 3};
            c.a_bcast = {it % 3 == 0, 0};
            c.b_bcast = {0, it % 2 == 0};
            c.pad = it % 3;
            c.zps = it >= 3;
            c.bias = c.dst != i8_dst_t::s32;
            run_case(c, rng);
        }
        // Shared weights (prepacked) over a batch.
        case_t w = mk(40, 70, 130, true, i8_dst_t::bf16);
        w.batch = {3};
        w.b_bcast = {1};
        w.prepack = true;
        run_case(w, rng);
    }
}

// Extreme operands, where a saturating 16-bit pair sum (vpmaddubsw:
// 255 * -128 * 2 < -32768) would go wrong: every dst element is exactly
// K * a * b, at every level.
TEST_F(CpuGemmInt8, ExtremeValuesAreExact) {
    const int64_t M = 5, N = 24, K = 68;
    for (isa_t isa : levels()) {
        isa_guard_t guard(isa);
        SCOPED_TRACE(isa_name(isa));
        for (int b : {-128, 127}) {
            gemm_int8_desc_t d; // row-major A, B and dst
            d.M = M;
            d.N = d.sbk = d.sdm = N;
            d.K = d.sam = K;
            d.sak = d.sbn = 1;
            d.dst = i8_dst_t::s32;
            gemm_int8_t g;
            ASSERT_EQ(g.init(d, 1), dnnl_success);
            std::vector<uint8_t> a(M * K, 255);
            std::vector<int8_t> w(K * N, static_cast<int8_t>(b));
            std::vector<int32_t> c(M * N, 0);
            g.execute(a.data(), w.data(), c.data(), gemm_int8_params_t());
            for (int32_t v : c)
                ASSERT_EQ(v, K * 255 * b) << g.blocking_str();
        }
    }
}

// u8 A below 128 (PyTorch's reduce_range activations): on AVX2 its panels
// run the vpmaddubsw kernels, other panels of the same GEMM the exact
// word kernels; both must match the reference exactly, at every level.
TEST_F(CpuGemmInt8, SevenBitSourcePanelsAreExact) {
    std::mt19937 rng(77);
    for (isa_t isa : levels()) {
        isa_guard_t guard(isa);
        SCOPED_TRACE(isa_name(isa));
        for (int a7 : {1, 2})
            for (i8_dst_t dst : {i8_dst_t::s32, i8_dst_t::f32, i8_dst_t::u8}) {
                case_t c = mk(29, 37, 1100, false, dst); // tails, 3+ K blocks
                c.a7 = a7;
                c.zps = dst != i8_dst_t::s32;
                c.per_col = c.bias = dst == i8_dst_t::f32;
                run_case(c, rng);
                case_t t = mk(2, 16, 77, false, dst); // few rows, transposed A
                t.a7 = a7;
                t.ta = true;
                t.threads = 1;
                run_case(t, rng);
            }
        // The largest pair sums the 7-bit kernels form: 127 * -128 * 2.
        gemm_int8_desc_t d;
        d.M = 7;
        d.N = d.sbk = d.sdm = 40;
        d.K = d.sam = 130;
        d.sak = d.sbn = 1;
        d.dst = i8_dst_t::s32;
        gemm_int8_t g;
        ASSERT_EQ(g.init(d, 1), dnnl_success);
        for (int b : {-128, 127}) {
            std::vector<uint8_t> a(d.M * d.K, 127);
            std::vector<int8_t> w(d.K * d.N, static_cast<int8_t>(b));
            std::vector<int32_t> out(d.M * d.N, 0);
            g.execute(a.data(), w.data(), out.data(), gemm_int8_params_t());
            for (int32_t v : out)
                ASSERT_EQ(v, 130 * 127 * b);
        }
    }
}

TEST_F(CpuGemmInt8, DeclinesBelowAvx2) {
    if (!host_supports(isa_t::avx)) GTEST_SKIP();
    isa_guard_t guard(isa_t::avx);
    gemm_int8_desc_t d;
    d.M = d.N = d.K = 8;
    d.sam = d.sbk = d.sdm = 8;
    d.sak = d.sbn = 1;
    gemm_int8_t g;
    EXPECT_EQ(g.init(d, 1), dnnl_unimplemented);
}

TEST_F(CpuGemmInt8, RejectsBadDescriptions) {
    if (levels().empty()) GTEST_SKIP();
    gemm_int8_desc_t d;
    d.M = d.N = d.K = 8;
    d.sam = d.sbk = d.sdm = 8;
    d.sak = d.sbn = 1;
    d.dst = i8_dst_t::s32;
    d.has_bias = true; // s32 dst carries no scales and no bias
    gemm_int8_t g;
    EXPECT_EQ(g.init(d, 1), dnnl_unimplemented);
    d.has_bias = false;
    d.K = 0;
    EXPECT_EQ(g.init(d, 1), dnnl_invalid_arguments);
    d.K = 8;
    d.batch = {2};
    EXPECT_EQ(g.init(d, 1), dnnl_invalid_arguments); // no batch strides
}

TEST_F(CpuGemmInt8, PicksBestFlavour) {
    gemm_int8_desc_t d;
    d.M = d.N = d.K = 64;
    d.sam = d.sbk = d.sdm = 64;
    d.sak = d.sbn = 1;
    for (isa_t isa : levels()) {
        isa_guard_t guard(isa);
        gemm_int8_t g;
        ASSERT_EQ(g.init(d, 2), dnnl_success);
        const i8_kind_t want = isa == isa_t::avx512_core_amx ? i8_kind_t::amx
                : isa == isa_t::avx512_core_vnni              ? i8_kind_t::vnni512
                : isa == isa_t::avx2_vnni                     ? i8_kind_t::vnni256
                                                              : i8_kind_t::avx2;
        EXPECT_EQ(g.kind(), want) << g.blocking_str();
    }
    // Few rows: AMX would mostly compute padding, VNNI takes them.
    if (host_supports(isa_t::avx512_core_amx)) {
        isa_guard_t guard(isa_t::avx512_core_amx);
        d.M = 4;
        gemm_int8_t g;
        ASSERT_EQ(g.init(d, 1), dnnl_success);
        EXPECT_EQ(g.kind(), i8_kind_t::vnni512);
    }
}

TEST_F(CpuGemmInt8, FoldsSharedWeightBatchIntoM) {
    gemm_int8_desc_t d;
    d.M = 5;
    d.N = 16;
    d.K = 8;
    d.sam = 8;
    d.sak = 1;
    d.sbk = 16;
    d.sbn = 1;
    d.sdm = 16;
    d.batch = {2, 3};
    d.a_bs = {120, 40};
    d.b_bs = {0, 0};
    d.d_bs = {240, 80};
    fold_batch_into_m(d);
    EXPECT_EQ(d.M, 30);
    EXPECT_TRUE(d.batch.empty());
    // A batch dim with its own B stays a batch.
    d.M = 5;
    d.batch = {2};
    d.a_bs = {40};
    d.b_bs = {128};
    d.d_bs = {80};
    fold_batch_into_m(d);
    EXPECT_EQ(d.M, 5);
    EXPECT_EQ(d.batch.size(), 1u);
}

} // namespace
} // namespace gemm_int8
} // namespace cpu
} // namespace llga
