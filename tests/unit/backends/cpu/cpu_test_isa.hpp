// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/cpu_test_isa.hpp — what every JIT suite needs to run
// a test at each ISA level: the max-ISA guard (restores the default at scope
// exit) and the subset of a list of levels this host supports.
#pragma once

#include <initializer_list>
#include <vector>

#include "backends/cpu/isa.hpp"

namespace llga {
namespace cpu {
namespace test_isa {

struct isa_guard_t {
    explicit isa_guard_t(isa_t i) { set_max_isa_for_testing(i); }
    ~isa_guard_t() { reset_max_isa_for_testing(); }
    isa_guard_t(const isa_guard_t &) = delete;
    isa_guard_t &operator=(const isa_guard_t &) = delete;
};

// The levels of `wanted` the host has, in the order given.
inline std::vector<isa_t> host_levels(std::initializer_list<isa_t> wanted) {
    std::vector<isa_t> v;
    for (isa_t i : wanted)
        if (host_supports(i)) v.push_back(i);
    return v;
}

} // namespace test_isa
} // namespace cpu
} // namespace llga
