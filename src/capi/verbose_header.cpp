// SPDX-License-Identifier: Apache-2.0
// capi/verbose_header.cpp — the verbose header lines only the top layer can
// know (runtime and thread count, CPU ISA, GPU runtime, the graph backends),
// installed into base/verbose when the library loads.
#include <string>
#include <vector>

#include "backends/cpu/isa.hpp"
#include "base/verbose.hpp"
#include "capi/handles.hpp"
#include "oneapi/dnnl/dnnl_config.h"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace capi {

namespace {

// oneDNN's wording of an ISA level in the "info,cpu,isa:" line.
const char *isa_text(cpu::isa_t isa) {
    using cpu::isa_t;
    switch (isa) {
        case isa_t::sse41: return "Intel SSE4.1";
        case isa_t::avx: return "Intel AVX";
        case isa_t::avx2: return "Intel AVX2";
        case isa_t::avx2_vnni: return "Intel AVX2 with Intel DL Boost";
        case isa_t::avx2_vnni_2:
            return "Intel AVX2 with AVX-VNNI-INT8 and AVX-NE-CONVERT";
        case isa_t::avx512_core: return "Intel AVX-512";
        case isa_t::avx512_core_vnni: return "Intel AVX-512 with Intel DL Boost";
        case isa_t::avx512_core_bf16:
            return "Intel AVX-512 with Intel DL Boost and bfloat16 support";
        case isa_t::avx512_core_fp16:
            return "Intel AVX-512 with float16 and Intel DL Boost and bfloat16 "
                   "support";
        case isa_t::avx512_core_amx:
            return "Intel AVX-512 with Intel AMX";
        case isa_t::avx512_core_amx_fp16:
            return "Intel AVX-512 with Intel AMX with float16";
        default: return "unknown";
    }
}

void header_lines(std::vector<std::string> &lines) {
    lines.push_back("info,cpu,runtime:TBB,nthr:"
            + std::to_string(rt::max_threads()));
    lines.push_back(std::string("info,cpu,isa:")
            + isa_text(cpu::best_available_isa()));
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL
    lines.push_back("info,gpu,runtime:OpenCL");
#else
    lines.push_back("info,gpu,runtime:none");
#endif
    const auto &backends = enabled_backends();
    for (size_t i = 0; i < backends.size(); ++i)
        lines.push_back("info,graph,backend," + std::to_string(i) + ":"
                + backends[i]->name() + "_backend");
}

const bool g_installed = (set_verbose_header_hook(&header_lines), true);

} // namespace

// Referenced from global.cpp so a static link keeps this file.
bool verbose_header_installed() { return g_installed; }

} // namespace capi
} // namespace llga
