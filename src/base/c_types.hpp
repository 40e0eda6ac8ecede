// SPDX-License-Identifier: Apache-2.0
// base/c_types.hpp — the one internal entry point to the public C type headers.
// Every other internal file gets dnnl_* enums, dims and the logical tensor
// struct through here, so the public headers are included in exactly one place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "oneapi/dnnl/dnnl_graph_types.h"

namespace llga {

using status_t = dnnl_status_t;
using dim_t = dnnl_dim_t;
using dims_t = std::vector<dim_t>;
using data_type_t = dnnl_data_type_t;
using engine_kind_t = dnnl_engine_kind_t;
using fpmath_mode_t = dnnl_fpmath_mode_t;
using logical_tensor_t = dnnl_graph_logical_tensor_t;
using op_kind_t = dnnl_graph_op_kind_t;
using attr_id_t = dnnl_graph_op_attr_t;
using layout_type_t = dnnl_graph_layout_type_t;
using property_t = dnnl_graph_tensor_property_t;

constexpr dim_t unknown_dim = DNNL_GRAPH_UNKNOWN_DIM;
constexpr int unknown_ndims = DNNL_GRAPH_UNKNOWN_NDIMS;
constexpr int max_ndims = DNNL_MAX_NDIMS;

} // namespace llga
