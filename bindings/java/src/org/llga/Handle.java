// SPDX-License-Identifier: Apache-2.0
// bindings/java/src/org/llga/Handle.java — common base of the Java classes
// that own a native llga object: idempotent close(), use-after-close checks
// and a process-wide count of open handles (for leak checks).
package org.llga;

import java.util.concurrent.atomic.AtomicLong;

/** A native llga object. Close it (try-with-resources) to release it; there
 *  are no finalizers, so an unclosed handle leaks until the process ends. */
public abstract class Handle implements AutoCloseable {
    private static final AtomicLong LIVE = new AtomicLong();
    private boolean closed;

    Handle() {
        LIVE.incrementAndGet();
    }

    /** Number of Handle objects created and not yet closed. */
    public static long liveHandles() {
        return LIVE.get();
    }

    /** Releases the native object; further calls do nothing. */
    @Override
    public final synchronized void close() {
        if (closed) return;
        closed = true;
        LIVE.decrementAndGet();
        release();
    }

    public final synchronized boolean isClosed() {
        return closed;
    }

    final void ensureOpen() {
        if (isClosed())
            throw new IllegalStateException(getClass().getSimpleName() + " is closed");
    }

    /** Destroys the native object (called once, from close()). */
    abstract void release();
}
