// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernel_desc.hpp — what a kernel family's builder makes from
// one op: OpenCL launches (family source, kernel name, -D options, the op
// tensors passed as arguments, work size), plus the helpers that spell
// dtypes, dims and constants as build options. No OpenCL types here.
#pragma once

#include <string>
#include <vector>

#include "base/c_types.hpp"
#include "ir/op.hpp"

namespace llga {
namespace ocl {

// One kernel argument: a tensor of the op (by id), or temporary k of the
// op (device scratch that lives for one execution, sized by temp_bytes).
// Temporaries carry passes of a multi-launch op (per-channel sums, group
// statistics) when the op has no output to hold them.
struct arg_ref_t {
    arg_ref_t(size_t tensor_id) : id(tensor_id) {} // NOLINT: implicit on purpose
    static arg_ref_t temp(int k) {
        arg_ref_t a(0);
        a.temp_index = k;
        return a;
    }
    size_t id = 0;
    int temp_index = -1; // >= 0: temporary k, id unused
};

struct launch_desc_t {
    std::string family;  // kernels/<family>.cl
    std::string kernel;  // kernel function name
    std::string options; // -D build options (besides -cl-std)
    std::vector<arg_ref_t> args; // kernel arguments, in order
    size_t work = 0;     // global size (1-D); 0 skips the launch
    // Bytes of the op's temporaries this launch uses (index k is
    // arg_ref_t::temp(k)); launches of one op share them.
    std::vector<size_t> temp_bytes;
};

// Builds the launches of `op`; dnnl_unimplemented (with a message naming
// the op) for configurations the family does not cover.
using builder_fn_t = status_t (*)(
        const ir::op_t &op, std::vector<launch_desc_t> &out);

// The builder for an op kind, or nullptr.
builder_fn_t find_builder(op_kind_t kind);

// ---- option helpers (kernel_desc.cpp) -------------------------------------
// " -DX_T=<storage type> -DX_DT=<dt>"; false for dtypes without kernels.
bool dt_option(const char *x, data_type_t dt, std::string &opts);
// Checks every tensor of `op` has a supported dtype (s4/u4 as inputs only:
// no kernel writes packed 4-bit data); host-scalar inputs only where the
// family passes them by value (allow_scalars).
status_t check_dtypes(const ir::op_t &op, bool allow_scalars = false);
std::string list_option(const char *name, const std::vector<int64_t> &v);
std::string int_option(const char *name, int64_t v);
std::string float_literal(float v);
std::string float_option(const char *name, float v);
// The strides of an N, C, spatial (up to 3 dims) data tensor as options
// <P>S_N, <P>S_C, <P>S_D, <P>S_H, <P>S_W (missing leading spatial dims 0),
// channels second or last.
std::string nc_spatial_stride_options(const logical_tensor_t &t,
        const char *prefix, bool channel_last, int nsp);
// dims of a tensor as the iteration space (rank 0 becomes {1}).
std::vector<int64_t> dims_1(const logical_tensor_t &lt);
std::vector<int64_t> strides_1(const logical_tensor_t &lt);
// Strides of `in` read at the index of `out_dims` under numpy broadcast
// (right-aligned; 0 on broadcast dims).
std::vector<int64_t> bcast_strides(
        const logical_tensor_t &in, const std::vector<int64_t> &out_dims);
status_t unsupported(const ir::op_t &op, const char *what);

} // namespace ocl
} // namespace llga
