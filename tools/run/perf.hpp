// SPDX-License-Identifier: Apache-2.0
// tools/run/perf.hpp — --mode=perf: warm-up, timed iterations of all compiled
// partitions back to back, and the arithmetic work of the graph where it is
// well defined (MatMul, convolutions), for GFLOP/s.
#pragma once

#include <string>

#include "api_run.hpp"

namespace llga_run {

struct perf_result_t {
    int iterations = 0;
    double min_ms = 0, median_ms = 0, avg_ms = 0, max_ms = 0;
    double flops = 0; // 0 if not computable
};

// Floating-point operations of one execution of the graph (multiply-adds
// count 2); 0 if the graph has no op whose work is defined here.
double graph_flops(const prepared_t &g);

// Rough cost of checking the graph, in millions of operations: the FLOPs
// above plus a per-element charge for every tensor the reference path reads
// or writes (its kernels convert each element through double). Used by
// --max-work to keep CI runs short; deterministic, unlike a time limit.
double reference_work_mops(const prepared_t &g);

bool run_perf(api_session_t &s, const prepared_t &g, const global_opts_t &opts,
        perf_result_t &out, std::string &error);

} // namespace llga_run
