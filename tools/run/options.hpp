// SPDX-License-Identifier: Apache-2.0
// tools/run/options.hpp — llga-run's command line and batch-file language:
// the case-line options of shared/spec/json-format.md (benchdnn --graph
// syntax: options accumulate left to right, --reset restores defaults, each
// --case= runs with what has accumulated, comma-separated values expand into
// a Cartesian product) plus llga's own knobs (policy, partition check, perf).
// Parsing only: no graph is loaded here, so the parser is unit-testable.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace llga_run {

enum class run_mode_t { correctness, perf };
enum class partition_check_t { strict, report };
enum class policy_t { fusion, debug };

// One fully expanded run: every field holds a single value.
struct case_opts_t {
    std::string case_path;       // as written in --case=
    std::string in_shapes;       // ID:SHAPE[*STRIDES][+...], "" = none
    std::string op_attrs;        // ID:NAME:VALUE[*NAME:VALUE][+...]
    std::string op_kind;         // ID:KIND[+...]
    std::string dt;              // f32|bf16|f16 or ID:DT[+...]
    std::string attr_fpmath;     // MODE[:APPLY_TO_INT], "" = keep the file's
    std::string fill;            // ID:SPEC[+...] input filling (fill_spec.hpp)
    int64_t mb = 0;              // 0 keeps the batch
    int64_t expected_partitions = 1; // 0 skips the check
    // Repro text: the options that differ from the defaults, benchdnn style.
    std::string repro() const;
};

// Knobs that apply to the whole invocation (not reset by --reset).
struct global_opts_t {
    run_mode_t mode = run_mode_t::correctness;
    partition_check_t partition_check = partition_check_t::strict;
    policy_t policy = policy_t::fusion;
    std::string engine = "cpu";
    int verbose = 0;
    int warmup = 1;               // perf: untimed runs before timing
    int fix_times = 0;            // perf: exact iteration count (0 = by time)
    double max_ms = 1000.0;       // perf: time budget per case
    std::vector<std::string> inputs_dirs; // extra places to look for --case
    bool summary_only = false;
    // Skip (and count) cases whose estimated reference work exceeds this
    // many Mop (perf.hpp reference_work_mops); 0 = no limit.
    double max_work_mops = 0;    // --quiet: only FAIL lines and the summary
    // benchdnn's --perf-template: "def", "csv" or a custom template, kept
    // as given (report.hpp expands the named ones).
    std::string perf_template = "def";
    int start = 0;               // --start=N: skip the first N cases
    std::string match;           // --match=REGEX: run cases whose repro matches
    // --explain[=text|json] prints the fusion report; --draw=FILE writes the
    // graph coloured by partition (.dot, or .svg through Graphviz).
    std::string explain;         // "", "text" or "json"
    std::string draw;
};

// A case to run plus where its path may be resolved (directories of the
// files opened so far, as benchdnn does).
struct run_item_t {
    case_opts_t opts;
    std::vector<std::string> search_dirs;
};

// Accumulating parser state. Feed it argv tokens or batch-file tokens; every
// --case= appends the expansion of the current options to `items`.
class parser_t {
public:
    explicit parser_t(global_opts_t &g) : g_(g) {}
    // Returns false with `error` set on a malformed or unknown option.
    bool parse_token(const std::string &tok, std::string &error);
    bool parse_args(const std::vector<std::string> &args, std::string &error);
    // Tokenizes batch-file text: whitespace-separated, '#' comments to end of
    // line, a trailing '\' joins the next token.
    static std::vector<std::string> tokenize_batch(const std::string &text);

    std::vector<run_item_t> items;
    // Most runs one invocation may expand to, and most bytes their options
    // may take (--case= fails beyond either): the corpus's largest file
    // expands to 665 runs, and a hostile line of comma lists must not cost
    // gigabytes or minutes before anything runs.
    static constexpr size_t k_max_items = 100000;
    static constexpr size_t k_max_option_bytes = size_t(64) << 20;

private:
    bool run_batch(const std::string &path, std::string &error);
    void expand_case(const std::string &path);

    global_opts_t &g_;
    double option_bytes_ = 0; // estimated bytes of items' options
    // Per-case options as lists of comma-separated alternatives.
    std::vector<std::string> in_shapes_ {""}, op_attrs_ {""}, op_kind_ {""},
            dt_ {""}, attr_fpmath_ {""}, fill_ {""};
    std::vector<int64_t> mb_ {0};
    int64_t expected_ = 1;
    std::vector<std::string> dirs_; // directories of opened batch files
    int batch_depth_ = 0;
};

// Splits on a separator character; keeps empty fields.
std::vector<std::string> split(const std::string &s, char sep);
// "2x3x4" -> {2,3,4}; "-" -> {} (0-D). False on a malformed list.
bool parse_dims(const std::string &s, std::vector<int64_t> &out);

} // namespace llga_run
