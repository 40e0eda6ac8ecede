// bindings/java/src/org/llga/Tensor.java — Java wrapper of
// dnnl_graph_tensor_t: a logical tensor bound to memory, either a direct NIO
// buffer owned by Java (zero copy) or a buffer the library allocates.
package org.llga;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/** Data for one input or output of a compiled partition. */
public final class Tensor extends Handle {
    final SWIGTYPE_p_dnnl_graph_tensor h;
    private final LogicalTensor lt;
    private final Buffer buffer; // keeps the Java-owned memory reachable

    /** Wraps {@code data} without copying. It must be a direct buffer in
     *  native byte order (see {@link #directBuffer}) of at least
     *  {@code lt.memSize()} bytes, and must stay unchanged in size while the
     *  tensor is used. */
    public Tensor(LogicalTensor lt, Engine engine, Buffer data) {
        this(lt, engine, checked(lt, data), false);
    }

    private Tensor(LogicalTensor lt, Engine engine, Buffer data, boolean libraryOwned) {
        this.lt = lt;
        this.buffer = data;
        SWIGTYPE_p_p_dnnl_graph_tensor out = Native.new_tensor_p();
        dnnl_graph_logical_tensor_t n = lt.toNative();
        try {
            engine.ensureOpen();
            Status st = libraryOwned
                    ? Native.llga_bind_tensor_create_allocated(out, n, engine.h)
                    : Native.dnnl_graph_tensor_create(out, n, engine.h, data);
            DnnlException.check(st, "dnnl_graph_tensor_create");
            h = Native.tensor_p_value(out);
        } catch (RuntimeException e) {
            super.close();
            throw e;
        } finally {
            n.delete();
            Native.delete_tensor_p(out);
        }
    }

    /** A tensor whose buffer the library allocates (through the engine's
     *  allocator) and frees on close(). */
    public static Tensor allocate(LogicalTensor lt, Engine engine) {
        return new Tensor(lt, engine, null, true);
    }

    /** A tensor over a new direct buffer holding a copy of {@code data}. */
    public static Tensor fromArray(LogicalTensor lt, Engine engine, float[] data) {
        ByteBuffer b = directBuffer(Math.max(lt.memSize(), 4L * data.length));
        b.asFloatBuffer().put(data);
        return new Tensor(lt, engine, b);
    }

    /** A tensor over a new direct buffer holding a copy of {@code data}. */
    public static Tensor fromArray(LogicalTensor lt, Engine engine, int[] data) {
        ByteBuffer b = directBuffer(Math.max(lt.memSize(), 4L * data.length));
        b.asIntBuffer().put(data);
        return new Tensor(lt, engine, b);
    }

    /** A zero-filled direct buffer of {@code bytes} bytes in native order. */
    public static ByteBuffer directBuffer(long bytes) {
        if (bytes < 0 || bytes > Integer.MAX_VALUE)
            throw new IllegalArgumentException("buffer size " + bytes);
        return ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.nativeOrder());
    }

    public LogicalTensor logicalTensor() {
        return lt;
    }

    /** The Java buffer given at creation (null if the library owns it). */
    public Buffer buffer() {
        return buffer;
    }

    /** Copies the tensor's contents into a new float[]. */
    public float[] toFloatArray() {
        ByteBuffer b = read();
        float[] out = new float[b.capacity() / 4];
        b.asFloatBuffer().get(out);
        return out;
    }

    /** Copies the tensor's contents into a new int[]. */
    public int[] toIntArray() {
        ByteBuffer b = read();
        int[] out = new int[b.capacity() / 4];
        b.asIntBuffer().get(out);
        return out;
    }

    /** Copies {@code data} into the tensor's buffer (from its start). */
    public void write(float[] data) {
        ensureOpen();
        ByteBuffer b = directBuffer(4L * data.length);
        b.asFloatBuffer().put(data);
        DnnlException.check(Native.llga_bind_tensor_write(h, b, 4L * data.length),
                "llga_bind_tensor_write");
    }

    private ByteBuffer read() {
        ensureOpen();
        long bytes = lt.memSize();
        ByteBuffer b = directBuffer(bytes);
        DnnlException.check(Native.llga_bind_tensor_read(h, b, bytes), "llga_bind_tensor_read");
        return b;
    }

    private static Buffer checked(LogicalTensor lt, Buffer data) {
        if (data == null) throw new IllegalArgumentException("data is null");
        if (!data.isDirect())
            throw new IllegalArgumentException("tensor data must be a direct NIO buffer");
        long elem;
        ByteOrder order;
        if (data instanceof ByteBuffer) { elem = 1; order = ((ByteBuffer) data).order(); }
        else if (data instanceof FloatBuffer) { elem = 4; order = ((FloatBuffer) data).order(); }
        else if (data instanceof IntBuffer) { elem = 4; order = ((IntBuffer) data).order(); }
        else if (data instanceof LongBuffer) { elem = 8; order = ((LongBuffer) data).order(); }
        else if (data instanceof DoubleBuffer) { elem = 8; order = ((DoubleBuffer) data).order(); }
        else if (data instanceof ShortBuffer) { elem = 2; order = ((ShortBuffer) data).order(); }
        else { elem = 1; order = ByteOrder.nativeOrder(); }
        if (order != ByteOrder.nativeOrder())
            throw new IllegalArgumentException("tensor data must be in native byte order");
        long need = lt.memSize();
        if (need >= 0 && data.capacity() * elem < need)
            throw new IllegalArgumentException("buffer holds " + data.capacity() * elem
                    + " bytes, the tensor needs " + need);
        return data;
    }

    @Override
    void release() {
        if (h != null) Native.dnnl_graph_tensor_destroy(h);
    }
}
