// SPDX-License-Identifier: Apache-2.0
// ir/json_value.hpp — a small JSON document model with its own parser and
// serializer, used by the graph-dump reader/writer (ir/json_graph.hpp).
// Objects keep their key order, numbers keep their exact source text (so an
// int64 such as INT64_MIN or an f32 printed by another tool survives a round
// trip), every value remembers where it started (line:column) for error
// messages, and the parser enforces depth/size limits so hostile input cannot
// exhaust the stack or memory. Errors go through llga::fail().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.hpp"

namespace llga {
namespace ir {
namespace json {

enum class type_t : uint8_t { null, boolean, number, string, array, object };
const char *type_name(type_t t); // "null", "boolean", "number", ...

struct member_t;

struct value_t {
    type_t type = type_t::null;
    bool b = false; // boolean
    // number: true if the text is a plain integer (no fraction, no exponent)
    // that fits in int64; then `i` holds it exactly.
    bool integral = false;
    uint32_t line = 0, column = 0; // 1-based start position; 0 if built in code
    int64_t i = 0;
    double d = 0.0;   // number: value rounded to double (±inf/nan allowed)
    std::string text; // number: exact text; string: decoded UTF-8 contents
    std::vector<value_t> items;    // array
    std::vector<member_t> members; // object, in source order

    // Builders for code that produces documents (the graph writer).
    static value_t make_null() { return value_t(); }
    static value_t make_bool(bool v);
    static value_t make_int(int64_t v);
    static value_t make_uint(uint64_t v); // ids are size_t
    // Shortest decimal text that reads back as the same float; non-finite
    // values become the tokens inf, -inf, nan (see docs/json-format.md).
    static value_t make_f32(float v);
    static value_t make_string(std::string v);
    static value_t make_array();
    static value_t make_object();

    bool is(type_t t) const { return type == t; }
    // Object member lookup (first match); nullptr if absent or not an object.
    const value_t *find(const std::string &key) const;
    // Appends to an object (no duplicate check) / array; returns the new slot.
    value_t &add(const std::string &key, value_t v);
    value_t &push(value_t v);
};

struct member_t {
    std::string key;
    value_t value;
};

// The float nearest to a number's text (not via double, which could round
// twice); out-of-range texts give ±inf or ±0, the extension tokens ±inf/nan.
// Returns 0 for a non-number.
float as_f32(const value_t &number);

// Limits applied while parsing; every one guards a resource, not a format rule.
struct limits_t {
    size_t max_depth = 256;              // nested arrays/objects (stack use)
    size_t max_bytes = size_t(64) << 20; // input text size
    size_t max_values = size_t(4) << 20; // total values (memory use)
    size_t max_string = size_t(1) << 20; // bytes of one decoded string
};

// Parses one JSON text (RFC 8259, UTF-8, optional leading BOM; duplicate keys
// in an object are rejected). Extension: the number tokens inf, -inf, nan,
// Infinity, -Infinity and NaN, which float printers of other tools emit.
// On error returns dnnl_invalid_arguments with the last-error text
// "<source>:<line>:<column>: <what>" (source omitted if empty).
status_t parse(const std::string &text, value_t &out,
        const std::string &source_name = std::string(),
        const limits_t &limits = limits_t());

// Serializes with `indent` spaces per level, one array element or object
// member per line (the layout of oneDNN graph dumps); indent < 0 gives the
// compact one-line form. Numbers are written from their text, so a parsed
// document is reproduced value for value. Ends without a trailing newline.
std::string serialize(const value_t &v, int indent = 2);

// Value equality as JSON: objects compare as key -> value maps (order does
// not matter), arrays element-wise, numbers by value (exact int64 when both
// are integral, otherwise as doubles; two NaNs are equal). On mismatch, if
// `where` is given it receives a path such as "graph[3].attrs.axis.value".
bool equal(const value_t &a, const value_t &b, std::string *where = nullptr);

} // namespace json
} // namespace ir
} // namespace llga
