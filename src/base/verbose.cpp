// base/verbose.cpp — verbose level and line printing.
#include "base/verbose.hpp"

#include <algorithm>
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

// One item of ONEDNN_VERBOSE: a number (oneDNN's legacy levels: 1 = execution,
// 2 = also creation, i.e. partitioning and compilation) or one of oneDNN's
// flags. "graph" (the component name) turns on everything graph-related.
int level_of_item(const std::string &v) {
    if (v == "graph" || v == "all" || v == "profile" || v == "profile_create")
        return 2;
    if (v == "profile_exec") return 1;
    if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
        return 0; // none, error, warn, check, unknown words
    return static_cast<int>(std::min(std::stoll(v.substr(0, 9)), 99LL));
}

int level_from_env() {
    // Comma-separated items; the highest level wins ("profile_exec,graph").
    const std::string v = getenv_string("ONEDNN_VERBOSE");
    int level = 0;
    size_t start = 0;
    for (;;) {
        size_t comma = v.find(',', start);
        level = std::max(level, level_of_item(v.substr(start, comma - start)));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return level;
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
    static bool header_done = false;
    std::lock_guard<std::mutex> lock(m);
    if (!header_done) {
        // oneDNN opens its verbose output with info lines; so do we, once.
        header_done = true;
        std::printf("onednn_verbose,info,llga (oneDNN v3.9 Graph API),"
                    "verbose level:%d\n",
                verbose_level());
        std::printf("onednn_verbose,info,graph,create:partition,<id>,<engine>,"
                    "<supported>,<ops>,<inputs>,<outputs>,<reason>\n");
        std::printf("onednn_verbose,info,graph,compile:partition,<id>,"
                    "<engine>,<kernel>,cache:<hit|miss>,<time ms>\n");
        std::printf("onednn_verbose,info,graph,exec:partition,<id>,<engine>,"
                    "<kernel>,<time ms>\n");
    }
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
