// SPDX-License-Identifier: Apache-2.0
// ir/logical_tensor.hpp — helpers over the public POD logical tensor:
// construction, shape queries, dense strides, memory size and equality.
#pragma once

#include <string>

#include "base/c_types.hpp"

namespace llga {
namespace ir {

logical_tensor_t make_lt(size_t id, data_type_t dt, const dims_t &dims,
        layout_type_t lt = dnnl_graph_layout_type_strided,
        property_t prop = dnnl_graph_tensor_property_undef);
// Unknown rank (ndims -1), layout undef.
logical_tensor_t make_lt_unknown(size_t id, data_type_t dt);

dims_t dims_of(const logical_tensor_t &lt);     // empty if rank unknown
dims_t strides_of(const logical_tensor_t &lt);  // empty if not strided
bool rank_known(const logical_tensor_t &lt);
bool shape_known(const logical_tensor_t &lt);   // rank and every dim known
bool strides_known(const logical_tensor_t &lt); // strided with all known
int64_t nelems(const logical_tensor_t &lt);     // -1 if shape unknown

dims_t dense_strides(const dims_t &dims); // row-major; 0 dims count as 1
// Sets rank and dims; strided tensors get dense strides unless `keep` strides
// already fully known.
void set_shape(logical_tensor_t &lt, const dims_t &dims);
bool is_dense(const logical_tensor_t &lt); // strided and row-major dense
// Strided and dense in some order of the dims (row-major, channel-last, ...):
// sorted by stride, each dim's stride is the product of the sizes inside it.
bool is_dense_any_order(const logical_tensor_t &lt);
// Same dims, and the same stride on every dim larger than 1: both tensors
// address their elements at the same offsets (a flat walk over one visits
// the same logical elements in the other).
bool same_layout(const logical_tensor_t &a, const logical_tensor_t &b);

// Span in bytes a strided tensor addresses (see the C API note on
// dnnl_graph_logical_tensor_get_mem_size); (size_t)-1 for any/undef layouts.
size_t mem_size(const logical_tensor_t &lt);

// Same as dnnl_graph_logical_tensor_is_equal.
bool lt_equal(const logical_tensor_t &a, const logical_tensor_t &b);
// True if both describe compatible information (dtype equal; rank and dims
// equal wherever both are known). Used to check repeated tensor ids.
bool lt_compatible(const logical_tensor_t &a, const logical_tensor_t &b);

std::string dims_to_string(const dims_t &d); // "2x3x4"
std::string lt_to_string(const logical_tensor_t &lt); // "id:3 f32 2x3 strided"

} // namespace ir
} // namespace llga
