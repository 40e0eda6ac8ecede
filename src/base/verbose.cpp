// base/verbose.cpp — verbose level and line printing.
#include "base/verbose.hpp"

#include <atomic>
#include <chrono>
#include <cstdarg>
#include <cstring>
#include <mutex>

#include "base/env.hpp"

namespace llga {

namespace {
constexpr int k_unset = -1;
std::atomic<int> g_level {k_unset};

int level_from_env() {
    std::string v = getenv_string("ONEDNN_VERBOSE");
    if (v.empty()) return 0;
    if (v == "graph" || v == "all") return 2;
    if (v == "none") return 0;
    long long n = getenv_int("ONEDNN_VERBOSE", 0);
    return n < 0 ? 0 : static_cast<int>(n);
}
} // namespace

int verbose_level() {
    int l = g_level.load(std::memory_order_relaxed);
    if (l != k_unset) return l;
    int from_env = level_from_env();
    int expected = k_unset;
    g_level.compare_exchange_strong(expected, from_env);
    return g_level.load(std::memory_order_relaxed);
}

void set_verbose_level(int level) { g_level.store(level); }

void verbose_print(int min_level, const char *fmt, ...) {
    if (verbose_level() < min_level) return;
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    static std::mutex m;
    std::lock_guard<std::mutex> lock(m);
    std::printf("onednn_verbose,%s\n", buf);
    std::fflush(stdout);
}

double now_ms() {
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double, std::milli>(
            clock::now().time_since_epoch())
            .count();
}

} // namespace llga
