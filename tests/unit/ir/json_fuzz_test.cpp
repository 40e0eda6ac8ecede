// SPDX-License-Identifier: Apache-2.0
// tests/unit/ir/json_fuzz_test.cpp — deterministic mutation fuzzing of the
// graph-dump reader: corpus files and a built-in graph are damaged (byte
// flips, deletions, insertions, truncations, duplicated spans, swapped number
// and string tokens, deep nesting) and fed to parse_graph_json. Every input
// must either load — and then survive write/re-read unchanged — or fail with
// a message; nothing may crash (run under ASan to catch memory errors).
#include <algorithm>
#include <chrono>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include "base/status.hpp"
#include "ir/json_files.hpp"
#include "fusion/partitioner.hpp"
#include "ir/json_graph.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace ir {
namespace {

const char *k_sample = R"({
  "version": "3.9.0",
  "engine_kind": "cpu",
  "fpmath_mode": "strict",
  "fpmath_mode_apply_to_int": "false",
  "input_ports": [0, 1, 4],
  "output_ports": [5],
  "graph": [
    {"id": 0, "name": "mm", "kind": "MatMul",
     "attrs": {"transpose_a": {"type": "bool", "value": 0},
               "transpose_b": {"type": "bool", "value": 1}},
     "inputs": [{"id": 0, "dtype": "f32", "shape": [64, 256], "stride": [256, 1],
                 "layout_type": "strided", "property_type": "undef"},
                {"id": 1, "dtype": "f32", "shape": [256, 256], "stride": [256, 1],
                 "layout_type": "strided", "property_type": "constant"}],
     "outputs": [{"id": 2, "dtype": "f32", "shape": [64, 256], "stride": [256, 1],
                  "layout_type": "strided", "property_type": "undef"}]},
    {"id": 1, "name": "q", "kind": "Quantize",
     "attrs": {"scales": {"type": "f32[]", "value": [0.0351562]},
               "zps": {"type": "s64[]", "value": [0]},
               "qtype": {"type": "string", "value": "per_tensor"},
               "axis": {"type": "s64", "value": 1}},
     "inputs": [{"id": 2, "dtype": "f32", "shape": [-9223372036854775808],
                 "stride": [-9223372036854775808], "layout_type": "undef",
                 "property_type": "undef"}],
     "outputs": [{"id": 3, "dtype": "u8", "shape": [64, 256], "stride": [256, 1],
                  "layout_type": "strided", "property_type": "undef"}]},
    {"id": 2, "name": "sel", "kind": "Select",
     "attrs": {"auto_broadcast": {"type": "string", "value": "numpy"},
               "alpha": {"type": "f32", "value": 1e-05}},
     "inputs": [{"id": 3, "dtype": "boolean", "shape": [], "stride": [],
                 "layout_type": "strided", "property_type": "host_scalar"},
                {"id": 4, "dtype": "f16", "shape": [1], "stride": [1],
                 "layout_type": "any", "property_type": "variable"}],
     "outputs": [{"id": 5, "dtype": "bf16", "shape": [0, 3], "stride": [3, 1],
                  "layout_type": "strided", "property_type": "undef"}]}
  ]
})";

// splitmix64: a fixed seed makes every run see the same inputs.
struct rng_t {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    size_t below(size_t n) { return n ? (size_t)(next() % n) : 0; }
};

// Tokens worth splicing in: structure, extremes and format keywords.
const char *k_dict[] = {"{", "}", "[", "]", ",", ":", "\"", "\\", "\\u",
        "\\ud800", "\\udc00", "null", "true", "false", "0", "-0", "01",
        "-9223372036854775808", "9223372036854775808", "1e999", "-1e-999",
        "inf", "nan", "1.5", "\"\"", "\"type\"", "\"value\"", "\"s64[]\"",
        "\"f32[]\"", "\"bool\"", "\"string\"", "\"id\"", "\"shape\"",
        "\"stride\"", "\"dtype\"", "\"graph\"", "\"attrs\"", "\"inputs\"",
        "\xFF", "\xC3", "\xED\xA0\x80", "\x00", "\n", "[[[[[[[[", "{\"a\":"};

struct token_t {
    size_t pos, len;
};

// Spans of number and string tokens of a (well-formed) JSON text.
void scan_tokens(const std::string &t, std::vector<token_t> &numbers,
        std::vector<token_t> &strings) {
    for (size_t p = 0; p < t.size();) {
        char c = t[p];
        if (c == '"') {
            size_t q = p + 1;
            while (q < t.size() && t[q] != '"')
                q += t[q] == '\\' ? 2 : 1;
            q = std::min(q + 1, t.size());
            strings.push_back({p, q - p});
            p = q;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            size_t q = p + 1;
            while (q < t.size() && std::strchr("0123456789.eE+-", t[q]))
                ++q;
            numbers.push_back({p, q - p});
            p = q;
        } else {
            ++p;
        }
    }
}

std::string mutate(const std::string &src, rng_t &r) {
    std::string t = src;
    int rounds = 1 + (int)r.below(3);
    for (int round = 0; round < rounds; ++round) {
        size_t n = t.size();
        switch (r.below(9)) {
            case 0: // flip bits of a few bytes
                for (int k = 0, m = 1 + (int)r.below(4); k < m && n; ++k)
                    t[r.below(n)] ^= (char)(1u << r.below(8));
                break;
            case 1: // random byte values
                if (n) t[r.below(n)] = (char)r.below(256);
                break;
            case 2: { // delete a span
                size_t at = r.below(n + 1);
                t.erase(at, std::min(n - at, 1 + r.below(24)));
                break;
            }
            case 3: { // insert a dictionary token
                const char *w = k_dict[r.below(sizeof(k_dict) / sizeof(*k_dict))];
                t.insert(r.below(n + 1), w, std::max<size_t>(1, std::strlen(w)));
                break;
            }
            case 4: // truncate
                t.resize(r.below(n + 1));
                break;
            case 5: { // duplicate a span elsewhere
                if (!n) break;
                size_t at = r.below(n), len = std::min(n - at, 1 + r.below(200));
                std::string span = t.substr(at, len);
                t.insert(r.below(t.size() + 1), span);
                break;
            }
            case 6: { // swap a number token with a string token
                std::vector<token_t> nums, strs;
                scan_tokens(t, nums, strs);
                if (nums.empty() || strs.empty()) break;
                token_t a = nums[r.below(nums.size())];
                token_t b = strs[r.below(strs.size())];
                std::string sa = t.substr(a.pos, a.len), sb = t.substr(b.pos, b.len);
                if (a.pos > b.pos) {
                    t.replace(a.pos, a.len, sb);
                    t.replace(b.pos, b.len, sa);
                } else {
                    t.replace(b.pos, b.len, sa);
                    t.replace(a.pos, a.len, sb);
                }
                break;
            }
            case 7: { // replace a token by another of the same class
                std::vector<token_t> nums, strs;
                scan_tokens(t, nums, strs);
                auto &pool = r.below(2) ? nums : strs;
                if (pool.size() < 2) break;
                token_t a = pool[r.below(pool.size())];
                token_t b = pool[r.below(pool.size())];
                std::string sb = t.substr(b.pos, b.len);
                t.replace(a.pos, a.len, sb);
                break;
            }
            case 8: { // deep nesting at a value position
                size_t depth = r.below(2) ? 250 + r.below(12) : 1 + r.below(100000);
                std::string open = r.below(2) ? std::string(depth, '[')
                                              : std::string();
                if (open.empty())
                    for (size_t k = 0; k < std::min<size_t>(depth, 400); ++k)
                        open += "{\"a\":";
                size_t colon = t.find(':', r.below(n + 1));
                t.insert(colon == std::string::npos ? 0 : colon + 1, open);
                break;
            }
        }
    }
    return t;
}

using test::is_dir;
using test::list_json;

#ifndef LLGA_CORPUS_DIR
#define LLGA_CORPUS_DIR "../shared/corpus"
#endif

// The graph-builder half of the fuzz: a loaded graph goes through what a
// program's graph would: kind lookup, schema verification, add, finalize,
// partitioning, and shape inference of every op whose inputs have shapes.
// Anything may fail with a status; nothing may crash or trip a sanitizer.
void build_graph(const graph_desc_t &g) {
    graph_t graph(g.engine_kind, g.fpmath);
    for (const json_op_t &jop : g.ops) {
        op_t op;
        op.id = jop.id;
        op.name = jop.name;
        if (!ops::op_kind_from_name(jop.kind, &op.kind)) continue;
        for (const auto &a : jop.attrs)
            if (a.id != dnnl_graph_op_attr_undef) op.set_attr(a.id, a.value);
        op.inputs = jop.inputs;
        op.outputs = jop.outputs;
        if (ops::verify_op(op) != dnnl_success) continue;
        op_t inferred = op;
        bool shaped = true;
        for (const auto &lt : inferred.inputs)
            shaped = shaped && shape_known(lt);
        if (shaped) (void)ops::infer_shapes(inferred);
        (void)graph.add_op(op);
    }
    if (graph.finalize() != dnnl_success) return;
    fusion::partition_list_t parts;
    (void)fusion::partition_graph(graph, dnnl_graph_partition_policy_fusion, parts);
}

// The built-in sample plus the 40 smallest corpus graphs; all must load.
std::vector<std::string> load_seeds() {
    std::vector<std::string> seeds {k_sample};
    const char *env = std::getenv("LLGA_CORPUS_DIR");
    std::string dir = env && *env ? env : LLGA_CORPUS_DIR;
    std::vector<std::string> files;
    if (is_dir(dir)) list_json(dir, files);
    // Smaller files first keep the run short; 40 of them give variety.
    std::vector<std::pair<size_t, std::string>> sized;
    for (const auto &f : files) {
        std::ifstream in(f, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        sized.emplace_back(ss.str().size(), ss.str());
    }
    std::sort(sized.begin(), sized.end());
    for (size_t k = 0; k < sized.size() && k < 40; ++k)
        seeds.push_back(sized[k].second);
    // Every seed must load, or mutations would only test the first error.
    for (const auto &s : seeds) {
        graph_desc_t g;
        EXPECT_EQ(parse_graph_json(s, "seed", g), dnnl_success) << last_error();
    }

    return seeds;
}

// Semantic mutation of a loaded graph: dims (huge, negative, zero, unknown),
// ranks, dtypes, layouts, attribute values, tensor ids and op kinds, so the
// builder sees well-formed files with hostile contents.
void mutate_graph(graph_desc_t &g, rng_t &r) {
    if (g.ops.empty()) return;
    static const int64_t dims[] = {0, 1, 2, 3, 7, -1, -7, INT64_MAX, INT64_MIN,
            INT64_MAX / 2, 1 << 20, 65536};
    const int n = 1 + static_cast<int>(r.below(4));
    for (int k = 0; k < n; ++k) {
        json_op_t &op = g.ops[r.below(g.ops.size())];
        auto pick_lt = [&]() -> logical_tensor_t * {
            auto &v = r.below(2) ? op.inputs : op.outputs;
            return v.empty() ? nullptr : &v[r.below(v.size())];
        };
        switch (r.below(7)) {
            case 0:
                if (auto *lt = pick_lt())
                    if (lt->ndims > 0) lt->dims[r.below(lt->ndims)] = dims[r.below(12)];
                break;
            case 1:
                if (auto *lt = pick_lt()) lt->ndims = static_cast<int>(r.below(14)) - 1;
                break;
            case 2:
                if (auto *lt = pick_lt())
                    lt->data_type = static_cast<data_type_t>(r.below(16));
                break;
            case 3:
                if (auto *lt = pick_lt()) lt->id = r.below(8);
                break;
            case 4:
                if (!op.attrs.empty()) {
                    attr_value_t &v = op.attrs[r.below(op.attrs.size())].value;
                    for (auto &x : v.i)
                        x = dims[r.below(12)];
                    for (auto &x : v.f)
                        x = r.below(2) ? -1e30f : 0.f;
                    if (r.below(3) == 0) v.i.resize(r.below(5));
                }
                break;
            case 5: op.kind = g.ops[r.below(g.ops.size())].kind; break;
            case 6:
                if (auto *lt = pick_lt())
                    lt->layout_type = static_cast<layout_type_t>(r.below(4));
                break;
        }
    }
}

TEST(JsonFuzz, MutatedGraphsNeverCrash) {
    const std::vector<std::string> seeds = load_seeds();
    const int iterations = 12000;
    rng_t r {20250101};
    int loaded = 0, rejected = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (int it = 0; it < iterations; ++it) {
        // Half the runs use the built-in graph (it has every field kind).
        const std::string &seed = it % 2 ? seeds[0] : seeds[r.below(seeds.size())];
        std::string text = mutate(seed, r);
        graph_desc_t g;
        clear_last_error();
        status_t st = parse_graph_json(text, "fuzz.json", g);
        if (st == dnnl_success) {
            ++loaded;
            // Whatever loads must write and re-read to the same text.
            std::string out = write_graph_json(g);
            graph_desc_t g2;
            ASSERT_EQ(parse_graph_json(out, "rewrite", g2), dnnl_success)
                    << "iteration " << it << ": " << last_error();
            ASSERT_EQ(write_graph_json(g2), out) << "iteration " << it;
            build_graph(g);
        } else {
            ++rejected;
            ASSERT_EQ(st, dnnl_invalid_arguments) << "iteration " << it;
            ASSERT_FALSE(last_error().empty()) << "iteration " << it;
            ASSERT_TRUE(g.ops.empty());
        }
    }
    double secs = std::chrono::duration<double>(
            std::chrono::steady_clock::now() - t0)
                          .count();
    std::printf("[ fuzz     ] %d mutated inputs from %zu seeds: %d loaded, %d "
                "rejected, %.2f s\n",
            iterations, seeds.size(), loaded, rejected, secs);
}

TEST(JsonFuzz, SemanticallyMutatedGraphsBuildOrFailCleanly) {
    const std::vector<std::string> seeds = load_seeds();
    std::vector<graph_desc_t> parsed(seeds.size());
    for (size_t k = 0; k < seeds.size(); ++k)
        ASSERT_EQ(parse_graph_json(seeds[k], "seed", parsed[k]), dnnl_success);
    rng_t r {777};
    const int iterations = 10000;
    for (int it = 0; it < iterations; ++it) {
        graph_desc_t g = parsed[r.below(parsed.size())];
        mutate_graph(g, r);
        build_graph(g);
    }
    std::printf("[ fuzz     ] %d semantically mutated graphs built\n", iterations);
}

} // namespace
} // namespace ir
} // namespace llga
