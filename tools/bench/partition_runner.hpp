// SPDX-License-Identifier: Apache-2.0
// tools/bench/partition_runner.hpp — what the graph-level benchmarks share:
// a list of compiled partitions on the CPU engine, each port bound to a
// caller-provided buffer, run in order (`once`) and timed (`best_ms`: the
// best of at least five runs and `min_time` seconds). Header-only, like
// onednn_comparator.hpp.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

#include "oneapi/dnnl/dnnl_graph.hpp"

namespace llga_bench {

class partition_runner_t {
public:
    // Compiles `p` with its own ports and binds each to buffer(lt).
    template <typename buffer_fn_t>
    void add(dnnl::graph::partition &p, buffer_fn_t &&buffer) {
        using dnnl::graph::logical_tensor;
        const std::vector<logical_tensor> in = p.get_input_ports();
        const std::vector<logical_tensor> out = p.get_output_ports();
        cps_.push_back(p.compile(in, out, eng_));
        ins_.emplace_back();
        outs_.emplace_back();
        for (const auto &lt : in)
            ins_.back().emplace_back(lt, eng_, buffer(lt));
        for (const auto &lt : out)
            outs_.back().emplace_back(lt, eng_, buffer(lt));
    }
    void once() {
        for (size_t i = 0; i < cps_.size(); ++i)
            cps_[i].execute(strm_, ins_[i], outs_[i]);
        strm_.wait();
    }
    double best_ms(double min_time) {
        once();
        double best = 1e30, total = 0;
        int n = 0;
        while (n < 5 || total < min_time) {
            const auto t0 = std::chrono::steady_clock::now();
            once();
            const double d = std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - t0)
                                     .count();
            best = std::min(best, d);
            total += d;
            ++n;
        }
        return best * 1e3;
    }

private:
    dnnl::engine eng_ {dnnl::engine::kind::cpu, 0};
    dnnl::stream strm_ {eng_};
    std::vector<dnnl::graph::compiled_partition> cps_;
    std::vector<std::vector<dnnl::graph::tensor>> ins_, outs_;
};

} // namespace llga_bench
