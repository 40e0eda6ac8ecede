// SPDX-License-Identifier: Apache-2.0
// tools/run/explain.hpp — --explain and --draw: the fusion report of a case's
// graph (llga_graph_explain() in llga.h) as text or JSON, and the graph
// drawn with ops coloured by partition (Graphviz).
#pragma once

#include "api_run.hpp"
#include "options.hpp"
#include "prepare.hpp"

namespace llga_run {

// Prints the report (--explain) and writes the drawing (--draw) for the
// graph `s` built; case `idx` numbers the drawing when several cases run.
void explain_case(const api_session_t &s, const prepared_t &g,
        const global_opts_t &opts, int idx);

} // namespace llga_run
