// SPDX-License-Identifier: Apache-2.0
// tests/misuse/misuse_test.cpp — wrong input through the C API. Every case
// must return its documented status with a message, never crash, throw or
// leak; the suite also runs under ASan/UBSan (ctest label "misuse").
#include <functional>
#include <string>
#include <vector>

#include "../api/capi_test_util.hpp"

using namespace capi_test;

namespace {

// A small valid world each case can break: engine, stream, a finalized
// graph with Add -> ReLU, its partitions, and compiled partitions.
struct world_t {
    cpu_env_t env;
    dnnl_graph_graph_t g = nullptr;
    std::vector<dnnl_graph_partition_t> parts;
    dnnl_graph_compiled_partition_t cp_add = nullptr, cp_fresh = nullptr;
    dnnl_graph_logical_tensor_t a = lt(1, dnnl_f32, {2, 3});
    dnnl_graph_logical_tensor_t b = lt(2, dnnl_f32, {2, 3});
    dnnl_graph_logical_tensor_t s = lt(3, dnnl_f32, {2, 3});
    dnnl_graph_logical_tensor_t y = lt(4, dnnl_f32, {2, 3});
    float av[6] = {0}, bv[6] = {0}, sv[6] = {0};
    dnnl_graph_tensor_t ta = nullptr, tb = nullptr, ts = nullptr;

    static dnnl_graph_op_t op(size_t id, dnnl_graph_op_kind_t k,
            std::vector<dnnl_graph_logical_tensor_t> in,
            std::vector<dnnl_graph_logical_tensor_t> out) {
        dnnl_graph_op_t o = nullptr;
        dnnl_graph_op_create(&o, id, k, "m");
        for (auto &t : in)
            dnnl_graph_op_add_input(o, &t);
        for (auto &t : out)
            dnnl_graph_op_add_output(o, &t);
        return o;
    }
    void add(dnnl_graph_op_t o) {
        EXPECT_EQ(dnnl_graph_add_op(g, o), dnnl_success);
        dnnl_graph_op_destroy(o);
    }

    world_t() {
        dnnl_graph_graph_create(&g, dnnl_cpu);
        add(op(10, dnnl_graph_op_add, {a, b}, {s}));
        add(op(11, dnnl_graph_op_relu, {s}, {y}));
        dnnl_graph_graph_finalize(g);
        // Debug policy: one op per partition, so parts[0] is the Add alone.
        dnnl_graph_graph_filter(g, dnnl_graph_partition_policy_debug);
        size_t n = 0;
        dnnl_graph_graph_get_partition_num(g, &n);
        parts.resize(n);
        dnnl_graph_graph_get_partitions(g, n, parts.data());
        dnnl_graph_compiled_partition_create(&cp_add, parts[0]);
        const dnnl_graph_logical_tensor_t *in[] = {&a, &b}, *out[] = {&s};
        EXPECT_EQ(dnnl_graph_partition_compile(parts[0], cp_add, 2, in, 1, out,
                          env.engine),
                dnnl_success);
        dnnl_graph_compiled_partition_create(&cp_fresh, parts[0]);
        dnnl_graph_tensor_create(&ta, &a, env.engine, av);
        dnnl_graph_tensor_create(&tb, &b, env.engine, bv);
        dnnl_graph_tensor_create(&ts, &s, env.engine, sv);
    }
    ~world_t() {
        for (auto t : {ta, tb, ts})
            dnnl_graph_tensor_destroy(t);
        dnnl_graph_compiled_partition_destroy(cp_add);
        dnnl_graph_compiled_partition_destroy(cp_fresh);
        for (auto p : parts)
            dnnl_graph_partition_destroy(p);
        dnnl_graph_graph_destroy(g);
    }
    dnnl_status_t compile_add(std::vector<dnnl_graph_logical_tensor_t> in,
            std::vector<dnnl_graph_logical_tensor_t> out) {
        std::vector<const dnnl_graph_logical_tensor_t *> pi, po;
        for (auto &t : in)
            pi.push_back(&t);
        for (auto &t : out)
            po.push_back(&t);
        return dnnl_graph_partition_compile(parts[0], cp_fresh, pi.size(),
                pi.data(), po.size(), po.data(), env.engine);
    }
    dnnl_status_t exec_add(std::vector<const_dnnl_graph_tensor_t> in,
            std::vector<const_dnnl_graph_tensor_t> out) {
        return dnnl_graph_compiled_partition_execute(cp_add, env.stream,
                in.size(), in.data(), out.size(), out.data());
    }
};

// A fresh, unfinalized graph; `ops` are added in order and the status of
// the last add (or of finalize, if `finalize`) is returned.
dnnl_status_t build(std::vector<dnnl_graph_op_t> ops, bool finalize) {
    dnnl_graph_graph_t g = nullptr;
    dnnl_graph_graph_create(&g, dnnl_cpu);
    dnnl_status_t st = dnnl_success;
    for (auto o : ops) {
        st = dnnl_graph_add_op(g, o);
        dnnl_graph_op_destroy(o);
    }
    if (finalize && st == dnnl_success) st = dnnl_graph_graph_finalize(g);
    dnnl_graph_graph_destroy(g);
    return st;
}

dnnl_graph_op_t with_s64(dnnl_graph_op_t o, dnnl_graph_op_attr_t a,
        std::vector<int64_t> v) {
    dnnl_graph_op_set_attr_s64(o, a, v.data(), v.size());
    return o;
}
dnnl_graph_op_t with_str(dnnl_graph_op_t o, dnnl_graph_op_attr_t a, const char *v) {
    dnnl_graph_op_set_attr_str(o, a, v, strlen(v));
    return o;
}

struct misuse_case_t {
    const char *name;
    dnnl_status_t expected;
    std::function<dnnl_status_t(world_t &)> run;
    const char *message_has; // substring the last error must contain ("" = any)
};

// gtest prints parameters in test names; show the case name, not bytes.
void PrintTo(const misuse_case_t &c, std::ostream *os) { *os << c.name; }

using W = world_t;
const auto f32 = dnnl_f32;

std::vector<misuse_case_t> cases() {
    return {
            {"graph_create_null_out", dnnl_invalid_arguments,
                    [](W &) { return dnnl_graph_graph_create(nullptr, dnnl_cpu); },
                    "graph"},
            {"graph_create_bad_kind", dnnl_invalid_arguments,
                    [](W &) {
                        dnnl_graph_graph_t g;
                        return dnnl_graph_graph_create(&g,
                                static_cast<dnnl_engine_kind_t>(42));
                    },
                    "engine kind"},
            // Named as the entry point called, not as dnnl_graph_graph_create.
            {"graph_create_fpmath_bad_mode", dnnl_invalid_arguments,
                    [](W &) {
                        dnnl_graph_graph_t g;
                        return dnnl_graph_graph_create_with_fpmath_mode(&g,
                                dnnl_cpu, static_cast<dnnl_fpmath_mode_t>(99));
                    },
                    "dnnl_graph_graph_create_with_fpmath_mode: "},
            {"add_op_null_graph", dnnl_invalid_arguments,
                    [](W &) {
                        auto o = W::op(1, dnnl_graph_op_relu, {}, {});
                        auto st = dnnl_graph_add_op(nullptr, o);
                        dnnl_graph_op_destroy(o);
                        return st;
                    },
                    "graph"},
            {"add_op_null_op", dnnl_invalid_arguments,
                    [](W &w) { return dnnl_graph_add_op(w.g, nullptr); }, "op"},
            {"add_after_finalize", dnnl_invalid_graph,
                    [](W &w) {
                        auto o = W::op(99, dnnl_graph_op_relu,
                                {lt(50, f32, {2})}, {lt(51, f32, {2})});
                        auto st = dnnl_graph_add_op(w.g, o);
                        dnnl_graph_op_destroy(o);
                        return st;
                    },
                    "finalized"},
            {"relu_two_inputs", dnnl_invalid_graph_op,
                    [](W &) {
                        return build({W::op(1, dnnl_graph_op_relu,
                                             {lt(1, f32, {2}), lt(2, f32, {2})},
                                             {lt(3, f32, {2})})},
                                false);
                    },
                    "inputs"},
            {"relu_no_output", dnnl_invalid_graph_op,
                    [](W &) {
                        return build({W::op(1, dnnl_graph_op_relu,
                                             {lt(1, f32, {2})}, {})},
                                false);
                    },
                    "outputs"},
            {"relu_s8_input", dnnl_invalid_graph_op,
                    [](W &) {
                        return build({W::op(1, dnnl_graph_op_relu,
                                             {lt(1, dnnl_s8, {2})},
                                             {lt(2, dnnl_s8, {2})})},
                                false);
                    },
                    "data type"},
            {"maximum_mixed_dtypes", dnnl_invalid_graph_op,
                    [](W &) {
                        // Maximum needs one dtype for all operands (Add
                        // would accept the mix).
                        return build({W::op(1, dnnl_graph_op_maximum,
                                             {lt(1, f32, {2}), lt(2, dnnl_bf16, {2})},
                                             {lt(3, f32, {2})})},
                                false);
                    },
                    "data type"},
            {"conv_missing_strides", dnnl_invalid_graph_op,
                    [](W &) {
                        auto o = W::op(1, dnnl_graph_op_convolution,
                                {lt(1, f32, {1, 1, 4, 4}), lt(2, f32, {1, 1, 3, 3})},
                                {lt(3, f32, {1, 1, 2, 2})});
                        with_s64(o, dnnl_graph_op_attr_pads_begin, {0, 0});
                        with_s64(o, dnnl_graph_op_attr_pads_end, {0, 0});
                        with_s64(o, dnnl_graph_op_attr_dilations, {1, 1});
                        return build({o}, false);
                    },
                    "strides"},
            {"relu_with_foreign_attr", dnnl_invalid_graph_op,
                    [](W &) {
                        auto o = W::op(1, dnnl_graph_op_relu, {lt(1, f32, {2})},
                                {lt(2, f32, {2})});
                        return build({with_s64(o, dnnl_graph_op_attr_axis, {1})},
                                false);
                    },
                    "axis"},
            {"attr_wrong_value_kind", dnnl_invalid_graph_op,
                    [](W &) {
                        auto o = W::op(1, dnnl_graph_op_add,
                                {lt(1, f32, {2}), lt(2, f32, {2})}, {lt(3, f32, {2})});
                        // auto_broadcast is a string; give it integers.
                        return build({with_s64(o, dnnl_graph_op_attr_auto_broadcast, {1})},
                                false);
                    },
                    "auto_broadcast"},
            {"attr_bad_candidate", dnnl_invalid_graph_op,
                    [](W &) {
                        auto o = W::op(1, dnnl_graph_op_add,
                                {lt(1, f32, {2}), lt(2, f32, {2})}, {lt(3, f32, {2})});
                        return build({with_str(o, dnnl_graph_op_attr_auto_broadcast,
                                             "sideways")},
                                false);
                    },
                    "sideways"},
            {"tensor_id_dtype_conflict", dnnl_invalid_graph,
                    [](W &) {
                        return build({W::op(1, dnnl_graph_op_relu, {lt(1, f32, {2})},
                                              {lt(2, f32, {2})}),
                                             W::op(2, dnnl_graph_op_relu,
                                                     {lt(2, dnnl_bf16, {2})},
                                                     {lt(3, dnnl_bf16, {2})})},
                                true); // finalize refuses (oneDNN rule)
                    },
                    "tensor 2"},
            {"tensor_id_shape_conflict", dnnl_invalid_graph,
                    [](W &) {
                        return build({W::op(1, dnnl_graph_op_relu, {lt(1, f32, {2})},
                                              {lt(2, f32, {2})}),
                                             W::op(2, dnnl_graph_op_relu,
                                                     {lt(2, f32, {3})},
                                                     {lt(3, f32, {3})})},
                                true); // finalize refuses (oneDNN rule)
                    },
                    "tensor 2"},
            {"two_producers", dnnl_invalid_graph,
                    [](W &) {
                        return build({W::op(1, dnnl_graph_op_relu, {lt(1, f32, {2})},
                                              {lt(2, f32, {2})}),
                                             W::op(2, dnnl_graph_op_relu,
                                                     {lt(5, f32, {2})},
                                                     {lt(2, f32, {2})})},
                                false);
                    },
                    "already produced"},
            {"cycle", dnnl_invalid_graph,
                    [](W &) {
                        return build({W::op(1, dnnl_graph_op_relu, {lt(1, f32, {2})},
                                              {lt(2, f32, {2})}),
                                             W::op(2, dnnl_graph_op_relu,
                                                     {lt(2, f32, {2})},
                                                     {lt(1, f32, {2})})},
                                true);
                    },
                    "cycle"},
            {"filter_before_finalize", dnnl_invalid_graph,
                    [](W &) {
                        dnnl_graph_graph_t g;
                        dnnl_graph_graph_create(&g, dnnl_cpu);
                        auto st = dnnl_graph_graph_filter(
                                g, dnnl_graph_partition_policy_fusion);
                        dnnl_graph_graph_destroy(g);
                        return st;
                    },
                    "finalized"},
            {"filter_bad_policy", dnnl_invalid_arguments,
                    [](W &w) {
                        return dnnl_graph_graph_filter(w.g,
                                static_cast<dnnl_graph_partition_policy_t>(9));
                    },
                    "policy"},
            {"get_partitions_null_array", dnnl_invalid_graph,
                    [](W &w) { return dnnl_graph_graph_get_partitions(w.g, 2, nullptr); },
                    ""},
            {"get_partitions_wrong_count", dnnl_invalid_arguments,
                    [](W &w) {
                        dnnl_graph_partition_t p[5];
                        return dnnl_graph_graph_get_partitions(w.g, 5, p);
                    },
                    "5"},
            {"get_ops_wrong_count", dnnl_invalid_arguments,
                    [](W &w) {
                        size_t ids[3];
                        return dnnl_graph_partition_get_ops(w.parts[0], 3, ids);
                    },
                    ""},
            {"partition_null", dnnl_invalid_arguments,
                    [](W &) {
                        size_t n;
                        return dnnl_graph_partition_get_op_num(nullptr, &n);
                    },
                    ""},
            {"compiled_create_null_partition", dnnl_invalid_arguments,
                    [](W &) {
                        dnnl_graph_compiled_partition_t c;
                        return dnnl_graph_compiled_partition_create(&c, nullptr);
                    },
                    ""},
            {"compile_too_few_inputs", dnnl_invalid_arguments,
                    [](W &w) { return w.compile_add({w.a}, {w.s}); }, "port 2"},
            // Tensors are matched to ports by id (as oneDNN): 77 is ignored,
            // port 2 is missing.
            {"compile_unknown_input_id", dnnl_invalid_arguments,
                    [](W &w) { return w.compile_add({w.a, lt(77, f32, {2, 3})}, {w.s}); },
                    "port 2"},
            {"compile_wrong_dtype", dnnl_invalid_arguments,
                    [](W &w) {
                        return w.compile_add({w.a, lt(2, dnnl_bf16, {2, 3})}, {w.s});
                    },
                    "bf16"},
            {"compile_unknown_input_shape", dnnl_invalid_arguments,
                    [](W &w) { return w.compile_add({w.a, lt_unknown(2, f32)}, {w.s}); },
                    "known shape"},
            {"compile_incompatible_shapes", dnnl_invalid_shape,
                    [](W &w) {
                        return w.compile_add({w.a, lt(2, f32, {4, 5})}, {w.s});
                    },
                    "broadcast"},
            {"compile_declared_output_rank_mismatch", dnnl_invalid_shape,
                    [](W &w) {
                        return w.compile_add({w.a, w.b}, {lt(3, f32, {6})});
                    },
                    "rank"},
            {"compile_duplicate_input", dnnl_invalid_arguments,
                    [](W &w) { return w.compile_add({w.a, w.a}, {w.s}); }, ""},
            {"compile_null_engine", dnnl_invalid_arguments,
                    [](W &w) {
                        const dnnl_graph_logical_tensor_t *in[] = {&w.a, &w.b},
                                                         *out[] = {&w.s};
                        return dnnl_graph_partition_compile(
                                w.parts[0], w.cp_fresh, 2, in, 1, out, nullptr);
                    },
                    "engine"},
            {"compile_null_entry", dnnl_invalid_arguments,
                    [](W &w) {
                        const dnnl_graph_logical_tensor_t *in[] = {&w.a, nullptr},
                                                         *out[] = {&w.s};
                        return dnnl_graph_partition_compile(
                                w.parts[0], w.cp_fresh, 2, in, 1, out, w.env.engine);
                    },
                    "null"},
            {"compile_for_other_partition", dnnl_invalid_arguments,
                    [](W &w) {
                        const dnnl_graph_logical_tensor_t *in[] = {&w.s},
                                                         *out[] = {&w.y};
                        return dnnl_graph_partition_compile(
                                w.parts[1], w.cp_fresh, 1, in, 1, out, w.env.engine);
                    },
                    "created for partition"},
            {"execute_before_compile", dnnl_invalid_arguments,
                    [](W &w) {
                        const_dnnl_graph_tensor_t in[] = {w.ta, w.tb}, out[] = {w.ts};
                        return dnnl_graph_compiled_partition_execute(
                                w.cp_fresh, w.env.stream, 2, in, 1, out);
                    },
                    "not been compiled"},
            {"execute_null_stream", dnnl_invalid_arguments,
                    [](W &w) {
                        const_dnnl_graph_tensor_t in[] = {w.ta, w.tb}, out[] = {w.ts};
                        return dnnl_graph_compiled_partition_execute(
                                w.cp_add, nullptr, 2, in, 1, out);
                    },
                    "stream"},
            {"execute_missing_input", dnnl_invalid_arguments,
                    [](W &w) { return w.exec_add({w.ta}, {w.ts}); }, "input tensors"},
            {"execute_no_outputs", dnnl_invalid_arguments,
                    [](W &w) { return w.exec_add({w.ta, w.tb}, {}); }, "output"},
            {"execute_null_tensor", dnnl_invalid_arguments,
                    [](W &w) { return w.exec_add({w.ta, nullptr}, {w.ts}); }, "null"},
            {"execute_wrong_dtype_tensor", dnnl_invalid_arguments,
                    [](W &w) {
                        auto bad = lt(2, dnnl_bf16, {2, 3});
                        dnnl_graph_tensor_t t;
                        dnnl_graph_tensor_create(&t, &bad, w.env.engine, w.bv);
                        auto st = w.exec_add({w.ta, t}, {w.ts});
                        dnnl_graph_tensor_destroy(t);
                        return st;
                    },
                    "bf16"},
            {"execute_wrong_shape_tensor", dnnl_invalid_arguments,
                    [](W &w) {
                        auto bad = lt(2, f32, {3, 2});
                        dnnl_graph_tensor_t t;
                        dnnl_graph_tensor_create(&t, &bad, w.env.engine, w.bv);
                        auto st = w.exec_add({w.ta, t}, {w.ts});
                        dnnl_graph_tensor_destroy(t);
                        return st;
                    },
                    "shape"},
            {"execute_tensor_without_buffer", dnnl_invalid_arguments,
                    [](W &w) {
                        dnnl_graph_tensor_t t;
                        dnnl_graph_tensor_create(&t, &w.b, w.env.engine, DNNL_MEMORY_NONE);
                        auto st = w.exec_add({w.ta, t}, {w.ts});
                        dnnl_graph_tensor_destroy(t);
                        return st;
                    },
                    "no data buffer"},
            {"query_unknown_tensor", dnnl_invalid_arguments,
                    [](W &w) {
                        dnnl_graph_logical_tensor_t out;
                        return dnnl_graph_compiled_partition_query_logical_tensor(
                                w.cp_add, 12345, &out);
                    },
                    "12345"},
            {"query_before_compile", dnnl_invalid_arguments,
                    [](W &w) {
                        dnnl_graph_logical_tensor_t out;
                        return dnnl_graph_compiled_partition_query_logical_tensor(
                                w.cp_fresh, 1, &out);
                    },
                    "compiled"},
            {"inplace_null_out", dnnl_invalid_arguments,
                    [](W &w) {
                        size_t n;
                        return dnnl_graph_compiled_partition_get_inplace_ports(
                                w.cp_add, &n, nullptr);
                    },
                    ""},
            {"tensor_alloc_unknown_shape", dnnl_invalid_arguments,
                    [](W &w) {
                        dnnl_graph_tensor_t t;
                        auto u = lt_unknown(5, f32);
                        return dnnl_graph_tensor_create(
                                &t, &u, w.env.engine, DNNL_MEMORY_ALLOCATE);
                    },
                    "known"},
            {"logical_tensor_rank_13", dnnl_invalid_arguments,
                    [](W &) {
                        dnnl_graph_logical_tensor_t t;
                        return dnnl_graph_logical_tensor_init(&t, 1, f32, 13,
                                dnnl_graph_layout_type_strided,
                                dnnl_graph_tensor_property_undef);
                    },
                    "ndims"},
            {"op_unknown_kind", dnnl_invalid_arguments,
                    [](W &) {
                        dnnl_graph_op_t o;
                        return dnnl_graph_op_create(
                                &o, 1, static_cast<dnnl_graph_op_kind_t>(1000), "x");
                    },
                    "kind"},
            {"partition_with_invalid_op", dnnl_invalid_graph_op,
                    [](W &) {
                        auto o = W::op(1, dnnl_graph_op_relu, {}, {lt(2, f32, {2})});
                        dnnl_graph_partition_t p;
                        auto st = dnnl_graph_partition_create_with_op(&p, o, dnnl_cpu);
                        dnnl_graph_op_destroy(o);
                        return st;
                    },
                    "inputs"},
            {"logical_tensor_garbage_dtype", dnnl_invalid_arguments,
                    [](W &) {
                        dnnl_graph_logical_tensor_t t = lt(1, f32, {2});
                        int garbage = 99; // a C caller can put any int here
                        std::memcpy(&t.data_type, &garbage, sizeof(garbage));
                        dnnl_graph_op_t o = nullptr;
                        dnnl_graph_op_create(&o, 1, dnnl_graph_op_relu, "r");
                        auto st = dnnl_graph_op_add_input(o, &t);
                        dnnl_graph_op_destroy(o);
                        return st;
                    },
                    "data type 99"},
            {"stream_on_null_engine", dnnl_invalid_arguments,
                    [](W &) {
                        dnnl_stream_t s;
                        return dnnl_stream_create(&s, nullptr, dnnl_stream_default_flags);
                    },
                    "engine"},
    };
}

class Misuse : public ::testing::TestWithParam<misuse_case_t> {};

TEST_P(Misuse, ReturnsStatusWithMessage) {
    world_t w;
    const misuse_case_t &c = GetParam();
    const dnnl_status_t st = c.run(w);
    EXPECT_EQ(st, c.expected) << "last error: " << last_error();
    const std::string msg = last_error();
    EXPECT_FALSE(msg.empty());
    EXPECT_NE(msg.find(c.message_has), std::string::npos) << msg;
}

INSTANTIATE_TEST_SUITE_P(CApi, Misuse, ::testing::ValuesIn(cases()),
        [](const ::testing::TestParamInfo<misuse_case_t> &info) {
            return std::string(info.param.name);
        });

TEST(MisuseCount, AtLeastFortyCases) { EXPECT_GE(cases().size(), 40u); }

} // namespace
