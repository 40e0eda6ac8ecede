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
        /// Dispose, no copy): results written to an output appear in the array.</summary>
        public static Tensor FromArray(LogicalTensor lt, Engine engine, Array data)
        {
            long bytes = (long)Buffer.ByteLength(data);
            long need = lt.MemSize;
            if (need >= 0 && bytes < need)
                throw new ArgumentException("array holds " + bytes + " bytes, the tensor needs " + need);
            // On failure the constructor's Dispose releases the pin.
            var pinned = GCHandle.Alloc(data, GCHandleType.Pinned);
            return new Tensor(lt, engine, pinned.AddrOfPinnedObject(), false, pinned);
        }

        /// <summary>A tensor whose buffer the library allocates (through the
        /// engine's allocator) and frees on Dispose.</summary>
        public static Tensor Allocate(LogicalTensor lt, Engine engine) =>
            new Tensor(lt, engine, IntPtr.Zero, true, default(GCHandle));

        /// <summary>Copies the contents into a new float[].</summary>
        public float[] ToFloatArray()
        {
            var a = new float[LogicalTensor.MemSize / 4];
            CopyTo(a);
            return a;
        }

        /// <summary>Copies the contents into dst (a blittable array).</summary>
        public void CopyTo(Array dst) => Copy(dst, true);

        /// <summary>Copies src (a blittable array) into the tensor's buffer.</summary>
        public void CopyFrom(Array src) => Copy(src, false);

        void Copy(Array a, bool read)
        {
            EnsureOpen();
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
