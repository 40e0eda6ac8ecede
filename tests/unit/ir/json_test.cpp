// SPDX-License-Identifier: Apache-2.0
// tests/unit/ir/json_test.cpp — the JSON document parser/serializer and the
// graph-dump reader/writer: hand-checked values, exact error texts with
// positions, limits, and a round trip of every graph in the shared corpus.
#include <cmath>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include "base/status.hpp"
#include "ir/json_files.hpp"
#include "ir/json_graph.hpp"
#include "ir/json_value.hpp"

namespace llga {
namespace ir {
namespace {

using json::type_t;
using json::value_t;

value_t parse_ok(const std::string &text) {
    value_t v;
    status_t st = json::parse(text, v);
    EXPECT_EQ(st, dnnl_success) << last_error();
    return v;
}

// The error text of a failing parse (empty if it unexpectedly succeeded).
std::string parse_error(const std::string &text,
        const json::limits_t &lim = json::limits_t()) {
    value_t v;
    clear_last_error();
    if (json::parse(text, v, "t.json", lim) == dnnl_success) return "";
    return last_error();
}

uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

// ------------------------------------------------------------ documents --

TEST(JsonValue, Numbers) {
    value_t v = parse_ok("[0, -0, 123, -9223372036854775808, "
                         "9223372036854775807, 9223372036854775808, 1.5, "
                         "1e-05, -1.25E+3, 1e400, -1e400, 1e-400]");
    ASSERT_EQ(v.items.size(), 12u);
    EXPECT_TRUE(v.items[0].integral);
    EXPECT_EQ(v.items[0].i, 0);
    EXPECT_TRUE(v.items[1].integral);
    EXPECT_EQ(v.items[1].text, "-0");
    EXPECT_EQ(v.items[2].i, 123);
    EXPECT_TRUE(v.items[3].integral);
    EXPECT_EQ(v.items[3].i, std::numeric_limits<int64_t>::min());
    EXPECT_EQ(v.items[4].i, std::numeric_limits<int64_t>::max());
    // One past INT64_MAX: still a number, no longer an exact int64.
    EXPECT_FALSE(v.items[5].integral);
    EXPECT_EQ(v.items[5].d, 9223372036854775808.0);
    EXPECT_FALSE(v.items[6].integral);
    EXPECT_EQ(v.items[6].d, 1.5);
    EXPECT_EQ(v.items[7].text, "1e-05");
    EXPECT_EQ(v.items[8].d, -1250.0);
    EXPECT_TRUE(std::isinf(v.items[9].d) && v.items[9].d > 0);
    EXPECT_TRUE(std::isinf(v.items[10].d) && v.items[10].d < 0);
    EXPECT_EQ(v.items[11].d, 0.0);
    // Text is kept, so the document serializes back unchanged.
    EXPECT_EQ(json::serialize(v, -1),
            "[0,-0,123,-9223372036854775808,9223372036854775807,"
            "9223372036854775808,1.5,1e-05,-1.25E+3,1e400,-1e400,1e-400]");
}

TEST(JsonValue, NonFiniteTokens) {
    value_t v = parse_ok("[inf, -inf, nan, Infinity, -Infinity, NaN]");
    ASSERT_EQ(v.items.size(), 6u);
    EXPECT_TRUE(std::isinf(json::as_f32(v.items[0])));
    EXPECT_LT(json::as_f32(v.items[1]), 0.f);
    EXPECT_TRUE(std::isnan(json::as_f32(v.items[2])));
    EXPECT_TRUE(std::isinf(v.items[3].d));
    EXPECT_TRUE(std::isnan(v.items[5].d));
    EXPECT_EQ(value_t::make_f32(-INFINITY).text, "-inf");
    EXPECT_EQ(value_t::make_f32(NAN).text, "nan");
    EXPECT_NE(parse_error("[-nan]"), "");
    EXPECT_NE(parse_error("[infinity]"), "");
}

TEST(JsonValue, F32TextRoundTripsBitExactly) {
    // Hand-checked shortest forms, as oneDNN dumps print them.
    EXPECT_EQ(value_t::make_f32(0.1f).text, "0.1");
    EXPECT_EQ(value_t::make_f32(1e-05f).text, "1e-05");
    EXPECT_EQ(value_t::make_f32(0.0351562f).text, "0.0351562");
    value_t six = value_t::make_f32(6.f);
    EXPECT_EQ(six.text, "6");
    EXPECT_TRUE(six.integral);
    // Directly from text: 1.00000005960464477539 is halfway between 1 and
    // the next float; ties-to-even gives 1.0 (a double detour gives 1.0 as
    // well, but 1.000000059604644775390625000001 must round up).
    EXPECT_EQ(json::as_f32(parse_ok("1.000000059604644775390625000001")),
            1.00000012f);
    EXPECT_TRUE(std::isinf(json::as_f32(parse_ok("1e39"))));
    EXPECT_EQ(bits(json::as_f32(parse_ok("-1e-50"))), 0x80000000u);
    // Many bit patterns, including subnormals and extremes.
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (int k = 0; k < 200000; ++k) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        uint32_t u = (uint32_t)(s >> 16);
        if (k < 4) u = k == 0 ? 1u : k == 1 ? 0x7F7FFFFFu : k == 2 ? 0x80000000u : 0x00800000u;
        float f;
        std::memcpy(&f, &u, 4);
        if (!std::isfinite(f)) continue;
        value_t t = parse_ok(value_t::make_f32(f).text);
        ASSERT_EQ(bits(json::as_f32(t)), u) << value_t::make_f32(f).text;
    }
}

TEST(JsonValue, StringsAndEscapes) {
    value_t v = parse_ok(R"(["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u20AC\ud83d\ude00", "\u0000x", "é€"])");
    ASSERT_EQ(v.items.size(), 4u);
    EXPECT_EQ(v.items[0].text, "a\"b\\c/d\b\f\n\r\t");
    EXPECT_EQ(v.items[1].text, "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
    EXPECT_EQ(v.items[2].text, std::string("\0x", 2));
    EXPECT_EQ(v.items[3].text, "\xC3\xA9\xE2\x82\xAC");
    // Serializing escapes what must be escaped and reads back the same.
    std::string out = json::serialize(v, -1);
    EXPECT_EQ(out, "[\"a\\\"b\\\\c/d\\b\\f\\n\\r\\t\",\"\xC3\xA9\xE2\x82\xAC"
                   "\xF0\x9F\x98\x80\",\"\\u0000x\",\"\xC3\xA9\xE2\x82\xAC\"]");
    EXPECT_TRUE(json::equal(parse_ok(out), v));
}

TEST(JsonValue, StringErrors) {
    EXPECT_EQ(parse_error(R"(["\ud800"])"),
            "t.json:1:9: high surrogate \\uD800 not followed by a low surrogate");
    EXPECT_EQ(parse_error(R"(["\udc00"])"),
            "t.json:1:9: unpaired low surrogate \\uDC00 in string");
    EXPECT_EQ(parse_error(R"(["\ud800\u0041"])"),
            "t.json:1:15: high surrogate \\uD800 followed by \\u0041, not a "
            "low surrogate");
    EXPECT_EQ(parse_error(R"(["\u12G4"])"),
            "t.json:1:7: expected 4 hex digits after \\u, got character 'G'");
    EXPECT_EQ(parse_error(R"(["a\x"])"),
            "t.json:1:5: invalid escape '\\character 'x'' in string");
    EXPECT_EQ(parse_error("[\"a\tb\"]"),
            "t.json:1:4: control character 0x09 in string (must be escaped)");
    EXPECT_EQ(parse_error("[\"\xC3\x28\"]"),
            "t.json:1:3: invalid UTF-8 byte 0xC3 in string");
    EXPECT_EQ(parse_error("[\"\xED\xA0\x80\"]"), // UTF-8 encoded surrogate
            "t.json:1:3: invalid UTF-8 byte 0xED in string");
    EXPECT_EQ(parse_error("[\"\xC0\xAF\"]"), // overlong '/'
            "t.json:1:3: invalid UTF-8 byte 0xC0 in string");
    EXPECT_EQ(parse_error("[\"abc"), "t.json:1:6: unterminated string");
}

TEST(JsonValue, SyntaxErrorsReportLineAndColumn) {
    EXPECT_EQ(parse_error(""), "t.json:1:1: expected a JSON value, got end of input");
    EXPECT_EQ(parse_error("{\n  \"a\": 01\n}"),
            "t.json:2:9: leading zeros are not allowed in numbers");
    EXPECT_EQ(parse_error("{\n  \"a\": 1,\n}"),
            "t.json:3:1: trailing comma in object");
    EXPECT_EQ(parse_error("[1,\n 2,\n ]"), "t.json:3:2: trailing comma in array");
    EXPECT_EQ(parse_error("[1 2]"),
            "t.json:1:4: expected ',' or ']' in array, got character '2'");
    EXPECT_EQ(parse_error("{\"a\" 1}"),
            "t.json:1:6: expected ':' after object key, got character '1'");
    EXPECT_EQ(parse_error("{\"a\":1 \"b\":2}"),
            "t.json:1:8: expected ',' or '}' in object, got character '\"'");
    EXPECT_EQ(parse_error("{1:2}"),
            "t.json:1:2: expected a string key, got character '1'");
    EXPECT_EQ(parse_error("{\"a\":1,\n \"a\":2}"),
            "t.json:2:2: duplicate key 'a' in object");
    EXPECT_EQ(parse_error("[1.]"),
            "t.json:1:4: expected a digit after '.', got character ']'");
    EXPECT_EQ(parse_error("[1e+]"),
            "t.json:1:5: expected a digit in the exponent, got character ']'");
    EXPECT_EQ(parse_error("[-x]"),
            "t.json:1:3: expected a digit in number, got character 'x'");
    EXPECT_EQ(parse_error("[tru]"),
            "t.json:1:2: expected a JSON value, got character 't'");
    EXPECT_EQ(parse_error("[nul]"),
            "t.json:1:2: expected a JSON value, got character 'n'");
    EXPECT_EQ(parse_error("{} x"),
            "t.json:1:4: unexpected character 'x' after the JSON value");
    EXPECT_EQ(parse_error("[\x01]"),
            "t.json:1:2: expected a JSON value, got byte 0x01");
    // No source name: the message starts at the position.
    value_t v;
    EXPECT_EQ(json::parse("[", v), dnnl_invalid_arguments);
    EXPECT_EQ(last_error(), "1:2: expected a JSON value, got end of input");
}

TEST(JsonValue, DepthAndSizeLimits) {
    std::string ok = std::string(256, '[') + std::string(256, ']');
    EXPECT_EQ(parse_error(ok), "");
    std::string deep = std::string(257, '[') + std::string(257, ']');
    EXPECT_EQ(parse_error(deep),
            "t.json:1:257: nesting deeper than 256 levels (limit)");
    // Far deeper than any stack could take recursively: still a clean error.
    std::string hostile(1000000, '[');
    EXPECT_NE(parse_error(hostile).find("nesting deeper"), std::string::npos);
    std::string objs;
    for (int k = 0; k < 300; ++k)
        objs += "{\"a\":";
    EXPECT_NE(parse_error(objs).find("nesting deeper"), std::string::npos);

    json::limits_t lim;
    lim.max_bytes = 8;
    EXPECT_EQ(parse_error("[1,2,3,4,5]", lim),
            "t.json:1:1: input is 11 bytes, more than the limit of 8");
    lim = json::limits_t();
    lim.max_values = 3;
    EXPECT_EQ(parse_error("[1,2,3]", lim),
            "t.json:1:6: more than 3 values (limit)");
    lim = json::limits_t();
    lim.max_string = 4;
    EXPECT_EQ(parse_error("[\"abcdefgh\\n\"]", lim),
            "t.json:1:11: string longer than 4 bytes (limit)");
    // A leading byte order mark is skipped.
    EXPECT_EQ(parse_error("\xEF\xBB\xBF[1]"), "");
}

TEST(JsonValue, ObjectsKeepOrderAndSerialize) {
    value_t v = parse_ok("{\"z\": 1, \"a\": [true, false, null], \"m\": {}, "
                         "\"e\": []}");
    ASSERT_EQ(v.members.size(), 4u);
    EXPECT_EQ(v.members[0].key, "z");
    EXPECT_EQ(v.members[1].key, "a");
    EXPECT_EQ(v.members[1].value.line, 1u);
    EXPECT_EQ(v.members[1].value.column, 15u);
    ASSERT_NE(v.find("m"), nullptr);
    EXPECT_EQ(v.find("q"), nullptr);
    EXPECT_EQ(json::serialize(v, 2),
            "{\n  \"z\": 1,\n  \"a\": [\n    true,\n    false,\n    null\n"
            "  ],\n  \"m\": {},\n  \"e\": []\n}");
    EXPECT_EQ(json::serialize(v, -1),
            "{\"z\":1,\"a\":[true,false,null],\"m\":{},\"e\":[]}");
}

TEST(JsonValue, Equality) {
    value_t a = parse_ok("{\"x\": [1, 2.5, {\"k\": \"v\"}], \"y\": 1}");
    value_t b = parse_ok("{\"y\": 1.0, \"x\": [1, 25e-1, {\"k\": \"v\"}]}");
    EXPECT_TRUE(json::equal(a, b));
    value_t c = parse_ok("{\"y\": 1, \"x\": [1, 2.5, {\"k\": \"w\"}]}");
    std::string where;
    EXPECT_FALSE(json::equal(a, c, &where));
    EXPECT_EQ(where, "x[2].k");
    EXPECT_FALSE(json::equal(parse_ok("{\"a\":1}"), parse_ok("{\"b\":1}")));
    EXPECT_FALSE(json::equal(parse_ok("[1]"), parse_ok("[\"1\"]")));
    EXPECT_TRUE(json::equal(parse_ok("[nan]"), parse_ok("[NaN]")));
    // int64 values that collide as doubles stay distinct.
    EXPECT_FALSE(json::equal(parse_ok("[9007199254740993]"),
            parse_ok("[9007199254740992]")));
}

// ---------------------------------------------------------------- graphs --

const char *k_graph = R"({
  "version": "3.9.0", "engine_kind": "gpu", "fpmath_mode": "bf16",
  "input_ports": [0, 1, 140664149209152], "output_ports": [3],
  "graph": [
    {"id": 7, "name": "mm", "kind": "MatMul",
     "attrs": {"transpose_b": {"type": "bool", "value": 1},
               "transpose_a": {"type": "bool", "value": false},
               "partition_id": {"type": "string", "value": "p0"}},
     "inputs": [
       {"id": 0, "dtype": "bf16", "shape": [64, 256], "stride": [256, 1],
        "layout_type": "strided", "property_type": "undef"},
       {"id": 1, "dtype": "bf16", "shape": [256, 256], "stride": [1, 256],
        "layout_type": "strided", "property_type": "constant"}],
     "outputs": [
       {"id": 2, "dtype": "f32", "shape": [-9223372036854775808],
        "stride": [-9223372036854775808], "layout_type": "strided",
        "property_type": "undef"}]},
    {"id": 140664149209152, "name": "clamp \"x\"", "kind": "Clamp",
     "attrs": {"min": {"type": "f32", "value": 0}, "max": {"type": "f32", "value": 6.5},
               "scales": {"type": "f32[]", "value": [0.0351562, 1e-05]},
               "axes": {"type": "s64[]", "value": [-9223372036854775808, 3]}},
     "inputs": [
       {"id": 2, "dtype": "f32", "shape": [1, 56, 56, 64], "stride": [-9223372036854775808],
        "layout_type": "undef", "property_type": "variable"},
       {"id": 9, "dtype": "s32", "shape": [], "stride": [],
        "layout_type": "strided", "property_type": "host_scalar"}],
     "outputs": [
       {"id": 3, "dtype": "f32", "shape": [0, 2], "stride": [2, 1],
        "layout_type": "any", "property_type": "undef"}]}
  ]
})";

TEST(JsonGraph, ParsesHandWrittenGraph) {
    graph_desc_t g;
    ASSERT_EQ(parse_graph_json(k_graph, "g.json", g), dnnl_success)
            << last_error();
    EXPECT_EQ(g.version, "3.9.0");
    EXPECT_EQ(g.engine_kind, dnnl_gpu);
    EXPECT_EQ(g.fpmath, dnnl_fpmath_mode_bf16);
    EXPECT_FALSE(g.has_apply_to_int);
    EXPECT_TRUE(g.has_input_ports && g.has_output_ports);
    EXPECT_EQ(g.input_ports, (std::vector<size_t> {0, 1, 140664149209152ull}));
    EXPECT_EQ(g.output_ports, (std::vector<size_t> {3}));
    ASSERT_EQ(g.ops.size(), 2u);

    const json_op_t &mm = g.ops[0];
    EXPECT_EQ(mm.id, 7u);
    EXPECT_EQ(mm.name, "mm");
    EXPECT_EQ(mm.kind, "MatMul");
    ASSERT_EQ(mm.attrs.size(), 3u);
    EXPECT_EQ(mm.attrs[0].name, "transpose_b"); // file order, not table order
    EXPECT_EQ(mm.attrs[0].id, dnnl_graph_op_attr_transpose_b);
    EXPECT_EQ(mm.attrs[0].value, attr_value_t::make_bool(true));
    EXPECT_EQ(mm.attrs[1].value, attr_value_t::make_bool(false));
    EXPECT_EQ(mm.attrs[2].name, "partition_id");
    EXPECT_EQ(mm.attrs[2].id, dnnl_graph_op_attr_undef);
    EXPECT_EQ(mm.attrs[2].value, attr_value_t::make_str("p0"));
    ASSERT_EQ(mm.inputs.size(), 2u);
    const logical_tensor_t &w = mm.inputs[1];
    EXPECT_EQ(w.id, 1u);
    EXPECT_EQ(w.data_type, dnnl_bf16);
    EXPECT_EQ(w.ndims, 2);
    EXPECT_EQ(w.dims[0], 256);
    EXPECT_EQ(w.layout_type, dnnl_graph_layout_type_strided);
    EXPECT_EQ(w.layout.strides[0], 1);
    EXPECT_EQ(w.layout.strides[1], 256);
    EXPECT_EQ(w.property, dnnl_graph_tensor_property_constant);
    EXPECT_EQ(mm.outputs[0].ndims, -1); // [INT64_MIN]: unknown rank

    const json_op_t &cl = g.ops[1];
    EXPECT_EQ(cl.id, 140664149209152ull);
    EXPECT_EQ(cl.name, "clamp \"x\"");
    EXPECT_EQ(cl.attrs[0].value, attr_value_t::make_f32(0.f));
    EXPECT_EQ(cl.attrs[1].value, attr_value_t::make_f32(6.5f));
    EXPECT_EQ(cl.attrs[2].value, attr_value_t::make_f32s({0.0351562f, 1e-05f}));
    EXPECT_EQ(cl.attrs[3].value,
            attr_value_t::make_s64s({std::numeric_limits<int64_t>::min(), 3}));
    const logical_tensor_t &x = cl.inputs[0];
    EXPECT_EQ(x.ndims, 4);
    EXPECT_EQ(x.layout_type, dnnl_graph_layout_type_undef);
    EXPECT_EQ(x.layout.strides[2], unknown_dim);
    EXPECT_EQ(x.property, dnnl_graph_tensor_property_variable);
    const logical_tensor_t &sc = cl.inputs[1];
    EXPECT_EQ(sc.ndims, 0);
    EXPECT_EQ(sc.data_type, dnnl_s32);
    EXPECT_EQ(sc.property, dnnl_graph_tensor_property_host_scalar);
    EXPECT_EQ(cl.outputs[0].dims[0], 0); // zero-size dims are fine
    EXPECT_EQ(cl.outputs[0].layout_type, dnnl_graph_layout_type_any);
}

TEST(JsonGraph, WritesDumpLayoutAndRoundTrips) {
    graph_desc_t g;
    ASSERT_EQ(parse_graph_json(k_graph, "g.json", g), dnnl_success);
    std::string out = write_graph_json(g);
    value_t orig, back;
    ASSERT_EQ(json::parse(k_graph, orig), dnnl_success);
    ASSERT_EQ(json::parse(out, back), dnnl_success) << out;
    // Only the bool spelling differs: false -> 0.
    std::string where;
    EXPECT_FALSE(json::equal(orig, back, &where));
    EXPECT_EQ(where, "graph[0].attrs.transpose_a.value");
    graph_desc_t g2;
    ASSERT_EQ(parse_graph_json(out, "out.json", g2), dnnl_success);
    EXPECT_EQ(write_graph_json(g2), out);
    // Key order, bools as 0/1, absent apply_to_int stays absent.
    EXPECT_EQ(out.find("fpmath_mode_apply_to_int"), std::string::npos);
    EXPECT_EQ(out.rfind("{\n  \"version\": \"3.9.0\",\n  \"engine_kind\": "
                        "\"gpu\",\n  \"fpmath_mode\": \"bf16\",\n  \"input_",
                      0),
            0u);
    EXPECT_NE(out.find("\"transpose_a\": {\n          \"type\": \"bool\",\n"
                       "          \"value\": 0\n        }"),
            std::string::npos);
    EXPECT_NE(out.find("\"shape\": [],\n          \"stride\": [],"),
            std::string::npos);
    EXPECT_EQ(out.back(), '\n');

    // apply_to_int present, attrs absent: both reproduced.
    g.has_apply_to_int = true;
    g.apply_to_int = true;
    g.ops[1].has_attrs = false;
    g.ops[1].attrs.clear();
    g.has_output_ports = false;
    ASSERT_EQ(parse_graph_json(write_graph_json(g), "", g2), dnnl_success);
    EXPECT_TRUE(g2.has_apply_to_int && g2.apply_to_int);
    EXPECT_FALSE(g2.ops[1].has_attrs);
    EXPECT_FALSE(g2.has_output_ports);
    EXPECT_TRUE(g2.has_input_ports);
}

// The error text for k_graph with `from` replaced by `to` (once).
std::string graph_error(const std::string &from, const std::string &to) {
    std::string text = k_graph;
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at == std::string::npos) return "";
    text.replace(at, from.size(), to);
    graph_desc_t g;
    clear_last_error();
    status_t st = parse_graph_json(text, "g.json", g);
    if (st == dnnl_success) return "";
    EXPECT_EQ(st, dnnl_invalid_arguments);
    EXPECT_TRUE(g.ops.empty());
    return last_error();
}

TEST(JsonGraph, ErrorsNameFilePositionOpAndField) {
    EXPECT_EQ(graph_error("\"version\": \"3.9.0\", ", ""),
            "g.json:1:1: missing field 'version'");
    EXPECT_EQ(graph_error("\"engine_kind\": \"gpu\"", "\"engine_kind\": \"tpu\""),
            "g.json:2:38: field 'engine_kind': unknown value 'tpu' (expected "
            "cpu, gpu or any)");
    EXPECT_EQ(graph_error("\"fpmath_mode\": \"bf16\"", "\"fpmath_mode\": 3"),
            "g.json:2:60: field 'fpmath_mode': expected string, got number");
    EXPECT_EQ(graph_error("\"output_ports\": [3]", "\"output_ports\": [-3]"),
            "g.json:3:60: field 'output_ports'[0]: expected a non-negative "
            "integer id, got '-3'");
    EXPECT_EQ(graph_error("\"input_ports\"", "\"fpmath_mode_apply_to_int\": "
                                             "\"yes\", \"input_ports\""),
            "g.json:3:31: field 'fpmath_mode_apply_to_int': unknown value "
            "'yes' (expected true or false)");
    EXPECT_EQ(graph_error("\"kind\": \"MatMul\",", ""),
            "g.json:5:5: op 7: missing field 'kind'");
    EXPECT_EQ(graph_error("\"id\": 7,", "\"id\": 7.5,"),
            "g.json:5:12: graph[0]: field 'id': expected a non-negative "
            "integer id, got '7.5'");
    EXPECT_EQ(graph_error("\"transpose_b\": {\"type\": \"bool\", \"value\": 1}",
                      "\"transpose_b\": {\"type\": \"bool\", \"value\": 2}"),
            "g.json:6:57: op 7: attribute 'transpose_b': expected bool (0, 1, "
            "true or false), got '2'");
    EXPECT_EQ(graph_error("{\"type\": \"f32\", \"value\": 6.5}",
                      "{\"type\": \"f32\", \"value\": \"6.5\"}"),
            "g.json:19:84: op 140664149209152: attribute 'max': expected f32, "
            "got string");
    EXPECT_EQ(graph_error("\"value\": [-9223372036854775808, 3]",
                      "\"value\": \"2x3\""),
            "g.json:21:51: op 140664149209152: attribute 'axes': expected "
            "s64[], got string");
    EXPECT_EQ(graph_error("\"value\": [-9223372036854775808, 3]",
                      "\"value\": [1, 2.5]"),
            "g.json:21:55: op 140664149209152: attribute 'axes': expected "
            "s64[], got number 2.5 at index 1");
    EXPECT_EQ(graph_error("{\"type\": \"s64[]\"", "{\"type\": \"s64\""),
            "g.json:21:33: op 140664149209152: attribute 'axes': type 's64' "
            "does not match the attribute, which is s64[]");
    EXPECT_EQ(graph_error("{\"type\": \"string\"", "{\"type\": \"str\""),
            "g.json:8:41: op 7: attribute 'partition_id': unknown type 'str' "
            "(expected f32, f32[], s64, s64[], bool or string)");
    EXPECT_EQ(graph_error("\"value\": \"p0\"", "\"valu\": \"p0\""),
            "g.json:8:32: op 7: attribute 'partition_id': missing field 'value'");
    EXPECT_EQ(graph_error("\"dtype\": \"bf16\"", "\"dtype\": \"f33\""),
            "g.json:10:27: op 7: inputs[0]: field 'dtype': unknown data type "
            "'f33'");
    EXPECT_EQ(graph_error("\"layout_type\": \"strided\"",
                      "\"layout_type\": \"blocked\""),
            "g.json:11:24: op 7: inputs[0]: field 'layout_type': unknown value "
            "'blocked' (expected undef, any, strided or opaque)");
    EXPECT_EQ(graph_error("\"property_type\": \"constant\"",
                      "\"property_type\": null"),
            "g.json:13:52: op 7: inputs[1]: field 'property_type': expected "
            "string, got null");
    EXPECT_EQ(graph_error("\"shape\": [64, 256]", "\"shape\": [64, -256]"),
            "g.json:10:49: op 7: inputs[0]: field 'shape': negative dimension "
            "-256 at index 1");
    EXPECT_EQ(graph_error("\"shape\": [64, 256]",
                      "\"shape\": [1,1,1,1,1,1,1,1,1,1,1,1,1]"),
            "g.json:10:44: op 7: inputs[0]: field 'shape': rank 13 exceeds the "
            "maximum of 12");
    EXPECT_EQ(graph_error("\"stride\": [256, 1]", "\"stride\": [256, \"1\"]"),
            "g.json:10:71: op 7: inputs[0]: field 'stride': expected an "
            "integer at index 1, got string");
    EXPECT_EQ(graph_error("\"stride\": [256, 1],", ""),
            "g.json:10:8: op 7: inputs[0]: missing field 'stride'");
    EXPECT_EQ(graph_error("\"outputs\": [\n       {\"id\": 2",
                      "\"outputs\": [\n       {\"id\": -2"),
            "g.json:15:15: op 7: outputs[0]: field 'id': expected a "
            "non-negative integer id, got '-2'");
    EXPECT_EQ(graph_error("\"inputs\": [\n       {\"id\": 0",
                      "\"inputs\": [\n       7, {\"id\": 0"),
            "g.json:10:8: op 7: inputs[0]: expected a logical tensor object, "
            "got number");
    EXPECT_EQ(graph_error("\"id\": 140664149209152, \"name\"",
                      "\"id\": 7, \"name\""),
            "g.json:18:5: op 7: duplicate op id (first used by the op at line "
            "5)");
    EXPECT_EQ(graph_error("\"name\": \"mm\"", "\"name\": [\"mm\"]"),
            "g.json:5:23: op 7: field 'name': expected string, got array");
    EXPECT_EQ(graph_error("\"attrs\": {\"transpose_b\"",
                      "\"attrs\": [], \"x\": {\"transpose_b\""),
            "g.json:6:15: op 7: field 'attrs': expected object, got array");
    EXPECT_EQ(graph_error("\"attrs\": {\"transpose_b\": {",
                      "\"attrs\": {\"transpose_b\": 1, \"q\": {"),
            "g.json:6:31: op 7: attribute 'transpose_b': expected an object "
            "with 'type' and 'value', got number");
    // Whole-document problems.
    graph_desc_t g;
    EXPECT_EQ(parse_graph_json("[]", "a.json", g), dnnl_invalid_arguments);
    EXPECT_EQ(last_error(),
            "a.json:1:1: expected a JSON object at the top level, got array");
    EXPECT_EQ(parse_graph_json("{\"version\": \"1\", \"engine_kind\": \"cpu\", "
                               "\"fpmath_mode\": \"any\", \"graph\": []}",
                      "a.json", g),
            dnnl_invalid_arguments);
    EXPECT_EQ(last_error(), "a.json:1:71: field 'graph': no ops");
    EXPECT_EQ(parse_graph_json("{\"version\": ", "a.json", g),
            dnnl_invalid_arguments);
    EXPECT_EQ(last_error(), "a.json:1:13: expected a JSON value, got end of input");
}

TEST(JsonGraph, LenientInputsAreAccepted) {
    // Stride lists that do not match the rank read as unknown; opaque
    // layouts carry no strides; an op without attrs is fine.
    const char *text = R"({"version": "0.6.0", "engine_kind": "cpu",
      "fpmath_mode": "strict", "fpmath_mode_apply_to_int": "1",
      "graph": [{"id": 0, "name": "r", "kind": "ReLU",
        "inputs": [{"id": 0, "dtype": "f32", "shape": [2, 3], "stride": [1],
                    "layout_type": "strided", "property_type": "undef"}],
        "outputs": [{"id": 1, "dtype": "f32", "shape": [2, 3], "stride": [3, 1],
                     "layout_type": "opaque", "property_type": "undef"}]}]})";
    graph_desc_t g;
    ASSERT_EQ(parse_graph_json(text, "l.json", g), dnnl_success) << last_error();
    EXPECT_TRUE(g.apply_to_int);
    EXPECT_FALSE(g.ops[0].has_attrs);
    EXPECT_FALSE(g.has_input_ports);
    EXPECT_EQ(g.ops[0].inputs[0].layout.strides[0], unknown_dim);
    EXPECT_EQ(g.ops[0].outputs[0].layout.layout_id, 0u);
    std::string out = write_graph_json(g);
    EXPECT_NE(out.find("\"fpmath_mode_apply_to_int\": \"true\""),
            std::string::npos);
    EXPECT_EQ(out.find("\"attrs\""), std::string::npos);
    EXPECT_EQ(out.find("\"input_ports\""), std::string::npos);
}

// ---------------------------------------------------------------- corpus --

#ifndef LLGA_CORPUS_DIR
#define LLGA_CORPUS_DIR "../shared/corpus"
#endif

using test::is_dir;
using test::list_json;

std::string read_file(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

TEST(JsonGraph, CorpusRoundTrip) {
    const char *env = std::getenv("LLGA_CORPUS_DIR");
    std::string dir = env && *env ? env : LLGA_CORPUS_DIR;
    if (!is_dir(dir)) GTEST_SKIP() << "no corpus at " << dir;
    std::vector<std::string> files;
    list_json(dir, files);
    ASSERT_FALSE(files.empty()) << "no *.json under " << dir;
    size_t identical = 0;
    for (const auto &path : files) {
        SCOPED_TRACE(path);
        std::string text = read_file(path);
        value_t orig;
        ASSERT_EQ(json::parse(text, orig, path), dnnl_success) << last_error();
        graph_desc_t g;
        ASSERT_EQ(parse_graph_json(text, path, g), dnnl_success)
                << last_error();
        std::string out = write_graph_json(g);
        value_t back;
        ASSERT_EQ(json::parse(out, back), dnnl_success) << last_error();
        std::string where;
        EXPECT_TRUE(json::equal(orig, back, &where)) << "differs at " << where;
        // Writing is a fixed point after one round.
        graph_desc_t g2;
        ASSERT_EQ(parse_graph_json(out, path, g2), dnnl_success);
        EXPECT_EQ(write_graph_json(g2), out);
        identical += out == text;
    }
    std::printf("[ corpus   ] %zu graph files round-tripped, %zu byte-identical "
                "(%s)\n",
            files.size(), identical, dir.c_str());
}

} // namespace
} // namespace ir
} // namespace llga
