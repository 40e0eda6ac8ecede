// SPDX-License-Identifier: Apache-2.0
// capi/logical_tensor.cpp — dnnl_graph_logical_tensor_* on the caller's POD.
#include <cstring>

#include "base/checked_size.hpp"
#include "capi/barrier.hpp"
#include "capi/handles.hpp"
#include "capi/lt_check.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "runtime/layout_registry.hpp"

using namespace llga;

namespace {
// Enum arguments are read raw (see capi::raw_enum) and range-checked before
// any typed use.
status_t check_common(int32_t ndims, const dnnl_data_type_t &dtype,
        const dnnl_graph_layout_type_t &ltype,
        const dnnl_graph_tensor_property_t &ptype) {
    if (ndims > DNNL_MAX_NDIMS || ndims < DNNL_GRAPH_UNKNOWN_NDIMS)
        return fail(dnnl_invalid_arguments, "ndims %d is outside [-1, %d]",
                ndims, DNNL_MAX_NDIMS);
    const int dt = capi::raw_enum(dtype);
    if (dt < dnnl_data_type_undef || dt > dnnl_f4_e3m0
            || (dt != dnnl_data_type_undef
                    && ir::dtype_bits(static_cast<data_type_t>(dt)) == 0))
        return fail(dnnl_invalid_arguments, "unknown data type %d", dt);
    LLGA_CHECK_ENUM(ltype, dnnl_graph_layout_type_undef,
            dnnl_graph_layout_type_opaque, "layout type");
    LLGA_CHECK_ENUM(ptype, dnnl_graph_tensor_property_undef,
            dnnl_graph_tensor_property_host_scalar, "property type");
    if (ptype == dnnl_graph_tensor_property_host_scalar
            && (dtype != dnnl_s32 || ndims != 0))
        return fail(dnnl_invalid_arguments,
                "host scalar tensors must be 0-D s32 (got ndims %d, %s)", ndims,
                ir::dtype_name(dtype));
    return dnnl_success;
}

// Strided equivalent of a concrete strided/opaque tensor, without touching
// the last-error text (a query that answers "no" is not a failure).
bool physical(const logical_tensor_t &lt, logical_tensor_t &out) {
    if (lt.layout_type == dnnl_graph_layout_type_opaque) {
        if (rt::layout_registry_t::mem_size(lt) == static_cast<size_t>(-1))
            return false;
    } else if (!ir::strides_known(lt) || !ir::shape_known(lt)) {
        return false;
    }
    return rt::layout_registry_t::to_strided(lt, out) == dnnl_success;
}

void fill(dnnl_graph_logical_tensor_t *lt, size_t tid, dnnl_data_type_t dtype,
        int32_t ndims, dnnl_graph_layout_type_t ltype,
        dnnl_graph_tensor_property_t ptype) {
    std::memset(lt, 0, sizeof(*lt));
    lt->id = tid;
    lt->data_type = dtype;
    lt->ndims = ndims;
    lt->layout_type = ltype;
    lt->property = ptype;
    for (int d = 0; d < DNNL_MAX_NDIMS; ++d) {
        lt->dims[d] = DNNL_GRAPH_UNKNOWN_DIM;
        lt->layout.strides[d] = DNNL_GRAPH_UNKNOWN_DIM;
    }
    if (ltype == dnnl_graph_layout_type_opaque) lt->layout.layout_id = 0;
    if (ndims == 0) {
        lt->dims[0] = 0;
        if (ltype == dnnl_graph_layout_type_strided) lt->layout.strides[0] = 0;
    }
}
} // namespace

extern "C" {

dnnl_status_t dnnl_graph_logical_tensor_init(
        dnnl_graph_logical_tensor_t *logical_tensor, size_t tid,
        dnnl_data_type_t dtype, int32_t ndims, dnnl_graph_layout_type_t ltype,
        dnnl_graph_tensor_property_t ptype) {
    return LLGA_API_BODY("dnnl_graph_logical_tensor_init", {
        LLGA_CHECK_ARG(logical_tensor);
        LLGA_RETURN_IF_ERROR(check_common(ndims, dtype, ltype, ptype));
        fill(logical_tensor, tid, dtype, ndims, ltype, ptype);
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_logical_tensor_init_with_dims(
        dnnl_graph_logical_tensor_t *logical_tensor, size_t tid,
        dnnl_data_type_t dtype, int32_t ndims, const dnnl_dims_t dims,
        dnnl_graph_layout_type_t ltype, dnnl_graph_tensor_property_t ptype) {
    return LLGA_API_BODY("dnnl_graph_logical_tensor_init_with_dims", {
        LLGA_CHECK_ARG(logical_tensor);
        if (ndims < 0)
            return fail(dnnl_invalid_arguments,
                    "ndims must be >= 0 when dims are given, got %d", ndims);
        if (ndims > 0 && !dims)
            return fail(dnnl_invalid_arguments, "dims is null with ndims %d",
                    ndims);
        LLGA_RETURN_IF_ERROR(check_common(ndims, dtype, ltype, ptype));
        fill(logical_tensor, tid, dtype, ndims, ltype, ptype);
        if (ndims == 0) return dnnl_success;
        dnnl_graph_logical_tensor_t probe = *logical_tensor;
        for (int d = 0; d < ndims; ++d)
            probe.dims[d] = dims[d];
        LLGA_RETURN_IF_ERROR(check_shape(probe, "logical tensor"));
        ir::set_shape(*logical_tensor, dims_t(dims, dims + ndims));
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_logical_tensor_init_with_strides(
        dnnl_graph_logical_tensor_t *logical_tensor, size_t tid,
        dnnl_data_type_t dtype, int32_t ndims, const dnnl_dims_t dims,
        const dnnl_dims_t strides, dnnl_graph_tensor_property_t ptype) {
    return LLGA_API_BODY("dnnl_graph_logical_tensor_init_with_strides", {
        LLGA_CHECK_ARG(logical_tensor);
        if (ndims < 0)
            return fail(dnnl_invalid_arguments,
                    "ndims must be >= 0 when dims are given, got %d", ndims);
        if (ndims > 0 && (!dims || !strides))
            return fail(dnnl_invalid_arguments,
                    "dims or strides is null with ndims %d", ndims);
        LLGA_RETURN_IF_ERROR(check_common(
                ndims, dtype, dnnl_graph_layout_type_strided, ptype));
        for (int d = 0; d < ndims; ++d)
            if (strides[d] < 0 && strides[d] != DNNL_GRAPH_UNKNOWN_DIM)
                return fail(dnnl_invalid_arguments,
                        "stride %d is negative (%lld); negative strides are "
                        "not supported",
                        d, static_cast<long long>(strides[d]));
        dnnl_graph_logical_tensor_t t;
        fill(&t, tid, dtype, ndims, dnnl_graph_layout_type_strided, ptype);
        for (int d = 0; d < ndims; ++d) {
            t.dims[d] = dims[d];
            t.layout.strides[d] = strides[d];
        }
        LLGA_RETURN_IF_ERROR(check_shape(t, "logical tensor"));
        *logical_tensor = t;
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_logical_tensor_get_mem_size(
        const dnnl_graph_logical_tensor_t *logical_tensor, size_t *size) {
    return LLGA_API_BODY("dnnl_graph_logical_tensor_get_mem_size", {
        LLGA_RETURN_IF_ERROR(capi::check_lt(logical_tensor, "logical_tensor"));
        LLGA_CHECK_ARG(size);
        // Opaque ids are answered by the runtime's layout registry.
        *size = rt::layout_registry_t::mem_size(*logical_tensor);
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_logical_tensor_is_equal(
        const dnnl_graph_logical_tensor_t *lt1,
        const dnnl_graph_logical_tensor_t *lt2, uint8_t *is_equal) {
    return LLGA_API_BODY("dnnl_graph_logical_tensor_is_equal", {
        LLGA_RETURN_IF_ERROR(capi::check_lt(lt1, "lt1"));
        LLGA_RETURN_IF_ERROR(capi::check_lt(lt2, "lt2"));
        LLGA_CHECK_ARG(is_equal);
        uint8_t eq = ir::lt_equal(*lt1, *lt2) ? 1 : 0;
        // Strided vs opaque describing the same memory layout also match.
        if (!eq && lt1->layout_type != lt2->layout_type
                && (lt1->layout_type == dnnl_graph_layout_type_opaque
                        || lt2->layout_type == dnnl_graph_layout_type_opaque)) {
            logical_tensor_t a, b;
            if (physical(*lt1, a) && physical(*lt2, b))
                eq = ir::lt_equal(a, b) ? 1 : 0;
        }
        *is_equal = eq;
        return dnnl_success;
    });
}

} // extern "C"
