// SPDX-License-Identifier: Apache-2.0
// base/verbose.hpp — ONEDNN_VERBOSE in oneDNN v3.9's line format, shared by
// every layer. Flags come from ONEDNN_VERBOSE (read once: oneDNN's words
// none/error/warn/check/dispatch/profile_create/profile_exec/profile/all,
// the legacy levels 0/1/2, and llga's "graph" = profile) unless a program
// calls dnnl_set_verbose(), which wins. Every line is
//   onednn_verbose,v1,[<timestamp>,]<api>,<operation>,<fields...>
// (timestamp with ONEDNN_VERBOSE_TIMESTAMP=1); the header (version,
// runtime, threads, ISA, backends, templates) is printed once before the
// first line. With verbose off a check costs one relaxed atomic load.
// docs/diagnostics.md describes every line.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace llga {

// oneDNN's verbose flag bits.
enum verbose_flag_t : unsigned {
    vflag_error = 1u << 2,
    vflag_check = 1u << 3,
    vflag_dispatch = 1u << 4,
    vflag_profile_create = 1u << 5,
    vflag_profile_exec = 1u << 7,
    vflag_warn = 1u << 9,
};

unsigned verbose_flags();
bool verbose_on(unsigned flag);
// Legacy level: 2 with profile_create, 1 with profile_exec only, else 0.
int verbose_level();
// 0 = none, 1 = profile_exec, 2 = profile (create + exec), as oneDNN.
void set_verbose_level(int level);
void set_verbose_flags(unsigned flags);
bool verbose_timestamp();

// Prints "onednn_verbose,v1,[stamp,]<fields>" as one line when `flag` is on;
// `stamp_ms` (wall_ms() at the start of the event) is printed only with
// ONEDNN_VERBOSE_TIMESTAMP=1.
void verbose_printf(unsigned flag, double stamp_ms, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
// Level form kept for call sites that predate the flags: 1 is
// profile_exec, 2 is profile_create.
void verbose_print(int min_level, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));
// "graph,create:dispatch,<component>,<message>,<file>:<line>" at the
// dispatch flag; commas in the message become ';' so the field count holds.
void verbose_dispatch(const char *component, const char *file, int line,
        const char *fmt, ...) __attribute__((format(printf, 4, 5)));
#define LLGA_VDISPATCH(component, ...) \
    ::llga::verbose_dispatch(component, __FILE__, __LINE__, __VA_ARGS__)

// Text made safe for one verbose field: ',' -> ';', newlines -> ' '.
std::string verbose_field(std::string s);

// Header lines the base layer cannot know (ISA, backends, GPU runtime),
// supplied by the library's top layer: the hook appends lines without the
// "onednn_verbose,v1," prefix, e.g. "info,cpu,isa:Intel AVX2".
using verbose_header_hook_t = void (*)(std::vector<std::string> &lines);
void set_verbose_header_hook(verbose_header_hook_t hook);
// The header lines (with prefix), as printed before the first line.
std::vector<std::string> verbose_header_lines();

double now_ms();  // monotonic, for durations
double wall_ms(); // milliseconds since the Unix epoch, for timestamps

} // namespace llga
