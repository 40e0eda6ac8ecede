// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/common/broadcast_runs.hpp — a numpy broadcast as runs:
// the output's dims in its memory order, merged where every operand has the
// same broadcast pattern and stays contiguous; the innermost merged dim is the
// run a loop (or a generated function) covers, the others are walked with each
// operand's element strides (0 where it is broadcast). Shared by the generated
// binary ops (eltwise.cpp) and the C++ broadcast ops (PReLU, GreaterEqual,
// Select, GenIndex), so every kernel splits work the same way.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/c_types.hpp"
#include "base/parallel.hpp"

namespace llga {
namespace cpu {
namespace common {

// Operand 0 is the output, operand k + 1 input k.
constexpr size_t k_max_operands = 4;

struct runs_t {
    int64_t inner = 1;                // elements in one run
    std::vector<int64_t> inner_step;  // per operand: stride along the run
    std::vector<int64_t> outer;       // outer extents, outermost first
    std::vector<std::vector<int64_t>> outer_step; // [operand][outer dim]
    size_t operands() const { return inner_step.size(); }
    int64_t outer_count() const {
        int64_t n = 1;
        for (int64_t e : outer)
            n *= e;
        return n;
    }
};

// Fills `r` for the inputs `ins` broadcast (numpy, right-aligned; an input
// may have extra leading unit dims) to `out`; false with the reason when an
// input does not broadcast to it, strides are unknown or there are more
// than k_max_operands - 1 inputs. Any strides: a run may be strided in an
// operand (the output's too); the caller declines what it cannot loop over.
// A single-element output is one run of length 1 with unit steps.
bool plan(const logical_tensor_t &out, const std::vector<logical_tensor_t> &ins,
        runs_t &r, std::string *why);

// Runs f(off, len) on llga::parallel_for for every piece of a run, pieces
// of at most `chunk` elements: off[k] is operand k's element offset at the
// piece's first element (outer offsets plus the piece start times the
// run step), len the piece's length. Tasks are (outer position, piece), so
// one long run still feeds every thread.
template <typename F>
void for_each_piece(const runs_t &r, int64_t chunk, F &&f) {
    const int64_t pieces = (r.inner + chunk - 1) / chunk;
    const int64_t grain = std::max<int64_t>(1, chunk / std::max<int64_t>(r.inner, 1));
    const size_t nk = r.operands();
    parallel_for(r.outer_count() * pieces, grain, [&](int64_t lo, int64_t hi) {
        int64_t off[k_max_operands];
        for (int64_t t = lo; t < hi; ++t) {
            const int64_t o = t / pieces, p = t % pieces * chunk;
            for (size_t k = 0; k < nk; ++k)
                off[k] = p * r.inner_step[k];
            int64_t rest = o;
            for (size_t i = r.outer.size(); i-- > 0;) {
                const int64_t idx = rest % r.outer[i];
                rest /= r.outer[i];
                for (size_t k = 0; k < nk; ++k)
                    off[k] += idx * r.outer_step[k][i];
            }
            f(static_cast<const int64_t *>(off), std::min(chunk, r.inner - p));
        }
    });
}

// Index maps along a run for the loops: element t of the run is at t * S.
// fixed_t<0> (a broadcast value) and fixed_t<1> (contiguous) are known to
// the compiler, so it vectorizes; step_t is the general stride.
template <int64_t S>
struct fixed_t {
    int64_t operator()(int64_t t) const { return t * S; }
};
struct step_t {
    int64_t s;
    int64_t operator()(int64_t t) const { return t * s; }
};

namespace detail {
template <size_t N, typename B, typename... I>
void dispatch_fixed(const int64_t *s, B &body, I... idx) {
    if constexpr (sizeof...(I) == N) {
        body(idx...);
    } else {
        if (s[sizeof...(I)] == 0)
            dispatch_fixed<N>(s, body, idx..., fixed_t<0>());
        else
            dispatch_fixed<N>(s, body, idx..., fixed_t<1>());
    }
}
template <typename B, size_t... K>
void call_steps(const int64_t *s, B &body, std::index_sequence<K...>) {
    body(step_t {s[K]}...);
}
} // namespace detail

// body(i_0, ..., i_{N-1}) with one index map per run step s[k]: fixed ones
// when every step is 0 or 1 (2^N instantiations of the body), step_t for
// all of them otherwise (one more).
template <size_t N, typename B>
void with_steps(const int64_t *s, B &&body) {
    for (size_t k = 0; k < N; ++k)
        if (s[k] != 0 && s[k] != 1)
            return detail::call_steps(s, body, std::make_index_sequence<N>());
    detail::dispatch_fixed<N>(s, body);
}

} // namespace common
} // namespace cpu
} // namespace llga
