// SPDX-License-Identifier: Apache-2.0
// tools/run/main.cpp — llga-run: runs JSON graphs (oneDNN graph dumps,
// benchdnn --graph case lines) through libllga and checks them against the
// reference path. Owns the per-case flow, the report and the exit status;
// see docs/runner.md.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "api_run.hpp"
#include "compare.hpp"
#include "fill.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "options.hpp"
#include "perf.hpp"
#include "prepare.hpp"
#include "report.hpp"
#include "explain.hpp"
#include "reference.hpp"
#include "stats_fill.hpp"
#include "threads.hpp"

using namespace llga_run;
using llga::logical_tensor_t;

namespace {

// Exit statuses (docs/runner.md).
constexpr int k_exit_pass = 0, k_exit_fail = 1, k_exit_usage = 2,
              k_exit_unsupported = 3;

const char *usage_text =
        "usage: llga-run [--graph] [options] --case=FILE.json | --batch=FILE\n"
        "case options (accumulate; --reset restores defaults; commas give\n"
        "alternatives run as a Cartesian product):\n"
        "  --in-shapes=ID:SHAPE[*STRIDES|*TAG][+...]  --op-attrs=ID:NAME:VALUE[*...][+...]\n"
        "  --op-kind=ID:KIND[+...]  --dt=f32|bf16|f16|ID:DT[+...]  --mb=N\n"
        "  --attr-fpmath=MODE[:APPLY_TO_INT]  --expected-n-partitions=N (alias\n"
        "  --expect-partitions N; default 1, 0 = no check)\n"
        "  --fill=ID|*:range:LO:HI|special|nan|inf|-inf|denorm|zero|-zero[:EVERY][+...]\n"
        "run options:\n"
        "  --mode=C|P|F  --engine=cpu|gpu  --partition-policy=fusion|debug\n"
        "  --partition-check=strict|report  --inputs-dir=DIR  -vN  --quiet\n"
        "  --warmup=N  --fix-times-per-prb=N  --max-ms-per-prb=MS\n"
        "  --perf-template=def|csv|TEMPLATE  --start=N  --match=REGEX\n"
        "  --max-work=MOP (skip, and count, cases costlier to check than MOP)\n"
        "  --explain[=text|json]  --draw=FILE.dot|FILE.svg\n"
        "exit status: 0 all passed, 1 a check failed, 2 usage error,\n"
        "3 nothing failed but some graphs are unimplemented/invalid\n";

bool file_exists(const std::string &p) {
    std::ifstream f(p);
    return static_cast<bool>(f);
}

// --case paths: as given, then under --inputs-dir, then next to the batch
// files opened so far and in a "graphs" folder beside them or their parents
// (so corpus case files find shared/corpus/graphs).
std::string resolve(const run_item_t &item, const global_opts_t &g) {
    const std::string &p = item.opts.case_path;
    if (file_exists(p) || (!p.empty() && p[0] == '/')) return p;
    std::vector<std::string> dirs = g.inputs_dirs;
    for (auto it = item.search_dirs.rbegin(); it != item.search_dirs.rend(); ++it) {
        std::string d = *it;
        for (int up = 0; up < 4; ++up) {
            dirs.push_back(d);
            dirs.push_back(d + "/graphs");
            d += "/..";
        }
    }
    for (const auto &d : dirs)
        if (file_exists(d + "/" + p)) return d + "/" + p;
    return p;
}

std::string ids_text(const std::vector<logical_tensor_t> &lts) {
    std::string s;
    for (const auto &lt : lts) s += (s.empty() ? "" : " ") + std::to_string(lt.id);
    return s;
}

std::string op_label(const prepared_t &g, size_t op_id) {
    for (const auto &op : g.ops)
        if (op.id == op_id) return std::to_string(op_id) + ":" + kind_name(op.kind);
    return std::to_string(op_id);
}

struct case_report_t {
    state_t state = state_t::passed;
    std::string why;    // benchdnn's parenthesised note on the result line
    std::string reason; // llga's one-line reason for a non-PASS result
    bool mismatch = false;
    std::vector<std::string> lines; // details, printed at -v2
    bool timed = false;
    perf_fields_t perf;
};

double lt_bytes(const logical_tensor_t &lt) {
    const int64_t n = llga::ir::nelems(lt);
    return n < 0 ? 0 : static_cast<double>(llga::ir::dtype_storage_bytes(lt.data_type, n));
}

// -v1 stage lines: a case that has run for more than a second prints each
// stage as it starts, so a long case shows where it is.
struct stages_t {
    int verbose = 0;
    std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
    void enter(const char *name) const {
        if (verbose < 1) return;
        const double s = std::chrono::duration<double>(
                std::chrono::steady_clock::now() - t0)
                                 .count();
        if (s < 1.0) return;
        std::printf("    stage: %s (%.1f s into the case)\n", name, s);
        std::fflush(stdout);
    }
};

// One output's comparison for -v2, worded so a pass never reads like a
// failure: "within tolerance" or "OUTSIDE TOLERANCE", then the largest
// differences and the bounds they were checked against.
std::string compare_text(size_t id, const logical_tensor_t &lt,
        const compare_result_t &c) {
    char buf[512];
    std::snprintf(buf, sizeof(buf),
            "output %zu (%s %s): %s, %lld elements; largest |got - ref| %.3g, "
            "largest relative difference %.3g; allowed per element %.3g + "
            "%.3g x |ref|, or %.3g x max|ref| (max|ref| = %.3g)",
            id, llga::ir::dtype_name(lt.data_type),
            llga::ir::dims_to_string(llga::ir::dims_of(lt)).c_str(),
            c.ok ? "within tolerance" : "OUTSIDE TOLERANCE",
            static_cast<long long>(c.n), c.max_abs, c.max_rel, c.tol.abs,
            c.tol.rel, c.tol.norm, c.scale);
    return buf;
}

void run_case(const run_item_t &item, const global_opts_t &gopts, int idx,
        case_report_t &rep) {
    auto say = [&rep](const std::string &s) { rep.lines.push_back(s); };
    auto fail = [&rep](state_t st, const std::string &why) {
        if (rep.state == state_t::passed) rep.state = st;
        if (rep.reason.empty()) rep.reason = why;
    };
    stages_t stage;
    stage.verbose = gopts.verbose;
    const std::string path = resolve(item, gopts);
    stage.enter("prepare");
    prepared_t g;
    std::string error;
    prep_status_t ps = prepare_case(path, item.opts, g, error);
    for (const auto &n : g.notes) say("note: " + n);
    if (ps == prep_status_t::bad_file) {
        if (error.find("unknown op kind") != std::string::npos)
            return fail(state_t::invalid_arguments, error);
        return fail(state_t::failed, error);
    }
    if (ps == prep_status_t::bad_option) return fail(state_t::failed, error);
    const bool have_reference = ps == prep_status_t::ok;
    if (!have_reference)
        for (const auto &u : g.unimplemented) say("not implemented: " + u);

    stage.enter("build and partition");
    api_session_t s;
    if (!s.build(g, gopts, error)) {
        if (!have_reference)
            return fail(state_t::unimplemented, g.unimplemented[0]);
        return fail(state_t::failed, "building the graph: " + error);
    }
    if (!gopts.explain.empty() || !gopts.draw.empty())
        explain_case(s, g, gopts, idx);
    const auto &parts = s.partitions();
    const int64_t want = item.opts.expected_partitions;
    rep.mismatch = want > 0 && static_cast<int64_t>(parts.size()) != want;
    say("partitions: " + std::to_string(parts.size())
            + (want > 0 ? " (expected " + std::to_string(want) + ")" : "")
            + (rep.mismatch ? gopts.partition_check == partition_check_t::strict
                               ? "  MISMATCH"
                               : "  MISMATCH (reported only)"
                            : ""));
    for (const auto &p : parts) {
        std::string ops;
        for (size_t id : p.ops) ops += (ops.empty() ? "" : " ") + op_label(g, id);
        say("  partition " + std::to_string(p.id) + ": "
                + (p.supported ? "supported" : "UNSUPPORTED") + ", ops [" + ops
                + "], in [" + ids_text(p.inputs) + "], out [" + ids_text(p.outputs)
                + "]");
    }
    if (rep.mismatch && gopts.partition_check == partition_check_t::strict)
        fail(state_t::failed,
                "expected " + std::to_string(want) + " partitions, got "
                        + std::to_string(parts.size()));
    if (!s.all_supported()) {
        std::string kinds;
        for (const auto &p : parts)
            if (!p.supported)
                for (size_t id : p.ops) kinds += (kinds.empty() ? "" : ", ") + op_label(g, id);
        return fail(state_t::unimplemented, "unsupported partition(s): " + kinds);
    }
    if (!have_reference)
        return fail(state_t::unimplemented, "no reference for " + g.unimplemented[0]);

    const double work = reference_work_mops(g);
    if (gopts.max_work_mops > 0 && work > gopts.max_work_mops) {
        char why[160];
        std::snprintf(why, sizeof(why),
                "estimated reference work %.0f Mop exceeds --max-work=%.0f", work,
                gopts.max_work_mops);
        rep.why = "MAX_WORK_EXCEEDED";
        return fail(state_t::skipped, why);
    }
    // Same input data for both paths.
    stage.enter("fill inputs");
    buffers_t ref;
    fill_inputs(g, ref);
    if (!fill_softmax_stats(g, ref, error))
        return fail(state_t::failed, "reference (statistics fill): " + error);
    if (gopts.verbose >= 2)
        for (size_t id : g.inputs)
            say("input " + std::to_string(id) + " " + llga::ir::lt_to_string(g.tensors.at(id))
                    + " (" + (is_softmax_stat(g, id) ? "softmax statistic" : input_role(g, id))
                    + ")");
    stage.enter("compile");
    double compile_ms = 0;
    if (!s.compile(g, compile_ms, error)) return fail(state_t::failed, "compile: " + error);
    if (!s.bind(g, ref, error)) return fail(state_t::failed, "tensors: " + error);
    stage.enter("execute");
    const auto t0 = std::chrono::steady_clock::now();
    if (!s.execute(error)) return fail(state_t::failed, "execute: " + error);
    const double first_ms = std::chrono::duration<double, std::milli>(
            std::chrono::steady_clock::now() - t0)
                                    .count();
    stage.enter("reference");
    if (!run_reference(g, ref, error)) return fail(state_t::failed, "reference: " + error);

    stage.enter("compare");
    int64_t errors = 0, total = 0;
    for (size_t id : g.outputs) {
        char buf[512];
        auto got = s.buffers().find(id);
        if (got == s.buffers().end()) {
            fail(state_t::failed, "output " + std::to_string(id) + " was not produced");
            continue;
        }
        compare_result_t c = compare_outputs(got->second, ref.at(id));
        errors += c.mismatches;
        total += c.n;
        say(compare_text(id, ref.at(id).lt, c));
        if (!c.note.empty()) say("  " + c.note);
        if (!c.ok && c.first_bad >= 0) {
            std::snprintf(buf, sizeof(buf),
                    "  %lld elements outside tolerance; first at element %lld: "
                    "got %.9g, reference %.9g",
                    static_cast<long long>(c.mismatches),
                    static_cast<long long>(c.first_bad), c.bad_got, c.bad_ref);
            say(buf);
        }
        if (!c.ok) fail(state_t::failed, "output " + std::to_string(id) + " differs");
    }
    if (rep.state == state_t::failed)
        rep.why = "errors:" + std::to_string(errors) + " total:" + std::to_string(total);
    char buf[256];
    std::snprintf(buf, sizeof(buf),
            "compile %.3f ms, first execute %.3f ms, reference work %.0f Mop",
            compile_ms, first_ms, work);
    say(buf);
    if (gopts.mode == run_mode_t::perf && rep.state == state_t::passed) {
        stage.enter("performance");
        perf_result_t pr;
        if (!run_perf(s, g, gopts, pr, error)) return fail(state_t::failed, "perf: " + error);
        std::snprintf(buf, sizeof(buf),
                "perf: %d iterations, min %.4f ms, median %.4f ms, avg %.4f ms",
                pr.iterations, pr.min_ms, pr.median_ms, pr.avg_ms);
        say(buf);
        rep.timed = true;
        rep.perf.min_ms = pr.min_ms;
        rep.perf.avg_ms = pr.avg_ms;
        rep.perf.max_ms = pr.max_ms;
        rep.perf.ops = pr.flops;
        rep.perf.ctime_ms = compile_ms;
        for (size_t id : g.inputs) rep.perf.ibytes += lt_bytes(g.tensors.at(id));
        for (size_t id : g.outputs) rep.perf.obytes += lt_bytes(g.tensors.at(id));
    }
}

// The case text of the result and perf lines: benchdnn's driver selector,
// the non-default global options, then the case options.
std::string repro_of(const run_item_t &item, const global_opts_t &g) {
    std::string r = "--graph";
    if (g.mode == run_mode_t::perf) r += " --mode=P";
    if (g.engine != "cpu") r += " --engine=" + g.engine;
    return r + " " + item.opts.repro();
}

} // namespace

int main(int argc, char **argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    for (const auto &a : args)
        if (a == "--help" || a == "-h") {
            std::printf("%s", usage_text);
            return k_exit_pass;
        }
    start_reference_threads();
    global_opts_t gopts;
    parser_t parser(gopts);
    std::string error;
    if (!parser.parse_args(args, error)) {
        std::fprintf(stderr, "llga-run: %s\n%s", error.c_str(), usage_text);
        return k_exit_usage;
    }
    if (parser.items.empty()) {
        std::fprintf(stderr, "llga-run: nothing to run (no --case=)\n%s", usage_text);
        return k_exit_usage;
    }
    std::regex match;
    try {
        if (!gopts.match.empty()) match = std::regex(gopts.match);
    } catch (const std::regex_error &) {
        std::fprintf(stderr, "llga-run: bad --match regular expression '%s'\n",
                gopts.match.c_str());
        return k_exit_usage;
    }
    const std::string tmpl = perf_template_text(gopts.perf_template);
    if (gopts.mode == run_mode_t::perf)
        std::printf("Output template: %s\n", tmpl.c_str());
    const auto run_t0 = std::chrono::steady_clock::now();
    bench_stats_t n;
    int real_failures = 0, mismatches = 0, position = -1;
    for (const run_item_t &item : parser.items) {
        const std::string repro = repro_of(item, gopts);
        ++position;
        if (position < gopts.start) continue;
        if (!gopts.match.empty() && !std::regex_search(repro, match)) continue;
        const int idx = n.tests;
        if (gopts.verbose >= 1) {
            std::printf("run: %s\n", repro.c_str());
            std::fflush(stdout);
        }
        case_report_t rep;
        const auto c0 = std::chrono::steady_clock::now();
        try {
            run_case(item, gopts, idx, rep);
        } catch (const std::exception &e) {
            rep.state = state_t::failed;
            rep.reason = std::string("exception: ") + e.what();
        }
        n.add(rep.state);
        real_failures += rep.state == state_t::failed;
        mismatches += rep.mismatch;
        char took[64];
        std::snprintf(took, sizeof(took), "case time %.2f s",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - c0)
                        .count());
        rep.lines.push_back(took);
        const bool show = !gopts.summary_only || rep.state != state_t::passed;
        if (show) {
            // llga's own detail: why a case did not pass (every level), the
            // partitions, comparisons and timings (-v2).
            if (rep.state != state_t::passed && !rep.reason.empty())
                std::printf("llga-run: %s\n", rep.reason.c_str());
            if (rep.mismatch && gopts.partition_check == partition_check_t::report)
                std::printf("llga-run: partition count differs (reported only)\n");
            if (gopts.verbose >= 2)
                for (const auto &l : rep.lines) std::printf("    %s\n", l.c_str());
            std::printf("%s\n", result_line(idx, rep.state, rep.why, repro).c_str());
        }
        if (rep.timed) {
            rep.perf.idx = idx;
            rep.perf.engine = gopts.engine;
            rep.perf.prb = repro;
            std::printf("%s\n", expand_perf_template(tmpl, rep.perf).c_str());
            n.any_perf = true;
            n.perf_min_ms += rep.perf.min_ms;
            n.perf_avg_ms += rep.perf.avg_ms;
        }
        std::fflush(stdout);
    }
    std::printf("%s\n", summary_line(n).c_str());
    if (gopts.mode == run_mode_t::perf && n.any_perf)
        std::printf("%s\n", total_perf_line(n).c_str());
    std::printf("total: %.2fs;\n",
            std::chrono::duration<double>(std::chrono::steady_clock::now() - run_t0)
                    .count());
    // llga's own counts, on a line benchdnn scrapers do not read.
    std::printf("llga-run: partition_mismatch:%d%s\n", mismatches,
            gopts.partition_check == partition_check_t::report
                    ? " (partition check: report)"
                    : "");
    if (real_failures) return k_exit_fail;
    if (n.unimplemented || n.invalid_arguments) return k_exit_unsupported;
    return k_exit_pass;
}
