// SPDX-License-Identifier: Apache-2.0
/// @file
// dnnl_common.hpp -- part of llga, a from-scratch implementation of the
// oneDNN v3.9 Graph API.
//
// Owns: the header-only C++ layer shared by the graph API and the rest of
// the library, in namespace dnnl: error reporting (dnnl::error and the
// DNNL_ENABLE_EXCEPTIONS / DNNL_TRAP / DNNL_THROW_ERROR macros), the
// reference-counted handle machinery (handle_traits, handle), dnnl::engine,
// dnnl::stream (with DNNL_DEFINE_BITMASK_OPS for its flags) and the
// fpmath_mode / accumulation_mode enums. C++11.
//
// llga difference: when a C call fails, dnnl::error::wrap_c_api() appends
// llga_last_error_message() to the fixed wrapper message, so the exception
// text names the offending op or tensor.

#ifndef ONEAPI_DNNL_DNNL_COMMON_HPP
#define ONEAPI_DNNL_DNNL_COMMON_HPP

/// @cond DO_NOT_DOCUMENT_THIS
#include <algorithm>
#include <cstdlib>
#include <exception>
#include <iterator>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "oneapi/dnnl/dnnl_common.h"
#include "oneapi/dnnl/llga.h"
/// @endcond

// Whether failures are reported by throwing dnnl::error (1) or by printing
// the message and trapping (0). Users may define it before including this
// header; by default it follows the compiler's exception support.
#ifndef DNNL_ENABLE_EXCEPTIONS
#if defined(__EXCEPTIONS) || defined(__cpp_exceptions) \
        || (defined(_MSC_VER) && defined(_CPPUNWIND))
/// 1 when the C++ wrapper reports errors by throwing dnnl::error, 0 when
/// it aborts (exceptions disabled).
#define DNNL_ENABLE_EXCEPTIONS 1
#else
/// 1 when the C++ wrapper reports errors by throwing dnnl::error, 0 when
/// it aborts (exceptions disabled).
#define DNNL_ENABLE_EXCEPTIONS 0
#endif
#endif

#if !DNNL_ENABLE_EXCEPTIONS
#include <cstdio>
#endif

// Stops the program in a debugger-friendly way.
#ifndef DNNL_TRAP
#if defined(__GNUC__) || defined(__clang__)
#define DNNL_TRAP() __builtin_trap()
#elif defined(__INTEL_COMPILER) || defined(_MSC_VER)
#define DNNL_TRAP() __debugbreak()
#else
#error "DNNL_TRAP() is not defined for this compiler"
#endif
#endif

/// Reports a failure with a status and a message that outlives the call
/// (normally a string literal).
#if DNNL_ENABLE_EXCEPTIONS
#define DNNL_THROW_ERROR(status, msg) throw ::dnnl::error(status, msg)
#else
#define DNNL_THROW_ERROR(status, msg) \
    do { \
        std::fputs(msg, stderr); \
        std::fputc('\n', stderr); \
        DNNL_TRAP(); \
    } while (0)
#endif

namespace dnnl {

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/// Exception thrown when a C API call fails.
///
/// `status` is the C status code and `message` a human-readable text;
/// `what()` returns `message`. An error constructed directly by user code
/// does not own `message` (pass a string literal or otherwise long-lived
/// string). Errors thrown by wrap_c_api() own their text, and copies of such
/// an error share it, so `message` stays valid as long as any copy lives.
struct error : public std::exception {
    /// Status code of the failed call.
    dnnl_status_t status;
    /// Description of the failure (never owned through this pointer).
    const char *message;

    /// Creates an error with a caller-owned message.
    error(dnnl_status_t astatus, const char *amessage)
        : status(astatus), message(amessage) {}

    /// Returns the description of the failure.
    const char *what() const noexcept override { return message; }

    /// Does nothing if `astatus` is dnnl_success. Otherwise reports a
    /// failure: the text is `amessage`, followed by ": " and the library's
    /// description of the failure (llga_last_error_message()) if there is
    /// one.
    static void wrap_c_api(dnnl_status_t astatus, const char *amessage) {
        if (astatus != dnnl_success) report_failure(astatus, amessage);
    }

private:
    // Selects the constructor that takes ownership of a composed message.
    struct owned_text_tag {};

    // Keeps a composed message alive; null when `message` is not owned.
    std::shared_ptr<const std::string> owned_text_;

    error(owned_text_tag, dnnl_status_t astatus,
            std::shared_ptr<const std::string> text)
        : status(astatus), message(text->c_str()), owned_text_(text) {}

    static void report_failure(dnnl_status_t astatus, const char *amessage) {
        const char *base = amessage ? amessage : "";
        const char *detail = llga_last_error_message();
        const bool has_detail = detail != nullptr && detail[0] != '\0';
#if DNNL_ENABLE_EXCEPTIONS
        if (has_detail) {
            std::shared_ptr<const std::string> text;
            try {
                std::shared_ptr<std::string> composed
                        = std::make_shared<std::string>(base);
                composed->append(": ");
                composed->append(detail);
                text = composed;
            } catch (...) {
                // Out of memory while composing: fall back to the fixed
                // message below.
            }
            if (text) throw error(owned_text_tag(), astatus, text);
        }
        throw error(astatus, base);
#else
        (void)astatus;
        if (has_detail)
            std::fprintf(stderr, "%s: %s\n", base, detail);
        else
            std::fprintf(stderr, "%s\n", base);
        DNNL_TRAP();
#endif
    }
};

// ---------------------------------------------------------------------------
// Handles
// ---------------------------------------------------------------------------

/// Describes how to destroy a C object of handle type T. Specialisations
/// provide `static dnnl_status_t destructor(T)`.
template <typename T>
struct handle_traits {};

/// Reference-counted wrapper around a C handle `T` (a pointer to an opaque
/// struct). Copies share the same C object; the last owner destroys it with
/// `traits::destructor`. A weak handle never destroys its object.
template <typename T, typename traits = handle_traits<T>>
struct handle {
private:
    using object_type = typename std::remove_pointer<T>::type;

    static dnnl_status_t no_destructor(T) { return dnnl_success; }

    std::shared_ptr<object_type> data_;

protected:
    /// Whether this handle wraps exactly the C object `other`.
    bool operator==(const T other) const { return other == data_.get(); }
    /// Whether this handle does not wrap the C object `other`.
    bool operator!=(const T other) const { return !(*this == other); }

public:
    /// Creates an empty handle.
    handle() = default;
    /// Shares the C object of `other`.
    handle(const handle<T, traits> &) = default;
    /// Shares the C object of `other`.
    handle<T, traits> &operator=(const handle<T, traits> &) = default;
    /// Takes over the C object of `other`.
    handle(handle<T, traits> &&) = default;
    /// Takes over the C object of `other`.
    handle<T, traits> &operator=(handle<T, traits> &&) = default;

    /// Wraps the C object `t`; a weak handle never destroys it.
    explicit handle(T t, bool weak = false) { reset(t, weak); }

    /// Replaces the wrapped C object by `t`; a weak handle never destroys
    /// it. Passing a null `t` makes the handle empty.
    void reset(T t, bool weak = false) {
        if (t == nullptr)
            data_.reset();
        else
            data_.reset(t, weak ? &no_destructor : &traits::destructor);
    }

    /// Returns the wrapped C object. Fails with dnnl_invalid_arguments if
    /// the handle is empty, unless `allow_empty` is true.
    T get(bool allow_empty = false) const {
        T result = data_.get();
        if (!allow_empty && result == nullptr)
            DNNL_THROW_ERROR(dnnl_invalid_arguments,
                    "attempt to use an empty (uninitialized) object");
        return result;
    }

    /// Returns the wrapped C object (null if empty) without checking.
    explicit operator T() const { return data_.get(); }

    /// Whether the handle wraps a C object.
    explicit operator bool() const { return data_.get() != nullptr; }

    /// Whether both handles wrap the same C object (or are both empty).
    bool operator==(const handle<T, traits> &other) const {
        return other.data_.get() == data_.get();
    }

    /// Whether the handles wrap different C objects.
    bool operator!=(const handle<T, traits> &other) const {
        return !(*this == other);
    }
};

/// @cond DO_NOT_DOCUMENT_THIS
template <>
struct handle_traits<dnnl_engine_t> {
    static dnnl_status_t destructor(dnnl_engine_t p) {
        return dnnl_engine_destroy(p);
    }
};

template <>
struct handle_traits<dnnl_stream_t> {
    static dnnl_status_t destructor(dnnl_stream_t p) {
        return dnnl_stream_destroy(p);
    }
};
/// @endcond

// ---------------------------------------------------------------------------
// Engine
// ---------------------------------------------------------------------------

/// A device (CPU or GPU) together with library-side resources.
struct engine : public handle<dnnl_engine_t> {
    friend struct primitive;
    friend struct reorder;

    /// Kind of device.
    enum class kind {
        /// Any device (only meaningful in queries).
        any = dnnl_any_engine,
        /// The host CPU.
        cpu = dnnl_cpu,
        /// A GPU.
        gpu = dnnl_gpu,
    };

    using handle::handle;

    /// Creates an empty engine.
    engine() = default;

    /// Returns the number of available devices of kind `akind`.
    static size_t get_count(kind akind) {
        return dnnl_engine_get_count(convert_to_c(akind));
    }

    /// Creates an engine for device number `index` of kind `akind`.
    engine(kind akind, size_t index) {
        dnnl_engine_t c_engine = nullptr;
        error::wrap_c_api(
                dnnl_engine_create(&c_engine, convert_to_c(akind), index),
                "could not create an engine");
        reset(c_engine);
    }

    /// Returns the kind of device of the engine.
    kind get_kind() const {
        dnnl_engine_kind_t c_kind = dnnl_any_engine;
        error::wrap_c_api(dnnl_engine_get_kind(get(), &c_kind),
                "could not get kind of an engine");
        return static_cast<engine::kind>(c_kind);
    }

private:
    static dnnl_engine_kind_t convert_to_c(kind akind) {
        return static_cast<dnnl_engine_kind_t>(akind);
    }
};

/// Converts an engine kind to its C value.
inline dnnl_engine_kind_t convert_to_c(engine::kind akind) {
    return static_cast<dnnl_engine_kind_t>(akind);
}

// ---------------------------------------------------------------------------
// Stream
// ---------------------------------------------------------------------------

/// An execution queue on an engine.
struct stream : public handle<dnnl_stream_t> {
    using handle::handle;

    /// Stream creation flags; they can be combined with |, & and ^.
    enum class flags : unsigned {
        /// Work is executed in submission order.
        in_order = dnnl_stream_in_order,
        /// Work may be executed out of submission order.
        out_of_order = dnnl_stream_out_of_order,
        /// The default flags (in-order execution).
        default_flags = dnnl_stream_default_flags,
#ifdef DNNL_EXPERIMENTAL_PROFILING
        /// Collect execution timings (experimental).
        profiling = dnnl_stream_profiling,
#endif
    };

    /// Creates an empty stream.
    stream() = default;

    /// Creates a stream on `aengine`.
    explicit stream(
            const engine &aengine, flags aflags = flags::default_flags) {
        dnnl_stream_t c_stream = nullptr;
        error::wrap_c_api(dnnl_stream_create(&c_stream, aengine.get(),
                                  static_cast<unsigned>(aflags)),
                "could not create a stream");
        reset(c_stream);
    }

    /// Returns the stream's engine as a weak (non-owning) handle.
    engine get_engine() const {
        dnnl_engine_t c_engine = nullptr;
        error::wrap_c_api(dnnl_stream_get_engine(get(), &c_engine),
                "could not get an engine from a stream object");
        return engine(c_engine, true);
    }

    /// Blocks until all work submitted to the stream has completed.
    stream &wait() {
        error::wrap_c_api(
                dnnl_stream_wait(get()), "could not wait on a stream");
        return *this;
    }
};

/// Defines the bitwise operators |, &, ^, |=, &=, ^= and ~ for a scoped
/// enumeration whose values fit in `unsigned`.
#define DNNL_DEFINE_BITMASK_OPS(enum_name) \
    inline enum_name operator|(enum_name lhs, enum_name rhs) { \
        return static_cast<enum_name>( \
                static_cast<unsigned>(lhs) | static_cast<unsigned>(rhs)); \
    } \
\
    inline enum_name operator&(enum_name lhs, enum_name rhs) { \
        return static_cast<enum_name>( \
                static_cast<unsigned>(lhs) & static_cast<unsigned>(rhs)); \
    } \
\
    inline enum_name operator^(enum_name lhs, enum_name rhs) { \
        return static_cast<enum_name>( \
                static_cast<unsigned>(lhs) ^ static_cast<unsigned>(rhs)); \
    } \
\
    inline enum_name &operator|=(enum_name &lhs, enum_name rhs) { \
        lhs = static_cast<enum_name>( \
                static_cast<unsigned>(lhs) | static_cast<unsigned>(rhs)); \
        return lhs; \
    } \
\
    inline enum_name &operator&=(enum_name &lhs, enum_name rhs) { \
        lhs = static_cast<enum_name>( \
                static_cast<unsigned>(lhs) & static_cast<unsigned>(rhs)); \
        return lhs; \
    } \
\
    inline enum_name &operator^=(enum_name &lhs, enum_name rhs) { \
        lhs = static_cast<enum_name>( \
                static_cast<unsigned>(lhs) ^ static_cast<unsigned>(rhs)); \
        return lhs; \
    } \
\
    inline enum_name operator~(enum_name rhs) { \
        return static_cast<enum_name>(~static_cast<unsigned>(rhs)); \
    }

DNNL_DEFINE_BITMASK_OPS(stream::flags)

// ---------------------------------------------------------------------------
// Math modes
// ---------------------------------------------------------------------------

/// How far the implementation may lower the precision of f32 arithmetic.
enum class fpmath_mode {
    /// Compute in the nominal precision only.
    strict = dnnl_fpmath_mode_strict,
    /// bf16 arithmetic may be used.
    bf16 = dnnl_fpmath_mode_bf16,
    /// f16 arithmetic may be used.
    f16 = dnnl_fpmath_mode_f16,
    /// tf32 arithmetic may be used.
    tf32 = dnnl_fpmath_mode_tf32,
    /// Any lower-precision arithmetic may be used.
    any = dnnl_fpmath_mode_any,
};

/// Converts an fp-math mode to its C value.
inline dnnl_fpmath_mode_t convert_to_c(fpmath_mode mode) {
    return static_cast<dnnl_fpmath_mode_t>(mode);
}

/// Which data type may be used for intermediate accumulation.
enum class accumulation_mode {
    /// Accumulate in the default (most accurate) type.
    strict = dnnl_accumulation_mode_strict,
    /// A faster, possibly less accurate accumulator is allowed.
    relaxed = dnnl_accumulation_mode_relaxed,
    /// Any accumulator type is allowed.
    any = dnnl_accumulation_mode_any,
    /// Accumulate in s32.
    s32 = dnnl_accumulation_mode_s32,
    /// Accumulate in f32.
    f32 = dnnl_accumulation_mode_f32,
    /// Accumulate in f16.
    f16 = dnnl_accumulation_mode_f16,
};

/// Converts an accumulation mode to its C value.
inline dnnl_accumulation_mode_t convert_to_c(accumulation_mode mode) {
    return static_cast<dnnl_accumulation_mode_t>(mode);
}

} // namespace dnnl

#endif // ONEAPI_DNNL_DNNL_COMMON_HPP
