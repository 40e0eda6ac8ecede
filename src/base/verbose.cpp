// SPDX-License-Identifier: Apache-2.0
// base/verbose.cpp — verbose flags, the header and line printing in oneDNN
// v3.9's format (docs/diagnostics.md).
#include "base/verbose.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdarg>
#include <cstring>
#include <mutex>

#include "base/env.hpp"
#include "oneapi/dnnl/dnnl_config.h"
#include "oneapi/dnnl/dnnl_version.h"
#include "oneapi/dnnl/dnnl_version_hash.h"

namespace llga {

namespace {
constexpr unsigned k_unset = ~0u;
constexpr unsigned k_profile = vflag_profile_create | vflag_profile_exec;
constexpr unsigned k_all = vflag_error | vflag_check | vflag_dispatch
        | k_profile | vflag_warn;
std::atomic<unsigned> g_flags {k_unset};
std::atomic<verbose_header_hook_t> g_hook {nullptr};

// One item of ONEDNN_VERBOSE, applied to the flags as oneDNN does: 0/none
// clear, every other known word adds its bits; unknown words are ignored.
void apply_item(const std::string &v, unsigned &f) {
    if (v == "0" || v == "none") f = 0;
    else if (v == "1" || v == "profile_exec") f |= vflag_profile_exec;
    else if (v == "2" || v == "profile" || v == "graph") f |= k_profile;
    else if (v == "profile_create") f |= vflag_profile_create;
    else if (v == "all" || v == "-1") f |= k_all;
    else if (v == "dispatch") f |= vflag_dispatch;
    else if (v == "check") f |= vflag_check;
    else if (v == "error") f |= vflag_error;
    else if (v == "warn") f |= vflag_warn;
    else if (!v.empty() && v.find_first_not_of("0123456789") == std::string::npos)
        f |= k_profile; // legacy levels above 2
}

unsigned flags_from_env() {
    const std::string v = getenv_string("ONEDNN_VERBOSE");
    unsigned f = vflag_error; // oneDNN's default
    size_t start = 0;
    for (;;) {
        const size_t comma = v.find(',', start);
        apply_item(v.substr(start, comma - start), f);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return f;
}

std::mutex &print_mutex() {
    static std::mutex m;
    return m;
}
bool g_header_done = false; // under print_mutex()

void print_line_locked(const std::string &body) {
    std::printf("onednn_verbose,v1,%s\n", body.c_str());
}

void vprint(unsigned flag, double stamp_ms, const char *fmt, va_list ap) {
    char buf[4096];
    std::vsnprintf(buf, sizeof(buf), fmt, ap);
    std::string body;
    if (verbose_timestamp()) {
        char ts[64];
        std::snprintf(ts, sizeof(ts), "%f,", stamp_ms);
        body = ts;
    }
    body += buf;
    std::lock_guard<std::mutex> lock(print_mutex());
    if (!g_header_done) {
        g_header_done = true;
        for (const auto &l : verbose_header_lines())
            std::printf("%s\n", l.c_str());
    }
    print_line_locked(body);
    std::fflush(stdout);
    (void)flag;
}
} // namespace

unsigned verbose_flags() {
    unsigned f = g_flags.load(std::memory_order_relaxed);
    if (f != k_unset) return f;
    unsigned expected = k_unset;
    g_flags.compare_exchange_strong(expected, flags_from_env());
    return g_flags.load(std::memory_order_relaxed);
}

bool verbose_on(unsigned flag) { return (verbose_flags() & flag) != 0; }

int verbose_level() {
    const unsigned f = verbose_flags();
    if (f & vflag_profile_create) return 2;
    if (f & vflag_profile_exec) return 1;
    return 0;
}

void set_verbose_level(int level) {
    unsigned f = 0;
    if (level >= 1) f |= vflag_profile_exec;
    if (level >= 2) f |= vflag_profile_create;
    g_flags.store(f);
}

void set_verbose_flags(unsigned flags) { g_flags.store(flags); }

bool verbose_timestamp() {
    static const bool on = getenv_int("ONEDNN_VERBOSE_TIMESTAMP", 0) != 0;
    return on;
}

void verbose_printf(unsigned flag, double stamp_ms, const char *fmt, ...) {
    if (!verbose_on(flag)) return;
    va_list ap;
    va_start(ap, fmt);
    vprint(flag, stamp_ms, fmt, ap);
    va_end(ap);
}

void verbose_print(int min_level, const char *fmt, ...) {
    const unsigned flag
            = min_level >= 2 ? vflag_profile_create : vflag_profile_exec;
    if (min_level <= 0 || !verbose_on(flag)) return;
    va_list ap;
    va_start(ap, fmt);
    vprint(flag, wall_ms(), fmt, ap);
    va_end(ap);
}

void verbose_dispatch(const char *component, const char *file, int line,
        const char *fmt, ...) {
    if (!verbose_on(vflag_dispatch)) return;
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    // The source path from "src/" on, as oneDNN prints its file names.
    const char *at = std::strstr(file, "src/");
    const std::string where = at ? at : file;
    verbose_printf(vflag_dispatch, wall_ms(), "graph,create:dispatch,%s,%s,%s:%d",
            verbose_field(component).c_str(), verbose_field(msg).c_str(),
            verbose_field(where).c_str(), line);
}

std::string verbose_field(std::string s) {
    for (char &c : s) {
        if (c == ',') c = ';';
        if (c == '\n' || c == '\r') c = ' ';
    }
    return s;
}

void set_verbose_header_hook(verbose_header_hook_t hook) { g_hook.store(hook); }

std::vector<std::string> verbose_header_lines() {
    std::vector<std::string> body;
    char b[256];
    std::snprintf(b, sizeof(b), "info,oneDNN v%d.%d.%d (commit %s)",
            DNNL_VERSION_MAJOR, DNNL_VERSION_MINOR, DNNL_VERSION_PATCH,
            DNNL_VERSION_HASH);
    body.push_back(b);
    std::snprintf(b, sizeof(b), "info,llga v%d.%d.%d",
            LLGA_VERSION_MAJOR, LLGA_VERSION_MINOR, LLGA_VERSION_PATCH);
    body.push_back(b);
    const size_t fixed = body.size();
    if (auto hook = g_hook.load()) hook(body);
    if (body.size() == fixed) {
        // Without the library's hook (a unit test linking the layers).
        body.push_back("info,cpu,runtime:TBB,nthr:1");
        body.push_back("info,cpu,isa:unknown");
        body.push_back("info,gpu,runtime:none");
    }
    const char *ts = verbose_timestamp() ? "timestamp," : "";
    body.push_back(std::string("primitive,info,template:") + ts
            + "operation,engine,primitive,implementation,prop_kind,"
              "memory_descriptors,attributes,auxiliary,problem_desc,"
              "exec_time");
    body.push_back(std::string("graph,info,template:") + ts
            + "operation,engine,partition_id,partition_kind,op_names,"
              "data_formats,logical_tensors,fpmath_mode,implementation,"
              "backend,exec_time");
    std::vector<std::string> lines;
    for (const auto &l : body) lines.push_back("onednn_verbose,v1," + l);
    return lines;
}

double now_ms() {
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double, std::milli>(
            clock::now().time_since_epoch())
            .count();
}

double wall_ms() {
    using clock = std::chrono::system_clock;
    return std::chrono::duration<double, std::milli>(
            clock::now().time_since_epoch())
            .count();
}

} // namespace llga
