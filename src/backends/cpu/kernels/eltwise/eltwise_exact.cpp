// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/eltwise/eltwise_exact.cpp — see eltwise_exact.hpp.
#include "backends/cpu/kernels/eltwise/eltwise_exact.hpp"

#include <algorithm>
#include <vector>

#include "backends/cpu/kernels/common/convert_rows.hpp"
#include "backends/cpu/kernels/common/elem_io.hpp"
#include "backends/cpu/kernels/data/movement.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/eltwise_math.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace cpu {
namespace eltwise_exact {

namespace {

// Elements per task: the formulas cost tens of nanoseconds each.
constexpr int64_t k_grain = 2048;
// 16-bit tensors are converted this many elements at a time, into f32
// buffers on the stack (L1).
constexpr int64_t k_chunk = 512;

using ops::eltwise::params_t;
// out[i] = f32(formula(a[i] [, b[i]])) for i < n.
using loop_fn_t = void (*)(const float *a, const float *b, float *out,
        int64_t n, const params_t &p);

// The formula inlined into its loop: called through a pointer per element
// it cost more than the memory traffic (ReLUBackward on 12.8M elements,
// 2 threads: 20 ms), and the simple ones now vectorise. The avx2 target
// has no FMA, so nothing is contracted and every result stays the
// reference's, bit for bit.
template <ops::eltwise::fwd_fn_t F>
__attribute__((target("avx2"))) void fwd_loop(const float *a, const float *,
        float *out, int64_t n, const params_t &p) {
    for (int64_t i = 0; i < n; ++i)
        out[i] = static_cast<float>(F(a[i], p));
}
template <ops::eltwise::bwd_fn_t G>
__attribute__((target("avx2"))) void bwd_loop(const float *a, const float *b,
        float *out, int64_t n, const params_t &p) {
    for (int64_t i = 0; i < n; ++i)
        out[i] = static_cast<float>(G(a[i], b[i], p));
}

loop_fn_t loop_of(op_kind_t kind) {
    switch (kind) {
#define LLGA_FWD(k, f) \
    case dnnl_graph_op_##k: return &fwd_loop<ops::eltwise::f>;
#define LLGA_BWD(k, f) \
    case dnnl_graph_op_##k: return &bwd_loop<ops::eltwise::f>;
        LLGA_ELTWISE_FWD_FORMULAS(LLGA_FWD)
        LLGA_ELTWISE_BWD_FORMULAS(LLGA_BWD)
#undef LLGA_FWD
#undef LLGA_BWD
        default: return nullptr;
    }
}

struct layout_t {
    std::string name;
    bool bwd = false; // a backward op (2 inputs)
    loop_fn_t loop = nullptr;
    params_t params;
    int in[2] = {-1, -1}, out = -1;
    data_type_t in_dt[2] = {dnnl_f32, dnnl_f32}, out_dt = dnnl_f32;
    int64_t n = 0;
    // Inputs copied into the output's order first.
    movement::relayout_t reorder[2];
};

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *single = compiler::single_op(plan, why);
    if (!single) return false;
    const ir::op_t &op = *single;
    const char *kname = ops::op_kind_name(op.kind);
    const std::string kind = kname ? kname : "?";
    l.bwd = ops::eltwise::backward_fn(op.kind) != nullptr;
    // Forward ops the generated family runs are left to it (its line comes
    // first); this one only takes those it cannot.
    bool fwd = false;
    switch (op.kind) {
        case dnnl_graph_op_log:
        case dnnl_graph_op_mish:
        case dnnl_graph_op_softplus:
        case dnnl_graph_op_pow:
        case dnnl_graph_op_reciprocal: fwd = true; break;
        default: break;
    }
    l.loop = fwd || l.bwd ? loop_of(op.kind) : nullptr;
    if (!l.loop)
        return decline(why, kind + " is not an exact-formula elementwise op");
    const size_t nin = l.bwd ? 2 : 1;
    if (op.inputs.size() != nin || op.outputs.size() != 1)
        return decline(why, kind + ": unexpected port count");
    const logical_tensor_t &o = op.outputs[0];
    if (!ir::is_dense_any_order(o))
        return decline(why, kind + ": the output is not dense");
    l.n = ir::nelems(o);
    for (size_t k = 0; k < nin; ++k) {
        const logical_tensor_t &lt = op.inputs[k];
        if (!common::is_fp(lt.data_type) || !common::is_fp(o.data_type))
            return decline(why, kind + ": only f32, bf16 and f16");
        if (ir::dims_of(lt) != ir::dims_of(o) || !ir::strides_known(lt))
            return decline(why, kind + ": input " + std::to_string(k)
                            + " is not shaped like the output");
        l.in_dt[k] = lt.data_type;
        if (!ir::same_layout(lt, o))
            l.reorder[k] = movement::relayout(
                    lt, o, ir::dtype_storage_bytes(lt.data_type, 1));
        l.in[k] = compiler::find_port(plan.inputs, lt.id);
        if (l.in[k] < 0) return decline(why, kind + ": input is not a port");
    }
    l.out = compiler::find_port(plan.outputs, o.id);
    if (l.out < 0) return decline(why, kind + ": output is not a port");
    l.out_dt = o.data_type;
    l.params = ops::eltwise::params_of(op);
    // Named by the output type, or by the inputs' when they differ.
    data_type_t named = o.data_type;
    for (size_t k = 0; k < nin; ++k)
        if (l.in_dt[k] != dnnl_f32) named = l.in_dt[k];
    l.name = std::string("exact_") + kind + "_" + ir::dtype_name(named);
    return true;
}

class exact_kernel_t : public compiler::kernel_t {
public:
    explicit exact_kernel_t(layout_t l) : l_(std::move(l)) {}
    const char *name() const override { return l_.name.c_str(); }

    // Both inputs of element i are read before diff_src[i] / dst[i] is
    // written (a chunk's inputs are widened before its outputs are
    // stored), so the declared in-place pairs are safe.
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const int nin = l_.bwd ? 2 : 1;
        const void *in[2] = {nullptr, nullptr};
        scratch_frame_t frame;
        for (int k = 0; k < nin; ++k)
            in[k] = l_.reorder[k].apply(ctx.inputs[l_.in[k]], frame);
        void *out = ctx.outputs[l_.out];
        const bool all_f32 = l_.out_dt == dnnl_f32 && l_.in_dt[0] == dnnl_f32
                && (nin == 1 || l_.in_dt[1] == dnnl_f32);
        parallel_for(l_.n, k_grain, [&](int64_t lo, int64_t hi) {
            if (all_f32) {
                run(static_cast<const float *>(in[0]) + lo,
                        nin == 2 ? static_cast<const float *>(in[1]) + lo
                                 : nullptr,
                        static_cast<float *>(out) + lo, hi - lo);
                return;
            }
            // bf16/f16 ports: through f32 chunks. Each result is rounded
            // to f32 and then to the port's type, as the reference stores
            // its double results.
            alignas(64) float x[2][k_chunk], y[k_chunk];
            for (int64_t c = lo; c < hi; c += k_chunk) {
                const int64_t w = std::min(k_chunk, hi - c);
                const float *xs[2] = {nullptr, nullptr};
                for (int k = 0; k < nin; ++k) {
                    if (l_.in_dt[k] == dnnl_f32) {
                        xs[k] = static_cast<const float *>(in[k]) + c;
                        continue;
                    }
                    common::widen_row(static_cast<const uint16_t *>(in[k]) + c,
                            l_.in_dt[k], w, x[k]);
                    xs[k] = x[k];
                }
                if (l_.out_dt == dnnl_f32) {
                    run(xs[0], xs[1], static_cast<float *>(out) + c, w);
                    continue;
                }
                run(xs[0], xs[1], y, w);
                common::narrow_row(y, w, static_cast<uint16_t *>(out) + c, l_.out_dt);
            }
        });
        return dnnl_success;
    }

private:
    void run(const float *a, const float *b, float *out, int64_t n) const {
        l_.loop(a, b, out, n, l_.params);
    }

    layout_t l_;
};

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    (void)isa;
    return accepts_by<layout_t>(plan, why, analyse);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    (void)isa;
    return create_by<layout_t, exact_kernel_t>(
            plan, "eltwise_exact", analyse, out);
}

} // namespace eltwise_exact
} // namespace cpu
} // namespace llga
