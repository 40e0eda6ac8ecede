// SPDX-License-Identifier: Apache-2.0
// tools/bench/onednn_comparator.hpp — runs llga-bench-onednn (the oneDNN
// 2.6 comparator, tools/bench/onednn/) in a child process for one benchmark
// row and returns its best GFLOP/s. A child process because libdnnl and
// libllga export the same C symbol names. Header-only: a few lines shared by
// the benchmark programs.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include <limits.h>
#include <unistd.h>

namespace llga_bench {

// Path of the comparator next to this benchmark (build tree:
// tools/bench/onednn/llga-bench-onednn), or "" if it was not built.
inline std::string onednn_comparator_path() {
    char self[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0) return std::string();
    self[n] = '\0';
    std::string dir(self);
    dir = dir.substr(0, dir.rfind('/'));
    for (const char *rel : {"/onednn/llga-bench-onednn", "/llga-bench-onednn"}) {
        const std::string p = dir + rel;
        if (access(p.c_str(), X_OK) == 0) return p;
    }
    return std::string();
}

// "matmul f32 M N K" or "conv f32 MB IC IH IW OC KH KW SH SW PH PW"; returns
// the best GFLOP/s with `threads` OpenMP threads, timing for at least
// `min_time` seconds, or a negative value if the comparator is missing or
// failed.
inline double onednn_gflops(
        const std::string &args, int threads, double min_time = 0.4) {
    static const std::string exe = onednn_comparator_path();
    if (exe.empty()) return -1;
    const std::string cmd = "OMP_NUM_THREADS=" + std::to_string(threads)
            + " OMP_PROC_BIND=false LLGA_BENCH_MIN_TIME="
            + std::to_string(min_time) + " " + exe + " " + args
            + " 2>/dev/null";
    FILE *p = popen(cmd.c_str(), "r");
    if (!p) return -1;
    double best = -1, median = -1;
    char line[512];
    while (std::fgets(line, sizeof(line), p))
        if (std::sscanf(line, "gflops %lf %lf", &best, &median) == 2) break;
    pclose(p);
    return best;
}

inline bool onednn_comparator_available() {
    return !onednn_comparator_path().empty();
}

} // namespace llga_bench
