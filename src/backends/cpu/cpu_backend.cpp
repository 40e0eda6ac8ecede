// backends/cpu/cpu_backend.cpp — expands kernels.def into the candidate list
// and picks the first available, accepting candidate for a plan.
#include "backends/cpu/cpu_backend.hpp"

#include <string>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/batchnorm.hpp"
#include "backends/cpu/kernels/batchnorm_bwd.hpp"
#include "backends/cpu/kernels/conv_bwd.hpp"
#include "backends/cpu/kernels/conv.hpp"
#include "backends/cpu/kernels/conv_int8.hpp"
#include "backends/cpu/kernels/eltwise.hpp"
#include "backends/cpu/kernels/eltwise_exact.hpp"
#include "backends/cpu/kernels/fpmath_round.hpp"
#include "backends/cpu/kernels/gen_index.hpp"
#include "backends/cpu/kernels/eltwise_chain.hpp"
#include "backends/cpu/kernels/interpolate.hpp"
#include "backends/cpu/kernels/layernorm.hpp"
#include "backends/cpu/kernels/layernorm_bwd.hpp"
#include "backends/cpu/kernels/matmul.hpp"
#include "backends/cpu/kernels/concat_quant.hpp"
#include "backends/cpu/kernels/movement.hpp"
#include "backends/cpu/kernels/pool.hpp"
#include "backends/cpu/kernels/pool_int8.hpp"
#include "backends/cpu/kernels/pool_bwd.hpp"
#include "backends/cpu/kernels/prelu.hpp"
#include "backends/cpu/kernels/reduce.hpp"
#include "backends/cpu/kernels/softmax_bwd.hpp"
#include "backends/cpu/kernels/matmul_int8.hpp"
#include "backends/cpu/kernels/quant.hpp"
#include "backends/cpu/kernels/quant_dynamic.hpp"
#include "backends/cpu/kernels/sdpa.hpp"
#include "backends/cpu/kernels/select_compare.hpp"
#include "backends/cpu/kernels/softmax.hpp"
#include "backends/cpu/kernels/staged.hpp"
#include "base/status.hpp"
#include "base/verbose.hpp"

namespace llga {
namespace cpu {

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
#define LLGA_CPU_KERNEL(name, isa, accepts, create) \
    {#name, isa_t::isa, accepts, create},
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

const compiler::backend_t &cpu_backend() {
    static const cpu_backend_t b;
    return b;
}

} // namespace cpu
} // namespace llga
