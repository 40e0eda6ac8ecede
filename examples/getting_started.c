/* SPDX-License-Identifier: Apache-2.0 */
/* examples/getting_started.c — the C getting-started tutorial
 * (docs/tutorial-c.md): y = ReLU(x * w + b) built as a graph, partitioned,
 * compiled and executed through the C API, and checked against a plain loop.
 * Exit status 0 when the result matches. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "oneapi/dnnl/dnnl_graph.h"
#include "oneapi/dnnl/llga.h"

/* Every call returns a status; llga_last_error_message() says why one
 * failed. */
#define CHECK(call) \
    do { \
        dnnl_status_t s_ = (call); \
        if (s_ != dnnl_success) { \
            fprintf(stderr, "%s failed (%d): %s\n", #call, (int)s_, \
                    llga_last_error_message()); \
            exit(1); \
        } \
    } while (0)

enum { M = 4, K = 8, N = 3, NTENSORS = 6 };

/* A logical tensor with a known shape, or with the shape left unknown. */
static dnnl_graph_logical_tensor_t shaped(size_t id, int nd, const int64_t *d) {
    dnnl_graph_logical_tensor_t t;
    dnnl_dims_t dims;
    int k;
    for (k = 0; k < nd; ++k) dims[k] = d[k];
    CHECK(dnnl_graph_logical_tensor_init_with_dims(&t, id, dnnl_f32, nd, dims,
            dnnl_graph_layout_type_strided, dnnl_graph_tensor_property_undef));
    return t;
}
static dnnl_graph_logical_tensor_t unknown(size_t id) {
    dnnl_graph_logical_tensor_t t;
    CHECK(dnnl_graph_logical_tensor_init(&t, id, dnnl_f32,
            DNNL_GRAPH_UNKNOWN_NDIMS, dnnl_graph_layout_type_undef,
            dnnl_graph_tensor_property_undef));
    return t;
}

/* An op reading `nin` tensors and writing one; added to `g`. */
static void add_op(dnnl_graph_graph_t g, size_t id, dnnl_graph_op_kind_t kind,
        const char *name, dnnl_graph_logical_tensor_t *ins, size_t nin,
        dnnl_graph_logical_tensor_t *out) {
    dnnl_graph_op_t op;
    size_t k;
    CHECK(dnnl_graph_op_create(&op, id, kind, name));
    for (k = 0; k < nin; ++k) CHECK(dnnl_graph_op_add_input(op, &ins[k]));
    CHECK(dnnl_graph_op_add_output(op, out));
    CHECK(dnnl_graph_add_op(g, op)); /* the graph keeps a copy */
    CHECK(dnnl_graph_op_destroy(op));
}

/* Compiles partition `p` and executes it; buffers are indexed by tensor id
 * and outputs are allocated here once their size is known. */
static void run_partition(dnnl_graph_partition_t p, dnnl_engine_t eng,
        dnnl_stream_t strm, float *bufs[NTENSORS]) {
    dnnl_graph_logical_tensor_t ins[4], outs[2];
    const dnnl_graph_logical_tensor_t *pin[4], *pout[2];
    dnnl_graph_tensor_t tin[4], tout[2];
    dnnl_graph_compiled_partition_t cp;
    size_t nin, nout, k;
    uint8_t supported = 0;
    CHECK(dnnl_graph_partition_is_supported(p, &supported));
    if (!supported) {
        fprintf(stderr, "unsupported partition: a framework runs its ops\n");
        exit(1);
    }
    CHECK(dnnl_graph_partition_get_input_ports_num(p, &nin));
    CHECK(dnnl_graph_partition_get_output_ports_num(p, &nout));
    if (nin > 4 || nout > 2) exit(1);
    CHECK(dnnl_graph_partition_get_input_ports(p, nin, ins));
    CHECK(dnnl_graph_partition_get_output_ports(p, nout, outs));
    for (k = 0; k < nin; ++k) pin[k] = &ins[k];
    for (k = 0; k < nout; ++k) pout[k] = &outs[k];
    CHECK(dnnl_graph_compiled_partition_create(&cp, p));
    CHECK(dnnl_graph_partition_compile(p, cp, nin, pin, nout, pout, eng));
    for (k = 0; k < nin; ++k)
        CHECK(dnnl_graph_tensor_create(&tin[k], &ins[k], eng, bufs[ins[k].id]));
    for (k = 0; k < nout; ++k) {
        dnnl_graph_logical_tensor_t q;
        size_t bytes = 0;
        /* The compiled partition reports the output's shape and layout. */
        CHECK(dnnl_graph_compiled_partition_query_logical_tensor(
                cp, outs[k].id, &q));
        CHECK(dnnl_graph_logical_tensor_get_mem_size(&q, &bytes));
        bufs[q.id] = (float *)calloc(bytes, 1);
        CHECK(dnnl_graph_tensor_create(&tout[k], &q, eng, bufs[q.id]));
    }
    CHECK(dnnl_graph_compiled_partition_execute(cp, strm, nin,
            (const_dnnl_graph_tensor_t *)tin, nout,
            (const_dnnl_graph_tensor_t *)tout));
    for (k = 0; k < nin; ++k) CHECK(dnnl_graph_tensor_destroy(tin[k]));
    for (k = 0; k < nout; ++k) CHECK(dnnl_graph_tensor_destroy(tout[k]));
    CHECK(dnnl_graph_compiled_partition_destroy(cp));
}

int main(void) {
    const int64_t xd[] = {M, K}, wd[] = {K, N}, bd[] = {N};
    dnnl_graph_logical_tensor_t x = shaped(0, 2, xd), w = shaped(1, 2, wd);
    dnnl_graph_logical_tensor_t b = shaped(2, 1, bd);
    dnnl_graph_logical_tensor_t xw = unknown(3), xwb = unknown(4), y = unknown(5);
    dnnl_graph_logical_tensor_t mm_in[2], bias_in[2];
    dnnl_engine_t eng;
    dnnl_stream_t strm;
    dnnl_graph_graph_t g;
    dnnl_graph_partition_t parts[3];
    float xv[M * K], wv[K * N], bv[N];
    float *bufs[NTENSORS] = {xv, wv, bv, NULL, NULL, NULL};
    size_t n = 0, i;
    int r, c, k, bad = 0;

    /* [engine] */
    CHECK(dnnl_engine_create(&eng, dnnl_cpu, 0));
    CHECK(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags));

    /* [graph] MatMul -> BiasAdd -> ReLU */
    CHECK(dnnl_graph_graph_create(&g, dnnl_cpu));
    mm_in[0] = x;
    mm_in[1] = w;
    bias_in[0] = xw;
    bias_in[1] = b;
    add_op(g, 0, dnnl_graph_op_matmul, "matmul", mm_in, 2, &xw);
    add_op(g, 1, dnnl_graph_op_bias_add, "bias", bias_in, 2, &xwb);
    add_op(g, 2, dnnl_graph_op_relu, "relu", &xwb, 1, &y);
    CHECK(dnnl_graph_graph_finalize(g));

    /* [partitions] */
    CHECK(dnnl_graph_graph_filter(g, dnnl_graph_partition_policy_fusion));
    CHECK(dnnl_graph_graph_get_partition_num(g, &n));
    if (n < 1 || n > 3) return 1;
    CHECK(dnnl_graph_graph_get_partitions(g, n, parts));
    printf("%zu partition(s)\n", n);

    /* [data] */
    for (i = 0; i < M * K; ++i) xv[i] = (float)(i % 7) - 3;
    for (i = 0; i < K * N; ++i) wv[i] = (float)(i % 5) * 0.5f - 1;
    for (i = 0; i < N; ++i) bv[i] = (float)i - 1;

    /* [run] Partitions come in an order where each one's inputs exist. */
    for (i = 0; i < n; ++i) run_partition(parts[i], eng, strm, bufs);
    CHECK(dnnl_stream_wait(strm));

    /* [check] */
    for (r = 0; r < M; ++r)
        for (c = 0; c < N; ++c) {
            float acc = bv[c], want;
            for (k = 0; k < K; ++k) acc += xv[r * K + k] * wv[k * N + c];
            want = acc > 0 ? acc : 0;
            if (fabsf(bufs[5][r * N + c] - want) > 1e-5f) ++bad;
        }
    printf("y[0][0..2] = %g %g %g: %s\n", bufs[5][0], bufs[5][1], bufs[5][2],
            bad ? "FAIL" : "PASS");

    /* [cleanup] */
    for (i = 0; i < n; ++i) CHECK(dnnl_graph_partition_destroy(parts[i]));
    for (i = 3; i < NTENSORS; ++i) free(bufs[i]);
    CHECK(dnnl_graph_graph_destroy(g));
    CHECK(dnnl_stream_destroy(strm));
    CHECK(dnnl_engine_destroy(eng));
    return bad ? 1 : 0;
}
