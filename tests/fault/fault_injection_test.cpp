// SPDX-License-Identifier: Apache-2.0
// tests/fault/fault_injection_test.cpp — allocation failure at every point:
// for a suite of graphs, the N-th allocation fails, for every N from 1 until
// a run completes without reaching N. Two sources are failed in turn: the
// engine's allocator (user callbacks that return NULL — every buffer the
// library allocates at execute time) and operator new on the calling thread
// (every heap object of graph building, partitioning, compiling and
// executing; the replacement below throws std::bad_alloc). Each failure
// must end in dnnl_out_of_memory (or another failing status) with a message,
// or be absorbed with correct results; the library must then run the graph
// normally; nothing may leak (the ASan build runs this under LeakSanitizer).
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl_graph.h"
#include "oneapi/dnnl/llga.h"

// ---- failing operator new (this thread only, while armed) ------------------
namespace {
thread_local long t_new_left = 0; // > 0: the allocation that brings it to 0 fails
thread_local bool t_new_fired = false;

void *counted_alloc(size_t n, size_t align) {
    if (t_new_left > 0 && --t_new_left == 0) {
        t_new_fired = true;
        throw std::bad_alloc();
    }
    if (n == 0) n = 1;
    void *p = align > alignof(std::max_align_t)
            ? std::aligned_alloc(align, (n + align - 1) / align * align)
            : std::malloc(n);
    if (!p) throw std::bad_alloc();
    return p;
}
} // namespace

void *operator new(size_t n) { return counted_alloc(n, 0); }
void *operator new[](size_t n) { return counted_alloc(n, 0); }
void *operator new(size_t n, std::align_val_t a) {
    return counted_alloc(n, static_cast<size_t>(a));
}
void *operator new[](size_t n, std::align_val_t a) {
    return counted_alloc(n, static_cast<size_t>(a));
}
void *operator new(size_t n, const std::nothrow_t &) noexcept {
    try {
        return counted_alloc(n, 0);
    } catch (...) { return nullptr; }
}
void *operator new[](size_t n, const std::nothrow_t &) noexcept {
    try {
        return counted_alloc(n, 0);
    } catch (...) { return nullptr; }
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, size_t) noexcept { std::free(p); }
void operator delete[](void *p, size_t) noexcept { std::free(p); }
void operator delete(void *p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void *p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void *p, size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void *p, size_t, std::align_val_t) noexcept {
    std::free(p);
}

namespace {

// ---- failing engine allocator (all threads) --------------------------------
std::atomic<long> g_alloc_left {0};
std::atomic<bool> g_alloc_fired {false};
std::atomic<long> g_live_blocks {0};

void *user_alloc(size_t size, size_t alignment) {
    long left = g_alloc_left.load();
    while (left > 0 && !g_alloc_left.compare_exchange_weak(left, left - 1)) {}
    if (left == 1) {
        g_alloc_fired = true;
        return nullptr;
    }
    void *p = std::aligned_alloc(
            alignment, (size + alignment - 1) / alignment * alignment);
    if (p) ++g_live_blocks;
    return p;
}
void user_free(void *p) {
    if (p) --g_live_blocks;
    std::free(p);
}

// ---- the graphs -------------------------------------------------------------
dnnl_graph_logical_tensor_t lt(size_t id, std::vector<int64_t> dims,
        dnnl_graph_tensor_property_t prop = dnnl_graph_tensor_property_undef) {
    dnnl_graph_logical_tensor_t t;
    dnnl_graph_logical_tensor_init_with_dims(&t, id, dnnl_f32,
            static_cast<int32_t>(dims.size()), dims.data(),
            dnnl_graph_layout_type_strided, prop);
    return t;
}

dnnl_graph_logical_tensor_t strided(size_t id, std::vector<int64_t> dims,
        std::vector<int64_t> strides) {
    dnnl_graph_logical_tensor_t t;
    dnnl_graph_logical_tensor_init_with_strides(&t, id, dnnl_f32,
            static_cast<int32_t>(dims.size()), dims.data(), strides.data(),
            dnnl_graph_tensor_property_undef);
    return t;
}

struct op_desc_t {
    dnnl_graph_op_kind_t kind;
    std::vector<dnnl_graph_logical_tensor_t> ins, outs;
    std::vector<std::pair<dnnl_graph_op_attr_t, std::vector<int64_t>>> s64;
    std::vector<std::pair<dnnl_graph_op_attr_t, std::string>> str;
};

struct case_t {
    const char *name;
    std::vector<op_desc_t> ops;
    // Graph inputs and outputs in compile order (ids from the ops above).
    std::vector<dnnl_graph_logical_tensor_t> inputs, outputs;
};

std::vector<case_t> suite() {
    std::vector<case_t> v;
    { // MatMul + bias + ReLU: one fused partition, JIT GEMM.
        case_t c {"matmul_bias_relu", {}, {}, {}};
        auto a = lt(0, {4, 8}), b = lt(1, {8, 16}), bias = lt(2, {16});
        auto mm = lt(3, {4, 16}), out = lt(4, {4, 16});
        c.ops.push_back({dnnl_graph_op_matmul, {a, b, bias}, {mm}, {}, {}});
        c.ops.push_back({dnnl_graph_op_relu, {mm}, {out}, {}, {}});
        c.inputs = {a, b, bias};
        c.outputs = {out};
        v.push_back(c);
    }
    { // Convolution with constant weights (constant cache: persistent).
        case_t c {"conv_const_weights", {}, {}, {}};
        auto x = lt(0, {1, 3, 6, 6});
        auto w = lt(1, {4, 3, 3, 3}, dnnl_graph_tensor_property_constant);
        auto y = lt(2, {1, 4, 4, 4});
        op_desc_t op {dnnl_graph_op_convolution, {x, w}, {y}, {}, {}};
        op.s64 = {{dnnl_graph_op_attr_strides, {1, 1}},
                {dnnl_graph_op_attr_pads_begin, {0, 0}},
                {dnnl_graph_op_attr_pads_end, {0, 0}},
                {dnnl_graph_op_attr_dilations, {1, 1}},
                {dnnl_graph_op_attr_groups, {1}}};
        op.str = {{dnnl_graph_op_attr_data_format, "NCX"},
                {dnnl_graph_op_attr_weights_format, "OIX"}};
        c.ops.push_back(op);
        c.inputs = {x, w};
        c.outputs = {y};
        v.push_back(c);
    }
    { // Softmax -> MatMul -> Sigmoid: several partitions or an op sequence
      // with intermediates in temp buffers.
        case_t c {"softmax_chain", {}, {}, {}};
        auto x = lt(0, {2, 8}), s = lt(1, {2, 8}), w = lt(2, {8, 3});
        auto m = lt(3, {2, 3}), y = lt(4, {2, 3});
        op_desc_t sm {dnnl_graph_op_softmax, {x}, {s}, {}, {}};
        sm.s64 = {{dnnl_graph_op_attr_axis, {1}}};
        c.ops.push_back(sm);
        c.ops.push_back({dnnl_graph_op_matmul, {s, w}, {m}, {}, {}});
        c.ops.push_back({dnnl_graph_op_sigmoid, {m}, {y}, {}, {}});
        c.inputs = {x, w};
        c.outputs = {y};
        v.push_back(c);
    }
    { // Overlapping input strides: the staged dense copy (temp buffer).
        case_t c {"overlapping_input_add", {}, {}, {}};
        auto a = strided(0, {3, 4}, {0, 1}), b = lt(1, {3, 4});
        auto y = lt(2, {3, 4});
        c.ops.push_back({dnnl_graph_op_add, {a, b}, {y}, {}, {}});
        c.inputs = {a, b};
        c.outputs = {y};
        v.push_back(c);
    }
    return v;
}

// Runs the whole program for one case on `eng`: build, partition, compile
// every partition, execute with library-allocated outputs. Returns the first
// failing status (and its message), or success with the outputs in `out`.
// Partition outputs feed later partitions through a map by tensor id.
dnnl_status_t run_case(const case_t &c, dnnl_engine_t eng, dnnl_stream_t strm,
        std::vector<float> &out, std::string &msg) {
    out.clear();
    dnnl_status_t st = dnnl_success;
    dnnl_graph_graph_t g = nullptr;
    std::vector<dnnl_graph_partition_t> parts;
    std::vector<dnnl_graph_compiled_partition_t> cps;
    std::vector<dnnl_graph_tensor_t> tensors;
    std::vector<std::pair<size_t, dnnl_graph_tensor_t>> by_id;
    std::vector<std::vector<float>> host; // input data
    auto check = [&](dnnl_status_t s) {
        if (st == dnnl_success && s != dnnl_success) {
            st = s;
            msg = llga_last_error_message();
        }
        return st == dnnl_success;
    };
    auto find = [&](size_t id) -> dnnl_graph_tensor_t {
        for (auto &p : by_id)
            if (p.first == id) return p.second;
        return nullptr;
    };
    try {
        // Room first: a harness push_back that throws after the library
        // handed out an object would leak it (the harness's fault, not the
        // library's).
        tensors.reserve(64);
        by_id.reserve(64);
        cps.reserve(16);
        host.reserve(16);
        if (check(dnnl_graph_graph_create(&g, dnnl_cpu)))
            for (size_t k = 0; k < c.ops.size() && st == dnnl_success; ++k) {
                const op_desc_t &d = c.ops[k];
                dnnl_graph_op_t op = nullptr;
                if (!check(dnnl_graph_op_create(&op, k, d.kind, "op"))) break;
                for (auto &t : d.ins)
                    check(dnnl_graph_op_add_input(op, &t));
                for (auto &t : d.outs)
                    check(dnnl_graph_op_add_output(op, &t));
                for (auto &a : d.s64)
                    check(dnnl_graph_op_set_attr_s64(
                            op, a.first, a.second.data(), a.second.size()));
                for (auto &a : d.str)
                    check(dnnl_graph_op_set_attr_str(
                            op, a.first, a.second.c_str(), a.second.size()));
                if (st == dnnl_success) check(dnnl_graph_add_op(g, op));
                dnnl_graph_op_destroy(op);
            }
        size_t n = 0;
        if (st == dnnl_success && check(dnnl_graph_graph_finalize(g))
                && check(dnnl_graph_graph_filter(
                        g, dnnl_graph_partition_policy_fusion))
                && check(dnnl_graph_graph_get_partition_num(g, &n))) {
            parts.assign(n, nullptr);
            check(dnnl_graph_graph_get_partitions(g, n, parts.data()));
        }
        // Graph inputs: deterministic data, bound to user buffers.
        for (size_t k = 0; st == dnnl_success && k < c.inputs.size(); ++k) {
            size_t bytes = 0;
            check(dnnl_graph_logical_tensor_get_mem_size(&c.inputs[k], &bytes));
            host.emplace_back(bytes / sizeof(float) + 1);
            for (size_t i = 0; i < host.back().size(); ++i)
                host.back()[i] = static_cast<float>((i * 7 + k * 3) % 11) - 5.f;
            dnnl_graph_tensor_t t = nullptr;
            if (check(dnnl_graph_tensor_create(
                        &t, &c.inputs[k], eng, host.back().data()))) {
                tensors.push_back(t);
                by_id.emplace_back(c.inputs[k].id, t);
            }
        }
        for (size_t p = 0; st == dnnl_success && p < parts.size(); ++p) {
            size_t ni = 0, no = 0;
            check(dnnl_graph_partition_get_input_ports_num(parts[p], &ni));
            check(dnnl_graph_partition_get_output_ports_num(parts[p], &no));
            if (st != dnnl_success) break;
            std::vector<dnnl_graph_logical_tensor_t> in(ni), o(no);
            check(dnnl_graph_partition_get_input_ports(parts[p], ni, in.data()));
            check(dnnl_graph_partition_get_output_ports(parts[p], no, o.data()));
            // Inputs as bound (partition outputs of earlier partitions are
            // queried, so their layout is what the producer wrote).
            for (auto &t : in) {
                dnnl_graph_tensor_t h = find(t.id);
                if (h) check(dnnl_graph_tensor_get_logical_tensor(h, &t));
            }
            for (auto &t : o) // let the library choose
                t.layout_type = dnnl_graph_layout_type_any;
            dnnl_graph_compiled_partition_t cp = nullptr;
            if (!check(dnnl_graph_compiled_partition_create(&cp, parts[p])))
                break;
            cps.push_back(cp);
            std::vector<const dnnl_graph_logical_tensor_t *> pi, po;
            for (auto &t : in)
                pi.push_back(&t);
            for (auto &t : o)
                po.push_back(&t);
            if (!check(dnnl_graph_partition_compile(parts[p], cp, pi.size(),
                        pi.data(), po.size(), po.data(), eng)))
                break;
            std::vector<const_dnnl_graph_tensor_t> ti, to;
            for (auto &t : in)
                ti.push_back(find(t.id));
            for (auto &t : o) {
                dnnl_graph_logical_tensor_t q;
                if (!check(dnnl_graph_compiled_partition_query_logical_tensor(
                            cp, t.id, &q)))
                    break;
                dnnl_graph_tensor_t h = nullptr;
                if (!check(dnnl_graph_tensor_create(
                            &h, &q, eng, DNNL_MEMORY_ALLOCATE)))
                    break;
                tensors.push_back(h);
                by_id.emplace_back(t.id, h);
                to.push_back(h);
            }
            if (st != dnnl_success) break;
            check(dnnl_graph_compiled_partition_execute(
                    cp, strm, ti.size(), ti.data(), to.size(), to.data()));
        }
        for (size_t k = 0; st == dnnl_success && k < c.outputs.size(); ++k) {
            dnnl_graph_tensor_t h = find(c.outputs[k].id);
            void *data = nullptr;
            dnnl_graph_logical_tensor_t q;
            if (!h || !check(dnnl_graph_tensor_get_data_handle(h, &data))
                    || !check(dnnl_graph_tensor_get_logical_tensor(h, &q)))
                break;
            size_t bytes = 0;
            check(dnnl_graph_logical_tensor_get_mem_size(&q, &bytes));
            const float *f = static_cast<const float *>(data);
            out.insert(out.end(), f, f + bytes / sizeof(float));
        }
    } catch (const std::bad_alloc &) {
        // The harness's own containers may fail too; that is no finding.
        if (st == dnnl_success) st = dnnl_out_of_memory, msg = "harness";
    }
    for (auto t : tensors)
        dnnl_graph_tensor_destroy(t);
    for (auto cp : cps)
        dnnl_graph_compiled_partition_destroy(cp);
    for (auto p : parts)
        if (p) dnnl_graph_partition_destroy(p);
    if (g) dnnl_graph_graph_destroy(g);
    return st;
}

struct env_t {
    dnnl_engine_t eng = nullptr;
    dnnl_stream_t strm = nullptr;
    env_t() {
        dnnl_graph_allocator_t a = nullptr;
        EXPECT_EQ(dnnl_graph_allocator_create(&a, user_alloc, user_free),
                dnnl_success);
        EXPECT_EQ(dnnl_graph_make_engine_with_allocator(&eng, dnnl_cpu, 0, a),
                dnnl_success);
        dnnl_graph_allocator_destroy(a);
        EXPECT_EQ(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags),
                dnnl_success);
    }
    ~env_t() {
        dnnl_stream_destroy(strm);
        dnnl_engine_destroy(eng);
    }
};

enum class source_t { engine_allocator, operator_new };

// Fails allocation N = 1, 2, ... of `source` until a run completes without
// reaching N; returns how many N were tried.
long sweep(const case_t &c, source_t source) {
    env_t env;
    std::vector<float> want, got;
    std::string msg;
    // A fresh compile each run: the compiled-partition cache would skip
    // most of the allocations after the first run.
    dnnl_graph_set_compiled_partition_cache_capacity(0);
    // Constant weights go through the constant tensor cache (persistent
    // blocks from the engine's allocator).
    size_t cache_mb = 0;
    dnnl_graph_get_constant_tensor_cache_capacity(dnnl_cpu, &cache_mb);
    dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, 64);
    EXPECT_EQ(run_case(c, env.eng, env.strm, want, msg), dnnl_success)
            << c.name << ": " << msg;
    long n = 1;
    for (;; ++n) {
        std::string why;
        dnnl_status_t st;
        bool fired;
        if (source == source_t::engine_allocator) {
            g_alloc_fired = false;
            g_alloc_left = n;
            st = run_case(c, env.eng, env.strm, got, why);
            g_alloc_left = 0;
            fired = g_alloc_fired;
        } else {
            t_new_fired = false;
            t_new_left = n;
            st = run_case(c, env.eng, env.strm, got, why);
            t_new_left = 0;
            fired = t_new_fired;
        }
        if (why == "harness") st = dnnl_success, got = want; // not ours
        if (st == dnnl_success) {
            EXPECT_EQ(got, want) << c.name << ": allocation " << n
                                 << " failed silently with wrong results";
        } else {
            EXPECT_TRUE(st == dnnl_out_of_memory)
                    << c.name << ": allocation " << n << " failed, status "
                    << st << ": " << why;
            EXPECT_FALSE(why.empty()) << c.name << ": allocation " << n;
        }
        // The library works normally afterwards.
        std::string again;
        EXPECT_EQ(run_case(c, env.eng, env.strm, got, again), dnnl_success)
                << c.name << " after failing allocation " << n << ": " << again;
        EXPECT_EQ(got, want) << c.name << " after failing allocation " << n;
        if (!fired || ::testing::Test::HasFailure()) break;
    }
    dnnl_graph_set_compiled_partition_cache_capacity(1024);
    dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, cache_mb);
    return n;
}

} // namespace

TEST(FaultInjection, EngineAllocatorFailsAtEveryCall) {
    for (const case_t &c : suite()) {
        const long n = sweep(c, source_t::engine_allocator);
        std::printf("%s: %ld engine allocations failed in turn\n", c.name,
                n - 1);
        EXPECT_GT(n, 1) << c.name << " allocated nothing through the engine";
    }
    // Cached constants are the engine's blocks too: empty the cache first.
    size_t mb = 0;
    dnnl_graph_get_constant_tensor_cache_capacity(dnnl_cpu, &mb);
    dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, 0);
    EXPECT_EQ(g_live_blocks.load(), 0) << "engine blocks leaked";
    dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, mb);
}

TEST(FaultInjection, OperatorNewFailsAtEveryCall) {
    for (const case_t &c : suite()) {
        const long n = sweep(c, source_t::operator_new);
        std::printf("%s: %ld heap allocations failed in turn\n", c.name, n - 1);
        EXPECT_GT(n, 10) << c.name;
    }
}
