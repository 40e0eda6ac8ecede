// SPDX-License-Identifier: Apache-2.0
// ir/dtype.cpp — data type facts and scalar conversions.
#include "ir/dtype.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace llga {
namespace ir {

namespace {
uint32_t bits_of(float v) {
    uint32_t u;
    std::memcpy(&u, &v, sizeof(u));
    return u;
}
float float_of(uint32_t u) {
    float v;
    std::memcpy(&v, &u, sizeof(v));
    return v;
}

struct dt_entry_t {
    data_type_t dt;
    const char *name;
    int bits;
};
const dt_entry_t k_dtypes[] = {
        {dnnl_data_type_undef, "undef", 0},
        {dnnl_f16, "f16", 16},
        {dnnl_bf16, "bf16", 16},
        {dnnl_f32, "f32", 32},
        {dnnl_s32, "s32", 32},
        {dnnl_s8, "s8", 8},
        {dnnl_u8, "u8", 8},
        {dnnl_f64, "f64", 64},
        {dnnl_boolean, "boolean", 8},
        {dnnl_f8_e5m2, "f8_e5m2", 8},
        {dnnl_f8_e4m3, "f8_e4m3", 8},
        {dnnl_s4, "s4", 4},
        {dnnl_u4, "u4", 4},
        {dnnl_e8m0, "e8m0", 8},
        {dnnl_f4_e2m1, "f4_e2m1", 4},
        {dnnl_f4_e3m0, "f4_e3m0", 4},
};
const dt_entry_t *find(data_type_t dt) {
    for (const auto &e : k_dtypes)
        if (e.dt == dt) return &e;
    return nullptr;
}
} // namespace

int dtype_bits(data_type_t dt) {
    const dt_entry_t *e = find(dt);
    return e ? e->bits : 0;
}

size_t dtype_storage_bytes(data_type_t dt, int64_t n) {
    if (n <= 0) return 0;
    const int bits = dtype_bits(dt);
    return static_cast<size_t>((n * bits + 7) / 8);
}

const char *dtype_name(data_type_t dt) {
    const dt_entry_t *e = find(dt);
    return e ? e->name : "unknown";
}

bool dtype_from_name(const std::string &name, data_type_t *dt) {
    for (const auto &e : k_dtypes)
        if (name == e.name) {
            *dt = e.dt;
            return true;
        }
    return false;
}

bool dtype_is_float(data_type_t dt) {
    switch (dt) {
        case dnnl_f32:
        case dnnl_bf16:
        case dnnl_f16:
        case dnnl_f64:
        case dnnl_f8_e5m2:
        case dnnl_f8_e4m3: return true;
        default: return false;
    }
}

bool dtype_is_int(data_type_t dt) {
    switch (dt) {
        case dnnl_s32:
        case dnnl_s8:
        case dnnl_u8:
        case dnnl_s4:
        case dnnl_u4:
        case dnnl_boolean: return true;
        default: return false;
    }
}

uint16_t f32_to_bf16(float v) {
    uint32_t u = bits_of(v);
    if (std::isnan(v)) return static_cast<uint16_t>((u >> 16) | 0x40); // quiet
    // Round half to even on the 16 dropped bits.
    uint32_t lsb = (u >> 16) & 1u;
    u += 0x7fffu + lsb;
    return static_cast<uint16_t>(u >> 16);
}

float bf16_to_f32(uint16_t v) { return float_of(static_cast<uint32_t>(v) << 16); }

uint16_t f32_to_f16(float v) {
    const uint32_t u = bits_of(v);
    const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
    const uint32_t abs = u & 0x7fffffffu;
    // Inf, or a NaN made quiet with the top of its payload kept: what
    // F16C's vcvtps2ph (the vector kernels) and bf16's rule do.
    if (abs >= 0x7f800000u)
        return sign
                | (abs > 0x7f800000u ? 0x7e00u | ((abs >> 13) & 0x3ffu)
                                     : 0x7c00u);
    if (abs >= 0x477ff000u) return sign | 0x7c00u; // rounds to >= 65520: inf
    if (abs < 0x38800000u) {
        // f16 subnormal or zero: value = m * 2^-24 with m rounded half-even.
        const float a = float_of(abs);
        const float scaled = a * 16777216.0f; // exact (power of two)
        const float m = std::nearbyint(scaled);
        return sign | static_cast<uint16_t>(m);
    }
    // Normal: rebias exponent (127 -> 15) and round the 13 dropped bits.
    uint32_t r = abs - 0x38000000u;
    const uint32_t lsb = (r >> 13) & 1u;
    r += 0xfffu + lsb;
    return sign | static_cast<uint16_t>(r >> 13);
}

float f16_to_f32(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu;
    const uint32_t man = h & 0x3ffu;
    if (exp == 0) {
        const float m = static_cast<float>(man) * (1.0f / 16777216.0f);
        return sign ? -m : m;
    }
    if (exp == 31) return float_of(sign | 0x7f800000u | (man << 13));
    return float_of(sign | ((exp + 112u) << 23) | (man << 13));
}

// f8_e5m2 is the upper byte of f16; round f32 -> f16 first (as the opset
// specifies), then half-even on the dropped byte.
uint8_t f32_to_f8_e5m2(float v) {
    uint16_t h = f32_to_f16(v);
    if ((h & 0x7fffu) > 0x7c00u) return static_cast<uint8_t>((h >> 8) | 0x02);
    if ((h & 0x7fffu) == 0x7c00u) return static_cast<uint8_t>(h >> 8);
    const uint16_t lsb = (h >> 8) & 1u;
    const uint32_t r = static_cast<uint32_t>(h) + 0x7fu + lsb;
    return static_cast<uint8_t>(r >> 8); // may carry into inf: correct overflow
}

float f8_e5m2_to_f32(uint8_t v) {
    return f16_to_f32(static_cast<uint16_t>(v) << 8);
}

// e4m3: bias 7, no infinities, 0x7f/0xff are NaN, max finite 448.
uint8_t f32_to_f8_e4m3(float v) {
    const float h = f16_to_f32(f32_to_f16(v)); // through f16, as specified
    const uint8_t sign = std::signbit(h) ? 0x80 : 0x00;
    if (std::isnan(h)) return sign | 0x7f;
    const float a = std::fabs(h);
    if (a > 464.0f) return sign | 0x7f; // beyond the rounding range of 448
    if (a >= 448.0f) return sign | 0x7e;
    if (a < std::ldexp(1.0f, -6)) {
        // Subnormal: m * 2^-9, m in [0, 7]; m == 8 is the smallest normal.
        const float m = std::nearbyint(a * 512.0f);
        return sign | static_cast<uint8_t>(m);
    }
    int e;
    const float fr = std::frexp(a, &e); // a = fr * 2^e, fr in [0.5, 1)
    // mantissa with 3 fraction bits: a = (1 + m/8) * 2^(e-1)
    float m = std::nearbyint((fr * 2.0f - 1.0f) * 8.0f);
    int exp = e - 1;
    if (m >= 8.0f) {
        m = 0.0f;
        ++exp;
    }
    const int biased = exp + 7;
    return sign | static_cast<uint8_t>((biased << 3) | static_cast<int>(m));
}

float f8_e4m3_to_f32(uint8_t v) {
    const bool neg = (v & 0x80) != 0;
    const int exp = (v >> 3) & 0xf;
    const int man = v & 0x7;
    float r;
    if (exp == 0xf && man == 0x7)
        r = std::numeric_limits<float>::quiet_NaN();
    else if (exp == 0)
        r = std::ldexp(static_cast<float>(man), -9);
    else
        r = std::ldexp(1.0f + static_cast<float>(man) / 8.0f, exp - 7);
    return neg ? -r : r;
}

float round_to_tf32(float v) {
    if (!std::isfinite(v)) return v;
    uint32_t u = bits_of(v);
    const uint32_t lsb = (u >> 13) & 1u;
    u += 0xfffu + lsb;
    u &= ~0x1fffu;
    return float_of(u);
}

float round_for_fpmath(fpmath_mode_t mode, float v) {
    switch (mode) {
        case dnnl_fpmath_mode_bf16: return bf16_to_f32(f32_to_bf16(v));
        case dnnl_fpmath_mode_f16: return f16_to_f32(f32_to_f16(v));
        case dnnl_fpmath_mode_tf32: return round_to_tf32(v);
        default: return v;
    }
}

double saturate_round(data_type_t dt, double v) {
    double lo = 0, hi = 0;
    switch (dt) {
        case dnnl_s8: lo = -128; hi = 127; break;
        case dnnl_u8: lo = 0; hi = 255; break;
        case dnnl_s32: lo = -2147483648.0; hi = 2147483647.0; break;
        case dnnl_s4: lo = -8; hi = 7; break;
        case dnnl_u4: lo = 0; hi = 15; break;
        default: return v;
    }
    if (std::isnan(v)) return 0;
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return std::nearbyint(v);
}

double load_value(data_type_t dt, const void *base, int64_t off) {
    const auto *p = static_cast<const uint8_t *>(base);
    switch (dt) {
        case dnnl_f32: {
            float v;
            std::memcpy(&v, p + off * 4, 4);
            return v;
        }
        case dnnl_f64: {
            double v;
            std::memcpy(&v, p + off * 8, 8);
            return v;
        }
        case dnnl_s32: {
            int32_t v;
            std::memcpy(&v, p + off * 4, 4);
            return v;
        }
        case dnnl_bf16:
        case dnnl_f16: {
            uint16_t v;
            std::memcpy(&v, p + off * 2, 2);
            return dt == dnnl_bf16 ? bf16_to_f32(v) : f16_to_f32(v);
        }
        case dnnl_s8: return static_cast<int8_t>(p[off]);
        case dnnl_u8: return p[off];
        case dnnl_boolean: return p[off] != 0 ? 1.0 : 0.0;
        case dnnl_f8_e5m2: return f8_e5m2_to_f32(p[off]);
        case dnnl_f8_e4m3: return f8_e4m3_to_f32(p[off]);
        case dnnl_s4:
        case dnnl_u4: {
            const uint8_t byte = p[off / 2];
            const int nib = (off % 2) ? (byte >> 4) : (byte & 0xf);
            if (dt == dnnl_u4) return nib;
            return nib >= 8 ? nib - 16 : nib;
        }
        default: return 0;
    }
}

void store_value(data_type_t dt, void *base, int64_t off, double v) {
    auto *p = static_cast<uint8_t *>(base);
    switch (dt) {
        case dnnl_f32: {
            const float f = static_cast<float>(v);
            std::memcpy(p + off * 4, &f, 4);
            return;
        }
        case dnnl_f64: std::memcpy(p + off * 8, &v, 8); return;
        case dnnl_s32: {
            const int32_t i = static_cast<int32_t>(saturate_round(dt, v));
            std::memcpy(p + off * 4, &i, 4);
            return;
        }
        case dnnl_bf16:
        case dnnl_f16: {
            const float f = static_cast<float>(v);
            const uint16_t h = dt == dnnl_bf16 ? f32_to_bf16(f) : f32_to_f16(f);
            std::memcpy(p + off * 2, &h, 2);
            return;
        }
        case dnnl_s8:
            p[off] = static_cast<uint8_t>(
                    static_cast<int8_t>(saturate_round(dt, v)));
            return;
        case dnnl_u8:
            p[off] = static_cast<uint8_t>(saturate_round(dt, v));
            return;
        case dnnl_boolean: p[off] = v != 0 ? 1 : 0; return;
        case dnnl_f8_e5m2: p[off] = f32_to_f8_e5m2(static_cast<float>(v)); return;
        case dnnl_f8_e4m3: p[off] = f32_to_f8_e4m3(static_cast<float>(v)); return;
        case dnnl_s4:
        case dnnl_u4: {
            const int q = static_cast<int>(saturate_round(dt, v)) & 0xf;
            uint8_t &byte = p[off / 2];
            if (off % 2)
                byte = static_cast<uint8_t>((byte & 0x0f) | (q << 4));
            else
                byte = static_cast<uint8_t>((byte & 0xf0) | q);
            return;
        }
        default: return;
    }
}

} // namespace ir
} // namespace llga
