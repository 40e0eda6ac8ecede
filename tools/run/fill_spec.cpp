// SPDX-License-Identifier: Apache-2.0
// tools/run/fill_spec.cpp — parsing and applying --fill specs.
#include "fill_spec.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>

#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "options.hpp"

namespace llga_run {

using namespace llga;

namespace {

bool parse_num(const std::string &s, double &v) {
    if (s.empty()) return false;
    char *end = nullptr;
    v = std::strtod(s.c_str(), &end);
    return *end == '\0' && std::isfinite(v);
}

bool is_float(data_type_t dt) {
    switch (dt) {
        case dnnl_f32:
        case dnnl_bf16:
        case dnnl_f16:
        case dnnl_f64:
        case dnnl_f8_e4m3:
        case dnnl_f8_e5m2: return true;
        default: return false;
    }
}

// A value that is denormal in `dt` (half its smallest normal magnitude,
// rounded to a power of two the type can hold).
double denormal_of(data_type_t dt) {
    switch (dt) {
        case dnnl_f16: return std::ldexp(1.0, -20);      // min normal 2^-14
        case dnnl_f8_e4m3: return std::ldexp(1.0, -8);   // min normal 2^-6
        case dnnl_f8_e5m2: return std::ldexp(1.0, -16);  // min normal 2^-14
        case dnnl_f64: return std::ldexp(1.0, -1060);
        default: return std::ldexp(1.0, -130); // f32, bf16: min normal 2^-126
    }
}

// Deterministic per element, independent of the default filler.
uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

} // namespace

bool parse_fill(const std::string &text, std::vector<fill_spec_t> &out,
        std::string &error) {
    out.clear();
    if (text.empty()) return true;
    for (const std::string &item : split(text, '+')) {
        const std::vector<std::string> f = split(item, ':');
        fill_spec_t s;
        auto bad = [&](const char *why) {
            error = "--fill: '" + item + "': " + why;
            return false;
        };
        if (f.size() < 2) return bad("expected ID:SPEC");
        if (f[0] == "*") {
            s.all = true;
        } else {
            double id = 0;
            if (!parse_num(f[0], id) || id < 0 || id != std::floor(id)
                    || id > 1e15)
                return bad("the ID is not a tensor id or '*'");
            s.id = static_cast<size_t>(id);
        }
        const std::string &k = f[1];
        if (k == "range") {
            s.kind = fill_spec_t::range;
            if (f.size() != 4 || !parse_num(f[2], s.lo) || !parse_num(f[3], s.hi)
                    || s.lo > s.hi || s.hi - s.lo > 1e9)
                return bad("expected range:LO:HI with finite LO <= HI");
        } else if (k == "special") {
            s.kind = fill_spec_t::special;
            if (f.size() != 2) return bad("special takes no arguments");
        } else {
            s.kind = fill_spec_t::value;
            const double inf = std::numeric_limits<double>::infinity();
            if (k == "nan") s.v = std::numeric_limits<double>::quiet_NaN();
            else if (k == "inf") s.v = inf;
            else if (k == "-inf") s.v = -inf;
            else if (k == "zero") s.v = 0.0;
            else if (k == "-zero") s.v = -0.0;
            else if (k == "denorm") s.v = 1.0, s.denorm = true;
            else return bad("unknown SPEC (range, special, nan, inf, -inf, "
                            "denorm, zero, -zero)");
            if (f.size() > 3) return bad("too many fields");
            if (f.size() == 3) {
                double e = 0;
                if (!parse_num(f[2], e) || e < 1 || e != std::floor(e)
                        || e > 1e12)
                    return bad("EVERY must be a positive integer");
                s.every = static_cast<int64_t>(e);
            }
        }
        out.push_back(s);
    }
    return true;
}

bool check_fill(const std::string &text, const prepared_t &g, std::string &error) {
    std::vector<fill_spec_t> specs;
    if (!parse_fill(text, specs, error)) return false;
    for (const auto &s : specs) {
        if (s.all) continue;
        bool is_input = false;
        for (size_t id : g.inputs)
            is_input = is_input || id == s.id;
        if (!is_input) {
            error = "--fill: tensor " + std::to_string(s.id)
                    + " is not a graph input";
            return false;
        }
        const data_type_t dt = g.tensors.at(s.id).data_type;
        if (s.kind != fill_spec_t::range && !is_float(dt)) {
            error = "--fill: tensor " + std::to_string(s.id) + " is "
                    + ir::dtype_name(dt)
                    + "; special values need a floating-point input";
            return false;
        }
    }
    return true;
}

void apply_fill(const std::string &text, const prepared_t &g, buffers_t &bufs) {
    std::vector<fill_spec_t> specs;
    std::string error;
    if (text.empty() || !parse_fill(text, specs, error)) return;
    for (const auto &s : specs)
        for (size_t id : g.inputs) {
            if (!s.all && id != s.id) continue;
            auto it = bufs.find(id);
            if (it == bufs.end()) continue;
            buffer_t &b = it->second;
            const logical_tensor_t &lt = b.lt;
            const data_type_t dt = lt.data_type;
            // '*' touches only the inputs the spec makes sense for.
            if (s.all && (!is_float(dt) || lt.property
                                 == dnnl_graph_tensor_property_host_scalar))
                continue;
            const bool fl = is_float(dt);
            const double den = denormal_of(dt);
            const double inf = std::numeric_limits<double>::infinity();
            const double nan = std::numeric_limits<double>::quiet_NaN();
            int64_t e = 0;
            auto put = [&](int64_t off, int64_t) {
                const uint64_t r = mix(id * 0x10001ull + static_cast<uint64_t>(e));
                double v = 0;
                bool set = true;
                switch (s.kind) {
                    case fill_spec_t::range: {
                        const double step = fl ? 0.125 : 1.0;
                        const double lo = fl ? s.lo : std::ceil(s.lo);
                        const uint64_t n = static_cast<uint64_t>(
                                std::floor((s.hi - lo) / step)) + 1;
                        v = lo + step * static_cast<double>(r % n);
                        break;
                    }
                    case fill_spec_t::special: {
                        static const int k_cycle = 8;
                        switch (e % k_cycle) {
                            case 0: v = nan; break;
                            case 1: v = inf; break;
                            case 2: v = -inf; break;
                            case 3: v = den; break;
                            case 4: v = -den; break;
                            case 5: v = 0.0; break;
                            case 6: v = -0.0; break;
                            default: set = false; break;
                        }
                        break;
                    }
                    case fill_spec_t::value:
                        if (e % s.every != 0) set = false;
                        else v = s.denorm ? den : s.v;
                        break;
                }
                if (set) ir::store_value(dt, b.data(), off, v);
                ++e;
            };
            if (lt.ndims == 0) {
                put(0, 0);
            } else {
                const dims_t st = strides_or_dense(lt);
                for_each_offset2(ir::dims_of(lt), st, st, put);
            }
        }
}

} // namespace llga_run
