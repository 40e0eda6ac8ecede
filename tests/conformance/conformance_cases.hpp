// SPDX-License-Identifier: Apache-2.0
// tests/conformance/conformance_cases.hpp — the black-box conformance case
// model: one op description (inputs with values, attributes, expected
// outputs) per op kind, a small builder to write cases compactly, the
// dtype encoders/decoders the harness uses to fill and read buffers, and
// the X-macro declarations of the per-kind case functions (defined in the
// op_cases_*.cpp files; a missing definition fails the link).
// Only public headers are used; ops/ops.def is read for the kind list.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl_graph.h"
#include "oneapi/dnnl/llga.h"

namespace conf {

enum class attr_kind { f32, s64, boolean, str };

struct attr_t {
    dnnl_graph_op_attr_t name;
    attr_kind kind;
    std::vector<float> f;
    std::vector<int64_t> i;
    std::string s;
};

struct tensor_t {
    dnnl_data_type_t dt = dnnl_f32;
    bool known = true; // false: unknown rank (outputs in schema cases)
    std::vector<int64_t> dims;
    std::vector<int64_t> strides; // empty: dense row-major
    std::vector<double> values; // inputs: data; outputs: expected values
};

// How the harness treats the case.
enum class special_t {
    none, // single op: add, partition, compile, execute, compare
    end, // ReLU -> End graph: End forms no partition, ReLU output stays a port
    wildcard, // one unsupported partition whose compile fails
};

struct op_case_t {
    std::string name; // JSON kind name, filled from ops.def
    dnnl_graph_op_kind_t kind = dnnl_graph_op_last_symbol; // filled from ops.def
    dnnl_graph_op_kind_t host_kind = dnnl_graph_op_last_symbol; // op actually built
    special_t special = special_t::none;
    std::vector<tensor_t> ins, outs;
    std::vector<attr_t> attrs;
    double atol = -1, rtol = -1; // < 0: derived from the output dtype
    std::string why; // schema cases: what is invalid
    std::string hint; // schema cases: word the error message must contain

    op_case_t &in(dnnl_data_type_t dt, std::vector<int64_t> dims,
            std::vector<double> v = {}) {
        tensor_t t;
        t.dt = dt;
        t.dims = std::move(dims);
        t.values = std::move(v);
        ins.push_back(t);
        return *this;
    }
    op_case_t &in_strided(dnnl_data_type_t dt, std::vector<int64_t> dims,
            std::vector<int64_t> strides, std::vector<double> v) {
        in(dt, std::move(dims), std::move(v));
        ins.back().strides = std::move(strides);
        return *this;
    }
    op_case_t &out(dnnl_data_type_t dt, std::vector<int64_t> dims,
            std::vector<double> v = {}) {
        tensor_t t;
        t.dt = dt;
        t.dims = std::move(dims);
        t.values = std::move(v);
        outs.push_back(t);
        return *this;
    }
    op_case_t &out_strided(dnnl_data_type_t dt, std::vector<int64_t> dims,
            std::vector<int64_t> strides, std::vector<double> v) {
        out(dt, std::move(dims), std::move(v));
        outs.back().strides = std::move(strides);
        return *this;
    }
    // An output of unknown rank (schema cases).
    op_case_t &out_any(dnnl_data_type_t dt) {
        tensor_t t;
        t.dt = dt;
        t.known = false;
        outs.push_back(t);
        return *this;
    }
    op_case_t &f32(dnnl_graph_op_attr_t n, float v) {
        attrs.push_back({n, attr_kind::f32, {v}, {}, {}});
        return *this;
    }
    op_case_t &f32s(dnnl_graph_op_attr_t n, std::vector<float> v) {
        attrs.push_back({n, attr_kind::f32, std::move(v), {}, {}});
        return *this;
    }
    op_case_t &s64(dnnl_graph_op_attr_t n, int64_t v) {
        attrs.push_back({n, attr_kind::s64, {}, {v}, {}});
        return *this;
    }
    op_case_t &s64s(dnnl_graph_op_attr_t n, std::vector<int64_t> v) {
        attrs.push_back({n, attr_kind::s64, {}, std::move(v), {}});
        return *this;
    }
    op_case_t &b(dnnl_graph_op_attr_t n, bool v) {
        attrs.push_back({n, attr_kind::boolean, {}, {v ? 1 : 0}, {}});
        return *this;
    }
    op_case_t &str(dnnl_graph_op_attr_t n, std::string v) {
        attrs.push_back({n, attr_kind::str, {}, {}, std::move(v)});
        return *this;
    }
    op_case_t &tol(double a, double r) {
        atol = a;
        rtol = r;
        return *this;
    }
    op_case_t &because(std::string w, std::string h = "") {
        why = std::move(w);
        hint = std::move(h);
        return *this;
    }
};

inline op_case_t make_case() { return op_case_t(); }

// Keeps GoogleTest's parameter printout readable.
inline void PrintTo(const op_case_t &c, std::ostream *os) {
    *os << c.name << (c.why.empty() ? "" : " (invalid: " + c.why + ")");
}

// Elementwise helper for expected values: an independent formula in double.
inline std::vector<double> map1(
        const std::vector<double> &x, const std::function<double(double)> &f) {
    std::vector<double> r;
    for (double v : x)
        r.push_back(f(v));
    return r;
}
inline std::vector<double> map2(const std::vector<double> &x,
        const std::vector<double> &y,
        const std::function<double(double, double)> &f) {
    std::vector<double> r;
    for (size_t k = 0; k < x.size(); ++k)
        r.push_back(f(x[k], y[k]));
    return r;
}
inline double sigm(double t) { return 1.0 / (1.0 + std::exp(-t)); }

// ---- dtype codecs (written independently of the library) ----------------

inline double decode_f16(uint16_t h) {
    const int s = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v;
    if (e == 0)
        v = std::ldexp(m / 1024.0, -14);
    else if (e == 31)
        v = m ? std::numeric_limits<double>::quiet_NaN()
              : std::numeric_limits<double>::infinity();
    else
        v = std::ldexp(1.0 + m / 1024.0, e - 15);
    return s ? -v : v;
}
inline double decode_bf16(uint16_t h) {
    uint32_t u = uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
inline double decode_e4m3(uint8_t c) {
    const int s = c >> 7, e = (c >> 3) & 0xf, m = c & 7;
    double v;
    if (e == 15 && m == 7)
        v = std::numeric_limits<double>::quiet_NaN();
    else if (e == 0)
        v = std::ldexp(m / 8.0, -6);
    else
        v = std::ldexp(1.0 + m / 8.0, e - 7);
    return s ? -v : v;
}
inline double decode_e5m2(uint8_t c) {
    const int s = c >> 7, e = (c >> 2) & 0x1f, m = c & 3;
    double v;
    if (e == 31)
        v = m ? std::numeric_limits<double>::quiet_NaN()
              : std::numeric_limits<double>::infinity();
    else if (e == 0)
        v = std::ldexp(m / 4.0, -14);
    else
        v = std::ldexp(1.0 + m / 4.0, e - 15);
    return s ? -v : v;
}
// Nearest code of a small float format by exhaustive search (ties -> even
// code). Only used for input values, which the cases choose representable.
inline uint32_t encode_by_search(double v, int bits, double (*dec)(uint32_t)) {
    uint32_t best = 0;
    double bd = std::numeric_limits<double>::infinity();
    for (uint32_t c = 0; c < (1u << bits); ++c) {
        const double d = dec(c);
        if (std::isnan(d)) continue;
        const double diff = std::fabs(d - v);
        if (diff < bd || (diff == bd && (c & 1) == 0 && (best & 1))) {
            bd = diff;
            best = c;
        }
    }
    return best;
}

inline size_t dt_bits(dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_f32:
        case dnnl_s32: return 32;
        case dnnl_f16:
        case dnnl_bf16: return 16;
        case dnnl_s4:
        case dnnl_u4: return 4;
        default: return 8;
    }
}

// Writes element `off` (in elements) of a buffer of type dt.
inline void store(std::vector<uint8_t> &buf, dnnl_data_type_t dt, size_t off, double v) {
    switch (dt) {
        case dnnl_f32: {
            float f = static_cast<float>(v);
            std::memcpy(&buf[off * 4], &f, 4);
            break;
        }
        case dnnl_s32: {
            int32_t i = static_cast<int32_t>(v);
            std::memcpy(&buf[off * 4], &i, 4);
            break;
        }
        case dnnl_f16: {
            uint16_t h = static_cast<uint16_t>(encode_by_search(
                    v, 16, [](uint32_t c) { return decode_f16(uint16_t(c)); }));
            std::memcpy(&buf[off * 2], &h, 2);
            break;
        }
        case dnnl_bf16: {
            uint16_t h = static_cast<uint16_t>(encode_by_search(
                    v, 16, [](uint32_t c) { return decode_bf16(uint16_t(c)); }));
            std::memcpy(&buf[off * 2], &h, 2);
            break;
        }
        case dnnl_f8_e4m3:
            buf[off] = uint8_t(encode_by_search(
                    v, 8, [](uint32_t c) { return decode_e4m3(uint8_t(c)); }));
            break;
        case dnnl_f8_e5m2:
            buf[off] = uint8_t(encode_by_search(
                    v, 8, [](uint32_t c) { return decode_e5m2(uint8_t(c)); }));
            break;
        case dnnl_s8: buf[off] = uint8_t(int8_t(int(v))); break;
        case dnnl_u8:
        case dnnl_boolean: buf[off] = uint8_t(int(v)); break;
        case dnnl_s4:
        case dnnl_u4: {
            const uint8_t nib = uint8_t(int(v)) & 0xf;
            uint8_t &byte = buf[off / 2];
            if (off % 2 == 0)
                byte = uint8_t((byte & 0xf0) | nib);
            else
                byte = uint8_t((byte & 0x0f) | (nib << 4));
            break;
        }
        default: break;
    }
}

inline double load(const std::vector<uint8_t> &buf, dnnl_data_type_t dt, size_t off) {
    switch (dt) {
        case dnnl_f32: {
            float f;
            std::memcpy(&f, &buf[off * 4], 4);
            return f;
        }
        case dnnl_s32: {
            int32_t i;
            std::memcpy(&i, &buf[off * 4], 4);
            return i;
        }
        case dnnl_f16: {
            uint16_t h;
            std::memcpy(&h, &buf[off * 2], 2);
            return decode_f16(h);
        }
        case dnnl_bf16: {
            uint16_t h;
            std::memcpy(&h, &buf[off * 2], 2);
            return decode_bf16(h);
        }
        case dnnl_f8_e4m3: return decode_e4m3(buf[off]);
        case dnnl_f8_e5m2: return decode_e5m2(buf[off]);
        case dnnl_s8: return int8_t(buf[off]);
        case dnnl_u8:
        case dnnl_boolean: return buf[off];
        case dnnl_s4:
        case dnnl_u4: {
            int nib = (off % 2 == 0) ? (buf[off / 2] & 0xf) : (buf[off / 2] >> 4);
            if (dt == dnnl_s4 && nib >= 8) nib -= 16;
            return nib;
        }
        default: return std::numeric_limits<double>::quiet_NaN();
    }
}


// Sets one case attribute on an op through the matching typed C setter.
inline dnnl_status_t set_attr(dnnl_graph_op_t op, const attr_t &a) {
    switch (a.kind) {
        case attr_kind::f32:
            return dnnl_graph_op_set_attr_f32(op, a.name, a.f.data(), a.f.size());
        case attr_kind::s64:
            return dnnl_graph_op_set_attr_s64(op, a.name, a.i.data(), a.i.size());
        case attr_kind::boolean: {
            const uint8_t v = uint8_t(a.i[0]);
            return dnnl_graph_op_set_attr_bool(op, a.name, &v, 1);
        }
        case attr_kind::str:
            return dnnl_graph_op_set_attr_str(op, a.name, a.s.c_str(), a.s.size());
    }
    return dnnl_invalid_arguments;
}

} // namespace conf

// One function per op kind: case_<c_suffix>() gives its known-answer case,
// bad_<c_suffix>() its invalid op. Order and completeness come from ops.def.
#define LLGA_OP(suffix, json, family) \
    conf::op_case_t case_##suffix(); \
    conf::op_case_t bad_##suffix();
#include "ops/ops.def"
#undef LLGA_OP
