// SPDX-License-Identifier: Apache-2.0
// bindings/java/src/org/llga/DnnlException.java — the exception every failing
// llga call raises in Java: carries the C status and the library's message.
package org.llga;

/** A failed llga call: {@link #status()} is the C status code, the message
 *  includes {@code llga_last_error_message()}. */
public class DnnlException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final Status status;

    public DnnlException(Status status, String message) {
        super(message);
        this.status = status;
    }

    /** The dnnl_status_t value returned by the failing C function. */
    public Status status() {
        return status;
    }

    /** Throws a DnnlException unless {@code st} is SUCCESS. */
    static void check(Status st, String function) {
        if (st != Status.SUCCESS) {
            String detail = Native.llga_last_error_message();
            throw new DnnlException(st, function + " failed with " + st
                    + (detail.isEmpty() ? "" : ": " + detail));
        }
    }
}
