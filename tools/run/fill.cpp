// SPDX-License-Identifier: Apache-2.0
// tools/run/fill.cpp — role-aware deterministic input data (see fill.hpp and
// the "Input data" section of docs/runner.md).
#include "fill.hpp"
#include "fill_spec.hpp"

#include <cmath>

#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

namespace llga_run {

using namespace llga;

dims_t strides_or_dense(const logical_tensor_t &lt) {
    const dims_t dims = ir::dims_of(lt);
    dims_t strides = ir::strides_of(lt);
    return strides.size() == dims.size() ? strides : ir::dense_strides(dims);
}

namespace {

enum class role_t {
    data, boolean, variance, scales, zps, quant_int, integer, host_int,
    divisor, positive, exponent, quant_src, probability, shape
};

struct use_t {
    const ir::op_t *op = nullptr;
    size_t port = 0;
    std::string port_name;
};

use_t first_use(const prepared_t &g, size_t id) {
    for (const auto &op : g.ops) {
        if (op.kind == dnnl_graph_op_end) continue;
        for (size_t p = 0; p < op.inputs.size(); ++p)
            if (op.inputs[p].id == id) {
                use_t u {&op, p, ""};
                const ops::op_def_t *def = ops::find_op_def(op.kind);
                if (def) {
                    const auto &ins = def->schema.inputs();
                    if (!ins.empty()) u.port_name = ins[std::min(p, ins.size() - 1)].name;
                }
                return u;
            }
    }
    return use_t();
}

role_t role_of(const prepared_t &g, size_t id) {
    const logical_tensor_t &lt = g.tensors.at(id);
    const use_t u = first_use(g, id);
    const std::string &pn = u.port_name;
    const op_kind_t k = u.op ? u.op->kind : dnnl_graph_op_last_symbol;
    if (lt.data_type == dnnl_boolean) return role_t::boolean;
    if (pn == "variance") return role_t::variance;
    if (pn == "scales") return role_t::scales;
    if (pn == "zps") return role_t::zps;
    if (pn == "sizes" || pn == "src_shape" || pn == "dst_shape"
            || pn == "weights_shape")
        return role_t::shape;
    switch (lt.data_type) {
        case dnnl_s8:
        case dnnl_u8:
        case dnnl_s4:
        case dnnl_u4: return role_t::quant_int;
        case dnnl_s32:
            return lt.property == dnnl_graph_tensor_property_host_scalar
                    ? role_t::host_int
                    : role_t::integer;
        default: break;
    }
    switch (k) {
        case dnnl_graph_op_divide: return u.port == 1 ? role_t::divisor : role_t::data;
        case dnnl_graph_op_log:
        case dnnl_graph_op_sqrt:
        case dnnl_graph_op_reciprocal: return role_t::positive;
        case dnnl_graph_op_sqrt_backward:
            return u.port == 1 ? role_t::positive : role_t::data;
        case dnnl_graph_op_pow: return u.port == 0 ? role_t::positive : role_t::exponent;
        case dnnl_graph_op_quantize: return role_t::quant_src;
        case dnnl_graph_op_softmax_backward:
            return pn == "dst" ? role_t::probability : role_t::data;
        default: return role_t::data;
    }
}

const char *role_name(role_t r) {
    switch (r) {
        case role_t::data: return "data";
        case role_t::boolean: return "mask";
        case role_t::variance: return "variance";
        case role_t::scales: return "scales";
        case role_t::zps: return "zero points";
        case role_t::quant_int: return "quantized";
        case role_t::integer: return "integer";
        case role_t::host_int: return "host scalar";
        case role_t::divisor: return "divisor";
        case role_t::positive: return "positive";
        case role_t::exponent: return "exponent";
        case role_t::quant_src: return "to quantize";
        case role_t::probability: return "probability";
        case role_t::shape: return "shape";
    }
    return "?";
}

// splitmix64: a tiny deterministic generator, seeded per tensor id.
struct rng_t {
    uint64_t s;
    explicit rng_t(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 12345) {}
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int64_t range(int64_t lo, int64_t hi) { // inclusive
        return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
    }
};

double int_lo(data_type_t dt) {
    switch (dt) {
        case dnnl_s8: return -12;
        case dnnl_s4: return -8;
        case dnnl_s32: return -10;
        default: return 0;
    }
}
double int_hi(data_type_t dt) {
    switch (dt) {
        case dnnl_s8: return 12;
        case dnnl_u8: return 24;
        case dnnl_s4: return 7;
        case dnnl_u4: return 15;
        default: return 10;
    }
}

// Scale of a Quantize consumer (first entry), for quant_src data.
float quant_scale(const prepared_t &g, size_t id) {
    use_t u = first_use(g, id);
    if (!u.op) return 1.f;
    auto sc = u.op->get_f32s(dnnl_graph_op_attr_scales);
    return sc.empty() || !(sc[0] > 0) ? 1.f : sc[0];
}

double value(role_t r, data_type_t dt, rng_t &rng, float qscale) {
    switch (r) {
        case role_t::boolean: return rng.range(0, 3) != 0 ? 1 : 0;
        case role_t::variance: return 0.25 * rng.range(2, 16); // [0.5, 4]
        case role_t::scales: return std::ldexp(1.0, static_cast<int>(rng.range(-2, 1)));
        case role_t::zps:
            return (dt == dnnl_s8 || dt == dnnl_s4) ? rng.range(-2, 2) : rng.range(0, 3);
        case role_t::quant_int:
        case role_t::integer:
            return static_cast<double>(rng.range(static_cast<int64_t>(int_lo(dt)),
                    static_cast<int64_t>(int_hi(dt))));
        case role_t::host_int: return 1;
        case role_t::divisor: {
            double v = std::ldexp(1.0, static_cast<int>(rng.range(-1, 2)));
            return rng.range(0, 1) ? v : -v;
        }
        case role_t::positive: return 0.125 * rng.range(2, 32); // [0.25, 4]
        case role_t::exponent: return 0.5 * rng.range(-4, 4);
        case role_t::quant_src: return qscale * rng.range(-60, 60);
        case role_t::probability: return rng.range(0, 64) / 64.0;
        case role_t::shape: return 1;
        case role_t::data:
        default: return rng.range(-16, 16) / 8.0; // exact in bf16/f16
    }
}

} // namespace

std::string input_role(const prepared_t &g, size_t id) {
    return role_name(role_of(g, id));
}

void fill_inputs(const prepared_t &g, buffers_t &bufs) {
    for (size_t id : g.inputs) {
        const logical_tensor_t &lt = g.tensors.at(id);
        buffer_t &b = bufs[id];
        b.lt = lt;
        size_t bytes = lt.ndims == 0 ? ir::dtype_storage_bytes(lt.data_type, 1)
                                     : ir::mem_size(lt);
        b.resize(bytes == size_t(-1) ? 0 : bytes);
        const role_t r = role_of(g, id);
        rng_t rng(id + 1);
        const float qs = r == role_t::quant_src ? quant_scale(g, id) : 1.f;
        if (r == role_t::shape) {
            // A shape input states the dims of its op's output (spatial ones
            // for Interpolate sizes), as declared after inference.
            use_t u = first_use(g, id);
            dims_t d;
            if (u.op && !u.op->outputs.empty()) d = ir::dims_of(u.op->outputs[0]);
            if (u.port_name == "sizes" && d.size() > 2) d.erase(d.begin(), d.begin() + 2);
            size_t e = 0;
            const dims_t st = strides_or_dense(lt);
            for_each_offset2(ir::dims_of(lt), st, st, [&](int64_t off, int64_t) {
                ir::store_value(lt.data_type, b.data(), off,
                        e < d.size() ? static_cast<double>(d[e]) : 1.0);
                ++e;
            });
            continue;
        }
        if (lt.ndims == 0) {
            ir::store_value(lt.data_type, b.data(), 0, value(r, lt.data_type, rng, qs));
            continue;
        }
        const dims_t st = strides_or_dense(lt);
        for_each_offset2(ir::dims_of(lt), st, st, [&](int64_t off, int64_t) {
            ir::store_value(lt.data_type, b.data(), off, value(r, lt.data_type, rng, qs));
        });
    }
    apply_fill(g.fill, g, bufs); // --fill overrides (fill_spec.cpp)
}

} // namespace llga_run
