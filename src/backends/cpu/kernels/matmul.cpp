// backends/cpu/kernels/matmul.cpp — maps a single-op MatMul partition onto
// the JIT GEMM: rank-1 promotion and transpose flags become strides (the
// same reading as the reference in ops/matmul.cpp), batch dims are
// broadcast into per-operand batch strides and folded into M when the
// weights are shared, and the bias is accepted when it is one value per
// output column. Everything else is declined with a reason, and the
// partition falls through to the reference backend.
#include "backends/cpu/kernels/matmul.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <vector>

#include "backends/cpu/kernels/gemm_driver.hpp"
#include "base/status.hpp"
#include "compiler/constant_prep.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace matmul {

namespace {

struct layout_t {
    gemm::gemm_desc_t g;
    int in_a = -1, in_b = -1, in_bias = -1, out = -1;
    data_type_t bias_dt = dnnl_f32;
    int64_t bias_stride = 0; // elements between bias columns (0: one value)
};

// An operand as [batch..., rows, cols] after rank-1 promotion (a promoted
// axis has extent 1 and stride 0) and the transpose flag.
struct operand_t {
    dims_t dims, strides;
    bool promoted = false;
};

operand_t make_operand(const logical_tensor_t &lt, bool transpose,
        bool is_weights) {
    operand_t r;
    const dims_t d = ir::dims_of(lt), s = ir::strides_of(lt);
    if (d.size() == 1) {
        r.promoted = true;
        r.dims = is_weights ? dims_t {d[0], 1} : dims_t {1, d[0]};
        r.strides = is_weights ? dims_t {s[0], 0} : dims_t {0, s[0]};
        return r;
    }
    r.dims = d;
    r.strides = s;
    if (transpose) {
        const size_t n = d.size();
        std::swap(r.dims[n - 1], r.dims[n - 2]);
        std::swap(r.strides[n - 1], r.strides[n - 2]);
    }
    return r;
}

bool analyse(const compiler::plan_t &plan, isa_t isa, layout_t &l,
        std::string *why) {
    auto decline = [&](const std::string &msg) {
        if (why) *why = msg;
        return false;
    };
    const ir::op_t *single = compiler::single_op(plan, why);
    if (!single) return false;
    const ir::op_t &op = *single;
    if (op.kind != dnnl_graph_op_matmul) {
        const char *kname = ops::op_kind_name(op.kind);
        return decline(std::string(kname ? kname : "?") + " is not MatMul");
    }
    if (op.inputs.size() < 2 || op.inputs.size() > 3 || op.outputs.size() != 1)
        return decline("MatMul: unexpected port count");
    for (const auto *v : {&op.inputs, &op.outputs})
        for (const auto &lt : *v) {
            if (!ir::strides_known(lt) || !ir::shape_known(lt))
                return decline("MatMul: tensor " + std::to_string(lt.id)
                        + " has no concrete strided layout");
            if (ir::nelems(lt) == 0)
                return decline("MatMul: tensor " + std::to_string(lt.id)
                        + " is empty");
            if (lt.ndims == 0)
                return decline("MatMul: tensor " + std::to_string(lt.id)
                        + " is a scalar");
        }
    const data_type_t st = op.inputs[0].data_type;
    const data_type_t wt = op.inputs[1].data_type;
    const data_type_t dt = op.outputs[0].data_type;
    if (st != wt)
        return decline("MatMul: src and weights types differ");
    gemm::gemm_desc_t &g = l.g;
    if (st == dnnl_f32) {
        if (dt != dnnl_f32) return decline("MatMul: f32 src needs f32 dst");
        if (op.fpmath != dnnl_fpmath_mode_strict
                && op.fpmath != dnnl_fpmath_mode_any)
            return decline("MatMul: fpmath mode rounds f32 inputs; the JIT "
                           "GEMM computes in strict f32");
        if (isa == isa_t::avx2)
            g.kind = gemm::ukr_kind_t::f32_avx2;
        else if (isa == isa_t::avx512_core)
            g.kind = gemm::ukr_kind_t::f32_avx512;
        else
            return decline(std::string("f32 is handled by the avx512_core/"
                                       "avx2 candidates, not ")
                    + isa_name(isa));
    } else if (st == dnnl_bf16) {
        if (dt != dnnl_f32 && dt != dnnl_bf16)
            return decline("MatMul: bf16 src needs f32 or bf16 dst");
        if (isa == isa_t::avx512_core_amx)
            g.kind = gemm::ukr_kind_t::bf16_amx;
        else if (isa == isa_t::avx512_core_bf16)
            g.kind = gemm::ukr_kind_t::bf16_avx512;
        else
            return decline(std::string("bf16 needs avx512_core_bf16 or "
                                       "avx512_core_amx, not ")
                    + isa_name(isa));
    } else {
        return decline(std::string("MatMul: src type ") + ir::dtype_name(st)
                + " is not f32 or bf16");
    }
    g.dst_bf16 = dt == dnnl_bf16;

    l.in_a = compiler::find_port(plan.inputs, op.inputs[0].id);
    l.in_b = compiler::find_port(plan.inputs, op.inputs[1].id);
    l.out = compiler::find_port(plan.outputs, op.outputs[0].id);
    if (l.in_a < 0 || l.in_b < 0 || l.out < 0)
        return decline("MatMul: a tensor is not a partition port");

    const operand_t a = make_operand(op.inputs[0],
            op.get_bool(dnnl_graph_op_attr_transpose_a), false);
    const operand_t b = make_operand(op.inputs[1],
            op.get_bool(dnnl_graph_op_attr_transpose_b), true);
    const int ar = static_cast<int>(a.dims.size());
    const int br = static_cast<int>(b.dims.size());
    g.M = a.dims[ar - 2];
    g.K = a.dims[ar - 1];
    g.N = b.dims[br - 1];
    if (b.dims[br - 2] != g.K) return decline("MatMul: K mismatch");
    g.sam = a.strides[ar - 2];
    g.sak = a.strides[ar - 1];
    g.sbk = b.strides[br - 2];
    g.sbn = b.strides[br - 1];

    const dims_t ab(a.dims.begin(), a.dims.end() - 2);
    const dims_t bb(b.dims.begin(), b.dims.end() - 2);
    dims_t batch;
    if (!ir::broadcast_shapes(ab, bb, batch))
        return decline("MatMul: batch dims do not broadcast");
    const int nb = static_cast<int>(batch.size());
    auto batch_strides = [&](const operand_t &o) {
        dims_t bs(nb, 0);
        const int ob = static_cast<int>(o.dims.size()) - 2;
        for (int i = 0; i < ob; ++i)
            if (o.dims[i] != 1) bs[nb - ob + i] = o.strides[i];
        return bs;
    };
    const dims_t abs_ = batch_strides(a), bbs = batch_strides(b);

    // dst is [batch..., M (unless src was rank 1), N (unless weights were)].
    const dims_t dd = ir::dims_of(op.outputs[0]);
    const dims_t ds = ir::strides_of(op.outputs[0]);
    dims_t expect = batch;
    if (!a.promoted) expect.push_back(g.M);
    if (!b.promoted) expect.push_back(g.N);
    if (dd != expect) return decline("MatMul: dst shape does not match");
    const int dr = static_cast<int>(dd.size());
    g.sdm = a.promoted ? 0 : ds[nb];
    if (!b.promoted && g.N > 1 && ds[dr - 1] != 1)
        return decline("MatMul: dst columns are not contiguous");

    // Batch dims of extent 1 contribute nothing.
    for (int i = 0; i < nb; ++i) {
        if (batch[i] == 1) continue;
        g.batch.push_back(batch[i]);
        g.a_bs.push_back(abs_[i]);
        g.b_bs.push_back(bbs[i]);
        g.d_bs.push_back(ds[i]);
    }
    gemm::fold_batch_into_m(g);

    if (op.inputs.size() == 3) {
        const logical_tensor_t &bl = op.inputs[2];
        l.in_bias = compiler::find_port(plan.inputs, bl.id);
        if (l.in_bias < 0) return decline("MatMul: bias is not a port");
        if (bl.data_type != dnnl_f32 && bl.data_type != dnnl_bf16)
            return decline("MatMul: bias is not f32 or bf16");
        const dims_t bd = ir::dims_of(bl), bs = ir::strides_of(bl);
        for (size_t i = 0; i + 1 < bd.size(); ++i)
            if (bd[i] != 1)
                return decline("MatMul: bias " + ir::dims_to_string(bd)
                        + " is not one value per output column");
        const int64_t last = bd.empty() ? 1 : bd.back();
        if (last != 1 && (b.promoted || last != g.N))
            return decline("MatMul: bias " + ir::dims_to_string(bd)
                    + " is not one value per output column");
        l.bias_dt = bl.data_type;
        l.bias_stride = last == 1 ? 0 : bs.back();
        g.has_bias = true;
    }
    return true;
}

class matmul_kernel_t : public compiler::kernel_t {
public:
    matmul_kernel_t(std::string name, const layout_t &l, bool b_constant)
        : name_(std::move(name)), l_(l), b_constant_(b_constant) {}
    status_t init(int nthreads) { return gemm_.init(l_.g, nthreads); }
    const char *name() const override { return name_.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        std::vector<float> bias;
        if (l_.g.has_bias) {
            // One f32 value per column, zero-padded to whole tiles.
            bias.assign(static_cast<size_t>(gemm_.bias_cols()), 0.f);
            const void *src = ctx.inputs[l_.in_bias];
            for (int64_t n = 0; n < l_.g.N; ++n) {
                const int64_t off = n * l_.bias_stride;
                bias[n] = l_.bias_dt == dnnl_f32
                        ? static_cast<const float *>(src)[off]
                        : ir::bf16_to_f32(
                                static_cast<const uint16_t *>(src)[off]);
            }
        }
        // Constant weights are packed once and served from the constant
        // tensor cache (keyed by this kernel and the weight buffer).
        rt::constant_ptr_t packed;
        const void *wei = ctx.inputs[l_.in_b];
        if (b_constant_ && gemm_.can_prepack_b() && !prepack_off_.load()
                && compiler::constant_cache_enabled(ctx)) {
            compiler::constant_request_t req;
            req.backend = compiler::backend_id::cpu;
            req.slot = static_cast<size_t>(l_.in_b);
            req.src = wei;
            req.bytes = gemm_.packed_b_bytes();
            req.detail = std::hash<std::string>()(name_ + gemm_.blocking_str());
            LLGA_RETURN_IF_ERROR(compiler::get_prepared_constant(ctx, *this, req,
                    [&](void *dst) {
                        // Packing the same buffer twice means the cache
                        // did not keep it (full, no eviction): a private
                        // prepack per execution costs an extra pass over
                        // B, more than the tasks' own packing, so stop.
                        if (last_packed_.exchange(wei) == wei)
                            prepack_off_.store(true);
                        gemm_.prepack_b(wei, dst);
                        return dnnl_success;
                    },
                    packed));
        }
        gemm_.execute(ctx.inputs[l_.in_a], wei,
                bias.empty() ? nullptr : bias.data(), ctx.outputs[l_.out],
                packed ? packed->data() : nullptr);
        return dnnl_success;
    }

private:
    std::string name_;
    layout_t l_;
    bool b_constant_;
    gemm::gemm_t gemm_;
    mutable std::atomic<const void *> last_packed_ {nullptr};
    mutable std::atomic<bool> prepack_off_ {false};
};

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    layout_t l;
    return analyse(plan, isa, l, why);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    layout_t l;
    std::string why;
    if (!analyse(plan, isa, l, &why))
        return fail(dnnl_unimplemented, "cpu matmul: %s", why.c_str());
    const std::string name = std::string("matmul_gemm_")
            + gemm::ukr_name(l.g.kind) + (l.g.dst_bf16 ? "_bf16dst" : "");
    const bool b_constant = plan.inputs[l.in_b].property
            == dnnl_graph_tensor_property_constant;
    l.g.b_prepacked = b_constant; // constant weights are prepacked (cache)
    auto k = std::make_shared<matmul_kernel_t>(name, l, b_constant);
    LLGA_RETURN_IF_ERROR(k->init(rt::max_threads()));
    out = k;
    return dnnl_success;
}

} // namespace matmul
} // namespace cpu
} // namespace llga
