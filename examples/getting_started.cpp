// SPDX-License-Identifier: Apache-2.0
// examples/getting_started.cpp — the C++ getting-started tutorial
// (docs/tutorial-cpp.md): y = ReLU(x * w + b) built as a graph, partitioned,
// compiled and executed with llga, and checked against a plain loop.
// Exit status 0 when the result matches.
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

#include "oneapi/dnnl/dnnl_graph.hpp"

using namespace dnnl::graph;
using dt = logical_tensor::data_type;
using layout = logical_tensor::layout_type;
using dims = logical_tensor::dims;

int main() try {
    // [engine] One CPU engine and a stream to execute on.
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);

    // [tensors] Logical tensors describe data: id, type, shape, layout.
    // Graph inputs need their shapes; the intermediate results can be left
    // unknown (the library infers them when it compiles).
    const int64_t M = 4, K = 8, N = 3;
    // (Spell shapes as `dims`: a bare {N} would pick the constructor that
    // takes a rank.)
    logical_tensor x(0, dt::f32, dims {M, K}, layout::strided);
    logical_tensor w(1, dt::f32, dims {K, N}, layout::strided);
    logical_tensor b(2, dt::f32, dims {N}, layout::strided);
    logical_tensor xw(3, dt::f32, DNNL_GRAPH_UNKNOWN_NDIMS, layout::undef);
    logical_tensor xwb(4, dt::f32, DNNL_GRAPH_UNKNOWN_NDIMS, layout::undef);
    logical_tensor y(5, dt::f32, DNNL_GRAPH_UNKNOWN_NDIMS, layout::undef);

    // [ops] Ops connect logical tensors by id.
    op matmul(0, op::kind::MatMul, {x, w}, {xw}, "matmul");
    op bias(1, op::kind::BiasAdd, {xw, b}, {xwb}, "bias");
    op relu(2, op::kind::ReLU, {xwb}, {y}, "relu");

    // [graph] Add the ops, finalize, and ask for partitions.
    graph g(dnnl::engine::kind::cpu);
    g.add_op(matmul);
    g.add_op(bias);
    g.add_op(relu);
    g.finalize();
    std::vector<partition> parts = g.get_partitions();
    std::printf("%zu partition(s)\n", parts.size());

    // [data] Buffers by tensor id: inputs now, outputs once their size is
    // known.
    std::map<size_t, std::vector<float>> data;
    data[0].resize(M * K);
    data[1].resize(K * N);
    data[2].resize(N);
    for (int64_t i = 0; i < M * K; ++i) data[0][i] = float(i % 7) - 3;
    for (int64_t i = 0; i < K * N; ++i) data[1][i] = float(i % 5) * 0.5f - 1;
    for (int64_t i = 0; i < N; ++i) data[2][i] = float(i) - 1;

    // [run] Compile each partition for the engine and execute it. Outputs
    // of one partition feed the next through the same tensor ids.
    for (const partition &p : parts) {
        if (!p.is_supported()) {
            std::fprintf(stderr, "a partition is not supported; a framework "
                                 "would run its ops itself\n");
            return 1;
        }
        std::vector<logical_tensor> ins = p.get_input_ports();
        std::vector<logical_tensor> outs = p.get_output_ports();
        compiled_partition cp = p.compile(ins, outs, eng);
        std::vector<tensor> tin, tout;
        for (const logical_tensor &lt : ins)
            tin.emplace_back(lt, eng, data[lt.get_id()].data());
        for (const logical_tensor &lt : outs) {
            // The compiled partition knows the output's shape and size.
            logical_tensor q = cp.query_logical_tensor(lt.get_id());
            data[q.get_id()].assign(q.get_mem_size() / sizeof(float), 0.f);
            tout.emplace_back(q, eng, data[q.get_id()].data());
        }
        cp.execute(strm, tin, tout);
    }
    strm.wait();

    // [check] The same computation in plain loops.
    int bad = 0;
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
            float acc = data[2][j];
            for (int64_t k = 0; k < K; ++k)
                acc += data[0][i * K + k] * data[1][k * N + j];
            const float want = acc > 0 ? acc : 0;
            if (std::fabs(data[5][i * N + j] - want) > 1e-5f) ++bad;
        }
    std::printf("y[0][0..2] = %g %g %g: %s\n", data[5][0], data[5][1],
            data[5][2], bad ? "FAIL" : "PASS");
    return bad ? 1 : 0;
} catch (const dnnl::error &e) {
    // llga puts its description of the failure into what().
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
}
