/* SPDX-License-Identifier: Apache-2.0 */
/* tests/api/c99_graph.c — a C99 program using only the public C headers:
 * builds y = ReLU(MatMul(x, w) + b), partitions, compiles each partition with
 * shapes inferred, executes, and checks the result against values computed
 * by hand. Exit status 0 = pass. */
#include <stdio.h>
#include <string.h>

#include "oneapi/dnnl/dnnl_graph.h"
#include "oneapi/dnnl/llga.h"

#define CHECK(call) \
    do { \
        dnnl_status_t s_ = (call); \
        if (s_ != dnnl_success) { \
            fprintf(stderr, "%s:%d: %s failed (%d): %s\n", __FILE__, __LINE__, \
                    #call, (int)s_, llga_last_error_message()); \
            return 1; \
        } \
    } while (0)

static dnnl_graph_logical_tensor_t mk(size_t id, int nd, const int64_t *dims) {
    dnnl_graph_logical_tensor_t t;
    dnnl_dims_t d;
    int k;
    for (k = 0; k < nd; ++k)
        d[k] = dims[k];
    dnnl_graph_logical_tensor_init_with_dims(&t, id, dnnl_f32, nd, d,
            dnnl_graph_layout_type_strided, dnnl_graph_tensor_property_undef);
    return t;
}

int main(void) {
    const int64_t xd[] = {2, 3}, wd[] = {3, 2}, yd[] = {2, 2}, bd[] = {2};
    dnnl_graph_logical_tensor_t x = mk(1, 2, xd), w = mk(2, 2, wd);
    dnnl_graph_logical_tensor_t m = mk(3, 2, yd), b = mk(4, 1, bd);
    dnnl_graph_logical_tensor_t s = mk(5, 2, yd), y = mk(6, 2, yd);
    dnnl_graph_op_t mm, add, relu;
    dnnl_graph_graph_t g;
    dnnl_graph_partition_t parts[3];
    dnnl_graph_compiled_partition_t cps[3];
    dnnl_engine_t eng;
    dnnl_stream_t str;
    size_t n = 0, i;
    /* x = [[1,2,3],[4,5,6]], w = [[1,-1],[0,1],[2,0]], b = [-10, 0] */
    float xv[6] = {1, 2, 3, 4, 5, 6}, wv[6] = {1, -1, 0, 1, 2, 0};
    float bv[2] = {-10, 0}, mv[4], sv[4], yv[4];
    /* x*w = [[7, 1], [16, 1]]; + b = [[-3, 1], [6, 1]]; relu = [[0,1],[6,1]] */
    const float want[4] = {0, 1, 6, 1};

    CHECK(dnnl_engine_create(&eng, dnnl_cpu, 0));
    CHECK(dnnl_stream_create(&str, eng, dnnl_stream_default_flags));
    CHECK(dnnl_graph_graph_create(&g, dnnl_cpu));
    CHECK(dnnl_graph_op_create(&mm, 1, dnnl_graph_op_matmul, "mm"));
    CHECK(dnnl_graph_op_add_input(mm, &x));
    CHECK(dnnl_graph_op_add_input(mm, &w));
    CHECK(dnnl_graph_op_add_output(mm, &m));
    CHECK(dnnl_graph_op_create(&add, 2, dnnl_graph_op_add, "add"));
    CHECK(dnnl_graph_op_add_input(add, &m));
    CHECK(dnnl_graph_op_add_input(add, &b));
    CHECK(dnnl_graph_op_add_output(add, &s));
    CHECK(dnnl_graph_op_create(&relu, 3, dnnl_graph_op_relu, "relu"));
    CHECK(dnnl_graph_op_add_input(relu, &s));
    CHECK(dnnl_graph_op_add_output(relu, &y));
    CHECK(dnnl_graph_add_op(g, mm));
    CHECK(dnnl_graph_add_op(g, add));
    CHECK(dnnl_graph_add_op(g, relu));
    dnnl_graph_op_destroy(mm);
    dnnl_graph_op_destroy(add);
    dnnl_graph_op_destroy(relu);
    CHECK(dnnl_graph_graph_finalize(g));
    CHECK(dnnl_graph_graph_filter(g, dnnl_graph_partition_policy_fusion));
    CHECK(dnnl_graph_graph_get_partition_num(g, &n));
    if (n < 1 || n > 3) {
        fprintf(stderr, "unexpected partition count %zu\n", n);
        return 1;
    }
    CHECK(dnnl_graph_graph_get_partitions(g, n, parts));
    /* Run each partition in order, binding tensors by port id. */
    {
        float *bufs[7] = {0, xv, wv, mv, bv, sv, yv};
        for (i = 0; i < n; ++i) {
            size_t nin, nout, k;
            dnnl_graph_logical_tensor_t ins[4], outs[2];
            const dnnl_graph_logical_tensor_t *pin[4], *pout[2];
            dnnl_graph_tensor_t tin[4], tout[2];
            uint8_t sup = 0;
            CHECK(dnnl_graph_partition_is_supported(parts[i], &sup));
            if (!sup) {
                fprintf(stderr, "partition %zu unsupported\n", i);
                return 1;
            }
            CHECK(dnnl_graph_partition_get_input_ports_num(parts[i], &nin));
            CHECK(dnnl_graph_partition_get_output_ports_num(parts[i], &nout));
            CHECK(dnnl_graph_partition_get_input_ports(parts[i], nin, ins));
            CHECK(dnnl_graph_partition_get_output_ports(parts[i], nout, outs));
            for (k = 0; k < nin; ++k)
                pin[k] = &ins[k];
            for (k = 0; k < nout; ++k)
                pout[k] = &outs[k];
            CHECK(dnnl_graph_compiled_partition_create(&cps[i], parts[i]));
            CHECK(dnnl_graph_partition_compile(
                    parts[i], cps[i], nin, pin, nout, pout, eng));
            for (k = 0; k < nin; ++k)
                CHECK(dnnl_graph_tensor_create(
                        &tin[k], &ins[k], eng, bufs[ins[k].id]));
            for (k = 0; k < nout; ++k)
                CHECK(dnnl_graph_tensor_create(
                        &tout[k], &outs[k], eng, bufs[outs[k].id]));
            CHECK(dnnl_graph_compiled_partition_execute(cps[i], str, nin,
                    (const_dnnl_graph_tensor_t *)tin, nout,
                    (const_dnnl_graph_tensor_t *)tout));
            for (k = 0; k < nin; ++k)
                dnnl_graph_tensor_destroy(tin[k]);
            for (k = 0; k < nout; ++k)
                dnnl_graph_tensor_destroy(tout[k]);
            dnnl_graph_compiled_partition_destroy(cps[i]);
            dnnl_graph_partition_destroy(parts[i]);
        }
    }
    CHECK(dnnl_stream_wait(str));
    for (i = 0; i < 4; ++i)
        if (yv[i] != want[i]) {
            fprintf(stderr, "y[%zu] = %g, expected %g\n", i, yv[i], want[i]);
            return 1;
        }
    dnnl_stream_destroy(str);
    dnnl_engine_destroy(eng);
    /* C lets a caller pass any int as an enum; the library must reject it
     * cleanly (it reads enum arguments without typed loads). */
    if (dnnl_set_default_fpmath_mode((dnnl_fpmath_mode_t)1000)
                    != dnnl_invalid_arguments
            || dnnl_engine_get_count((dnnl_engine_kind_t)77) != 0
            || dnnl_graph_graph_filter(g, (dnnl_graph_partition_policy_t)-4)
                    != dnnl_invalid_arguments) {
        fprintf(stderr, "out-of-range enum arguments were not rejected\n");
        return 1;
    }
    printf("c99_graph: %zu partitions, y = [%g %g %g %g]: PASS\n", n, yv[0],
            yv[1], yv[2], yv[3]);
    dnnl_graph_graph_destroy(g);
    return 0;
}
