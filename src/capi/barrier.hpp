// SPDX-License-Identifier: Apache-2.0
// capi/barrier.hpp — the one exception barrier every C entry point goes
// through. Internal code reports errors by status; the barrier additionally
// turns any escaping C++ exception into a status, and prefixes the last-error
// text with the entry point's name so users see where it failed.
#pragma once

#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "base/status.hpp"

namespace llga {
namespace capi {

template <typename F>
dnnl_status_t barrier(const char *entry, F &&body) noexcept {
    const uint64_t serial = error_serial();
    try {
        const status_t st = body();
        if (st != dnnl_success) {
            if (error_serial() == serial) // nobody described this failure
                set_last_error(std::string("failed with status ") + status_name(st));
            prefix_last_error(entry);
        }
        return st;
    } catch (const std::bad_alloc &) {
        set_last_error(std::string(entry) + ": out of memory");
        return dnnl_out_of_memory;
    } catch (const std::exception &e) {
        set_last_error(std::string(entry) + ": internal error: " + e.what());
        return dnnl_runtime_error;
    } catch (...) {
        set_last_error(std::string(entry) + ": internal error");
        return dnnl_runtime_error;
    }
}

// Reads a C enum argument without a typed load. C callers may pass any int,
// and reading an out-of-range value through a C++ enum type is undefined
// behaviour (UBSan aborts on it), so entry points check the raw value first
// and only then use the enum.
template <typename E>
int raw_enum(const E &e) {
    static_assert(sizeof(E) == sizeof(int), "C enums are int-sized");
    int v;
    std::memcpy(&v, &e, sizeof(v));
    return v;
}

#define LLGA_CHECK_ENUM(param, lo, hi, what) \
    do { \
        const int llga_raw_ = ::llga::capi::raw_enum(param); \
        if (llga_raw_ < static_cast<int>(lo) || llga_raw_ > static_cast<int>(hi)) \
            return ::llga::fail(dnnl_invalid_arguments, "unknown %s %d", what, \
                    llga_raw_); \
    } while (0)

// Null-argument check used at the top of entry points.
#define LLGA_CHECK_ARG(ptr) \
    do { \
        if ((ptr) == nullptr) \
            return ::llga::fail(dnnl_invalid_arguments, \
                    "argument '%s' is null", #ptr); \
    } while (0)

} // namespace capi
} // namespace llga

// Entry-point body:
//   return LLGA_API_BODY("dnnl_x", { ...return status...; });
#define LLGA_API_BODY(name, ...) \
    ::llga::capi::barrier(name, [&]() -> ::llga::status_t __VA_ARGS__)
