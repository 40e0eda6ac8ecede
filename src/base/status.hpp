// SPDX-License-Identifier: Apache-2.0
// base/status.hpp — status propagation and the thread-local "last error" text.
// Internal code never throws for bad input: it returns a status, and the place
// that detects the problem records a precise message with fail(). The C API
// barrier prefixes the entry-point name, and llga_last_error_message() hands
// the text to users (the C++ wrapper puts it into dnnl::error::what()).
#pragma once

#include <string>

#include "base/c_types.hpp"

namespace llga {

// Records a printf-style message as the calling thread's last error and
// returns `st`, so detection sites read: return fail(dnnl_invalid_shape, ...).
status_t fail(status_t st, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

// Prepends "<prefix>: " to the current last-error text (used by the C barrier
// and by layers that add context such as the op id).
void prefix_last_error(const std::string &prefix);
void set_last_error(const std::string &msg);
void clear_last_error();
const std::string &last_error();
// Increases on every recorded error on this thread; the C barrier compares it
// before and after a call so a failure never reports an older message.
uint64_t error_serial();

const char *status_name(status_t st);

} // namespace llga

#define LLGA_RETURN_IF_ERROR(expr) \
    do { \
        ::llga::status_t llga_st_ = (expr); \
        if (llga_st_ != dnnl_success) return llga_st_; \
    } while (0)
