// tools/run/explain.cpp — --explain / --draw (see explain.hpp).
#include "explain.hpp"

namespace llga_run {

void explain_case(const api_session_t &, const prepared_t &,
        const global_opts_t &, int) {}

} // namespace llga_run
