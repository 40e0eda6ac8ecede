// SPDX-License-Identifier: Apache-2.0
// bindings/java/src/org/llga/LogicalTensor.java — immutable Java value for
// dnnl_graph_logical_tensor_t (no native memory is kept, so it needs no
// close()); converted to the C struct for each call.
package org.llga;

import java.util.Arrays;

/** Describes a tensor: id, element type, shape, layout and property. */
public final class LogicalTensor {
    /** Rank of a tensor whose rank is not known yet. */
    public static final int UNKNOWN_NDIMS = -1;
    /** A dimension or stride that is not known yet. */
    public static final long UNKNOWN_DIM = Long.MIN_VALUE;
    private static final int MAX_NDIMS = 12;

    private final long id;
    private final DataType dataType;
    private final int ndims;
    private final long[] dims;
    private final LayoutType layoutType;
    private final TensorProperty property;
    private final long[] strides;
    private final long layoutId;

    /** A variable tensor with the given shape; strided layouts get dense
     *  row-major strides. */
    public LogicalTensor(long id, DataType dataType, long[] dims, LayoutType layoutType) {
        this(id, dataType, dims, layoutType, TensorProperty.VARIABLE);
    }

    public LogicalTensor(long id, DataType dataType, long[] dims, LayoutType layoutType,
            TensorProperty property) {
        this(fill(id, dataType, dims, layoutType, property));
    }

    /** A strided tensor with explicit {@code strides} (in elements), e.g.
     *  {1, 2} for a column-major 2x3 matrix. */
    public LogicalTensor(long id, DataType dataType, long[] dims, long[] strides,
            TensorProperty property) {
        this(fillStrided(id, dataType, dims, strides, property));
    }

    /** A tensor of rank {@code ndims} (or UNKNOWN_NDIMS) with unknown dims. */
    public LogicalTensor(long id, DataType dataType, int ndims, LayoutType layoutType) {
        this(fill(id, dataType, ndims, layoutType));
    }

    private LogicalTensor(dnnl_graph_logical_tensor_t n) {
        try {
            id = n.getId();
            dataType = n.getData_type();
            ndims = n.getNdims();
            int rank = Math.max(0, Math.min(ndims, MAX_NDIMS));
            dims = new long[rank];
            strides = new long[n.getLayout_type() == LayoutType.STRIDED ? rank : 0];
            for (int i = 0; i < rank; ++i)
                dims[i] = Native.int64_array_getitem(n.getDims(), i);
            for (int i = 0; i < strides.length; ++i)
                strides[i] = Native.int64_array_getitem(n.getLayout().getStrides(), i);
            layoutType = n.getLayout_type();
            property = n.getProperty();
            layoutId = layoutType == LayoutType.OPAQUE ? n.getLayout().getLayout_id() : 0;
        } finally {
            n.delete();
        }
    }

    private static dnnl_graph_logical_tensor_t fill(long id, DataType dt, long[] dims,
            LayoutType lt, TensorProperty p) {
        dnnl_graph_logical_tensor_t n = new dnnl_graph_logical_tensor_t();
        SWIGTYPE_p_long_long arr = Native.new_int64_array(MAX_NDIMS);
        try {
            if (dims.length > MAX_NDIMS)
                throw new IllegalArgumentException("at most " + MAX_NDIMS + " dimensions");
            for (int i = 0; i < dims.length; ++i)
                Native.int64_array_setitem(arr, i, dims[i]);
            DnnlException.check(Native.dnnl_graph_logical_tensor_init_with_dims(
                    n, id, dt, dims.length, arr, lt, p),
                    "dnnl_graph_logical_tensor_init_with_dims");
            return n;
        } catch (RuntimeException e) {
            n.delete();
            throw e;
        } finally {
            Native.delete_int64_array(arr);
        }
    }

    private static dnnl_graph_logical_tensor_t fillStrided(long id, DataType dt, long[] dims,
            long[] strides, TensorProperty p) {
        if (dims.length > MAX_NDIMS || strides.length != dims.length)
            throw new IllegalArgumentException("dims and strides: same rank, at most "
                    + MAX_NDIMS + " dimensions");
        dnnl_graph_logical_tensor_t n = new dnnl_graph_logical_tensor_t();
        SWIGTYPE_p_long_long d = Native.new_int64_array(MAX_NDIMS);
        SWIGTYPE_p_long_long s = Native.new_int64_array(MAX_NDIMS);
        try {
            for (int i = 0; i < dims.length; ++i) {
                Native.int64_array_setitem(d, i, dims[i]);
                Native.int64_array_setitem(s, i, strides[i]);
            }
            DnnlException.check(Native.dnnl_graph_logical_tensor_init_with_strides(
                    n, id, dt, dims.length, d, s, p),
                    "dnnl_graph_logical_tensor_init_with_strides");
            return n;
        } catch (RuntimeException e) {
            n.delete();
            throw e;
        } finally {
            Native.delete_int64_array(d);
            Native.delete_int64_array(s);
        }
    }

    private static dnnl_graph_logical_tensor_t fill(long id, DataType dt, int ndims,
            LayoutType lt) {
        dnnl_graph_logical_tensor_t n = new dnnl_graph_logical_tensor_t();
        try {
            DnnlException.check(Native.dnnl_graph_logical_tensor_init(
                    n, id, dt, ndims, lt, TensorProperty.VARIABLE),
                    "dnnl_graph_logical_tensor_init");
            return n;
        } catch (RuntimeException e) {
            n.delete();
            throw e;
        }
    }

    /** Takes ownership of {@code n} (deleted here). */
    static LogicalTensor fromNative(dnnl_graph_logical_tensor_t n) {
        return new LogicalTensor(n);
    }

    /** A fresh C struct with this value; the caller deletes it. */
    dnnl_graph_logical_tensor_t toNative() {
        dnnl_graph_logical_tensor_t n = new dnnl_graph_logical_tensor_t();
        n.setId(id);
        n.setData_type(dataType);
        n.setNdims(ndims);
        n.setLayout_type(layoutType);
        n.setProperty(property);
        SWIGTYPE_p_long_long d = n.getDims();
        for (int i = 0; i < MAX_NDIMS; ++i)
            Native.int64_array_setitem(d, i, i < dims.length ? dims[i] : 0);
        if (layoutType == LayoutType.OPAQUE) {
            n.getLayout().setLayout_id(layoutId);
        } else {
            SWIGTYPE_p_long_long s = n.getLayout().getStrides();
            for (int i = 0; i < MAX_NDIMS; ++i)
                Native.int64_array_setitem(s, i, i < strides.length ? strides[i] : 0);
        }
        return n;
    }

    public long id() { return id; }
    public DataType dataType() { return dataType; }
    public int ndims() { return ndims; }
    public long[] dims() { return dims.clone(); }
    public long[] strides() { return strides.clone(); }
    public LayoutType layoutType() { return layoutType; }
    public TensorProperty property() { return property; }

    /** Number of elements (product of dims; -1 if any is unknown). */
    public long elementCount() {
        if (ndims < 0) return -1;
        long n = 1;
        for (long d : dims) {
            if (d == UNKNOWN_DIM || d < 0) return -1;
            n *= d;
        }
        return n;
    }

    /** Bytes a buffer for this tensor needs (dnnl_graph_logical_tensor_get_mem_size). */
    public long memSize() {
        dnnl_graph_logical_tensor_t n = toNative();
        SWIGTYPE_p_size_t out = Native.new_size_t_p();
        try {
            DnnlException.check(Native.dnnl_graph_logical_tensor_get_mem_size(n, out),
                    "dnnl_graph_logical_tensor_get_mem_size");
            return Native.size_t_p_value(out);
        } finally {
            Native.delete_size_t_p(out);
            n.delete();
        }
    }

    @Override
    public String toString() {
        return "LogicalTensor{id=" + id + ", " + dataType + ", dims=" + Arrays.toString(dims)
                + ", " + layoutType + ", " + property + "}";
    }
}
