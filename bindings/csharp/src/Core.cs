// SPDX-License-Identifier: Apache-2.0
// bindings/csharp/src/Core.cs — the base pieces of the C# layer over the
// SWIG-generated Llga.Native: DnnlException (status + library message),
// the Handle base class (IDisposable, open-handle counting) and Allocator.
using System;
using System.Threading;

namespace Llga
{
    /// <summary>A failed llga call: Status is the C status code; the message
    /// includes llga_last_error_message().</summary>
    public class DnnlException : Exception
    {
        public Status Status { get; }

        public DnnlException(Status status, string message) : base(message)
        {
            Status = status;
        }

        internal static void Check(Status st, string function)
        {
            if (st == Status.SUCCESS) return;
            string detail = Native.llga_last_error_message();
            throw new DnnlException(st, function + " failed with " + st
                    + (detail.Length == 0 ? "" : ": " + detail));
        }
    }

    /// <summary>Base of every class owning a native llga object. Dispose it
    /// (a using block); Dispose is idempotent.</summary>
    public abstract class Handle : IDisposable
    {
        static long live;
        bool disposed;

        internal Handle()
        {
            Interlocked.Increment(ref live);
        }

        /// <summary>Handles created and not yet disposed (for leak checks).</summary>
        public static long LiveHandles => Interlocked.Read(ref live);

        public bool IsDisposed => disposed;

        public void Dispose()
        {
            lock (this)
            {
                if (disposed) return;
                disposed = true;
                Interlocked.Decrement(ref live);
                Release();
            }
        }

        internal void EnsureOpen()
        {
            if (disposed) throw new ObjectDisposedException(GetType().Name);
        }

        /// <summary>Destroys the native object (called once).</summary>
        internal abstract void Release();
    }

    /// <summary>A host allocator for engines. Only allocators implemented in
    /// C are offered (the default one and a counting one from the binding's
    /// C glue); callbacks written in C# are not supported.</summary>
    public sealed class Allocator : Handle
    {
        internal readonly SWIGTYPE_p_dnnl_graph_allocator h;

        Allocator(bool counting)
        {
            var p = Native.new_allocator_p();
            try
            {
                DnnlException.Check(counting
                        ? Native.llga_bind_counting_allocator_create(p)
                        : Native.dnnl_graph_allocator_create(p, null, null),
                        "dnnl_graph_allocator_create");
                h = Native.allocator_p_value(p);
            }
            catch
            {
                Dispose();
                throw;
            }
            finally
            {
                Native.delete_allocator_p(p);
            }
        }

        public static Allocator Default() => new Allocator(false);

        /// <summary>An allocator counting its blocks (see LiveBlocks).</summary>
        public static Allocator Counting() => new Allocator(true);

        /// <summary>Blocks from counting allocators still allocated.</summary>
        public static long LiveBlocks => Native.llga_bind_live_blocks();

        /// <summary>Blocks ever handed out by counting allocators.</summary>
        public static long TotalBlocks => Native.llga_bind_total_blocks();

        internal override void Release()
        {
            if (h != null) Native.dnnl_graph_allocator_destroy(h);
        }
    }
}
