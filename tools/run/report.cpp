// SPDX-License-Identifier: Apache-2.0
// tools/run/report.cpp — benchdnn-style result, summary and perf lines.
#include "report.hpp"

#include <cstdio>

namespace llga_run {

const char *state_name(state_t s) {
    switch (s) {
        case state_t::passed: return "PASSED";
        case state_t::failed: return "FAILED";
        case state_t::skipped: return "SKIPPED";
        case state_t::unimplemented: return "UNIMPLEMENTED";
        case state_t::invalid_arguments: return "INVALID_ARGUMENTS";
        case state_t::mistrusted: return "MISTRUSTED";
        case state_t::listed: return "LISTED";
    }
    return "UNTESTED";
}

void bench_stats_t::add(state_t s) {
    ++tests;
    switch (s) {
        case state_t::passed: ++passed; break;
        case state_t::failed: ++failed; break;
        case state_t::skipped: ++skipped; break;
        case state_t::unimplemented: ++unimplemented, ++failed; break;
        case state_t::invalid_arguments: ++invalid_arguments, ++failed; break;
        case state_t::mistrusted: ++mistrusted; break;
        case state_t::listed: ++listed; break;
    }
}

std::string summary_line(const bench_stats_t &b) {
    char buf[256];
    std::snprintf(buf, sizeof(buf),
            "tests:%d passed:%d skipped:%d mistrusted:%d unimplemented:%d "
            "invalid_arguments:%d failed:%d listed:%d",
            b.tests, b.passed, b.skipped, b.mistrusted, b.unimplemented,
            b.invalid_arguments, b.failed, b.listed);
    return buf;
}

std::string total_perf_line(const bench_stats_t &b) {
    char buf[128];
    std::snprintf(buf, sizeof(buf), "total perf: min(ms):%g avg(ms):%g",
            b.perf_min_ms, b.perf_avg_ms);
    return buf;
}

std::string result_line(
        int idx, state_t s, const std::string &why, const std::string &repro) {
    std::string r = std::to_string(idx) + ":" + state_name(s);
    if (!why.empty()) r += " (" + why + ")";
    return r + " __REPRO: " + repro;
}

std::string perf_template_text(const std::string &given) {
    if (given == "def") return "perf,%engine%,%prb%,%-time%,%0time%";
    if (given == "csv") return "perf,%engine%,%DESC%,%-time%,%0time%";
    return given;
}

namespace {

std::string num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%g", v);
    return buf;
}

// One %...% item; false if unknown.
bool expand_item(const std::string &item, const perf_fields_t &f,
        std::string &out) {
    if (item == "engine") return out = f.engine, true;
    if (item == "prb" || item == "DESC" || item == "desc") return out = f.prb, true;
    if (item == "impl") return out = f.impl, true;
    if (item == "name") return out = f.name, true;
    if (item == "idx") return out = std::to_string(f.idx), true;
    if (item == "driver") return out = "graph", true;
    size_t k = 0;
    char mode = '-'; // benchdnn's default: min
    if (k < item.size() && (item[k] == '-' || item[k] == '0' || item[k] == '+'))
        mode = item[k++];
    double unit = 1;
    if (k < item.size() && (item[k] == 'K' || item[k] == 'M' || item[k] == 'G')) {
        unit = item[k] == 'K' ? 1e3 : item[k] == 'M' ? 1e6 : 1e9;
        ++k;
    }
    const std::string what = item.substr(k);
    const double ms = mode == '0' ? f.avg_ms : mode == '+' ? f.max_ms : f.min_ms;
    const double io = f.ibytes + f.obytes;
    double v;
    if (what == "time") v = ms;
    else if (what == "ops") v = f.ops;
    else if (what == "flops") v = ms > 0 ? f.ops / (ms * 1e-3) : 0;
    else if (what == "ctime" || what == "cptime") v = f.ctime_ms;
    else if (what == "cpdtime") v = 0;
    else if (what == "ibytes") v = f.ibytes;
    else if (what == "obytes") v = f.obytes;
    else if (what == "iobytes") v = io;
    else if (what == "bw") v = ms > 0 ? io / (ms * 1e-3) : 0;
    else if (what == "freq" || what == "clocks") v = 0; // not measured
    else return false;
    out = num(v / unit);
    return true;
}

} // namespace

std::string expand_perf_template(
        const std::string &tmpl, const perf_fields_t &f) {
    std::string out;
    size_t i = 0;
    while (i < tmpl.size()) {
        const size_t a = tmpl.find('%', i);
        const size_t b = a == std::string::npos ? a : tmpl.find('%', a + 1);
        if (b == std::string::npos) {
            out += tmpl.substr(i);
            break;
        }
        out += tmpl.substr(i, a - i);
        std::string v;
        if (expand_item(tmpl.substr(a + 1, b - a - 1), f, v)) {
            out += v;
            i = b + 1;
        } else {
            out += '%'; // not an item: keep the text, rescan from here
            i = a + 1;
        }
    }
    return out;
}

} // namespace llga_run
