// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/conv/cpu_conv_copy_test.cpp — the NCX <-> dense NXC
// moves of conv_copy.hpp (to_dense_nxc / from_dense_nxc) for 1-, 2- and 4-byte
// elements, against an index-by-index loop written here: channel counts around
// the 8- and 16-channel tiles and the 16-channel blocks, widths around the 8-
// and 16-pixel tiles, 1 to 3 spatial dims, padded strides on the strided side,
// and strided (non-unit) pixel steps that must take the element path. Padding
// of the strided destination stays untouched.
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/kernels/conv/conv_copy_p.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

class CpuConvCopy : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

// Element e of a buffer of es-byte values, as an integer.
uint32_t get(const std::vector<uint8_t> &b, size_t es, int64_t e) {
    uint32_t v = 0;
    std::memcpy(&v, b.data() + e * static_cast<int64_t>(es), es);
    return v;
}

struct geom_t {
    int64_t N, C, D, H, W;
    int64_t s[5]; // (n, c, d, h, w) strides of the strided side
    int64_t span; // elements the strided side covers
};

// Channel-first strides with padding after each w row, h plane and
// channel, and `ws` elements between pixels.
geom_t make_geom(std::mt19937 &gen, int64_t C, int64_t W, int nsp, int64_t ws) {
    geom_t g;
    g.N = 1 + gen() % 2;
    g.C = C;
    g.D = nsp == 3 ? 2 : 1;
    g.H = nsp >= 2 ? 1 + gen() % 3 : 1;
    g.W = W;
    g.s[4] = ws;
    g.s[3] = W * ws + static_cast<int64_t>(gen() % 3);
    g.s[2] = g.H * g.s[3] + static_cast<int64_t>(gen() % 2);
    g.s[1] = g.D * g.s[2] + static_cast<int64_t>(gen() % 5);
    g.s[0] = C * g.s[1] + 3;
    g.span = g.N * g.s[0];
    return g;
}

int64_t strided_at(const geom_t &g, int64_t n, int64_t c, int64_t d,
        int64_t h, int64_t w) {
    return n * g.s[0] + c * g.s[1] + d * g.s[2] + h * g.s[3] + w * g.s[4];
}

int64_t dense_at(const geom_t &g, int64_t n, int64_t c, int64_t d, int64_t h,
        int64_t w) {
    return (((n * g.D + d) * g.H + h) * g.W + w) * g.C + c;
}

void check_case(const geom_t &g, size_t es, const std::string &what) {
    std::mt19937 gen(static_cast<unsigned>(g.C * 131 + g.W * 7 + es));
    const int64_t dense_n = g.N * g.D * g.H * g.W * g.C;
    std::vector<uint8_t> strided(static_cast<size_t>(g.span) * es),
            dense(static_cast<size_t>(dense_n) * es, 0xee);
    for (auto &b : strided)
        b = static_cast<uint8_t>(gen());
    conv::to_dense_nxc(reinterpret_cast<const char *>(strided.data()), g.s, g.N,
            g.C, g.D, g.H, g.W, es, reinterpret_cast<char *>(dense.data()));
    int bad = 0;
    for (int64_t n = 0; n < g.N; ++n)
        for (int64_t c = 0; c < g.C; ++c)
            for (int64_t d = 0; d < g.D; ++d)
                for (int64_t h = 0; h < g.H; ++h)
                    for (int64_t w = 0; w < g.W; ++w)
                        if (get(dense, es, dense_at(g, n, c, d, h, w))
                                        != get(strided, es,
                                                strided_at(g, n, c, d, h, w))
                                && bad++ < 3)
                            ADD_FAILURE() << what << " to NXC: (" << n << ","
                                          << c << "," << d << "," << h << ","
                                          << w << ")";
    // And back into a fresh strided buffer: every element lands where it
    // came from, the padding keeps its bytes.
    std::vector<uint8_t> back(strided.size(), 0x5a), want = back;
    for (int64_t n = 0; n < g.N; ++n)
        for (int64_t c = 0; c < g.C; ++c)
            for (int64_t d = 0; d < g.D; ++d)
                for (int64_t h = 0; h < g.H; ++h)
                    for (int64_t w = 0; w < g.W; ++w)
                        std::memcpy(want.data()
                                        + strided_at(g, n, c, d, h, w) * es,
                                dense.data() + dense_at(g, n, c, d, h, w) * es,
                                es);
    conv::from_dense_nxc(reinterpret_cast<const char *>(dense.data()), g.N, g.C,
            g.D, g.H, g.W, es, reinterpret_cast<char *>(back.data()), g.s);
    EXPECT_TRUE(back == want) << what << " back to NCX";
}

TEST_F(CpuConvCopy, DenseNxcBothWays) {
    std::mt19937 gen(3);
    int n = 0;
    for (size_t es : {1u, 2u, 4u})
        for (int64_t C : {1, 3, 7, 8, 9, 15, 16, 17, 24, 33, 64})
            for (int64_t W : {1, 5, 8, 9, 16, 17, 31, 40})
                for (int64_t ws : {1, 2}) {
                    const int nsp = 1 + static_cast<int>(gen() % 3);
                    const geom_t g = make_geom(gen, C, W, nsp, ws);
                    check_case(g,
                            es,
                            "es " + std::to_string(es) + " C " + std::to_string(C)
                                    + " W " + std::to_string(W) + " ws "
                                    + std::to_string(ws) + " nsp "
                                    + std::to_string(nsp));
                    ++n;
                }
    std::printf("[ conv copy ] %d cases\n", n);
}

} // namespace
} // namespace cpu
} // namespace llga
