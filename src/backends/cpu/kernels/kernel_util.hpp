// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/kernel_util.hpp — small helpers the GEMM and conv
// drivers share: integer rounding of block counts, the decline helper of
// the kernels' plan analyses, whether a matrix's own
// rows can feed AMX tile loads, the growable, 64-byte aligned scratch
// buffer each thread keeps for packing, the ISA check of the
// vector-loop families, the accepts/create hooks built from a family's
// plan analysis, and the per-thread scratch stack of per-call copies.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/isa.hpp"
#include "base/status.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {

inline int64_t div_up(int64_t a, int64_t b) { return (a + b - 1) / b; }

// A kernel's accepts()/analysis saying no: the reason goes to *why (when
// the caller asks for it) and the result is false.
inline bool decline(std::string *why, const std::string &msg) {
    if (why) *why = msg;
    return false;
}
// The same with the family's prefix ("SDPA: ").
inline bool decline(
        std::string *why, const char *prefix, const std::string &msg) {
    if (why) *why = prefix + msg;
    return false;
}

// The vector-loop families (eltwise, chains, quant, softmax, norms)
// generate code for avx2 and avx512_core only; false with the reason in
// *why for any other kernels.def level.
inline bool vector_loop_isa(isa_t isa, std::string *why) {
    if (isa == isa_t::avx512_core || isa == isa_t::avx2) return true;
    if (why) *why = std::string("no generator for ") + isa_name(isa);
    return false;
}
inline int64_t round_up(int64_t a, int64_t b) { return div_up(a, b) * b; }

// Whether rows starting at `p`, `stride` bytes apart, can be read in place
// by AMX tile loads (16 rows of 64 bytes): every row starts a cache line,
// and the stride spreads 16 rows over at least 8 of the 64 L1 sets (a
// stride of 1 or 4 KB would stack them in 4 or 1 sets, so each tile load
// would evict its own rows).
inline bool tile_rows_in_place(const void *p, int64_t stride) {
    if (reinterpret_cast<uintptr_t>(p) % 64 != 0 || stride <= 0
            || stride % 64 != 0)
        return false;
    const int64_t lines = stride / 64;
    int64_t g = 64; // gcd(lines, 64)
    while (lines % g != 0)
        g /= 2;
    return g <= 8;
}

// The accepts()/create() hooks of a family whose plan analysis fills a
// layout `L` (bool analyse(plan, L &, std::string *why)) from which its
// kernel `K` is constructed.
template <typename L, typename F>
bool accepts_by(const compiler::plan_t &plan, std::string *why, F analyse) {
    L l;
    return analyse(plan, l, why);
}
template <typename L, typename K, typename F>
status_t create_by(const compiler::plan_t &plan, const char *family,
        F analyse, std::shared_ptr<const compiler::kernel_t> &out) {
    L l;
    std::string why;
    if (!analyse(plan, l, &why))
        return fail(dnnl_unimplemented, "cpu %s: %s", family, why.c_str());
    out = std::make_shared<K>(std::move(l));
    return dnnl_success;
}

// Grows (never shrinks) to the largest size asked for, in whole pages;
// the contents do not survive a growth.
struct aligned_buf_t {
    void *p = nullptr;
    size_t size = 0;
    aligned_buf_t() = default;
    aligned_buf_t(const aligned_buf_t &) = delete;
    aligned_buf_t &operator=(const aligned_buf_t &) = delete;
    ~aligned_buf_t() { std::free(p); }
    void *get(size_t bytes) {
        if (bytes > size) {
            std::free(p);
            size = static_cast<size_t>(
                    round_up(static_cast<int64_t>(bytes), 4096));
            p = std::aligned_alloc(64, size);
        }
        return p;
    }
};

// Per-thread scratch that only grows, taken as a stack: a kernel call
// takes buffers through a frame and the frame gives them back when it
// goes out of scope, so a call nested on the same thread (an inner kernel,
// or a task the scheduler runs while this one waits) never shares them.
// A fresh multi-MiB allocation per call pays a page fault per 4 KiB (the
// bf16 gated MLP through the staged kernel: 554 ms with per-call vectors,
// 75 ms with this). The contents are not initialized.
class scratch_frame_t {
public:
    scratch_frame_t() : base_(depth()) {}
    ~scratch_frame_t() { depth() = base_; }
    scratch_frame_t(const scratch_frame_t &) = delete;
    scratch_frame_t &operator=(const scratch_frame_t &) = delete;
    void *take(size_t bytes) {
        auto &p = pool();
        size_t &d = depth();
        if (d == p.size()) p.emplace_back(new aligned_buf_t);
        return p[d++]->get(bytes);
    }

private:
    static std::vector<std::unique_ptr<aligned_buf_t>> &pool() {
        thread_local std::vector<std::unique_ptr<aligned_buf_t>> p;
        return p;
    }
    static size_t &depth() {
        thread_local size_t d = 0;
        return d;
    }
    size_t base_;
};

} // namespace cpu
} // namespace llga
