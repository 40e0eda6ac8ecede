// SPDX-License-Identifier: Apache-2.0
// bindings/java/src/org/llga/Allocator.java — host allocators for engines.
// Only allocators whose callbacks are written in C are offered (the default
// one and a counting one from the binding's C glue); callbacks written in
// Java are not supported.
package org.llga;

/** A host memory allocator an {@link Engine} can be created with. The engine
 *  keeps its own copy, so the allocator may be closed right away. */
public final class Allocator extends Handle {
    final SWIGTYPE_p_dnnl_graph_allocator h;

    private Allocator(SWIGTYPE_p_dnnl_graph_allocator h) {
        this.h = h;
    }

    /** The library's own malloc/free-based allocator. */
    public static Allocator defaultAllocator() {
        SWIGTYPE_p_p_dnnl_graph_allocator out = Native.new_allocator_p();
        try {
            DnnlException.check(Native.dnnl_graph_allocator_create(out, null, null),
                    "dnnl_graph_allocator_create");
            return new Allocator(Native.allocator_p_value(out));
        } finally {
            Native.delete_allocator_p(out);
        }
    }

    /** An allocator (implemented in C) that counts the blocks it hands out;
     *  see {@link #liveBlocks()} and {@link #totalBlocks()}. */
    public static Allocator counting() {
        SWIGTYPE_p_p_dnnl_graph_allocator out = Native.new_allocator_p();
        try {
            DnnlException.check(Native.llga_bind_counting_allocator_create(out),
                    "dnnl_graph_allocator_create");
            return new Allocator(Native.allocator_p_value(out));
        } finally {
            Native.delete_allocator_p(out);
        }
    }

    /** Blocks from counting allocators that are still allocated. */
    public static long liveBlocks() {
        return Native.llga_bind_live_blocks();
    }

    /** Blocks ever handed out by counting allocators. */
    public static long totalBlocks() {
        return Native.llga_bind_total_blocks();
    }

    @Override
    void release() {
        Native.dnnl_graph_allocator_destroy(h);
    }
}
