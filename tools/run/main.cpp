// tools/run/main.cpp — llga-run: runs JSON graphs (oneDNN graph dumps,
// benchdnn --graph case lines) through libllga and checks them against the
// reference path. Owns the per-case flow, the report and the exit status;
// see docs/runner.md.
#include <chrono>
#include <cstdio>
#include <fstream>
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
#include "reference.hpp"
#include "stats_fill.hpp"
#include "threads.hpp"

using namespace llga_run;
using llga::logical_tensor_t;

namespace {

// Exit statuses (docs/runner.md).
constexpr int k_exit_pass = 0, k_exit_fail = 1, k_exit_usage = 2,
              k_exit_unsupported = 3;

enum class outcome_t { pass, fail, unsupported, invalid, skipped };

struct counts_t {
    int tests = 0, passed = 0, failed = 0, unsupported = 0, invalid = 0,
        skipped = 0, mismatch = 0;
};

const char *usage_text =
        "usage: llga-run [options] --case=FILE.json | --batch=FILE\n"
        "case options (accumulate; --reset restores defaults; commas give\n"
        "alternatives run as a Cartesian product):\n"
        "  --in-shapes=ID:SHAPE[*STRIDES|*TAG][+...]  --op-attrs=ID:NAME:VALUE[*...][+...]\n"
        "  --op-kind=ID:KIND[+...]  --dt=f32|bf16|f16|ID:DT[+...]  --mb=N\n"
        "  --attr-fpmath=MODE[:APPLY_TO_INT]  --expected-n-partitions=N (alias\n"
        "  --expect-partitions N; default 1, 0 = no check)\n"
        "  --fill=ID|*:range:LO:HI|special|nan|inf|-inf|denorm|zero|-zero[:EVERY][+...]\n"
        "run options:\n"
        "  --mode=C|P  --engine=cpu|gpu  --partition-policy=fusion|debug\n"
        "  --partition-check=strict|report  --inputs-dir=DIR  -vN  --quiet\n"
        "  --warmup=N  --fix-times-per-prb=N  --max-ms-per-prb=MS\n"
        "  --max-work=MOP (skip, and count, cases costlier to check than MOP)\n"
        "exit status: 0 all passed, 1 a check failed, 2 usage error,\n"
        "3 nothing failed but some graphs are unsupported/invalid\n";

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
    outcome_t outcome = outcome_t::pass;
    bool mismatch = false;
    std::vector<std::string> lines; // details printed under the result line
    std::string reason;             // one-line why for non-PASS
};

void run_case(const run_item_t &item, const global_opts_t &gopts,
        case_report_t &rep) {
    auto say = [&rep](const std::string &s) { rep.lines.push_back(s); };
    auto fail = [&rep](outcome_t o, const std::string &why) {
        if (rep.outcome == outcome_t::pass) rep.outcome = o;
        if (rep.reason.empty()) rep.reason = why;
    };
    const std::string path = resolve(item, gopts);
    prepared_t g;
    std::string error;
    prep_status_t ps = prepare_case(path, item.opts, g, error);
    if (ps == prep_status_t::bad_file) {
        if (error.find("unknown op kind") != std::string::npos)
            return fail(outcome_t::invalid, error);
        return fail(outcome_t::fail, error);
    }
    if (ps == prep_status_t::bad_option) return fail(outcome_t::fail, error);
    const bool have_reference = ps == prep_status_t::ok;
    if (!have_reference)
        for (const auto &u : g.unimplemented) say("not implemented: " + u);

    api_session_t s;
    if (!s.build(g, gopts, error)) {
        if (!have_reference) return fail(outcome_t::unsupported, g.unimplemented[0]);
        return fail(outcome_t::fail, "building the graph: " + error);
    }
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
        fail(outcome_t::fail,
                "expected " + std::to_string(want) + " partitions, got "
                        + std::to_string(parts.size()));
    if (!s.all_supported()) {
        std::string kinds;
        for (const auto &p : parts)
            if (!p.supported)
                for (size_t id : p.ops) kinds += (kinds.empty() ? "" : ", ") + op_label(g, id);
        return fail(outcome_t::unsupported, "unsupported partition(s): " + kinds);
    }
    if (!have_reference)
        return fail(outcome_t::unsupported, "no reference for " + g.unimplemented[0]);

    const double work = reference_work_mops(g);
    if (gopts.max_work_mops > 0 && work > gopts.max_work_mops) {
        char why[160];
        std::snprintf(why, sizeof(why),
                "estimated reference work %.0f Mop exceeds --max-work=%.0f", work,
                gopts.max_work_mops);
        return fail(outcome_t::skipped, why);
    }
    // Same input data for both paths.
    buffers_t ref;
    fill_inputs(g, ref);
    if (!fill_softmax_stats(g, ref, error))
        return fail(outcome_t::fail, "reference (statistics fill): " + error);
    if (gopts.verbose >= 2)
        for (size_t id : g.inputs)
            say("input " + std::to_string(id) + " " + llga::ir::lt_to_string(g.tensors.at(id))
                    + " (" + (is_softmax_stat(g, id) ? "softmax statistic" : input_role(g, id))
                    + ")");
    double compile_ms = 0;
    if (!s.compile(g, compile_ms, error)) return fail(outcome_t::fail, "compile: " + error);
    if (!s.bind(g, ref, error)) return fail(outcome_t::fail, "tensors: " + error);
    const auto t0 = std::chrono::steady_clock::now();
    if (!s.execute(error)) return fail(outcome_t::fail, "execute: " + error);
    const double first_ms = std::chrono::duration<double, std::milli>(
            std::chrono::steady_clock::now() - t0)
                                    .count();
    if (!run_reference(g, ref, error)) return fail(outcome_t::fail, "reference: " + error);

    for (size_t id : g.outputs) {
        char buf[512];
        auto got = s.buffers().find(id);
        if (got == s.buffers().end()) {
            fail(outcome_t::fail, "output " + std::to_string(id) + " was not produced");
            continue;
        }
        compare_result_t c = compare_outputs(got->second, ref.at(id));
        const logical_tensor_t &lt = ref.at(id).lt;
        std::snprintf(buf, sizeof(buf),
                "output %zu (%s %s): %s max_abs_err %.3g max_rel_err %.3g "
                "(tol abs %.3g rel %.3g or %.3g x max|ref| %.3g), %lld elements",
                id, llga::ir::dtype_name(lt.data_type),
                llga::ir::dims_to_string(llga::ir::dims_of(lt)).c_str(),
                c.ok ? "ok" : "MISMATCH", c.max_abs, c.max_rel, c.tol.abs,
                c.tol.rel, c.tol.norm, c.scale, static_cast<long long>(c.n));
        say(buf);
        if (!c.note.empty()) say("  " + c.note);
        if (!c.ok && c.first_bad >= 0) {
            std::snprintf(buf, sizeof(buf),
                    "  %lld mismatches; first at element %lld: got %.9g, "
                    "reference %.9g",
                    static_cast<long long>(c.mismatches),
                    static_cast<long long>(c.first_bad), c.bad_got, c.bad_ref);
            say(buf);
        }
        if (!c.ok) fail(outcome_t::fail, "output " + std::to_string(id) + " differs");
    }
    char buf[256];
    std::snprintf(buf, sizeof(buf),
            "compile %.3f ms, first execute %.3f ms, reference work %.0f Mop",
            compile_ms, first_ms, work);
    say(buf);
    if (gopts.mode == run_mode_t::perf) {
        perf_result_t pr;
        if (!run_perf(s, g, gopts, pr, error)) return fail(outcome_t::fail, "perf: " + error);
        std::snprintf(buf, sizeof(buf),
                "perf: %d iterations, min %.4f ms, median %.4f ms, avg %.4f ms",
                pr.iterations, pr.min_ms, pr.median_ms, pr.avg_ms);
        std::string line = buf;
        if (pr.flops > 0) {
            std::snprintf(buf, sizeof(buf), ", %.3g GFLOP, %.2f GFLOP/s (at min)",
                    pr.flops * 1e-9, pr.flops * 1e-6 / pr.min_ms);
            line += buf;
        }
        say(line);
    }
}

const char *outcome_name(outcome_t o) {
    switch (o) {
        case outcome_t::pass: return "PASS";
        case outcome_t::fail: return "FAIL";
        case outcome_t::unsupported: return "UNSUPPORTED";
        case outcome_t::invalid: return "INVALID";
        case outcome_t::skipped: return "SKIPPED";
    }
    return "?";
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
    counts_t n;
    for (const run_item_t &item : parser.items) {
        case_report_t rep;
        const auto c0 = std::chrono::steady_clock::now();
        try {
            run_case(item, gopts, rep);
        } catch (const std::exception &e) {
            rep.outcome = outcome_t::fail;
            rep.reason = std::string("exception: ") + e.what();
        }
        ++n.tests;
        switch (rep.outcome) {
            case outcome_t::pass: ++n.passed; break;
            case outcome_t::fail: ++n.failed; break;
            case outcome_t::unsupported: ++n.unsupported; break;
            case outcome_t::invalid: ++n.invalid; break;
            case outcome_t::skipped: ++n.skipped; break;
        }
        n.mismatch += rep.mismatch;
        char took[64];
        std::snprintf(took, sizeof(took), "case time %.2f s",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - c0)
                        .count());
        rep.lines.push_back(took);
        const bool show = !gopts.summary_only || rep.outcome != outcome_t::pass;
        if (!show) continue;
        std::printf("%d:%s %s%s%s%s\n", n.tests, outcome_name(rep.outcome),
                item.opts.repro().c_str(), rep.mismatch ? " [partition mismatch]" : "",
                rep.reason.empty() ? "" : " -- ", rep.reason.c_str());
        if (!gopts.summary_only)
            for (const auto &l : rep.lines) std::printf("    %s\n", l.c_str());
        std::fflush(stdout);
    }
    std::printf("tests:%d passed:%d failed:%d unsupported:%d invalid:%d "
                "skipped:%d partition_mismatch:%d%s\n",
            n.tests, n.passed, n.failed, n.unsupported, n.invalid, n.skipped,
            n.mismatch,
            gopts.partition_check == partition_check_t::report
                    ? " (partition check: report)"
                    : "");
    if (n.failed) return k_exit_fail;
    if (n.unsupported || n.invalid) return k_exit_unsupported;
    return k_exit_pass;
}
