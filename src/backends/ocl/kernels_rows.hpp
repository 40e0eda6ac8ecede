// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels_rows.hpp — how the rows family (kernels/rows.cl)
// splits a tensor into rows: outer dims (one row each) and row dims (the
// elements of a row), each with its own strides; shared by the forward
// (kernels_rows.cpp) and backward (kernels_norm_bwd.cpp) builders.
#pragma once

#include <string>
#include <vector>

#include "backends/ocl/kernel_desc.hpp"

namespace llga {
namespace ocl {

struct rows_t {
    std::vector<int64_t> od, os, rd, rs; // outer / row dims and src strides
    int64_t rows = 1, rlen = 1;
};

// Splits `src` dims into outer dims (rows) and row dims by `in_row`.
rows_t split_rows(const logical_tensor_t &src, const std::vector<bool> &in_row);

// Strides of `t` (same dims as the src) split the same way.
void split_rows_like(const logical_tensor_t &t, const std::vector<bool> &in_row,
        std::vector<int64_t> &os, std::vector<int64_t> &rs);

// OND, ODIMS, S_OSTRIDES, RND, RDIMS, S_RSTRIDES, NROWS, RLEN.
void row_options(const rows_t &r, std::string &o);

// " -D<P>_ND=n -D<P>_DIMS=... -D<P>_STRIDES=..." of a tensor read at its
// row-major linear index (rank 0 as one element).
std::string linear_options(const char *prefix, const logical_tensor_t &t);

} // namespace ocl
} // namespace llga
