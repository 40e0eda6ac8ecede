// SPDX-License-Identifier: Apache-2.0
// bindings/csharp/src/Tensor.cs — C# wrapper of dnnl_graph_tensor_t: a
// logical tensor bound to memory given as an IntPtr, a pinned managed array
// (zero copy) or a buffer the library allocates.
using System;
using System.Runtime.InteropServices;

namespace Llga
{
    /// <summary>Data for one input or output of a compiled partition.</summary>
    public sealed class Tensor : Handle
    {
        internal readonly SWIGTYPE_p_dnnl_graph_tensor h;
        GCHandle pin;

        public LogicalTensor LogicalTensor { get; }

        /// <summary>Wraps caller-owned memory at data (at least
        /// lt.MemSize bytes, alive while the tensor is used).</summary>
        public Tensor(LogicalTensor lt, Engine engine, IntPtr data)
            : this(lt, engine, data, false, default(GCHandle)) { }

        Tensor(LogicalTensor lt, Engine engine, IntPtr data, bool libraryOwned, GCHandle pinned)
        {
            LogicalTensor = lt;
            pin = pinned;
            var p = Native.new_tensor_p();
            try
            {
                engine.EnsureOpen();
                using (var n = lt.ToNative())
                    DnnlException.Check(libraryOwned
                            ? Native.llga_bind_tensor_create_allocated(p, n, engine.h)
                            : Native.dnnl_graph_tensor_create(p, n, engine.h, data),
                            "dnnl_graph_tensor_create");
                h = Native.tensor_p_value(p);
            }
            catch
            {
                Dispose();
                throw;
            }
            finally { Native.delete_tensor_p(p); }
        }

        /// <summary>A tensor using the array's own memory (pinned until
        /// Dispose, no copy): results written to an output appear in the array.
        /// The array must match the logical tensor: its element type (float[]
        /// for f32, int[] for s32, ushort[] for f16/bf16 bits, double[] for f64,
        /// sbyte[] for s8, byte[] for u8/boolean/the 8-bit float types; opaque
        /// layouts also take raw byte[]), exactly its element count, and for a
        /// multi-dimensional array (float[,]...) exactly its shape. Otherwise
        /// ArgumentException names the tensor, expected and given types and sizes.</summary>
        public static Tensor FromArray(LogicalTensor lt, Engine engine, Array data)
        {
            engine.EnsureOpen();
            TensorData.Check(lt, data, "the array");
            // On failure the constructor's Dispose releases the pin.
            var pinned = GCHandle.Alloc(data, GCHandleType.Pinned);
            return new Tensor(lt, engine, pinned.AddrOfPinnedObject(), false, pinned);
        }

        /// <summary>A tensor whose buffer the library allocates (through the
        /// engine's allocator) and frees on Dispose.</summary>
        public static Tensor Allocate(LogicalTensor lt, Engine engine) =>
            new Tensor(lt, engine, IntPtr.Zero, true, default(GCHandle));

        /// <summary>The logical tensor's dims.</summary>
        public long[] Shape => LogicalTensor.Dims;

        public DataType DataType => LogicalTensor.DataType;

        /// <summary>Copies the contents of an f32 tensor into a new float[].</summary>
        public float[] ToFloatArray()
        {
            EnsureOpen();
            if (LogicalTensor.DataType != DataType.F32)
                throw new ArgumentException("tensor " + LogicalTensor.Id + " is "
                        + LogicalTensor.DataType.ToString().ToLowerInvariant() + ", not f32");
            var a = new float[LogicalTensor.MemSize / 4];
            CopyTo(a);
            return a;
        }

        /// <summary>Copies the contents into dst (checked like FromArray's data).</summary>
        public void CopyTo(Array dst) => Copy(dst, true);

        /// <summary>Copies src (checked like FromArray's data) into the tensor's buffer.</summary>
        public void CopyFrom(Array src) => Copy(src, false);

        void Copy(Array a, bool read)
        {
            EnsureOpen();
            TensorData.Check(LogicalTensor, a, read ? "the destination" : "the source");
            var g = GCHandle.Alloc(a, GCHandleType.Pinned);
            try
            {
                ulong bytes = (ulong)Buffer.ByteLength(a);
                DnnlException.Check(read
                        ? Native.llga_bind_tensor_read(h, g.AddrOfPinnedObject(), bytes)
                        : Native.llga_bind_tensor_write(h, g.AddrOfPinnedObject(), bytes),
                        read ? "llga_bind_tensor_read" : "llga_bind_tensor_write");
            }
            finally { g.Free(); }
        }

        internal override void Release()
        {
            if (h != null) Native.dnnl_graph_tensor_destroy(h);
            if (pin.IsAllocated) pin.Free();
        }
    }
}
