// SPDX-License-Identifier: Apache-2.0
// tools/run/api_run.hpp — the main path: the prepared graph built, partitioned,
// compiled and executed through the public C API of libllga, as a user
// program would. Partitions run in dependency order; a partition's outputs
// reach later partitions by tensor id, with the layout the library reports
// (query_logical_tensor after compile).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fill.hpp"
#include "gpu_mem.hpp"
#include "options.hpp"
#include "prepare.hpp"

#include "oneapi/dnnl/dnnl_graph.h"

namespace llga_run {

struct partition_info_t {
    size_t id = 0;
    std::vector<size_t> ops;
    bool supported = false;
    std::vector<llga::logical_tensor_t> inputs, outputs;
};

class api_session_t {
public:
    api_session_t() = default;
    api_session_t(const api_session_t &) = delete;
    api_session_t &operator=(const api_session_t &) = delete;
    ~api_session_t();

    // Creates engine and stream, adds every op, finalizes and partitions.
    bool build(const prepared_t &g, const global_opts_t &opts, std::string &error);
    const std::vector<partition_info_t> &partitions() const { return info_; }
    bool all_supported() const;

    // Compiles every partition (dependency order); times in milliseconds.
    bool compile(const prepared_t &g, double &ms, std::string &error);
    // Creates the API-side buffers: graph inputs are copied from `inputs`
    // (the reference path's filled data), produced tensors are allocated with
    // their queried sizes. Call once after compile().
    bool bind(const prepared_t &g, const buffers_t &inputs, std::string &error);
    // Executes all partitions once and waits.
    bool execute(std::string &error);
    const buffers_t &buffers() const { return bufs_; }
    // The partitioned graph (after build()), for llga_graph_explain().
    dnnl_graph_graph_t graph() const { return graph_; }

private:
    struct compiled_t {
        size_t part = 0; // index into parts_/info_
        dnnl_graph_compiled_partition_t cp = nullptr;
        std::vector<llga::logical_tensor_t> ins, outs;
        std::vector<dnnl_graph_tensor_t> tin, tout;
    };
    dnnl_engine_t engine_ = nullptr;
    dnnl_stream_t stream_ = nullptr;
    dnnl_graph_graph_t graph_ = nullptr;
    std::vector<dnnl_graph_partition_t> parts_;
    std::vector<partition_info_t> info_;
    std::vector<compiled_t> compiled_; // in execution order
    buffers_t bufs_;
    // --engine=gpu: device copies of bufs_ (declared after the stream so
    // they are freed before it).
    bool opts_engine_gpu_ = false;
    std::unique_ptr<gpu_mem_t> gpu_;
    std::map<size_t, void *> dev_;
};

// "<text of llga_last_error_message()>" or the status number.
std::string api_error(dnnl_status_t st);

} // namespace llga_run
