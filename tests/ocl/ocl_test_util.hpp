// SPDX-License-Identifier: Apache-2.0
// tests/ocl/ocl_test_util.hpp — shared by the OpenCL engine suites: the GPU
// engine and stream (skipping when no OpenCL device exists), device buffers,
// and the check that runs ops as one plan on the OpenCL backend and op by op
// through the reference semantics of ops/ (the oracle), then compares.
#pragma once

#include <cmath>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/ocl/device.hpp"
#include "backends/ocl/ocl_api.hpp"
#include "capi/handles.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "oneapi/dnnl/dnnl_graph_ocl.h"
#include "oneapi/dnnl/llga.h"

namespace llga {
namespace ocl_test {

struct gpu_t {
    dnnl_engine_t engine = nullptr;
    dnnl_stream_t stream = nullptr;
    const ocl::device_impl_t *dev = nullptr;
    cl_command_queue q = nullptr;
};

// The process's GPU engine and stream, or nullptr when there is no OpenCL
// device (the caller skips).
inline gpu_t *gpu() {
    static gpu_t *g = [] () -> gpu_t * {
        setenv("LLGA_OCL_ANY_DEVICE", "1", 0);
        if (dnnl_engine_get_count(dnnl_gpu) == 0) return nullptr;
        auto *r = new gpu_t();
        if (dnnl_engine_create(&r->engine, dnnl_gpu, 0) != dnnl_success)
            return nullptr;
        if (dnnl_stream_create(&r->stream, r->engine, dnnl_stream_in_order)
                != dnnl_success)
            return nullptr;
        r->dev = dynamic_cast<const ocl::device_impl_t *>(r->engine->device());
        r->q = dynamic_cast<ocl::queue_impl_t *>(r->stream->queue())->get();
        return r;
    }();
    return g;
}

#define LLGA_NEED_GPU() \
    do { \
        if (!::llga::ocl_test::gpu()) \
            GTEST_SKIP() << "no OpenCL device: " \
                         << ::llga::ocl::no_device_reason(); \
    } while (0)

// Dims with strides: dense row-major, or (odd) every dim padded so no
// tensor is dense: stride[d] = (stride[d+1] * dims[d+1]) + 1 for d < last,
// and the innermost stride 1 or 2.
inline logical_tensor_t make_t(size_t id, data_type_t dt, const dims_t &dims,
        bool odd = false) {
    logical_tensor_t lt = ir::make_lt(id, dt, dims);
    if (odd && !dims.empty()) {
        int64_t s = dims.size() % 2 ? 2 : 1;
        for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
            lt.layout.strides[d] = s;
            s = s * std::max<int64_t>(dims[d], 1) + 1;
        }
    }
    return lt;
}

inline std::vector<char> random_bytes(const logical_tensor_t &lt,
        std::mt19937 &gen, float lo, float hi) {
    std::vector<char> b(ir::mem_size(lt));
    const size_t n = b.size() / ir::dtype_storage_bytes(lt.data_type, 1);
    std::uniform_real_distribution<float> u(lo, hi);
    for (size_t i = 0; i < n; ++i) {
        float v = u(gen);
        if (ir::dtype_is_int(lt.data_type)) v = std::round(v);
        ir::store_value(lt.data_type, b.data(), static_cast<int64_t>(i), v);
    }
    return b;
}

// An op with `inputs`, attributes set by the caller, outputs inferred
// (dense, or odd strides).
inline ir::op_t make_op(op_kind_t kind, std::vector<logical_tensor_t> inputs,
        std::vector<std::pair<attr_id_t, ir::attr_value_t>> attrs,
        data_type_t out_dt, size_t out_id, bool odd_out = false,
        size_t nout = 1) {
    ir::op_t op;
    op.kind = kind;
    op.id = out_id;
    op.inputs = std::move(inputs);
    for (auto &a : attrs)
        op.set_attr(a.first, a.second);
    for (size_t k = 0; k < nout; ++k)
        op.outputs.push_back(ir::make_lt_unknown(out_id + k, out_dt));
    EXPECT_EQ(ops::verify_op(op), dnnl_success) << llga_last_error_message();
    EXPECT_EQ(ops::infer_shapes(op), dnnl_success) << llga_last_error_message();
    for (auto &o : op.outputs)
        o = make_t(o.id, o.data_type, ir::dims_of(o), odd_out);
    return op;
}

struct tol_t {
    double atol = 1e-5, rtol = 1e-4;
};

inline tol_t tol_for(data_type_t dt) {
    tol_t t;
    if (dt == dnnl_bf16) t = {1e-2, 1.6e-2};
    if (dt == dnnl_f16) t = {1e-3, 2e-3};
    if (ir::dtype_is_int(dt)) t = {1.0, 0.0};
    return t;
}

// Runs `plan` on the GPU: `ins` holds the inputs' bytes in plan.inputs
// order (host scalars are passed by value), `outs` gets the outputs'
// bytes in plan.outputs order (device buffers start as 0x55 junk, so an
// element the kernel does not write shows). Returns the compile or
// execute status; `outs` is filled only on success.
inline status_t run_plan_on_gpu(const compiler::plan_t &plan,
        const std::vector<const std::vector<char> *> &ins,
        std::vector<std::vector<char>> &outs) {
    gpu_t *g = gpu();
    std::shared_ptr<const compiler::kernel_t> k;
    status_t st = ocl::backend_for(*g->engine)->compile(plan, k);
    if (st != dnnl_success) return st;
    const rt::allocator_t &alloc = g->engine->allocator();
    compiler::exec_ctx_t ctx;
    ctx.stream = g->stream;
    ctx.engine = g->engine;
    ctx.allocator = &alloc;
    std::vector<std::pair<void *, size_t>> bufs;
    for (size_t i = 0; i < plan.inputs.size(); ++i) {
        const std::vector<char> &b = *ins[i];
        if (plan.inputs[i].property == dnnl_graph_tensor_property_host_scalar) {
            ctx.inputs.push_back(b.data()); // passed by value
            continue;
        }
        const size_t n = std::max<size_t>(b.size(), 1);
        void *p = alloc.allocate(n, rt::lifetime_t::output);
        EXPECT_EQ(g->dev->copy(g->q, p, b.data(), b.size()), dnnl_success);
        bufs.emplace_back(p, n);
        ctx.inputs.push_back(p);
    }
    for (const auto &o : plan.outputs) {
        const size_t n = std::max<size_t>(ir::mem_size(o), 1);
        void *p = alloc.allocate(n, rt::lifetime_t::output);
        std::vector<char> junk(n, 0x55);
        g->dev->copy(g->q, p, junk.data(), n);
        bufs.emplace_back(p, n);
        ctx.outputs.push_back(p);
    }
    st = k->execute(ctx);
    EXPECT_EQ(g->stream->wait(), dnnl_success);
    outs.assign(plan.outputs.size(), {});
    for (size_t j = 0; st == dnnl_success && j < plan.outputs.size(); ++j) {
        outs[j].assign(std::max<size_t>(ir::mem_size(plan.outputs[j]), 1), 0);
        g->dev->copy(g->q, outs[j].data(), ctx.outputs[j], outs[j].size());
    }
    for (auto &p : bufs)
        alloc.deallocate(p.first, p.second, rt::lifetime_t::output);
    return st;
}

// Runs `ops` (dependency order) as one plan on the GPU and through the
// reference; compares the last op's outputs. Returns the GPU status.
inline status_t run_and_compare(const std::vector<ir::op_t> &ops,
        uint32_t seed, float lo = -2.f, float hi = 2.f,
        const tol_t *tol_override = nullptr) {
    compiler::plan_t plan;
    plan.ops = ops;
    std::map<size_t, bool> produced;
    for (const auto &op : ops)
        for (const auto &o : op.outputs)
            produced[o.id] = true;
    for (const auto &op : ops)
        for (const auto &in : op.inputs)
            if (!produced.count(in.id)
                    && compiler::find_port(plan.inputs, in.id) < 0)
                plan.inputs.push_back(in);
    plan.outputs = ops.back().outputs;
    // Host data and the reference run.
    std::mt19937 gen(seed);
    std::map<size_t, std::vector<char>> host;
    for (const auto &in : plan.inputs)
        host[in.id] = random_bytes(in, gen, lo, hi);
    for (const auto &op : ops) {
        std::vector<const void *> ins;
        std::vector<void *> outs;
        for (const auto &o : op.outputs)
            host[o.id].assign(ir::mem_size(o), 0);
        for (const auto &in : op.inputs)
            ins.push_back(host[in.id].data());
        for (const auto &o : op.outputs)
            outs.push_back(host[o.id].data());
        EXPECT_EQ(ops::find_op_def(op.kind)->ref(op, ins, outs), dnnl_success);
    }
    // GPU run.
    std::vector<const std::vector<char> *> ins;
    for (const auto &in : plan.inputs)
        ins.push_back(&host[in.id]);
    std::vector<std::vector<char>> outs;
    const status_t st = run_plan_on_gpu(plan, ins, outs);
    for (size_t j = 0; st == dnnl_success && j < plan.outputs.size(); ++j) {
        const logical_tensor_t &o = plan.outputs[j];
        const std::vector<char> &got = outs[j];
        const tol_t t = tol_override ? *tol_override : tol_for(o.data_type);
        const int64_t n = ir::nelems(o);
        const dims_t dims = ir::dims_of(o);
        int bad = 0;
        for (int64_t i = 0; i < n && bad < 5; ++i) {
            int64_t off = 0, r = i;
            for (int d = o.ndims - 1; d >= 0; --d) {
                off += (r % dims[d]) * o.layout.strides[d];
                r /= dims[d];
            }
            const double want = ir::load_value(o.data_type, host[o.id].data(), off);
            const double have = ir::load_value(o.data_type, got.data(), off);
            const bool both_nan = std::isnan(want) && std::isnan(have);
            const bool same_inf = std::isinf(want) && want == have;
            if (!both_nan && !same_inf
                    && !(std::fabs(want - have)
                            <= t.atol + t.rtol * std::fabs(want))) {
                ADD_FAILURE() << ops::op_kind_name(ops.back().kind)
                              << " output " << o.id << " element " << i
                              << ": want " << want << " got " << have;
                ++bad;
            }
        }
    }
    return st;
}

} // namespace ocl_test
} // namespace llga
