// SPDX-License-Identifier: Apache-2.0
// tests/conformance/all_ops_test.cpp — the all-op known-answer suite: for
// every kind in ops/ops.def (in its order) builds a single-op graph through
// the public C API, partitions it (fusion policy), compiles it with the
// input logical tensors and unknown-rank/any-layout outputs, checks the
// inferred output shapes, executes it and compares every output with the
// case's known answer. End and Wildcard have their own known answers (see
// op_cases_other.cpp). Coverage of ops.def is enforced at link time (every
// case_<suffix>() must exist) and by the Coverage test.
#include <algorithm>
#include <sstream>

#include <gtest/gtest.h>

#include "conformance_cases.hpp"

using namespace conf;

namespace {

constexpr size_t kOpId = 42, kEndOpId = 43;
constexpr size_t kInBase = 1, kOutBase = 100;

std::vector<op_case_t> all_cases() {
    std::vector<op_case_t> v;
#define LLGA_OP(suffix, json, family) \
    { \
        op_case_t c = case_##suffix(); \
        c.kind = dnnl_graph_op_##suffix; \
        if (c.host_kind == dnnl_graph_op_last_symbol) c.host_kind = c.kind; \
        c.name = #json; \
        v.push_back(c); \
    }
#include "ops/ops.def"
#undef LLGA_OP
    return v;
}

#define LLGA_OP(suffix, json, family) +1
constexpr int kDefCount = 0
#include "ops/ops.def"
        ;
#undef LLGA_OP
static_assert(kDefCount == dnnl_graph_op_last_symbol,
        "ops.def must list every public op kind");

std::vector<int64_t> dense_strides(const std::vector<int64_t> &dims) {
    std::vector<int64_t> s(dims.size(), 1);
    for (int k = int(dims.size()) - 2; k >= 0; --k)
        s[k] = s[k + 1] * std::max<int64_t>(dims[k + 1], 1);
    return s;
}

dnnl_graph_logical_tensor_t make_lt(size_t id, const tensor_t &t) {
    dnnl_graph_logical_tensor_t lt;
    dnnl_dims_t d = {0}, s = {0};
    for (size_t k = 0; k < t.dims.size(); ++k)
        d[k] = t.dims[k];
    if (!t.strides.empty()) {
        for (size_t k = 0; k < t.strides.size(); ++k)
            s[k] = t.strides[k];
        EXPECT_EQ(dnnl_graph_logical_tensor_init_with_strides(&lt, id, t.dt,
                          int32_t(t.dims.size()), d, s, dnnl_graph_tensor_property_undef),
                dnnl_success);
    } else {
        EXPECT_EQ(dnnl_graph_logical_tensor_init_with_dims(&lt, id, t.dt,
                          int32_t(t.dims.size()), d, dnnl_graph_layout_type_strided,
                          dnnl_graph_tensor_property_undef),
                dnnl_success);
    }
    return lt;
}

dnnl_graph_logical_tensor_t make_unknown(size_t id, dnnl_data_type_t dt) {
    dnnl_graph_logical_tensor_t lt;
    EXPECT_EQ(dnnl_graph_logical_tensor_init(&lt, id, dt, DNNL_GRAPH_UNKNOWN_NDIMS,
                      dnnl_graph_layout_type_any, dnnl_graph_tensor_property_undef),
            dnnl_success);
    return lt;
}

void set_attrs(dnnl_graph_op_t op, const std::vector<attr_t> &attrs) {
    for (const auto &a : attrs) {
        const dnnl_status_t st = set_attr(op, a);
        EXPECT_EQ(st, dnnl_success) << "attr 0x" << std::hex << int(a.name) << ": "
                                    << llga_last_error_message();
    }
}

// Row-major logical index -> element offset through strides.
size_t offset_of(size_t flat, const std::vector<int64_t> &dims,
        const std::vector<int64_t> &strides) {
    size_t off = 0;
    for (int k = int(dims.size()) - 1; k >= 0; --k) {
        const size_t d = size_t(dims[k]);
        off += (flat % d) * size_t(strides[k]);
        flat /= d;
    }
    return off;
}

size_t volume(const std::vector<int64_t> &dims) {
    size_t n = 1;
    for (auto d : dims)
        n *= size_t(d);
    return n;
}

void default_tol(dnnl_data_type_t dt, double &atol, double &rtol) {
    switch (dt) {
        case dnnl_f32: atol = 1e-6, rtol = 1e-5; break;
        case dnnl_bf16: atol = 1e-2, rtol = 8e-3; break;
        case dnnl_f16: atol = 1e-3, rtol = 1e-3; break;
        default: atol = 0, rtol = 0; break; // integers, boolean, f8 (exact)
    }
}

struct env_t {
    dnnl_engine_t engine = nullptr;
    dnnl_stream_t stream = nullptr;
    env_t() {
        EXPECT_EQ(dnnl_engine_create(&engine, dnnl_cpu, 0), dnnl_success);
        EXPECT_EQ(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags),
                dnnl_success);
    }
    ~env_t() {
        dnnl_stream_destroy(stream);
        dnnl_engine_destroy(engine);
    }
};

class AllOps : public ::testing::TestWithParam<op_case_t> {};

TEST_P(AllOps, KnownAnswer) {
    const op_case_t &c = GetParam();
    env_t env;

    // ---- graph -----------------------------------------------------------
    std::vector<dnnl_graph_logical_tensor_t> in_lts, out_lts;
    for (size_t k = 0; k < c.ins.size(); ++k)
        in_lts.push_back(make_lt(kInBase + k, c.ins[k]));
    for (size_t k = 0; k < c.outs.size(); ++k)
        out_lts.push_back(c.special == special_t::wildcard
                        ? make_lt(kOutBase + k, c.outs[k])
                        : make_unknown(kOutBase + k, c.outs[k].dt));

    dnnl_graph_graph_t g = nullptr;
    ASSERT_EQ(dnnl_graph_graph_create(&g, dnnl_cpu), dnnl_success);
    dnnl_graph_op_t op = nullptr;
    ASSERT_EQ(dnnl_graph_op_create(&op, kOpId, c.host_kind, "conformance"), dnnl_success);
    for (auto &t : in_lts)
        ASSERT_EQ(dnnl_graph_op_add_input(op, &t), dnnl_success);
    for (auto &t : out_lts)
        ASSERT_EQ(dnnl_graph_op_add_output(op, &t), dnnl_success);
    set_attrs(op, c.attrs);
    ASSERT_EQ(dnnl_graph_add_op(g, op), dnnl_success) << llga_last_error_message();
    dnnl_graph_op_destroy(op);
    if (c.special == special_t::end) {
        for (size_t k = 0; k < out_lts.size(); ++k) {
            dnnl_graph_op_t e = nullptr;
            ASSERT_EQ(dnnl_graph_op_create(&e, kEndOpId + k, dnnl_graph_op_end, "end"),
                    dnnl_success);
            ASSERT_EQ(dnnl_graph_op_add_input(e, &out_lts[k]), dnnl_success);
            ASSERT_EQ(dnnl_graph_add_op(g, e), dnnl_success) << llga_last_error_message();
            dnnl_graph_op_destroy(e);
        }
    }
    ASSERT_EQ(dnnl_graph_graph_finalize(g), dnnl_success) << llga_last_error_message();
    ASSERT_EQ(dnnl_graph_graph_filter(g, dnnl_graph_partition_policy_fusion),
            dnnl_success)
            << llga_last_error_message();

    // ---- partition -------------------------------------------------------
    // Each End forms an unsupported partition of its own, after the op's.
    const size_t n_end = c.special == special_t::end ? out_lts.size() : 0;
    size_t np = 0;
    ASSERT_EQ(dnnl_graph_graph_get_partition_num(g, &np), dnnl_success);
    ASSERT_EQ(np, 1u + n_end) << "expected exactly one partition (+ End's)";
    std::vector<dnnl_graph_partition_t> all_parts(np, nullptr);
    ASSERT_EQ(dnnl_graph_graph_get_partitions(g, np, all_parts.data()), dnnl_success);
    dnnl_graph_partition_t part = all_parts[0];
    for (size_t k = 1; k < np; ++k) {
        size_t end_id = 0;
        uint8_t end_supported = 9;
        EXPECT_EQ(dnnl_graph_partition_get_ops(all_parts[k], 1, &end_id), dnnl_success);
        EXPECT_EQ(end_id, kEndOpId + k - 1);
        EXPECT_EQ(dnnl_graph_partition_is_supported(all_parts[k], &end_supported),
                dnnl_success);
        EXPECT_EQ(end_supported, 0u);
        dnnl_graph_partition_destroy(all_parts[k]);
    }
    size_t nops = 0, op_id = 0;
    EXPECT_EQ(dnnl_graph_partition_get_op_num(part, &nops), dnnl_success);
    EXPECT_EQ(nops, 1u);
    EXPECT_EQ(dnnl_graph_partition_get_ops(part, 1, &op_id), dnnl_success);
    EXPECT_EQ(op_id, kOpId);
    uint8_t supported = 9;
    EXPECT_EQ(dnnl_graph_partition_is_supported(part, &supported), dnnl_success);
    size_t nin = 0, nout = 0;
    EXPECT_EQ(dnnl_graph_partition_get_input_ports_num(part, &nin), dnnl_success);
    EXPECT_EQ(dnnl_graph_partition_get_output_ports_num(part, &nout), dnnl_success);
    EXPECT_EQ(nin, c.ins.size());
    ASSERT_EQ(nout, c.outs.size()) << "every output must be an output port";
    std::vector<dnnl_graph_logical_tensor_t> ports(nout);
    if (nout) {
        EXPECT_EQ(dnnl_graph_partition_get_output_ports(part, nout, ports.data()),
                dnnl_success);
        for (size_t k = 0; k < nout; ++k)
            EXPECT_EQ(ports[k].id, kOutBase + k);
    }

    std::vector<const dnnl_graph_logical_tensor_t *> in_ptrs, out_ptrs;
    for (auto &t : in_lts)
        in_ptrs.push_back(&t);
    // Compile-time outputs: unknown rank and layout any, except where the
    // case asks for a specific layout (Reorder).
    std::vector<dnnl_graph_logical_tensor_t> compile_outs;
    for (size_t k = 0; k < c.outs.size(); ++k)
        compile_outs.push_back(c.outs[k].strides.empty() && c.special != special_t::wildcard
                        ? make_unknown(kOutBase + k, c.outs[k].dt)
                        : make_lt(kOutBase + k, c.outs[k]));
    for (auto &t : compile_outs)
        out_ptrs.push_back(&t);

    dnnl_graph_compiled_partition_t cp = nullptr;
    ASSERT_EQ(dnnl_graph_compiled_partition_create(&cp, part), dnnl_success);
    const dnnl_status_t cst = dnnl_graph_partition_compile(part, cp, in_ptrs.size(),
            in_ptrs.data(), out_ptrs.size(), out_ptrs.data(), env.engine);

    if (c.special == special_t::wildcard) {
        // Known answer of Wildcard: unsupported, and compiling fails.
        EXPECT_EQ(supported, 0u);
        EXPECT_EQ(cst, dnnl_invalid_arguments) << llga_last_error_message();
        dnnl_graph_compiled_partition_destroy(cp);
        dnnl_graph_partition_destroy(part);
        dnnl_graph_graph_destroy(g);
        return;
    }
    EXPECT_EQ(supported, 1u);
    ASSERT_EQ(cst, dnnl_success) << llga_last_error_message();

    // ---- tensors ---------------------------------------------------------
    std::vector<std::vector<uint8_t>> in_bufs(c.ins.size()), out_bufs(c.outs.size());
    std::vector<dnnl_graph_tensor_t> in_ts, out_ts;
    for (size_t k = 0; k < c.ins.size(); ++k) {
        const tensor_t &t = c.ins[k];
        size_t bytes = 0;
        ASSERT_EQ(dnnl_graph_logical_tensor_get_mem_size(&in_lts[k], &bytes), dnnl_success);
        in_bufs[k].assign(std::max<size_t>(bytes, 1), 0);
        const auto strides = t.strides.empty() ? dense_strides(t.dims) : t.strides;
        const size_t n = volume(t.dims);
        ASSERT_TRUE(t.values.empty() || t.values.size() == n) << "input " << k;
        for (size_t e = 0; e < t.values.size(); ++e)
            store(in_bufs[k], t.dt, offset_of(e, t.dims, strides), t.values[e]);
        dnnl_graph_tensor_t ten = nullptr;
        ASSERT_EQ(dnnl_graph_tensor_create(&ten, &in_lts[k], env.engine, in_bufs[k].data()),
                dnnl_success);
        in_ts.push_back(ten);
    }
    std::vector<dnnl_graph_logical_tensor_t> final_outs(c.outs.size());
    for (size_t k = 0; k < c.outs.size(); ++k) {
        const tensor_t &t = c.outs[k];
        auto &q = final_outs[k];
        ASSERT_EQ(dnnl_graph_compiled_partition_query_logical_tensor(cp, kOutBase + k, &q),
                dnnl_success);
        EXPECT_EQ(q.data_type, t.dt) << "output " << k;
        ASSERT_EQ(q.ndims, int32_t(t.dims.size())) << "output " << k << " rank";
        for (size_t d = 0; d < t.dims.size(); ++d)
            EXPECT_EQ(q.dims[d], t.dims[d]) << "output " << k << " dim " << d;
        ASSERT_EQ(q.layout_type, dnnl_graph_layout_type_strided) << "output " << k;
        for (size_t d = 0; d < t.strides.size(); ++d)
            EXPECT_EQ(q.layout.strides[d], t.strides[d]) << "output " << k << " stride " << d;
        size_t bytes = 0;
        ASSERT_EQ(dnnl_graph_logical_tensor_get_mem_size(&q, &bytes), dnnl_success);
        out_bufs[k].assign(std::max<size_t>(bytes, 1), 0xA5);
        dnnl_graph_tensor_t ten = nullptr;
        ASSERT_EQ(dnnl_graph_tensor_create(&ten, &q, env.engine, out_bufs[k].data()),
                dnnl_success);
        out_ts.push_back(ten);
    }

    // ---- execute and compare --------------------------------------------
    std::vector<const_dnnl_graph_tensor_t> cin(in_ts.begin(), in_ts.end()),
            cout_(out_ts.begin(), out_ts.end());
    ASSERT_EQ(dnnl_graph_compiled_partition_execute(cp, env.stream, cin.size(), cin.data(),
                      cout_.size(), cout_.data()),
            dnnl_success)
            << llga_last_error_message();
    ASSERT_EQ(dnnl_stream_wait(env.stream), dnnl_success);

    for (size_t k = 0; k < c.outs.size(); ++k) {
        const tensor_t &t = c.outs[k];
        const auto &q = final_outs[k];
        std::vector<int64_t> strides(q.layout.strides, q.layout.strides + q.ndims);
        double atol, rtol;
        default_tol(t.dt, atol, rtol);
        if (c.atol >= 0) atol = c.atol, rtol = c.rtol;
        const size_t n = volume(t.dims);
        ASSERT_EQ(t.values.size(), n) << "case must give every output value";
        for (size_t e = 0; e < n; ++e) {
            const double got = load(out_bufs[k], t.dt, offset_of(e, t.dims, strides));
            const double want = t.values[e];
            if (std::isnan(want)) {
                EXPECT_TRUE(std::isnan(got)) << "output " << k << " [" << e << "]";
                continue;
            }
            EXPECT_NEAR(got, want, atol + rtol * std::fabs(want))
                    << "output " << k << " [" << e << "]";
        }
    }

    for (auto t : in_ts)
        dnnl_graph_tensor_destroy(t);
    for (auto t : out_ts)
        dnnl_graph_tensor_destroy(t);
    dnnl_graph_compiled_partition_destroy(cp);
    dnnl_graph_partition_destroy(part);
    dnnl_graph_graph_destroy(g);
}

std::string case_name(const ::testing::TestParamInfo<op_case_t> &info) {
    std::ostringstream os;
    os << (info.index < 10 ? "0" : "") << info.index << "_" << info.param.name;
    return os.str();
}

INSTANTIATE_TEST_SUITE_P(Conformance, AllOps, ::testing::ValuesIn(all_cases()), case_name);

// Every kind of ops.def appears exactly once, in order, with values for
// every input and output (none skipped).
TEST(AllOpsCoverage, EveryKindHasAKnownAnswer) {
    const auto cases = all_cases();
    ASSERT_EQ(cases.size(), size_t(dnnl_graph_op_last_symbol));
    for (size_t k = 0; k < cases.size(); ++k) {
        EXPECT_EQ(int(cases[k].kind), int(k)) << cases[k].name;
        EXPECT_FALSE(cases[k].outs.empty()) << cases[k].name;
        if (cases[k].special != special_t::none) continue;
        EXPECT_EQ(cases[k].host_kind, cases[k].kind) << cases[k].name;
        for (const auto &t : cases[k].ins)
            EXPECT_EQ(t.values.size(), volume(t.dims)) << cases[k].name;
        for (const auto &t : cases[k].outs)
            EXPECT_EQ(t.values.size(), volume(t.dims)) << cases[k].name;
    }
}

} // namespace
