// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/common/cpu_convert_rows_test.cpp — the vectorised
// bf16/f16 <-> f32 row conversions (backends/cpu/kernels/convert_rows.hpp)
// against the scalar ones of ir/dtype.hpp, which the reference uses: NaNs with
// payloads, infinities, denormals and halfway cases, in every position of the
// 8-wide vectors and of the padded tails, contiguous and strided.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/kernels/common/convert_rows.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace {

float float_of_bits(uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

// Edge values first, then random ones over the f16 range and below it.
std::vector<float> values() {
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> v = {0.f, -0.f, 1.f, -2.5f, 65504.f, 65520.f, 1e-8f,
            6e-5f, 3.4e38f, inf, -inf, std::numeric_limits<float>::quiet_NaN(),
            1.00390625f, 1.01171875f};
    // Signalling and negative NaNs with payloads, and bf16 ties to even
    // both ways (the narrowing's own bit logic, not only the rounding).
    for (uint32_t bits : {0x7f800001u, 0xffc12345u, 0x7fa00000u, 0x3f808000u,
                 0x3f818000u, 0xbf808000u, 0x3f80ffffu})
        v.push_back(float_of_bits(bits));
    std::mt19937 gen(9);
    std::uniform_real_distribution<float> u(-70000.f, 70000.f);
    while (v.size() < 203)
        v.push_back(u(gen) * (v.size() % 3 == 0 ? 1e-6f : 1.f));
    return v;
}

// x and y equal, or both NaN.
bool same(float x, float y) {
    return x == y || (std::isnan(x) && std::isnan(y));
}

// Every window [s, s + n) of the values, n = 0..17 (vectors, tails and
// both), through round_row, narrow_row and a contiguous widen_matrix.
TEST(CpuConvertRows, MatchTheScalarConversionsInEveryLanePosition) {
    const std::vector<float> v = values();
    for (data_type_t dt : {dnnl_bf16, dnnl_f16}) {
        const bool h = dt == dnnl_f16;
        for (int64_t n = 0; n <= 17; ++n)
            for (int64_t s = 0; s + n <= static_cast<int64_t>(v.size()); s += 3) {
                std::vector<float> r(v.begin() + s, v.begin() + s + n);
                common::round_row(r.data(), n, dt);
                // Guards past the end must stay untouched.
                std::vector<uint16_t> nw(static_cast<size_t>(n) + 1, 0xabcd);
                common::narrow_row(v.data() + s, n, nw.data(), dt);
                std::vector<float> wd(static_cast<size_t>(n) + 1, 7.f);
                common::widen_matrix(nw.data(), dt, 1, n, n, 1, wd.data());
                for (int64_t i = 0; i < n; ++i) {
                    const float x = v[static_cast<size_t>(s + i)];
                    const uint16_t want = h ? ir::f32_to_f16(x) : ir::f32_to_bf16(x);
                    const float back = h ? ir::f16_to_f32(want) : ir::bf16_to_f32(want);
                    const size_t k = static_cast<size_t>(i);
                    ASSERT_EQ(nw[k], want) << n << " " << s << " " << x;
                    ASSERT_TRUE(same(r[k], back)) << n << " " << s << " " << x;
                    ASSERT_TRUE(same(wd[k], back)) << n << " " << s << " " << x;
                }
                ASSERT_EQ(nw[static_cast<size_t>(n)], 0xabcd) << n;
                ASSERT_EQ(wd[static_cast<size_t>(n)], 7.f) << n;
            }
    }
}

// Strided rows (element strides 1..4) and several rows at once.
TEST(CpuConvertRows, StridedRowsWidenLikeTheScalarConversions) {
    const std::vector<float> v = values();
    for (data_type_t dt : {dnnl_bf16, dnnl_f16}) {
        const bool h = dt == dnnl_f16;
        // The values over and over, enough for three rows of 21 x 4.
        std::vector<uint16_t> bits(4 * v.size());
        for (size_t i = 0; i < bits.size(); ++i) {
            const float x = v[i % v.size()];
            bits[i] = h ? ir::f32_to_f16(x) : ir::f32_to_bf16(x);
        }
        for (int64_t cs : {2, 3, 4})
            for (int64_t cols : {1, 7, 8, 9, 21}) {
                const int64_t rows = 3, rs = cols * cs + 1;
                ASSERT_LE((rows - 1) * rs + (cols - 1) * cs,
                        static_cast<int64_t>(bits.size()) - 1);
                std::vector<float> d(static_cast<size_t>(rows * cols));
                common::widen_matrix(bits.data(), dt, rows, cols, rs, cs, d.data());
                for (int64_t r = 0; r < rows; ++r)
                    for (int64_t c = 0; c < cols; ++c) {
                        const uint16_t b = bits[static_cast<size_t>(r * rs + c * cs)];
                        const float want = h ? ir::f16_to_f32(b) : ir::bf16_to_f32(b);
                        ASSERT_TRUE(same(d[static_cast<size_t>(r * cols + c)], want))
                                << cs << " " << cols << " " << r << " " << c;
                    }
            }
    }
}

} // namespace
} // namespace cpu
} // namespace llga
