// SPDX-License-Identifier: Apache-2.0
// bindings/csharp/src/LogicalTensor.cs — immutable C# value for
// dnnl_graph_logical_tensor_t (holds no native memory; converted to the C
// struct for each call).
using System;
using System.Linq;

namespace Llga
{
    /// <summary>Describes a tensor: id, element type, shape, layout, property.</summary>
    public sealed class LogicalTensor
    {
        public const int UnknownNdims = -1;
        public const long UnknownDim = long.MinValue;
        const int MaxNdims = 12;

        readonly long[] dims, strides;
        readonly ulong layoutId;

        public long Id { get; }
        public DataType DataType { get; }
        public int Ndims { get; }
        public LayoutType LayoutType { get; }
        public TensorProperty Property { get; }
        public long[] Dims => (long[])dims.Clone();
        public long[] Strides => (long[])strides.Clone();

        /// <summary>A tensor with known dims; strided layouts get dense
        /// row-major strides.</summary>
        public LogicalTensor(long id, DataType dataType, long[] dims, LayoutType layoutType,
                TensorProperty property = TensorProperty.VARIABLE)
            : this(Fill(id, dataType, dims, layoutType, property)) { }

        /// <summary>A tensor of rank ndims (or UnknownNdims), dims unknown.</summary>
        public LogicalTensor(long id, DataType dataType, int ndims, LayoutType layoutType)
            : this(Fill(id, dataType, ndims, layoutType)) { }

        LogicalTensor(dnnl_graph_logical_tensor_t n)
        {
            using (n)
            {
                Id = (long)n.id;
                DataType = n.data_type;
                Ndims = n.ndims;
                LayoutType = n.layout_type;
                Property = n.property;
                int rank = Math.Max(0, Math.Min(Ndims, MaxNdims));
                dims = new long[rank];
                strides = new long[LayoutType == LayoutType.STRIDED ? rank : 0];
                var d = n.dims;
                for (int i = 0; i < rank; ++i) dims[i] = Native.int64_array_getitem(d, i);
                using (var l = n.layout)
                {
                    var s = l.strides;
                    for (int i = 0; i < strides.Length; ++i)
                        strides[i] = Native.int64_array_getitem(s, i);
                    layoutId = LayoutType == LayoutType.OPAQUE ? l.layout_id : 0;
                }
            }
        }

        static dnnl_graph_logical_tensor_t Fill(long id, DataType dt, long[] dims,
                LayoutType lt, TensorProperty p)
        {
            if (dims.Length > MaxNdims)
                throw new ArgumentException("at most " + MaxNdims + " dimensions");
            var n = new dnnl_graph_logical_tensor_t();
            var arr = Native.new_int64_array(MaxNdims);
            try
            {
                for (int i = 0; i < dims.Length; ++i) Native.int64_array_setitem(arr, i, dims[i]);
                DnnlException.Check(Native.dnnl_graph_logical_tensor_init_with_dims(
                        n, (ulong)id, dt, dims.Length, arr, lt, p),
                        "dnnl_graph_logical_tensor_init_with_dims");
                return n;
            }
            catch
            {
                n.Dispose();
                throw;
            }
            finally
            {
                Native.delete_int64_array(arr);
            }
        }

        static dnnl_graph_logical_tensor_t Fill(long id, DataType dt, int ndims, LayoutType lt)
        {
            var n = new dnnl_graph_logical_tensor_t();
            try
            {
                DnnlException.Check(Native.dnnl_graph_logical_tensor_init(
                        n, (ulong)id, dt, ndims, lt, TensorProperty.VARIABLE),
                        "dnnl_graph_logical_tensor_init");
                return n;
            }
            catch
            {
                n.Dispose();
                throw;
            }
        }

        /// <summary>Takes ownership of n (disposed here).</summary>
        internal static LogicalTensor FromNative(dnnl_graph_logical_tensor_t n) => new LogicalTensor(n);

        /// <summary>A new C struct with this value; the caller disposes it.</summary>
        internal dnnl_graph_logical_tensor_t ToNative()
        {
            var n = new dnnl_graph_logical_tensor_t();
            n.id = (ulong)Id;
            n.data_type = DataType;
            n.ndims = Ndims;
            n.layout_type = LayoutType;
            n.property = Property;
            var d = n.dims;
            for (int i = 0; i < MaxNdims; ++i)
                Native.int64_array_setitem(d, i, i < dims.Length ? dims[i] : 0);
            using (var l = n.layout)
            {
                if (LayoutType == LayoutType.OPAQUE)
                {
                    l.layout_id = layoutId;
                }
                else
                {
                    var s = l.strides;
                    for (int i = 0; i < MaxNdims; ++i)
                        Native.int64_array_setitem(s, i, i < strides.Length ? strides[i] : 0);
                }
            }
            return n;
        }

        /// <summary>Bytes a buffer for this tensor needs.</summary>
        public long MemSize
        {
            get
            {
                var p = Native.new_size_t_p();
                try
                {
                    using (var n = ToNative())
                        DnnlException.Check(Native.dnnl_graph_logical_tensor_get_mem_size(n, p),
                                "dnnl_graph_logical_tensor_get_mem_size");
                    return (long)Native.size_t_p_value(p);
                }
                finally
                {
                    Native.delete_size_t_p(p);
                }
            }
        }

        public override string ToString() =>
            "LogicalTensor{id=" + Id + ", " + DataType + ", dims=[" + string.Join(",", dims.Select(x => x.ToString()))
            + "], " + LayoutType + ", " + Property + "}";
    }
}
