// base/verbose.hpp — verbosity level shared by every layer.
// Level comes from ONEDNN_VERBOSE (read once: a number, or oneDNN flags such
// as profile_exec (1), profile_create/profile/all (2), and "graph" (2);
// comma-separated items take the highest) unless a program sets it with
// dnnl_set_verbose(), which wins. Level 1 prints execution lines, level 2
// also partition creation and compilation (docs/diagnostics.md). Level 0
// costs one relaxed atomic load per check.
#pragma once

#include <cstdio>

namespace llga {

int verbose_level();
void set_verbose_level(int level);

// Prints "onednn_verbose,<fields>" to stdout as one line when level >= min.
void verbose_print(int min_level, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

double now_ms();

} // namespace llga
