// SPDX-License-Identifier: Apache-2.0
// bindings/java/src/org/llga/Engine.java — Java wrapper of dnnl_engine_t.
package org.llga;

/** A device ({@link EngineKind#CPU}; {@link EngineKind#GPU} where llga has its
 *  OpenCL engine) plus its allocator. */
public final class Engine extends Handle {
    final SWIGTYPE_p_dnnl_engine h;
    private final EngineKind kind;

    /** Engine {@code index} of {@code kind} with the default allocator. */
    public Engine(EngineKind kind, long index) {
        this(kind, index, null);
    }

    /** Engine {@code index} of {@code kind} allocating through
     *  {@code allocator} (null: the default allocator). */
    public Engine(EngineKind kind, long index, Allocator allocator) {
        SWIGTYPE_p_p_dnnl_engine out = Native.new_engine_p();
        try {
            if (allocator == null) {
                DnnlException.check(Native.dnnl_engine_create(out, kind, index),
                        "dnnl_engine_create");
            } else {
                allocator.ensureOpen();
                DnnlException.check(Native.dnnl_graph_make_engine_with_allocator(
                        out, kind, index, allocator.h),
                        "dnnl_graph_make_engine_with_allocator");
            }
            h = Native.engine_p_value(out);
        } catch (RuntimeException e) {
            super.close();
            throw e;
        } finally {
            Native.delete_engine_p(out);
        }
        this.kind = kind;
    }

    /** Number of devices of {@code kind}. */
    public static long count(EngineKind kind) {
        return Native.dnnl_engine_get_count(kind);
    }

    public EngineKind kind() {
        return kind;
    }

    @Override
    void release() {
        if (h != null) Native.dnnl_engine_destroy(h);
    }
}
