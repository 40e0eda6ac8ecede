// SPDX-License-Identifier: Apache-2.0
// tests/unit/base/checked_size_test.cpp — the checked size arithmetic:
// element counts, spans, bytes and the overlap test, with expected values
// derived by hand at the edges of int64 and of the 2^48 bound.
#include <gtest/gtest.h>

#include "base/checked_size.hpp"
#include "base/status.hpp"

namespace llga {
namespace {

constexpr int64_t k48 = int64_t(1) << 48;

TEST(CheckedSize, Nelems) {
    int64_t n = -1;
    const dim_t ok[] = {2, 3, 4};
    ASSERT_TRUE(checked_nelems(ok, 3, n));
    EXPECT_EQ(n, 24);
    const dim_t edge[] = {int64_t(1) << 24, int64_t(1) << 24};
    ASSERT_TRUE(checked_nelems(edge, 2, n));
    EXPECT_EQ(n, k48);
    const dim_t over[] = {(int64_t(1) << 24) + 1, int64_t(1) << 24};
    EXPECT_FALSE(checked_nelems(over, 2, n));
    const dim_t wrap[] = {(int64_t(1) << 62) + 1, 4}; // wraps to 4 in int64
    EXPECT_FALSE(checked_nelems(wrap, 2, n));
    const dim_t neg[] = {2, -3};
    EXPECT_FALSE(checked_nelems(neg, 2, n));
    const dim_t zero[] = {0, INT64_MAX};
    EXPECT_FALSE(checked_nelems(zero, 2, n)); // a dim past 2^48 is refused
    ASSERT_TRUE(checked_nelems(nullptr, 0, n));
    EXPECT_EQ(n, 1);
}

// Found by fuzz_capi: {0, 2^31, 2^32} holds no element, but its dense
// strides multiply 2^31 * 2^32; the extent (zeros as 1) bounds that.
TEST(CheckedSize, ExtentCountsZeroDimsAsOne) {
    int64_t n = -1;
    const dim_t d[] = {0, int64_t(1) << 31, int64_t(1) << 32};
    ASSERT_TRUE(checked_nelems(d, 3, n));
    EXPECT_EQ(n, 0);
    EXPECT_FALSE(checked_extent(d, 3, n));
    const dim_t ok[] = {0, 3, 0, 4};
    ASSERT_TRUE(checked_extent(ok, 4, n));
    EXPECT_EQ(n, 12);
    logical_tensor_t lt {};
    lt.ndims = 3;
    lt.layout_type = dnnl_graph_layout_type_any;
    for (int k = 0; k < 3; ++k)
        lt.dims[k] = d[k];
    EXPECT_EQ(check_shape(lt, "input"), dnnl_invalid_arguments);
}

TEST(CheckedSize, SpanIsLargestOffsetPlusOne) {
    int64_t s = -1;
    const dim_t d[] = {1, 32, 28, 28}, ones[] = {1, 1, 1, 1};
    ASSERT_TRUE(checked_span(d, ones, 4, s));
    EXPECT_EQ(s, 86); // 31 + 27 + 27 + 1
    const dim_t d2[] = {2, 3}, gap[] = {4, 1};
    ASSERT_TRUE(checked_span(d2, gap, 2, s));
    EXPECT_EQ(s, 7);
    const dim_t bcast[] = {0, 0};
    ASSERT_TRUE(checked_span(d2, bcast, 2, s));
    EXPECT_EQ(s, 1);
    const dim_t d0[] = {3, 0}, any[] = {INT64_MAX, 1};
    ASSERT_TRUE(checked_span(d0, any, 2, s)); // empty: no element addressed
    EXPECT_EQ(s, 0);
    const dim_t huge[] = {int64_t(1) << 62, 1};
    EXPECT_FALSE(checked_span(d2, huge, 2, s));
    const dim_t big[] = {k48 / 2, k48 / 2};
    EXPECT_FALSE(checked_span(d2, big, 2, s)); // k48/2 + 2*k48/2 + 1 > 2^48
    const dim_t negs[] = {-1, 1};
    EXPECT_FALSE(checked_span(d2, negs, 2, s));
}

TEST(CheckedSize, Bytes) {
    size_t b = 0;
    ASSERT_TRUE(checked_bytes(86, 32, b));
    EXPECT_EQ(b, 344u);
    ASSERT_TRUE(checked_bytes(3, 4, b)); // 12 bits -> 2 bytes
    EXPECT_EQ(b, 2u);
    EXPECT_FALSE(checked_bytes(INT64_MAX / 4, 32, b));
    EXPECT_FALSE(checked_bytes(-1, 8, b));
}

TEST(CheckedSize, Overlap) {
    const dim_t d[] = {2, 3};
    const dim_t dense[] = {3, 1}, col[] = {1, 2}, gap[] = {8, 2}, zero[] = {0, 1},
                ones[] = {1, 1}, inter[] = {2, 3};
    EXPECT_FALSE(strides_overlap(d, dense, 2));
    EXPECT_FALSE(strides_overlap(d, col, 2));
    EXPECT_FALSE(strides_overlap(d, gap, 2));
    EXPECT_TRUE(strides_overlap(d, zero, 2));
    EXPECT_TRUE(strides_overlap(d, ones, 2));
    // {3,2} strides {2,3}: offsets 0,3,2,5,4,7 are distinct but the dims
    // interleave; counted as overlapping (the conservative rule).
    const dim_t d32[] = {3, 2};
    EXPECT_TRUE(strides_overlap(d32, inter, 2));
    // Size-1 dims never count, whatever their stride.
    const dim_t d1[] = {1, 4}, s1[] = {0, 1};
    EXPECT_FALSE(strides_overlap(d1, s1, 2));
}

TEST(CheckedSize, CheckShapeNamesTheTensor) {
    logical_tensor_t lt {};
    lt.id = 42;
    lt.ndims = 2;
    lt.data_type = dnnl_f32;
    lt.layout_type = dnnl_graph_layout_type_strided;
    lt.dims[0] = (int64_t(1) << 62) + 1;
    lt.dims[1] = 4;
    lt.layout.strides[0] = 4;
    lt.layout.strides[1] = 1;
    EXPECT_EQ(check_shape(lt, "input"), dnnl_invalid_arguments);
    EXPECT_NE(last_error().find("input (tensor 42)"), std::string::npos)
            << last_error();
    lt.dims[0] = 2;
    EXPECT_EQ(check_shape(lt, "input"), dnnl_success);
    lt.layout.strides[0] = -4;
    EXPECT_EQ(check_shape(lt, "input", dnnl_invalid_shape), dnnl_invalid_shape);
    lt.layout.strides[0] = DNNL_GRAPH_UNKNOWN_DIM; // unknown is fine
    EXPECT_EQ(check_shape(lt, "input"), dnnl_success);
    lt.dims[1] = DNNL_GRAPH_UNKNOWN_DIM;
    EXPECT_EQ(check_shape(lt, "input"), dnnl_success);
    lt.ndims = 13;
    EXPECT_EQ(check_shape(lt, "input"), dnnl_invalid_arguments);
}

} // namespace
} // namespace llga
