// SPDX-License-Identifier: Apache-2.0
// tools/bench/bench_overhead.cpp — per-call overhead of execute on tiny
// partitions (ReLU and Add on 8 floats), where the kernel's work is a few
// nanoseconds and the rest is the library's: argument and port validation
// (every tensor's dtype, shape, layout, engine and handle), kernel dispatch.
// Prints the best-of-5 mean nanoseconds per dnnl_graph_compiled_partition_
// execute call. Usage: llga-bench-overhead [calls per batch, default 200000]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "oneapi/dnnl/dnnl_graph.h"

namespace {

dnnl_graph_logical_tensor_t lt(size_t id, std::vector<int64_t> dims) {
    dnnl_graph_logical_tensor_t t;
    dnnl_graph_logical_tensor_init_with_dims(&t, id, dnnl_f32,
            static_cast<int32_t>(dims.size()), dims.data(),
            dnnl_graph_layout_type_strided, dnnl_graph_tensor_property_undef);
    return t;
}

#define CHECK(x) \
    do { \
        if ((x) != dnnl_success) { \
            std::fprintf(stderr, "%s failed\n", #x); \
            std::exit(1); \
        } \
    } while (0)

double bench(dnnl_graph_op_kind_t kind, int nin, long calls,
        dnnl_engine_t eng, dnnl_stream_t strm) {
    dnnl_graph_graph_t g;
    CHECK(dnnl_graph_graph_create(&g, dnnl_cpu));
    dnnl_graph_op_t op;
    CHECK(dnnl_graph_op_create(&op, 0, kind, "op"));
    std::vector<dnnl_graph_logical_tensor_t> ins;
    for (int k = 0; k < nin; ++k) {
        ins.push_back(lt(k, {1, 8}));
        CHECK(dnnl_graph_op_add_input(op, &ins.back()));
    }
    auto out = lt(10, {1, 8});
    CHECK(dnnl_graph_op_add_output(op, &out));
    CHECK(dnnl_graph_add_op(g, op));
    CHECK(dnnl_graph_graph_finalize(g));
    CHECK(dnnl_graph_graph_filter(g, dnnl_graph_partition_policy_fusion));
    dnnl_graph_partition_t part;
    CHECK(dnnl_graph_graph_get_partitions(g, 1, &part));
    dnnl_graph_compiled_partition_t cp;
    CHECK(dnnl_graph_compiled_partition_create(&cp, part));
    std::vector<const dnnl_graph_logical_tensor_t *> pi;
    for (auto &t : ins)
        pi.push_back(&t);
    const dnnl_graph_logical_tensor_t *po = &out;
    CHECK(dnnl_graph_partition_compile(
            part, cp, pi.size(), pi.data(), 1, &po, eng));
    std::vector<std::vector<float>> data(nin + 1, std::vector<float>(8, 1.f));
    std::vector<dnnl_graph_tensor_t> ti;
    for (int k = 0; k < nin; ++k) {
        dnnl_graph_tensor_t t;
        CHECK(dnnl_graph_tensor_create(&t, &ins[k], eng, data[k].data()));
        ti.push_back(t);
    }
    dnnl_graph_tensor_t to;
    CHECK(dnnl_graph_tensor_create(&to, &out, eng, data[nin].data()));
    std::vector<const_dnnl_graph_tensor_t> cti(ti.begin(), ti.end());
    const_dnnl_graph_tensor_t cto = to;
    double best = 1e30;
    for (int rep = 0; rep < 6; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        for (long i = 0; i < calls; ++i)
            dnnl_graph_compiled_partition_execute(
                    cp, strm, cti.size(), cti.data(), 1, &cto);
        const auto t1 = std::chrono::steady_clock::now();
        const double ns
                = std::chrono::duration<double, std::nano>(t1 - t0).count()
                / static_cast<double>(calls);
        if (rep > 0) best = std::min(best, ns); // rep 0 warms up
    }
    for (auto t : ti)
        dnnl_graph_tensor_destroy(t);
    dnnl_graph_tensor_destroy(to);
    dnnl_graph_compiled_partition_destroy(cp);
    dnnl_graph_partition_destroy(part);
    dnnl_graph_op_destroy(op);
    dnnl_graph_graph_destroy(g);
    return best;
}

} // namespace

int main(int argc, char **argv) {
    const long calls = argc > 1 ? std::atol(argv[1]) : 200000;
    dnnl_engine_t eng;
    dnnl_stream_t strm;
    CHECK(dnnl_engine_create(&eng, dnnl_cpu, 0));
    CHECK(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags));
    std::printf("relu 1x8 f32: %.1f ns per execute\n",
            bench(dnnl_graph_op_relu, 1, calls, eng, strm));
    std::printf("add  1x8 f32: %.1f ns per execute\n",
            bench(dnnl_graph_op_add, 2, calls, eng, strm));
    dnnl_stream_destroy(strm);
    dnnl_engine_destroy(eng);
    return 0;
}
