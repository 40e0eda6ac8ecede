// SPDX-License-Identifier: Apache-2.0
// tools/bench/sample_check.hpp — the result check the compute benchmarks
// share: each row compares a sample of its outputs against an independent
// computation after its timed runs, and the program's last lines say
// whether every row passed (exit status 1 when one did not).
#pragma once

#include <cstdio>

namespace llga_bench {

// Outputs each row checks after its timed runs.
constexpr int k_check_samples = 64;

// The closing lines: `bad_rows` rows computed wrong results (against
// `reference`, e.g. "plain loops"); returns the exit status. `checked`:
// whether the rows' outputs were checked at all.
inline int report_checks(int bad_rows, const char *reference,
        bool checked = true) {
    if (bad_rows) {
        std::printf("\n%d row(s) computed WRONG results (sampled outputs "
                    "against %s)\n",
                bad_rows, reference);
        return 1;
    }
    if (checked)
        std::printf("\nevery row's sampled outputs (%d each) match %s\n",
                k_check_samples, reference);
    return 0;
}

} // namespace llga_bench
