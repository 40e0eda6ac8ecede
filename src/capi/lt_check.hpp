// SPDX-License-Identifier: Apache-2.0
// capi/lt_check.hpp — validation of a caller's logical tensor struct at the
// C boundary: rank in range and the enum fields (data type, layout, property)
// read raw and range-checked, so no internal code ever loads an invalid enum;
// dims and strides checked so no size computation downstream can wrap.
#pragma once

#include <cstddef>

#include "base/checked_size.hpp"
#include "capi/barrier.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace capi {

inline status_t check_lt(const dnnl_graph_logical_tensor_t *lt, const char *what) {
    if (!lt) return fail(dnnl_invalid_arguments, "%s is null", what);
    if (lt->ndims > DNNL_MAX_NDIMS || lt->ndims < DNNL_GRAPH_UNKNOWN_NDIMS)
        return fail(dnnl_invalid_arguments, "%s (tensor %zu) has invalid ndims %d",
                what, lt->id, lt->ndims);
    const int dt = raw_enum(lt->data_type);
    if (dt < dnnl_data_type_undef || dt > dnnl_f4_e3m0
            || (dt != dnnl_data_type_undef
                    && ir::dtype_bits(static_cast<data_type_t>(dt)) == 0))
        return fail(dnnl_invalid_arguments,
                "%s (tensor %zu) has unknown data type %d", what, lt->id, dt);
    const int lay = raw_enum(lt->layout_type);
    if (lay < dnnl_graph_layout_type_undef || lay > dnnl_graph_layout_type_opaque)
        return fail(dnnl_invalid_arguments,
                "%s (tensor %zu) has unknown layout type %d", what, lt->id, lay);
    const int prop = raw_enum(lt->property);
    if (prop < dnnl_graph_tensor_property_undef
            || prop > dnnl_graph_tensor_property_host_scalar)
        return fail(dnnl_invalid_arguments,
                "%s (tensor %zu) has unknown property %d", what, lt->id, prop);
    // Dims, strides and the span they address, through the one checked
    // size arithmetic (base/checked_size.hpp).
    return check_shape(*lt, what);
}

} // namespace capi
} // namespace llga
