// SPDX-License-Identifier: Apache-2.0
// backends/cpu/cpu_backend.cpp — expands kernels.def into the kernels' hook
// declarations and the candidate list, and picks the first available,
// accepting candidate for a plan.
#include "backends/cpu/cpu_backend.hpp"

#include <string>

#include "backends/cpu/isa.hpp"
#include "base/status.hpp"
#include "base/verbose.hpp"

namespace llga {
namespace cpu {

// The hooks every row names, declared from the table itself (each family
// defines them in its folder), so this file includes no kernel header.
#define LLGA_CPU_KERNEL(name, family, isa, accepts, create) \
    namespace family { \
    bool accepts(const compiler::plan_t &, isa_t, std::string *); \
    status_t create(const compiler::plan_t &, isa_t, \
            std::shared_ptr<const compiler::kernel_t> &); \
    }
#include "backends/cpu/kernels.def"
#undef LLGA_CPU_KERNEL

namespace {

using accepts_fn_t = bool (*)(const compiler::plan_t &, isa_t, std::string *);
using create_fn_t = status_t (*)(const compiler::plan_t &, isa_t,
        std::shared_ptr<const compiler::kernel_t> &);

struct candidate_t {
    const char *name;
    isa_t isa;
    accepts_fn_t accepts;
    create_fn_t create;
};

const candidate_t k_candidates[] = {
#define LLGA_CPU_KERNEL(name, family, isa, accepts, create) \
    {#name, isa_t::isa, family::accepts, family::create},
#include "backends/cpu/kernels.def"
#undef LLGA_CPU_KERNEL
};

// First candidate that can run the plan; with `explain`, ONEDNN_VERBOSE=
// dispatch gets one line per candidate that declined and why.
const candidate_t *select(const compiler::plan_t &plan, bool explain) {
    const bool talk = explain && verbose_on(vflag_dispatch);
    const size_t pid = plan.partition ? plan.partition->id : 0;
    for (const candidate_t &c : k_candidates) {
        if (!isa_available(c.isa)) {
            if (talk)
                LLGA_VDISPATCH("cpu_kernel",
                        "partition %zu: %s declined: isa %s not available "
                        "(host or max %s)",
                        pid, c.name, isa_name(c.isa), isa_name(max_isa()));
            continue;
        }
        std::string why;
        if (c.accepts(plan, c.isa, talk ? &why : nullptr)) return &c;
        if (talk)
            LLGA_VDISPATCH("cpu_kernel", "partition %zu: %s declined: %s", pid,
                    c.name, why.c_str());
    }
    return nullptr;
}

class cpu_backend_t : public compiler::backend_t {
public:
    const char *name() const override { return "cpu"; }
    bool supports(const compiler::plan_t &plan) const override {
        return select(plan, true) != nullptr;
    }
    status_t compile(const compiler::plan_t &plan,
            std::shared_ptr<const compiler::kernel_t> &out) const override {
        const candidate_t *c = select(plan, false);
        if (!c)
            return fail(dnnl_unimplemented,
                    "cpu backend: no kernel candidate accepts this partition");
        return c->create(plan, c->isa, out);
    }
    // The ISA cap (ONEDNN_MAX_CPU_ISA or the test hook) changes which
    // candidate compile() picks, so it is part of the compiled-partition
    // cache key: lowering the cap must not return a kernel built above it.
    std::string config_key() const override {
        return std::string("isa=") + isa_name(best_available_isa());
    }
};

} // namespace

std::vector<candidate_row_t> candidate_rows() {
    std::vector<candidate_row_t> rows;
    for (const candidate_t &c : k_candidates)
        rows.push_back({c.name, c.isa});
    return rows;
}

const char *picked_candidate(const compiler::plan_t &plan) {
    const candidate_t *c = select(plan, false);
    return c ? c->name : nullptr;
}

const compiler::backend_t &cpu_backend() {
    static const cpu_backend_t b;
    return b;
}

} // namespace cpu
} // namespace llga
