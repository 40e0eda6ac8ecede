// SPDX-License-Identifier: Apache-2.0
// runtime/stream.cpp — stream flag validation.
#include "runtime/stream.hpp"

#include "base/status.hpp"

namespace llga {
namespace rt {

status_t stream_t::check_flags(unsigned flags) {
    const unsigned known = dnnl_stream_in_order | dnnl_stream_out_of_order;
    if (flags & ~known)
        return fail(dnnl_invalid_arguments, "unknown stream flags 0x%x", flags);
    if ((flags & dnnl_stream_in_order) && (flags & dnnl_stream_out_of_order))
        return fail(dnnl_invalid_arguments,
                "stream cannot be both in-order and out-of-order");
    return dnnl_success;
}

} // namespace rt
} // namespace llga
