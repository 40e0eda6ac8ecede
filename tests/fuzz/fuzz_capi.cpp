// SPDX-License-Identifier: Apache-2.0
// tests/fuzz/fuzz_capi.cpp — libFuzzer target for the C API as a program
// would drive it, every choice decoded from the fuzz input: build a graph of
// up to three ops (kinds, attributes, logical tensors with hostile dims,
// strides and layouts), finalize and partition it, compile each partition
// with fuzzed shapes, strides and layouts, query the outputs, create tensors
// sized exactly by get_mem_size (heap blocks, so ASan sees any overrun) and
// execute — sometimes with tensors that disagree with the compiled ports.
// Every call may fail with a status; nothing may crash or trip a sanitizer.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fuzz_reader.hpp"
#include "oneapi/dnnl/dnnl_graph.h"

using llga_fuzz::reader_t;

namespace {

constexpr size_t k_max_bytes = size_t(1) << 18; // per executed tensor

const int64_t k_dims[] = {1, 2, 3, 4, 5, 8, 16, 1, 2, 3, 0,
        DNNL_GRAPH_UNKNOWN_DIM, int64_t(1) << 31, (int64_t(1) << 48) + 1,
        (int64_t(1) << 62) + 1, INT64_MAX, -5};
const dnnl_data_type_t k_dtypes[] = {dnnl_f32, dnnl_f32, dnnl_f32, dnnl_bf16,
        dnnl_f16, dnnl_s8, dnnl_u8, dnnl_s32, dnnl_boolean, dnnl_f8_e4m3,
        dnnl_data_type_undef};
// Kinds that run quickly on small tensors come first (weighted).
const dnnl_graph_op_kind_t k_kinds[] = {dnnl_graph_op_matmul,
        dnnl_graph_op_relu, dnnl_graph_op_add, dnnl_graph_op_multiply,
        dnnl_graph_op_convolution, dnnl_graph_op_softmax,
        dnnl_graph_op_reduce_sum, dnnl_graph_op_static_transpose,
        dnnl_graph_op_static_reshape, dnnl_graph_op_concat,
        dnnl_graph_op_layer_norm, dnnl_graph_op_max_pool,
        dnnl_graph_op_bias_add, dnnl_graph_op_sigmoid, dnnl_graph_op_quantize,
        dnnl_graph_op_dequantize, dnnl_graph_op_type_cast,
        dnnl_graph_op_select, dnnl_graph_op_gelu, dnnl_graph_op_reorder};

void fuzz_dims(reader_t &r, int ndims, int64_t *dims) {
    for (int d = 0; d < ndims; ++d)
        dims[d] = r.pick(k_dims);
}

// Strides for dims: dense, or a hostile variant.
void fuzz_strides(reader_t &r, int ndims, const int64_t *dims, int64_t *s) {
    int64_t acc = 1;
    for (int d = ndims - 1; d >= 0; --d) {
        s[d] = acc;
        const int64_t v = dims[d] > 0 && dims[d] < (int64_t(1) << 20) ? dims[d] : 1;
        acc *= v;
    }
    switch (r.below(8)) {
        case 0: break;                                     // dense
        case 1: for (int d = 0; d < ndims; ++d) s[d] = 1; break; // overlap
        case 2: if (ndims) s[r.below(ndims)] = 0; break;   // broadcast view
        case 3: for (int d = 0; d < ndims; ++d) s[d] *= 2; break; // gaps
        case 4: if (ndims) s[r.below(ndims)] = r.pick(k_dims); break;
        case 5: // reversed order (column-major)
            acc = 1;
            for (int d = 0; d < ndims; ++d) {
                s[d] = acc;
                acc *= dims[d] > 0 && dims[d] < 64 ? dims[d] : 1;
            }
            break;
        case 6: if (ndims) s[r.below(ndims)] = r.i64(); break;
        default: if (ndims) s[r.below(ndims)] = DNNL_GRAPH_UNKNOWN_DIM; break;
    }
}

// A logical tensor for add_op: often unknown dims (shapes come at compile).
dnnl_graph_logical_tensor_t graph_lt(reader_t &r, size_t id) {
    dnnl_graph_logical_tensor_t t;
    const dnnl_data_type_t dt = r.pick(k_dtypes);
    const int ndims = static_cast<int>(r.below(6)) - 1;
    const int mode = static_cast<int>(r.below(4));
    if (ndims < 0 || mode == 0) {
        dnnl_graph_logical_tensor_init(&t, id, dt, ndims < 0 ? -1 : ndims,
                r.flip() ? dnnl_graph_layout_type_any
                         : dnnl_graph_layout_type_strided,
                dnnl_graph_tensor_property_undef);
        return t;
    }
    int64_t dims[DNNL_MAX_NDIMS], strides[DNNL_MAX_NDIMS];
    fuzz_dims(r, ndims, dims);
    if (mode == 1) {
        fuzz_strides(r, ndims, dims, strides);
        if (dnnl_graph_logical_tensor_init_with_strides(&t, id, dt, ndims, dims,
                    strides, dnnl_graph_tensor_property_undef)
                == dnnl_success)
            return t;
    }
    const dnnl_graph_tensor_property_t prop = r.below(8) == 0
            ? dnnl_graph_tensor_property_constant
            : dnnl_graph_tensor_property_undef;
    if (dnnl_graph_logical_tensor_init_with_dims(&t, id, dt, ndims, dims,
                r.flip() ? dnnl_graph_layout_type_any
                         : dnnl_graph_layout_type_strided,
                prop)
            != dnnl_success)
        dnnl_graph_logical_tensor_init(&t, id, dt, ndims,
                dnnl_graph_layout_type_any, dnnl_graph_tensor_property_undef);
    return t;
}

void fuzz_attrs(reader_t &r, dnnl_graph_op_t op) {
    const int n = static_cast<int>(r.below(4));
    for (int k = 0; k < n; ++k) {
        const auto name = static_cast<dnnl_graph_op_attr_t>(1 + r.below(0x40));
        switch (r.below(4)) {
            case 0: {
                int64_t v[4];
                const size_t len = 1 + r.below(4);
                for (size_t j = 0; j < len; ++j)
                    v[j] = r.flip() ? static_cast<int64_t>(r.below(5)) - 1
                                    : r.pick(k_dims);
                dnnl_graph_op_set_attr_s64(op, name, v, len);
                break;
            }
            case 1: {
                float v[2] = {static_cast<float>(r.below(8)) * 0.25f, 1.f};
                dnnl_graph_op_set_attr_f32(op, name, v, 1 + r.below(2));
                break;
            }
            case 2: {
                const uint8_t v = r.flip();
                dnnl_graph_op_set_attr_bool(op, name, &v, 1);
                break;
            }
            default: {
                static const char *const strs[] = {"NCX", "NXC", "OIX", "XIO",
                        "SAME_UPPER", "VALID", "none", "max", "per_tensor",
                        "per_channel", "linear", ""};
                const char *s = r.pick(strs);
                if (*s) dnnl_graph_op_set_attr_str(op, name, s, std::strlen(s));
                break;
            }
        }
    }
}

// The compile-time tensor for a partition port: the port with unknown dims
// filled in and, sometimes, other strides or layouts.
dnnl_graph_logical_tensor_t compile_lt(
        reader_t &r, const dnnl_graph_logical_tensor_t &port, bool output) {
    dnnl_graph_logical_tensor_t t = port;
    if (t.ndims < 0) t.ndims = static_cast<int>(r.below(5));
    int64_t dims[DNNL_MAX_NDIMS], strides[DNNL_MAX_NDIMS];
    for (int d = 0; d < t.ndims; ++d) {
        dims[d] = t.dims[d];
        if (dims[d] < 0 || r.below(16) == 0)
            dims[d] = r.below(8) ? static_cast<int64_t>(1 + r.below(6))
                                 : r.pick(k_dims);
    }
    const int choice = static_cast<int>(r.below(6));
    if (output && choice < 3) {
        dnnl_graph_logical_tensor_init(&t, port.id, port.data_type, t.ndims,
                dnnl_graph_layout_type_any, port.property);
        for (int d = 0; d < t.ndims; ++d)
            t.dims[d] = dims[d];
        return t;
    }
    if (choice == 5) { // opaque with a fuzzed layout id
        dnnl_graph_logical_tensor_init(&t, port.id, port.data_type, t.ndims,
                dnnl_graph_layout_type_opaque, port.property);
        for (int d = 0; d < t.ndims; ++d)
            t.dims[d] = dims[d];
        t.layout.layout_id = r.flip() ? 0x4c4c0001 + r.below(4) : r.i64();
        return t;
    }
    fuzz_strides(r, t.ndims, dims, strides);
    t.layout_type = dnnl_graph_layout_type_strided;
    for (int d = 0; d < t.ndims; ++d) {
        t.dims[d] = dims[d];
        t.layout.strides[d] = strides[d];
    }
    return t;
}

struct buffers_t {
    std::vector<void *> blocks;
    std::vector<dnnl_graph_tensor_t> tensors;
    ~buffers_t() {
        for (auto t : tensors)
            dnnl_graph_tensor_destroy(t);
        for (void *p : blocks)
            std::free(p);
    }
    // A tensor whose buffer is exactly get_mem_size bytes, filled from the
    // input; nullptr if the size is unknown or too large.
    dnnl_graph_tensor_t make(reader_t &r, const dnnl_graph_logical_tensor_t &lt,
            dnnl_engine_t eng) {
        dnnl_graph_tensor_t t = nullptr;
        if (lt.property == dnnl_graph_tensor_property_host_scalar) {
            int32_t v = static_cast<int32_t>(r.below(8));
            if (dnnl_graph_tensor_create_scalar(&t, &lt, &v) != dnnl_success)
                return nullptr;
            tensors.push_back(t);
            return t;
        }
        size_t bytes = 0;
        if (dnnl_graph_logical_tensor_get_mem_size(&lt, &bytes) != dnnl_success
                || bytes > k_max_bytes)
            return nullptr;
        void *p = std::malloc(bytes ? bytes : 1);
        if (!p) return nullptr;
        blocks.push_back(p);
        // Small values keep exp/pow from dominating; some raw bytes too.
        auto *b = static_cast<uint8_t *>(p);
        for (size_t k = 0; k < bytes; ++k)
            b[k] = static_cast<uint8_t>(k * 37u + 11u);
        r.bytes(p, bytes < 64 ? bytes : 64);
        if (dnnl_graph_tensor_create(&t, &lt, eng, p) != dnnl_success)
            return nullptr;
        tensors.push_back(t);
        return t;
    }
};

struct env_t {
    dnnl_engine_t engine = nullptr;
    dnnl_stream_t stream = nullptr;
    env_t() {
        dnnl_engine_create(&engine, dnnl_cpu, 0);
        dnnl_stream_create(&stream, engine, dnnl_stream_default_flags);
    }
};

void run_partition(reader_t &r, const env_t &env, dnnl_graph_partition_t part) {
    size_t nin = 0, nout = 0;
    if (dnnl_graph_partition_get_input_ports_num(part, &nin) != dnnl_success
            || dnnl_graph_partition_get_output_ports_num(part, &nout)
                    != dnnl_success
            || nin > 16 || nout > 16 || nout == 0)
        return;
    std::vector<dnnl_graph_logical_tensor_t> in(nin), out(nout);
    if ((nin && dnnl_graph_partition_get_input_ports(part, nin, in.data())
                            != dnnl_success)
            || dnnl_graph_partition_get_output_ports(part, nout, out.data())
                    != dnnl_success)
        return;
    std::vector<dnnl_graph_logical_tensor_t> cin, cout;
    for (auto &p : in)
        cin.push_back(compile_lt(r, p, false));
    for (auto &p : out)
        cout.push_back(compile_lt(r, p, true));
    std::vector<const dnnl_graph_logical_tensor_t *> pin, pout;
    for (auto &t : cin)
        pin.push_back(&t);
    for (auto &t : cout)
        pout.push_back(&t);
    dnnl_graph_compiled_partition_t cp = nullptr;
    if (dnnl_graph_compiled_partition_create(&cp, part) != dnnl_success) return;
    if (dnnl_graph_partition_compile(part, cp, pin.size(), pin.data(),
                pout.size(), pout.data(), env.engine)
            == dnnl_success) {
        size_t npairs = 0;
        const dnnl_graph_inplace_pair_t *pairs = nullptr;
        dnnl_graph_compiled_partition_get_inplace_ports(cp, &npairs, &pairs);
        buffers_t bufs;
        std::vector<const_dnnl_graph_tensor_t> tin, tout;
        bool ok = true;
        for (auto &t : cin) {
            dnnl_graph_logical_tensor_t q = t;
            dnnl_graph_compiled_partition_query_logical_tensor(cp, t.id, &q);
            // Now and then a tensor that disagrees with its port.
            if (r.below(16) == 0) q = compile_lt(r, q, false);
            dnnl_graph_tensor_t h = bufs.make(r, q, env.engine);
            ok = ok && h;
            tin.push_back(h);
        }
        for (auto &t : cout) {
            dnnl_graph_logical_tensor_t q = t;
            if (dnnl_graph_compiled_partition_query_logical_tensor(
                        cp, t.id, &q)
                    != dnnl_success)
                ok = false;
            if (r.below(16) == 0) q = compile_lt(r, q, true);
            dnnl_graph_tensor_t h = bufs.make(r, q, env.engine);
            ok = ok && h;
            tout.push_back(h);
        }
        if (ok)
            for (int k = 0, n = 1 + static_cast<int>(r.below(2)); k < n; ++k)
                dnnl_graph_compiled_partition_execute(cp, env.stream,
                        tin.size(), tin.data(), tout.size(), tout.data());
    }
    dnnl_graph_compiled_partition_destroy(cp);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static env_t env;
    reader_t r(data, size);
    dnnl_graph_graph_t g = nullptr;
    const auto mode = static_cast<dnnl_fpmath_mode_t>(r.below(5));
    if (dnnl_graph_graph_create_with_fpmath_mode(&g, dnnl_cpu, mode)
            != dnnl_success)
        return 0;
    const int nops = 1 + static_cast<int>(r.below(3));
    for (int k = 0; k < nops; ++k) {
        const auto kind = r.below(4) == 0
                ? static_cast<dnnl_graph_op_kind_t>(
                        r.below(dnnl_graph_op_last_symbol))
                : r.pick(k_kinds);
        dnnl_graph_op_t op = nullptr;
        if (dnnl_graph_op_create(&op, static_cast<size_t>(k), kind, "")
                != dnnl_success)
            continue;
        const int nin = 1 + static_cast<int>(r.below(3));
        // Tensor ids from a small pool so ops connect into chains.
        for (int i = 0; i < nin; ++i) {
            auto t = graph_lt(r, r.below(8));
            dnnl_graph_op_add_input(op, &t);
        }
        auto o = graph_lt(r, 8 + static_cast<size_t>(k));
        dnnl_graph_op_add_output(op, &o);
        fuzz_attrs(r, op);
        dnnl_graph_add_op(g, op);
        dnnl_graph_op_destroy(op);
    }
    size_t n = 0;
    if (dnnl_graph_graph_finalize(g) == dnnl_success
            && dnnl_graph_graph_filter(g,
                       r.flip() ? dnnl_graph_partition_policy_fusion
                                : dnnl_graph_partition_policy_debug)
                    == dnnl_success
            && dnnl_graph_graph_get_partition_num(g, &n) == dnnl_success
            && n > 0 && n <= 8) {
        std::vector<dnnl_graph_partition_t> parts(n, nullptr);
        if (dnnl_graph_graph_get_partitions(g, n, parts.data()) == dnnl_success)
            for (auto p : parts) {
                uint8_t supported = 0;
                dnnl_graph_partition_is_supported(p, &supported);
                if (supported) run_partition(r, env, p);
            }
        for (auto p : parts)
            if (p) dnnl_graph_partition_destroy(p);
    }
    dnnl_graph_graph_destroy(g);
    return 0;
}
