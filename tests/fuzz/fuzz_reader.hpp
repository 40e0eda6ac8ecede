// SPDX-License-Identifier: Apache-2.0
// tests/fuzz/fuzz_reader.hpp — decodes a fuzz input into choices: each call
// consumes bytes from the front; past the end every call answers 0, so any
// input (even empty) decodes to a valid sequence.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace llga_fuzz {

class reader_t {
public:
    reader_t(const uint8_t *data, size_t size) : p_(data), n_(size) {}
    uint8_t u8() { return n_ ? (--n_, *p_++) : 0; }
    uint32_t below(uint32_t n) { return n ? u8() % n : 0; }
    bool flip() { return u8() & 1; }
    int64_t i64() {
        int64_t v = 0;
        for (int k = 0; k < 8; ++k)
            v = (v << 8) | u8();
        return v;
    }
    template <typename T, size_t N>
    T pick(const T (&table)[N]) {
        return table[below(static_cast<uint32_t>(N))];
    }
    size_t left() const { return n_; }
    const uint8_t *rest() const { return p_; }
    // Fills `out` with the next bytes (zeros past the end).
    void bytes(void *out, size_t len) {
        auto *o = static_cast<uint8_t *>(out);
        const size_t k = len < n_ ? len : n_;
        if (k) std::memcpy(o, p_, k);
        if (len > k) std::memset(o + k, 0, len - k);
        p_ += k;
        n_ -= k;
    }

private:
    const uint8_t *p_;
    size_t n_;
};

} // namespace llga_fuzz
