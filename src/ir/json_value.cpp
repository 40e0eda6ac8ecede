// SPDX-License-Identifier: Apache-2.0
// ir/json_value.cpp — the JSON parser, serializer and value comparison of
// ir/json_value.hpp. Written for hostile input: every read is bounds-checked,
// recursion is capped by limits_t::max_depth, and no input aborts.
#include "ir/json_value.hpp"

#include <algorithm>
#include <charconv>
#include <cstdarg>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <unordered_set>

namespace llga {
namespace ir {
namespace json {

const char *type_name(type_t t) {
    switch (t) {
        case type_t::null: return "null";
        case type_t::boolean: return "boolean";
        case type_t::number: return "number";
        case type_t::string: return "string";
        case type_t::array: return "array";
        case type_t::object: return "object";
    }
    return "unknown";
}

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Decimal magnitude of a number text that the C++ converter reported out of
// range: > 0 means it overflowed (becomes ±inf), otherwise it underflowed
// (becomes ±0). The value lies in [10^(m-1), 10^m) for the returned m.
bool overflowed(const std::string &t) {
    size_t p = 0;
    if (p < t.size() && t[p] == '-') ++p;
    int64_t int_digits = 0, first_nonzero = -1, idx = 0;
    bool after_point = false;
    for (; p < t.size(); ++p) {
        char c = t[p];
        if (c == '.') {
            after_point = true;
            continue;
        }
        if (!is_digit(c)) break;
        if (c != '0' && first_nonzero < 0) first_nonzero = idx;
        if (!after_point) ++int_digits;
        ++idx;
    }
    if (first_nonzero < 0) return false; // zero: cannot overflow
    int64_t e = 0;
    if (p < t.size() && (t[p] == 'e' || t[p] == 'E')) {
        ++p;
        bool neg = false;
        if (p < t.size() && (t[p] == '+' || t[p] == '-')) neg = t[p++] == '-';
        for (; p < t.size() && is_digit(t[p]); ++p)
            if (e < 1000000000) e = e * 10 + (t[p] - '0'); // saturate
        if (neg) e = -e;
    }
    return int_digits - first_nonzero + e > 0;
}

// Non-finite extension tokens; returns 0 if `t` is not one of them.
int special_token(const std::string &t, double *d) {
    if (t == "inf" || t == "Infinity") {
        *d = std::numeric_limits<double>::infinity();
        return 1;
    }
    if (t == "-inf" || t == "-Infinity") {
        *d = -std::numeric_limits<double>::infinity();
        return 1;
    }
    if (t == "nan" || t == "NaN") {
        *d = std::numeric_limits<double>::quiet_NaN();
        return 1;
    }
    return 0;
}

// Fills integral / i / d of a number from its (already validated) text.
void classify_number(value_t &v) {
    const std::string &t = v.text;
    v.integral = false;
    v.i = 0;
    if (special_token(t, &v.d)) return;
    bool plain = t.find_first_of(".eE") == std::string::npos;
    if (plain) {
        int64_t i = 0;
        auto r = std::from_chars(t.data(), t.data() + t.size(), i);
        if (r.ec == std::errc() && r.ptr == t.data() + t.size()) {
            v.integral = true;
            v.i = i;
        }
    }
    double d = 0.0;
    auto r = std::from_chars(t.data(), t.data() + t.size(), d);
    if (r.ec == std::errc::result_out_of_range) {
        bool neg = !t.empty() && t[0] == '-';
        d = overflowed(t) ? std::numeric_limits<double>::infinity() : 0.0;
        if (neg) d = -d;
    } else if (r.ec != std::errc()) {
        d = 0.0; // unreachable for validated text; keep a defined value
    }
    v.d = d;
}

// ---------------------------------------------------------------- parser --

class parser_t {
public:
    parser_t(const std::string &s, const std::string &source,
            const limits_t &lim)
        : s_(s), source_(source), lim_(lim) {}

    status_t run(value_t &out) {
        if (s_.size() > lim_.max_bytes)
            return error("input is %zu bytes, more than the limit of %zu",
                    s_.size(), lim_.max_bytes);
        // A UTF-8 byte order mark is harmless; editors on some systems add it.
        if (s_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = line_start_ = 3;
        skip_ws();
        LLGA_RETURN_IF_ERROR(parse_value(out, 0));
        skip_ws();
        if (pos_ != s_.size())
            return error("unexpected %s after the JSON value",
                    describe_char().c_str());
        return dnnl_success;
    }

private:
    const std::string &s_;
    const std::string &source_;
    const limits_t &lim_;
    size_t pos_ = 0;
    size_t line_ = 1;
    size_t line_start_ = 0; // offset of the current line's first byte
    size_t nvalues_ = 0;

    bool at_end() const { return pos_ >= s_.size(); }
    char peek() const { return at_end() ? '\0' : s_[pos_]; }

    // Reports an error at the current position as "src:line:col: text".
    status_t error(const char *fmt, ...) __attribute__((format(printf, 2, 3))) {
        char buf[512];
        va_list ap;
        va_start(ap, fmt);
        std::vsnprintf(buf, sizeof(buf), fmt, ap);
        va_end(ap);
        std::string where = source_.empty() ? std::string() : source_ + ":";
        where += std::to_string(line_) + ":"
                + std::to_string(pos_ - line_start_ + 1) + ": ";
        return fail(dnnl_invalid_arguments, "%s%s", where.c_str(), buf);
    }

    // "end of input", "character '}'" or "byte 0x07" for messages.
    std::string describe_char() const {
        if (at_end()) return "end of input";
        unsigned char c = (unsigned char)s_[pos_];
        char buf[32];
        if (c >= 0x20 && c < 0x7F)
            std::snprintf(buf, sizeof(buf), "character '%c'", c);
        else
            std::snprintf(buf, sizeof(buf), "byte 0x%02X", c);
        return buf;
    }

    void skip_ws() {
        while (!at_end()) {
            char c = s_[pos_];
            if (c == '\n') {
                ++line_;
                line_start_ = pos_ + 1;
            } else if (c != ' ' && c != '\t' && c != '\r') {
                return;
            }
            ++pos_;
        }
    }

    void mark(value_t &v) const {
        auto clamp = [](size_t x) {
            return (uint32_t)std::min<size_t>(x, UINT32_MAX);
        };
        v.line = clamp(line_);
        v.column = clamp(pos_ - line_start_ + 1);
    }

    bool consume_word(const char *w) {
        size_t n = std::strlen(w);
        if (s_.compare(pos_, n, w) != 0) return false;
        pos_ += n;
        return true;
    }

    status_t parse_value(value_t &v, size_t depth) {
        if (++nvalues_ > lim_.max_values)
            return error("more than %zu values (limit)", lim_.max_values);
        mark(v);
        char c = peek();
        switch (c) {
            case '{':
            case '[':
                if (depth >= lim_.max_depth)
                    return error("nesting deeper than %zu levels (limit)",
                            lim_.max_depth);
                return c == '{' ? parse_object(v, depth + 1)
                                : parse_array(v, depth + 1);
            case '"': v.type = type_t::string; return parse_string(v.text);
            case 't':
            case 'f':
                if (consume_word("true") || consume_word("false")) {
                    v.type = type_t::boolean;
                    v.b = c == 't';
                    return dnnl_success;
                }
                break;
            case 'n':
                if (consume_word("null")) {
                    v.type = type_t::null;
                    return dnnl_success;
                }
                return parse_number(v);
            default:
                if (c == '-' || is_digit(c) || c == 'i' || c == 'I' || c == 'N')
                    return parse_number(v);
                break;
        }
        return error("expected a JSON value, got %s", describe_char().c_str());
    }

    status_t parse_number(value_t &v) {
        size_t start = pos_;
        v.type = type_t::number;
        if (peek() == '-') ++pos_;
        // Extension tokens for non-finite floats (see the header).
        for (const char *w : {"Infinity", "inf", "NaN", "nan"}) {
            bool minus_ok = w[0] == 'I' || w[0] == 'i';
            if ((pos_ == start || minus_ok) && consume_word(w)) {
                v.text = s_.substr(start, pos_ - start);
                classify_number(v);
                return dnnl_success;
            }
        }
        if (pos_ == start && !is_digit(peek())) // "nul": no known token
            return error("expected a JSON value, got %s",
                    describe_char().c_str());
        if (!is_digit(peek()))
            return error("expected a digit in number, got %s",
                    describe_char().c_str());
        if (peek() == '0') {
            ++pos_;
            if (is_digit(peek()))
                return error("leading zeros are not allowed in numbers");
        } else {
            while (is_digit(peek())) ++pos_;
        }
        if (peek() == '.') {
            ++pos_;
            if (!is_digit(peek()))
                return error("expected a digit after '.', got %s",
                        describe_char().c_str());
            while (is_digit(peek())) ++pos_;
        }
        if (peek() == 'e' || peek() == 'E') {
            ++pos_;
            if (peek() == '+' || peek() == '-') ++pos_;
            if (!is_digit(peek()))
                return error("expected a digit in the exponent, got %s",
                        describe_char().c_str());
            while (is_digit(peek())) ++pos_;
        }
        if (pos_ - start > 4096)
            return error("number text longer than 4096 characters");
        v.text = s_.substr(start, pos_ - start);
        classify_number(v);
        return dnnl_success;
    }

    static int hex_value(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }

    // Reads the 4 hex digits after "\u" at pos_.
    status_t read_hex4(uint32_t &cu) {
        cu = 0;
        for (int k = 0; k < 4; ++k) {
            int h = hex_value(peek());
            if (h < 0)
                return error("expected 4 hex digits after \\u, got %s",
                        describe_char().c_str());
            cu = cu * 16 + (uint32_t)h;
            ++pos_;
        }
        return dnnl_success;
    }

    static void append_utf8(std::string &out, uint32_t cp) {
        if (cp < 0x80) {
            out += (char)cp;
        } else if (cp < 0x800) {
            out += (char)(0xC0 | (cp >> 6));
            out += (char)(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += (char)(0xE0 | (cp >> 12));
            out += (char)(0x80 | ((cp >> 6) & 0x3F));
            out += (char)(0x80 | (cp & 0x3F));
        } else {
            out += (char)(0xF0 | (cp >> 18));
            out += (char)(0x80 | ((cp >> 12) & 0x3F));
            out += (char)(0x80 | ((cp >> 6) & 0x3F));
            out += (char)(0x80 | (cp & 0x3F));
        }
    }

    // Length of the well-formed UTF-8 sequence at pos_ (0 if ill-formed):
    // no overlong forms, no surrogates, nothing above U+10FFFF.
    size_t utf8_length() const {
        auto byte = [&](size_t k) -> unsigned {
            return pos_ + k < s_.size() ? (unsigned char)s_[pos_ + k] : 0u;
        };
        auto cont = [&](size_t k) { return (byte(k) & 0xC0) == 0x80; };
        unsigned b0 = byte(0);
        if (b0 >= 0xC2 && b0 <= 0xDF) return cont(1) ? 2 : 0;
        if (b0 >= 0xE0 && b0 <= 0xEF) {
            unsigned b1 = byte(1);
            if (!cont(1) || !cont(2)) return 0;
            if (b0 == 0xE0 && b1 < 0xA0) return 0; // overlong
            if (b0 == 0xED && b1 >= 0xA0) return 0; // surrogate
            return 3;
        }
        if (b0 >= 0xF0 && b0 <= 0xF4) {
            unsigned b1 = byte(1);
            if (!cont(1) || !cont(2) || !cont(3)) return 0;
            if (b0 == 0xF0 && b1 < 0x90) return 0; // overlong
            if (b0 == 0xF4 && b1 >= 0x90) return 0; // above U+10FFFF
            return 4;
        }
        return 0;
    }

    status_t parse_string(std::string &out) {
        ++pos_; // opening quote
        out.clear();
        for (;;) {
            if (out.size() > lim_.max_string)
                return error("string longer than %zu bytes (limit)",
                        lim_.max_string);
            if (at_end()) return error("unterminated string");
            unsigned char c = (unsigned char)s_[pos_];
            if (c == '"') {
                ++pos_;
                return dnnl_success;
            }
            if (c < 0x20)
                return error("control character 0x%02X in string (must be "
                             "escaped)",
                        c);
            if (c >= 0x80) {
                size_t n = utf8_length();
                if (n == 0) return error("invalid UTF-8 byte 0x%02X in string", c);
                out.append(s_, pos_, n);
                pos_ += n;
                continue;
            }
            if (c != '\\') {
                // Copy the run of plain characters in one go.
                size_t end = pos_;
                while (end < s_.size()) {
                    unsigned char e = (unsigned char)s_[end];
                    if (e == '"' || e == '\\' || e < 0x20 || e >= 0x80) break;
                    ++end;
                }
                out.append(s_, pos_, end - pos_);
                pos_ = end;
                continue;
            }
            ++pos_; // backslash
            char e = peek();
            const char *simple = "\"\\/bfnrt";
            const char *mapped = "\"\\/\b\f\n\r\t";
            const char *hit = e ? std::strchr(simple, e) : nullptr;
            if (hit) {
                out += mapped[hit - simple];
                ++pos_;
                continue;
            }
            if (e != 'u')
                return error("invalid escape '\\%s' in string",
                        describe_char().c_str());
            ++pos_;
            uint32_t cu;
            LLGA_RETURN_IF_ERROR(read_hex4(cu));
            if (cu >= 0xDC00 && cu <= 0xDFFF)
                return error("unpaired low surrogate \\u%04X in string", cu);
            if (cu >= 0xD800 && cu <= 0xDBFF) {
                if (!consume_word("\\u"))
                    return error("high surrogate \\u%04X not followed by a "
                                 "low surrogate",
                            cu);
                uint32_t lo;
                LLGA_RETURN_IF_ERROR(read_hex4(lo));
                if (lo < 0xDC00 || lo > 0xDFFF)
                    return error("high surrogate \\u%04X followed by \\u%04X, "
                                 "not a low surrogate",
                            cu, lo);
                cu = 0x10000 + ((cu - 0xD800) << 10) + (lo - 0xDC00);
            }
            append_utf8(out, cu);
        }
    }

    status_t parse_array(value_t &v, size_t depth) {
        v.type = type_t::array;
        ++pos_; // '['
        skip_ws();
        if (peek() == ']') {
            ++pos_;
            return dnnl_success;
        }
        for (;;) {
            v.items.emplace_back();
            LLGA_RETURN_IF_ERROR(parse_value(v.items.back(), depth));
            skip_ws();
            char c = peek();
            ++pos_;
            if (c == ']') return dnnl_success;
            if (c != ',') {
                --pos_;
                return error("expected ',' or ']' in array, got %s",
                        describe_char().c_str());
            }
            skip_ws();
            if (peek() == ']') return error("trailing comma in array");
        }
    }

    status_t parse_object(value_t &v, size_t depth) {
        v.type = type_t::object;
        ++pos_; // '{'
        skip_ws();
        if (peek() == '}') {
            ++pos_;
            return dnnl_success;
        }
        // Small objects (every object of a graph dump) check duplicates by a
        // linear scan; large ones switch to a hash set so input with many
        // keys stays linear time.
        std::unordered_set<std::string> seen;
        for (;;) {
            if (peek() == '}') return error("trailing comma in object");
            if (peek() != '"')
                return error("expected a string key, got %s",
                        describe_char().c_str());
            size_t key_pos = pos_; // keys hold no raw newline: same line
            std::string key;
            LLGA_RETURN_IF_ERROR(parse_string(key));
            bool dup = false;
            if (v.members.size() < 16) {
                for (const auto &m : v.members)
                    if (m.key == key) dup = true;
            } else {
                if (seen.empty())
                    for (const auto &m : v.members)
                        seen.insert(m.key);
                dup = !seen.insert(key).second;
            }
            if (dup) {
                pos_ = key_pos; // point at the key, not past it
                return error("duplicate key '%.64s' in object", key.c_str());
            }
            skip_ws();
            if (peek() != ':')
                return error("expected ':' after object key, got %s",
                        describe_char().c_str());
            ++pos_;
            skip_ws();
            v.members.push_back(member_t {std::move(key), value_t()});
            LLGA_RETURN_IF_ERROR(parse_value(v.members.back().value, depth));
            skip_ws();
            char c = peek();
            if (c == '}') {
                ++pos_;
                return dnnl_success;
            }
            if (c != ',')
                return error("expected ',' or '}' in object, got %s",
                        describe_char().c_str());
            ++pos_;
            skip_ws();
        }
    }
};

// ------------------------------------------------------------ serializer --

void write_string(std::string &out, const std::string &s) {
    out += '"';
    for (unsigned char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof(buf), "\\u%04X", c);
                    out += buf;
                } else {
                    out += (char)c;
                }
        }
    }
    out += '"';
}

void newline(std::string &out, int indent, int level) {
    if (indent < 0) return;
    out += '\n';
    out.append((size_t)indent * (size_t)level, ' ');
}

void write_value(std::string &out, const value_t &v, int indent, int level) {
    switch (v.type) {
        case type_t::null: out += "null"; return;
        case type_t::boolean: out += v.b ? "true" : "false"; return;
        case type_t::number:
            // Numbers built without text (not by the builders) fall back to
            // the integer or a round-trip double rendering.
            if (!v.text.empty()) {
                out += v.text;
            } else if (v.integral) {
                out += std::to_string(v.i);
            } else {
                char buf[64];
                auto r = std::to_chars(buf, buf + sizeof(buf), v.d);
                out.append(buf, r.ptr);
            }
            return;
        case type_t::string: write_string(out, v.text); return;
        case type_t::array:
            if (v.items.empty()) {
                out += "[]";
                return;
            }
            out += '[';
            for (size_t k = 0; k < v.items.size(); ++k) {
                if (k) out += ',';
                newline(out, indent, level + 1);
                write_value(out, v.items[k], indent, level + 1);
            }
            newline(out, indent, level);
            out += ']';
            return;
        case type_t::object:
            if (v.members.empty()) {
                out += "{}";
                return;
            }
            out += '{';
            for (size_t k = 0; k < v.members.size(); ++k) {
                if (k) out += ',';
                newline(out, indent, level + 1);
                write_string(out, v.members[k].key);
                out += indent < 0 ? ":" : ": ";
                write_value(out, v.members[k].value, indent, level + 1);
            }
            newline(out, indent, level);
            out += '}';
            return;
    }
}

bool numbers_equal(const value_t &a, const value_t &b) {
    if (a.integral && b.integral) return a.i == b.i;
    if (std::isnan(a.d) && std::isnan(b.d)) return true;
    return a.d == b.d;
}

bool equal_at(const value_t &a, const value_t &b, std::string &path) {
    if (a.type != b.type) return false;
    switch (a.type) {
        case type_t::null: return true;
        case type_t::boolean: return a.b == b.b;
        case type_t::number: return numbers_equal(a, b);
        case type_t::string: return a.text == b.text;
        case type_t::array: {
            if (a.items.size() != b.items.size()) return false;
            size_t base = path.size();
            for (size_t k = 0; k < a.items.size(); ++k) {
                path += "[" + std::to_string(k) + "]";
                if (!equal_at(a.items[k], b.items[k], path)) return false;
                path.resize(base);
            }
            return true;
        }
        case type_t::object: {
            if (a.members.size() != b.members.size()) return false;
            size_t base = path.size();
            for (const auto &m : a.members) {
                path += (base ? "." : "") + m.key;
                const value_t *other = b.find(m.key);
                if (!other || !equal_at(m.value, *other, path)) return false;
                path.resize(base);
            }
            return true;
        }
    }
    return false;
}

} // namespace

// --------------------------------------------------------------- builders --

value_t value_t::make_bool(bool v) {
    value_t r;
    r.type = type_t::boolean;
    r.b = v;
    return r;
}

value_t value_t::make_int(int64_t v) {
    value_t r;
    r.type = type_t::number;
    r.text = std::to_string(v);
    r.integral = true;
    r.i = v;
    r.d = (double)v;
    return r;
}

value_t value_t::make_uint(uint64_t v) {
    value_t r;
    r.type = type_t::number;
    r.text = std::to_string(v);
    classify_number(r);
    return r;
}

value_t value_t::make_f32(float v) {
    value_t r;
    r.type = type_t::number;
    if (std::isnan(v)) {
        r.text = "nan";
    } else {
        // Shortest text that converts back to the same float (C++17
        // to_chars guarantee), e.g. 0.0351562 or 1e-05; ±inf prints as
        // "inf"/"-inf".
        char buf[64];
        auto res = std::to_chars(buf, buf + sizeof(buf), v);
        r.text.assign(buf, res.ptr);
    }
    classify_number(r);
    return r;
}

value_t value_t::make_string(std::string v) {
    value_t r;
    r.type = type_t::string;
    r.text = std::move(v);
    return r;
}

value_t value_t::make_array() {
    value_t r;
    r.type = type_t::array;
    return r;
}

value_t value_t::make_object() {
    value_t r;
    r.type = type_t::object;
    return r;
}

const value_t *value_t::find(const std::string &key) const {
    if (type != type_t::object) return nullptr;
    for (const auto &m : members)
        if (m.key == key) return &m.value;
    return nullptr;
}

value_t &value_t::add(const std::string &key, value_t v) {
    members.push_back(member_t {key, std::move(v)});
    return members.back().value;
}

value_t &value_t::push(value_t v) {
    items.push_back(std::move(v));
    return items.back();
}

float as_f32(const value_t &v) {
    if (v.type != type_t::number) return 0.f;
    double special;
    if (special_token(v.text, &special)) return (float)special;
    if (v.text.empty()) return v.integral ? (float)v.i : (float)v.d;
    // Convert from the decimal text directly: going through double first
    // could round twice and miss the float nearest to the text.
    float f = 0.f;
    const std::string &t = v.text;
    auto r = std::from_chars(t.data(), t.data() + t.size(), f);
    if (r.ec == std::errc::result_out_of_range) {
        bool neg = !t.empty() && t[0] == '-';
        f = overflowed(t) ? std::numeric_limits<float>::infinity() : 0.f;
        if (neg) f = -f;
    } else if (r.ec != std::errc()) {
        f = (float)v.d;
    }
    return f;
}

// ------------------------------------------------------------ entry points --

status_t parse(const std::string &text, value_t &out,
        const std::string &source_name, const limits_t &limits) {
    out = value_t();
    parser_t p(text, source_name, limits);
    status_t st = p.run(out);
    if (st != dnnl_success) out = value_t(); // no half-built documents
    return st;
}

std::string serialize(const value_t &v, int indent) {
    std::string out;
    write_value(out, v, indent, 0);
    return out;
}

bool equal(const value_t &a, const value_t &b, std::string *where) {
    std::string path;
    bool eq = equal_at(a, b, path);
    if (!eq && where) *where = path.empty() ? std::string("(root)") : path;
    return eq;
}

} // namespace json
} // namespace ir
} // namespace llga
