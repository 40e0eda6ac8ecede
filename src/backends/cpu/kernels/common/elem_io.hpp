// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/common/elem_io.hpp — the floating-point element types of
// the C++ broadcast kernels (PReLU, GreaterEqual, Select): f32, bf16 and f16
// loaded as f32 and stored with the reference's own conversions (ir/dtype.hpp).
// A bf16 or f16 value widens to f32 exactly, and the reference rounds double ->
// f32 -> storage type, so an f32 result stored through these is the reference's
// byte for byte (a NaN's payload and sign aside when both operands of a product
// are NaN: which one x86 returns depends on the operand order the compiler
// picked, in the reference too).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "base/c_types.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace common {

template <data_type_t DT>
struct fp_t;

template <>
struct fp_t<dnnl_f32> {
    using raw_t = float;
    static constexpr const char *name = "f32";
    static float load(float v) { return v; }
    // The reference's values pass through double, which quiets a
    // signalling NaN (sets its top mantissa bit); one copied through here
    // (PReLUBackward's dy where x > 0) gets the same bit.
    static float store(float v) {
        uint32_t u;
        std::memcpy(&u, &v, 4);
        u |= (u & 0x7fffffffu) > 0x7f800000u ? 0x00400000u : 0u; // no branch
        std::memcpy(&v, &u, 4);
        return v;
    }
};

template <>
struct fp_t<dnnl_bf16> {
    using raw_t = uint16_t;
    static constexpr const char *name = "bf16";
    // ir::bf16_to_f32 is this shift; written inline so loops vectorize.
    static float load(uint16_t v) {
        const uint32_t u = static_cast<uint32_t>(v) << 16;
        float f;
        std::memcpy(&f, &u, 4);
        return f;
    }
    static uint16_t store(float v) { return ir::f32_to_bf16(v); }
};

template <>
struct fp_t<dnnl_f16> {
    using raw_t = uint16_t;
    static constexpr const char *name = "f16";
    static float load(uint16_t v) { return ir::f16_to_f32(v); }
    static uint16_t store(float v) { return ir::f32_to_f16(v); }
};

// c ? a : b by bit masks. GCC (with the default -ftrapping-math) keeps a
// ternary on floats as a branch, with the multiply that feeds one side
// moved under it, so the loop neither vectorizes nor avoids mispredicted
// signs; this form is a plain select.
template <typename F>
inline F pick(bool c, F a, F b) {
    using U = std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>;
    U ua, ub;
    std::memcpy(&ua, &a, sizeof(F));
    std::memcpy(&ub, &b, sizeof(F));
    const U m = U(0) - static_cast<U>(c);
    const U r = (ua & m) | (ub & ~m);
    F f;
    std::memcpy(&f, &r, sizeof(F));
    return f;
}

// body(fp_t<dt>()) for dt f32, bf16 or f16; false for any other type.
template <typename B>
bool with_fp(data_type_t dt, B &&body) {
    switch (dt) {
        case dnnl_f32: body(fp_t<dnnl_f32>()); return true;
        case dnnl_bf16: body(fp_t<dnnl_bf16>()); return true;
        case dnnl_f16: body(fp_t<dnnl_f16>()); return true;
        default: return false;
    }
}

inline bool is_fp(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

} // namespace common
} // namespace cpu
} // namespace llga
