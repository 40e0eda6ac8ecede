// SPDX-License-Identifier: Apache-2.0
// tools/run/options.cpp — parsing of llga-run options and batch files (see
// options.hpp and docs/runner.md).
#include "options.hpp"

#include <algorithm>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace llga_run {

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        size_t pos = s.find(sep, start);
        out.push_back(s.substr(start, pos - start));
        if (pos == std::string::npos) break;
        start = pos + 1;
    }
    return out;
}

namespace {

bool parse_int(const std::string &s, int64_t &v) {
    if (s.empty()) return false;
    char *end = nullptr;
    long long x = std::strtoll(s.c_str(), &end, 10);
    if (*end != '\0') return false;
    v = x;
    return true;
}

bool parse_double(const std::string &s, double &v) {
    if (s.empty()) return false;
    char *end = nullptr;
    v = std::strtod(s.c_str(), &end);
    return *end == '\0';
}

bool starts_with(const std::string &s, const char *prefix, std::string &rest) {
    const std::string p(prefix);
    if (s.compare(0, p.size(), p) != 0) return false;
    rest = s.substr(p.size());
    return true;
}

std::string dir_of(const std::string &path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
}

} // namespace

bool parse_dims(const std::string &s, std::vector<int64_t> &out) {
    out.clear();
    if (s == "-") return true; // 0-D
    for (const std::string &f : split(s, 'x')) {
        int64_t v = 0;
        if (!parse_int(f, v) || v < 0) return false;
        out.push_back(v);
    }
    return true;
}

std::string case_opts_t::repro() const {
    std::string r;
    auto add = [&r](const std::string &s) { r += (r.empty() ? "" : " ") + s; };
    if (mb != 0) add("--mb=" + std::to_string(mb));
    if (!in_shapes.empty()) add("--in-shapes=" + in_shapes);
    if (!fill.empty()) add("--fill=" + fill);
    if (!op_attrs.empty()) add("--op-attrs=" + op_attrs);
    if (!op_kind.empty()) add("--op-kind=" + op_kind);
    if (!dt.empty()) add("--dt=" + dt);
    if (!attr_fpmath.empty()) add("--attr-fpmath=" + attr_fpmath);
    if (expected_partitions != 1)
        add("--expected-n-partitions=" + std::to_string(expected_partitions));
    add("--case=" + case_path);
    return r;
}

std::vector<std::string> parser_t::tokenize_batch(const std::string &text) {
    std::vector<std::string> toks;
    std::istringstream lines(text);
    std::string line;
    bool join = false;
    while (std::getline(lines, line)) {
        size_t hash = line.find('#');
        if (hash != std::string::npos) line.resize(hash);
        std::istringstream words(line);
        std::string w;
        while (words >> w) {
            bool cont = !w.empty() && w.back() == '\\';
            if (cont) w.pop_back();
            if (join && !toks.empty())
                toks.back() += w;
            else if (!w.empty())
                toks.push_back(w);
            else if (cont)
                toks.push_back(""); // a lone '\' starts an empty token
            join = cont;
        }
    }
    return toks;
}

bool parser_t::run_batch(const std::string &path, std::string &error) {
    // Relative batch paths: as given, then next to earlier opened files.
    std::string found;
    std::vector<std::string> tries {path};
    if (!path.empty() && path[0] != '/')
        for (auto it = dirs_.rbegin(); it != dirs_.rend(); ++it)
            tries.push_back(*it + "/" + path);
    for (const std::string &t : tries) {
        std::ifstream f(t);
        if (f) {
            found = t;
            break;
        }
    }
    if (found.empty()) {
        error = "cannot open batch file '" + path + "'";
        return false;
    }
    if (++batch_depth_ > 16) {
        error = "batch files nested deeper than 16 levels at '" + path + "'";
        return false;
    }
    std::ifstream f(found);
    std::stringstream ss;
    ss << f.rdbuf();
    dirs_.push_back(dir_of(found));
    bool ok = true;
    for (const std::string &tok : tokenize_batch(ss.str())) {
        if (!parse_token(tok, error)) {
            error = found + ": " + error;
            ok = false;
            break;
        }
    }
    --batch_depth_;
    return ok;
}

void parser_t::expand_case(const std::string &path) {
    run_item_t item;
    item.opts.case_path = path;
    item.opts.expected_partitions = expected_;
    item.search_dirs = dirs_;
    // Cartesian product in benchdnn's nesting order (outermost first);
    // llga's --fill varies innermost.
    for (int64_t mb : mb_)
        for (const auto &is : in_shapes_)
            for (const auto &oa : op_attrs_)
                for (const auto &ok : op_kind_)
                    for (const auto &fp : attr_fpmath_)
                        for (const auto &dt : dt_)
                            for (const auto &fl : fill_) {
                                item.opts.mb = mb;
                                item.opts.in_shapes = is;
                                item.opts.op_attrs = oa;
                                item.opts.op_kind = ok;
                                item.opts.attr_fpmath = fp;
                                item.opts.dt = dt;
                                item.opts.fill = fl;
                                items.push_back(item);
                            }
}

bool parser_t::parse_token(const std::string &tok, std::string &error) {
    std::string v;
    if (tok.empty()) return true;
    if (tok == "--reset") {
        in_shapes_ = op_attrs_ = op_kind_ = dt_ = attr_fpmath_ = fill_ = {""};
        mb_ = {0};
        expected_ = 1;
        return true;
    }
    if (tok == "--graph") return true; // benchdnn driver selector
    if (starts_with(tok, "--case=", v)) {
        if (v.empty()) {
            error = "--case= needs a file";
            return false;
        }
        // The Cartesian product of the comma lists is bounded: a command
        // line must not be able to ask for billions of runs (or bytes).
        double n = static_cast<double>(items.size());
        double product = static_cast<double>(mb_.size());
        // Each run holds one alternative of every list: bound by the
        // longest.
        double run_bytes = static_cast<double>(sizeof(run_item_t) + v.size());
        for (const auto *l : {&in_shapes_, &op_attrs_, &op_kind_, &dt_,
                     &attr_fpmath_, &fill_}) {
            product *= static_cast<double>(l->size());
            size_t longest = 0;
            for (const std::string &alt : *l)
                longest = std::max(longest, alt.size());
            run_bytes += static_cast<double>(longest);
        }
        if (n + product > static_cast<double>(k_max_items)) {
            error = "--case=" + v + ": the option lists expand to more than "
                    + std::to_string(k_max_items) + " runs";
            return false;
        }
        option_bytes_ += product * run_bytes;
        if (option_bytes_ > static_cast<double>(k_max_option_bytes)) {
            error = "--case=" + v + ": the expanded runs' options would take "
                    "more than "
                    + std::to_string(k_max_option_bytes >> 20) + " MiB";
            return false;
        }
        expand_case(v);
        return true;
    }
    if (starts_with(tok, "--batch=", v)) return run_batch(v, error);
    if (starts_with(tok, "--in-shapes=", v)) return in_shapes_ = split(v, ','), true;
    if (starts_with(tok, "--op-attrs=", v)) return op_attrs_ = split(v, ','), true;
    if (starts_with(tok, "--op-kind=", v)) return op_kind_ = split(v, ','), true;
    if (starts_with(tok, "--dt=", v)) return dt_ = split(v, ','), true;
    if (starts_with(tok, "--fill=", v)) return fill_ = split(v, ','), true;
    if (starts_with(tok, "--attr-fpmath=", v))
        return attr_fpmath_ = split(v, ','), true;
    if (starts_with(tok, "--mb=", v)) {
        mb_.clear();
        for (const std::string &f : split(v, ',')) {
            int64_t n = 0;
            // Batches past 2^48 could never be allocated (and would
            // overflow size arithmetic downstream).
            if (!parse_int(f, n) || n < 0 || n > (int64_t(1) << 48)) {
                error = "bad --mb value '" + f + "' (must be in [0, 2^48])";
                return false;
            }
            mb_.push_back(n);
        }
        return true;
    }
    if (starts_with(tok, "--expected-n-partitions=", v)
            || starts_with(tok, "--expect-partitions=", v)) {
        // Only the last of several comma-separated values counts (benchdnn).
        std::string last = split(v, ',').back();
        if (!parse_int(last, expected_) || expected_ < 0) {
            error = "bad partition count '" + v + "'";
            return false;
        }
        return true;
    }
    if (starts_with(tok, "--mode=", v)) {
        if (v == "C" || v == "c" || v == "correctness")
            g_.mode = run_mode_t::correctness;
        else if (v == "P" || v == "p" || v == "perf" || v == "CP"
                || v == "F" || v == "f")
            g_.mode = run_mode_t::perf;
        else {
            error = "unknown --mode '" + v + "' (C|P|correctness|perf)";
            return false;
        }
        return true;
    }
    if (starts_with(tok, "--partition-check=", v)) {
        if (v == "strict")
            g_.partition_check = partition_check_t::strict;
        else if (v == "report")
            g_.partition_check = partition_check_t::report;
        else {
            error = "unknown --partition-check '" + v + "' (strict|report)";
            return false;
        }
        return true;
    }
    if (starts_with(tok, "--partition-policy=", v)
            || starts_with(tok, "--policy=", v)) {
        if (v == "fusion")
            g_.policy = policy_t::fusion;
        else if (v == "debug")
            g_.policy = policy_t::debug;
        else {
            error = "unknown partition policy '" + v + "' (fusion|debug)";
            return false;
        }
        return true;
    }
    if (starts_with(tok, "--engine=", v)) {
        if (v != "cpu" && v != "gpu") {
            error = "unknown --engine '" + v + "' (cpu|gpu)";
            return false;
        }
        g_.engine = v;
        return true;
    }
    if (starts_with(tok, "--inputs-dir=", v)) {
        g_.inputs_dirs.push_back(v);
        return true;
    }
    int64_t n = 0;
    if (starts_with(tok, "--verbose=", v) || starts_with(tok, "-v", v)) {
        if (!parse_int(v.empty() ? "1" : v, n) || n < 0) {
            error = "bad verbosity '" + tok + "'";
            return false;
        }
        g_.verbose = static_cast<int>(n);
        return true;
    }
    if (starts_with(tok, "--warmup=", v)) {
        if (!parse_int(v, n) || n < 0) return error = "bad --warmup", false;
        g_.warmup = static_cast<int>(n);
        return true;
    }
    if (starts_with(tok, "--fix-times-per-prb=", v)) {
        if (!parse_int(v, n) || n < 0) return error = "bad --fix-times-per-prb", false;
        g_.fix_times = static_cast<int>(n);
        return true;
    }
    if (starts_with(tok, "--max-ms-per-prb=", v)) {
        double ms = 0;
        if (!parse_double(v, ms) || ms <= 0)
            return error = "bad --max-ms-per-prb", false;
        g_.max_ms = ms < 10 ? 10 : ms > 60000 ? 60000 : ms; // benchdnn clamp
        return true;
    }
    if (starts_with(tok, "--max-work=", v)) {
        double w = 0;
        if (!parse_double(v, w) || w < 0) return error = "bad --max-work", false;
        g_.max_work_mops = w;
        return true;
    }
    if (starts_with(tok, "--perf-template=", v)) {
        if (v.empty()) return error = "--perf-template= needs a value", false;
        g_.perf_template = v;
        return true;
    }
    if (starts_with(tok, "--start=", v)) {
        if (!parse_int(v, n) || n < 0) return error = "bad --start", false;
        g_.start = static_cast<int>(n);
        return true;
    }
    if (starts_with(tok, "--match=", v)) {
        g_.match = v;
        return true;
    }
    if (tok == "--explain" || tok == "--explain=text") {
        g_.explain = "text";
        return true;
    }
    if (tok == "--explain=json") {
        g_.explain = "json";
        return true;
    }
    if (starts_with(tok, "--draw=", v)) {
        if (v.empty()) return error = "--draw= needs a file name", false;
        g_.draw = v;
        return true;
    }
    if (tok == "--quiet") {
        g_.summary_only = true;
        return true;
    }
    error = "unknown option '" + tok + "'";
    return false;
}

bool parser_t::parse_args(
        const std::vector<std::string> &args, std::string &error) {
    for (size_t k = 0; k < args.size(); ++k) {
        std::string tok = args[k];
        // "--expect-partitions N" (space-separated form of the brief).
        if (tok == "--expect-partitions" || tok == "--expected-n-partitions") {
            if (k + 1 >= args.size()) {
                error = tok + " needs a value";
                return false;
            }
            tok += "=" + args[++k];
        }
        if (!parse_token(tok, error)) return false;
    }
    return true;
}

} // namespace llga_run
