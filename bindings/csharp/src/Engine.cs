// SPDX-License-Identifier: Apache-2.0
// bindings/csharp/src/Engine.cs — C# wrappers of dnnl_engine_t and
// dnnl_stream_t.
namespace Llga
{
    /// <summary>A device (EngineKind.CPU; EngineKind.GPU where llga has its OpenCL engine) plus its allocator.</summary>
    public sealed class Engine : Handle
    {
        internal readonly SWIGTYPE_p_dnnl_engine h;
        public EngineKind Kind { get; }

        public Engine(EngineKind kind, long index = 0, Allocator allocator = null)
        {
            Kind = kind;
            var p = Native.new_engine_p();
            try
            {
                if (allocator == null)
                {
                    DnnlException.Check(Native.dnnl_engine_create(p, kind, (ulong)index),
                            "dnnl_engine_create");
                }
                else
                {
                    allocator.EnsureOpen();
                    DnnlException.Check(Native.dnnl_graph_make_engine_with_allocator(
                            p, kind, (ulong)index, allocator.h),
                            "dnnl_graph_make_engine_with_allocator");
                }
                h = Native.engine_p_value(p);
            }
            catch
            {
                Dispose();
                throw;
            }
            finally
            {
                Native.delete_engine_p(p);
            }
        }

        public static long Count(EngineKind kind) => (long)Native.dnnl_engine_get_count(kind);

        internal override void Release()
        {
            if (h != null) Native.dnnl_engine_destroy(h);
        }
    }

    /// <summary>An in-order execution queue on an engine.</summary>
    public sealed class Stream : Handle
    {
        internal readonly SWIGTYPE_p_dnnl_stream h;

        public Stream(Engine engine)
        {
            var p = Native.new_stream_p();
            try
            {
                engine.EnsureOpen();
                DnnlException.Check(Native.dnnl_stream_create(p, engine.h, 1u /* in order */),
                        "dnnl_stream_create");
                h = Native.stream_p_value(p);
            }
            catch
            {
                Dispose();
                throw;
            }
            finally
            {
                Native.delete_stream_p(p);
            }
        }

        /// <summary>Blocks until all submitted work has finished.</summary>
        public void Wait()
        {
            EnsureOpen();
            DnnlException.Check(Native.dnnl_stream_wait(h), "dnnl_stream_wait");
        }

        internal override void Release()
        {
            if (h != null) Native.dnnl_stream_destroy(h);
        }
    }
}
