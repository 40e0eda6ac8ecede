/*
 * llga.h -- llga's own extensions to the oneDNN v3.9 Graph API.
 *
 * Owns: every public C function that exists in llga but not in oneDNN.
 * Currently this is only llga_last_error_message(). C99. Programs written
 * for oneDNN never need this header; the C++ wrappers in dnnl_common.hpp use
 * it to put failure details into dnnl::error messages.
 */

#ifndef ONEAPI_DNNL_LLGA_H
#define ONEAPI_DNNL_LLGA_H

#include "oneapi/dnnl/dnnl_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Returns a human-readable description of the most recent failing llga API
 * call made on the calling thread, for example
 *
 *     "dnnl_graph_add_op: op 3 (Convolution): missing required attribute
 *      'strides'"
 *
 * or "" (the empty string) if no call has failed on this thread yet.
 *
 * - The message is thread-local: failures on other threads never change it.
 * - Every llga call that returns a status other than dnnl_success replaces
 *   the message (possibly with a shorter or empty one); successful calls
 *   leave it unchanged. Read it right after the failing call.
 * - The returned pointer is never NULL and points to a NUL-terminated string
 *   owned by the library. It stays valid until the next failing llga call on
 *   the same thread; copy it if it is needed for longer. Do not free it.
 * - The function itself never fails and never changes the message.
 */
DNNL_API const char *llga_last_error_message(void);

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_LLGA_H */
