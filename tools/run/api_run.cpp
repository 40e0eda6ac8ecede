// SPDX-License-Identifier: Apache-2.0
// tools/run/api_run.cpp — the public-API execution path (see api_run.hpp).
// Only the C API of libllga is called here; the internal headers are used for
// the runner's own data structures (logical tensors, dtype sizes).
#include "api_run.hpp"

#include <chrono>
#include <cstring>
#include <map>

#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "oneapi/dnnl/llga.h"

namespace llga_run {

using namespace llga;

std::string api_error(dnnl_status_t st) {
    const char *m = llga_last_error_message();
    std::string s = (m && *m) ? m : "";
    return s.empty() ? "status " + std::to_string(static_cast<int>(st)) : s;
}

#define API_CALL(expr) \
    do { \
        dnnl_status_t st_ = (expr); \
        if (st_ != dnnl_success) { \
            error = api_error(st_); \
            return false; \
        } \
    } while (0)

api_session_t::~api_session_t() {
    gpu_.reset(); // waits, then frees device buffers
    for (auto &c : compiled_) {
        for (auto t : c.tin) dnnl_graph_tensor_destroy(t);
        for (auto t : c.tout) dnnl_graph_tensor_destroy(t);
        if (c.cp) dnnl_graph_compiled_partition_destroy(c.cp);
    }
    for (auto p : parts_) dnnl_graph_partition_destroy(p);
    if (graph_) dnnl_graph_graph_destroy(graph_);
    if (stream_) dnnl_stream_destroy(stream_);
    if (engine_) dnnl_engine_destroy(engine_);
}

namespace {

dnnl_status_t set_attr(dnnl_graph_op_t op, attr_id_t id, const ir::attr_value_t &v) {
    switch (v.kind) {
        case ir::attr_kind_t::f32:
        case ir::attr_kind_t::f32s:
            return dnnl_graph_op_set_attr_f32(op, id, v.f.data(), v.f.size());
        case ir::attr_kind_t::s64:
        case ir::attr_kind_t::s64s:
            return dnnl_graph_op_set_attr_s64(op, id, v.i.data(), v.i.size());
        case ir::attr_kind_t::boolean: {
            uint8_t b = v.b ? 1 : 0;
            return dnnl_graph_op_set_attr_bool(op, id, &b, 1);
        }
        case ir::attr_kind_t::str:
            return dnnl_graph_op_set_attr_str(op, id, v.s.c_str(), v.s.size());
        default: return dnnl_success;
    }
}

size_t bytes_of(const logical_tensor_t &lt) {
    if (lt.ndims == 0) return ir::dtype_storage_bytes(lt.data_type, 1);
    size_t n = 0;
    if (dnnl_graph_logical_tensor_get_mem_size(&lt, &n) != dnnl_success) return 0;
    return n;
}

} // namespace

bool api_session_t::build(
        const prepared_t &g, const global_opts_t &opts, std::string &error) {
    const dnnl_engine_kind_t ek = opts.engine == "gpu" ? dnnl_gpu : dnnl_cpu;
    opts_engine_gpu_ = ek == dnnl_gpu;
    API_CALL(dnnl_engine_create(&engine_, ek, 0));
    API_CALL(dnnl_stream_create(&stream_, engine_, 0));
    API_CALL(dnnl_graph_graph_create_with_fpmath_mode(&graph_, ek, g.fpmath));
    API_CALL(dnnl_graph_graph_set_fpmath_mode(graph_, g.fpmath, g.apply_to_int));
    for (const ir::op_t &src : g.ops) {
        dnnl_graph_op_t op = nullptr;
        API_CALL(dnnl_graph_op_create(&op, src.id, src.kind, src.name.c_str()));
        dnnl_status_t st = dnnl_success;
        for (const auto &lt : src.inputs)
            if (st == dnnl_success) st = dnnl_graph_op_add_input(op, &g.tensors.at(lt.id));
        for (const auto &lt : src.outputs)
            if (st == dnnl_success) st = dnnl_graph_op_add_output(op, &g.tensors.at(lt.id));
        for (const auto &a : src.attrs)
            if (st == dnnl_success) st = set_attr(op, a.first, a.second);
        if (st == dnnl_success) st = dnnl_graph_add_op(graph_, op);
        dnnl_graph_op_destroy(op);
        API_CALL(st);
    }
    API_CALL(dnnl_graph_graph_finalize(graph_));
    API_CALL(dnnl_graph_graph_filter(graph_,
            opts.policy == policy_t::debug ? dnnl_graph_partition_policy_debug
                                           : dnnl_graph_partition_policy_fusion));
    size_t n = 0;
    API_CALL(dnnl_graph_graph_get_partition_num(graph_, &n));
    if (n == 0) return true;
    parts_.assign(n, nullptr);
    API_CALL(dnnl_graph_graph_get_partitions(graph_, n, parts_.data()));
    for (auto p : parts_) {
        partition_info_t pi;
        size_t k = 0;
        uint8_t sup = 0;
        API_CALL(dnnl_graph_partition_get_id(p, &pi.id));
        API_CALL(dnnl_graph_partition_is_supported(p, &sup));
        pi.supported = sup != 0;
        API_CALL(dnnl_graph_partition_get_op_num(p, &k));
        pi.ops.resize(k);
        if (k) API_CALL(dnnl_graph_partition_get_ops(p, k, pi.ops.data()));
        API_CALL(dnnl_graph_partition_get_input_ports_num(p, &k));
        pi.inputs.resize(k);
        if (k) API_CALL(dnnl_graph_partition_get_input_ports(p, k, pi.inputs.data()));
        API_CALL(dnnl_graph_partition_get_output_ports_num(p, &k));
        pi.outputs.resize(k);
        if (k) API_CALL(dnnl_graph_partition_get_output_ports(p, k, pi.outputs.data()));
        info_.push_back(std::move(pi));
    }
    return true;
}

bool api_session_t::all_supported() const {
    for (const auto &p : info_)
        if (!p.supported) return false;
    return !info_.empty();
}

bool api_session_t::compile(const prepared_t &g, double &ms, std::string &error) {
    // Tensors available so far: graph inputs, then each compiled partition's
    // outputs as the library reports them.
    std::map<size_t, logical_tensor_t> known;
    for (size_t id : g.inputs) known[id] = g.tensors.at(id);
    std::vector<bool> done(parts_.size(), false);
    ms = 0;
    for (size_t round = 0; round < parts_.size(); ++round) {
        size_t pick = parts_.size();
        for (size_t k = 0; k < parts_.size() && pick == parts_.size(); ++k) {
            if (done[k]) continue;
            bool ready = true;
            for (const auto &lt : info_[k].inputs) ready &= known.count(lt.id) != 0;
            if (ready) pick = k;
        }
        if (pick == parts_.size()) {
            error = "partitions have inputs that no partition produces";
            return false;
        }
        done[pick] = true;
        compiled_t c;
        c.part = pick;
        for (const auto &lt : info_[pick].inputs) c.ins.push_back(known.at(lt.id));
        c.outs = info_[pick].outputs;
        std::vector<const logical_tensor_t *> pin, pout;
        for (auto &lt : c.ins) pin.push_back(&lt);
        for (auto &lt : c.outs) pout.push_back(&lt);
        API_CALL(dnnl_graph_compiled_partition_create(&c.cp, parts_[pick]));
        compiled_.push_back(c);
        const auto t0 = std::chrono::steady_clock::now();
        API_CALL(dnnl_graph_partition_compile(parts_[pick], compiled_.back().cp,
                pin.size(), pin.data(), pout.size(), pout.data(), engine_));
        ms += std::chrono::duration<double, std::milli>(
                std::chrono::steady_clock::now() - t0)
                      .count();
        for (auto &lt : compiled_.back().outs) {
            API_CALL(dnnl_graph_compiled_partition_query_logical_tensor(
                    compiled_.back().cp, lt.id, &lt));
            known[lt.id] = lt;
        }
    }
    return true;
}

bool api_session_t::bind(
        const prepared_t &g, const buffers_t &inputs, std::string &error) {
    for (size_t id : g.inputs) bufs_[id] = inputs.at(id);
    for (auto &c : compiled_) {
        for (const auto &lt : c.outs) {
            buffer_t &b = bufs_[lt.id];
            b.lt = lt;
            b.resize(bytes_of(lt));
        }
    }
    const bool on_gpu = opts_engine_gpu_;
    if (on_gpu && !gpu_) {
        gpu_.reset(new gpu_mem_t());
        if (!gpu_->init(engine_, stream_, error)) return false;
    }
    auto make = [&](const logical_tensor_t &lt, dnnl_graph_tensor_t &t) {
        buffer_t &b = bufs_.at(lt.id);
        if (lt.property == dnnl_graph_tensor_property_host_scalar)
            return dnnl_graph_tensor_create_scalar(&t, &lt, b.data());
        if (!on_gpu) return dnnl_graph_tensor_create(&t, &lt, engine_, b.data());
        // A device copy of the host buffer, made once per tensor.
        void *&d = dev_[lt.id];
        if (!d) {
            const size_t n = b.storage.size() * sizeof(uint64_t);
            d = gpu_->alloc(n);
            if (!d || !gpu_->copy(d, b.data(), n)) return dnnl_out_of_memory;
        }
        return dnnl_graph_tensor_create(&t, &lt, engine_, d);
    };
    for (auto &c : compiled_) {
        for (const auto &lt : c.ins) {
            if (!bufs_.count(lt.id)) {
                error = "no data for tensor " + std::to_string(lt.id);
                return false;
            }
            c.tin.push_back(nullptr);
            API_CALL(make(lt, c.tin.back()));
        }
        for (const auto &lt : c.outs) {
            c.tout.push_back(nullptr);
            API_CALL(make(lt, c.tout.back()));
        }
    }
    return true;
}

bool api_session_t::execute(std::string &error) {
    for (auto &c : compiled_) {
        std::vector<const_dnnl_graph_tensor_t> tin(c.tin.begin(), c.tin.end()),
                tout(c.tout.begin(), c.tout.end());
        API_CALL(dnnl_graph_compiled_partition_execute(
                c.cp, stream_, tin.size(), tin.data(), tout.size(), tout.data()));
    }
    API_CALL(dnnl_stream_wait(stream_));
    // GPU outputs come back into the host buffers the checker reads.
    for (auto &c : compiled_)
        for (const auto &lt : c.outs) {
            auto it = dev_.find(lt.id);
            if (it == dev_.end()) continue;
            buffer_t &b = bufs_.at(lt.id);
            if (!gpu_->copy(b.data(), it->second,
                        b.storage.size() * sizeof(uint64_t))) {
                error = "copying GPU output " + std::to_string(lt.id)
                        + " to the host failed";
                return false;
            }
        }
    return true;
}

} // namespace llga_run
