// SPDX-License-Identifier: Apache-2.0
// base/status.cpp — thread-local last-error storage and status names.
#include "base/status.hpp"

#include <cstdarg>
#include <cstdio>

namespace llga {

namespace {
std::string &tls_error() {
    thread_local std::string msg;
    return msg;
}
thread_local uint64_t tls_serial = 0;
} // namespace

status_t fail(status_t st, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    tls_error() = buf;
    ++tls_serial;
    return st;
}

void prefix_last_error(const std::string &prefix) {
    std::string &e = tls_error();
    e = e.empty() ? prefix : prefix + ": " + e;
}

void set_last_error(const std::string &msg) {
    tls_error() = msg;
    ++tls_serial;
}
uint64_t error_serial() { return tls_serial; }
void clear_last_error() { tls_error().clear(); }
const std::string &last_error() { return tls_error(); }

const char *status_name(status_t st) {
    switch (st) {
        case dnnl_success: return "success";
        case dnnl_out_of_memory: return "out_of_memory";
        case dnnl_invalid_arguments: return "invalid_arguments";
        case dnnl_unimplemented: return "unimplemented";
        case dnnl_last_impl_reached: return "last_impl_reached";
        case dnnl_runtime_error: return "runtime_error";
        case dnnl_not_required: return "not_required";
        case dnnl_invalid_graph: return "invalid_graph";
        case dnnl_invalid_graph_op: return "invalid_graph_op";
        case dnnl_invalid_shape: return "invalid_shape";
        case dnnl_invalid_data_type: return "invalid_data_type";
    }
    return "unknown_status";
}

} // namespace llga
