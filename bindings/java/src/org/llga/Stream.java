// SPDX-License-Identifier: Apache-2.0
// bindings/java/src/org/llga/Stream.java — Java wrapper of dnnl_stream_t.
package org.llga;

/** An in-order execution queue on an engine. */
public final class Stream extends Handle {
    final SWIGTYPE_p_dnnl_stream h;

    public Stream(Engine engine) {
        SWIGTYPE_p_p_dnnl_stream out = Native.new_stream_p();
        try {
            engine.ensureOpen();
            DnnlException.check(Native.dnnl_stream_create(out, engine.h, 1 /* in order */),
                    "dnnl_stream_create");
            h = Native.stream_p_value(out);
        } catch (RuntimeException e) {
            super.close();
            throw e;
        } finally {
            Native.delete_stream_p(out);
        }
    }

    /** Blocks until all submitted work has finished. */
    public void waitAll() {
        ensureOpen();
        DnnlException.check(Native.dnnl_stream_wait(h), "dnnl_stream_wait");
    }

    @Override
    void release() {
        if (h != null) Native.dnnl_stream_destroy(h);
    }
}
