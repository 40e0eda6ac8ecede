// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/quant/quant_dynamic.cpp — DynamicQuantize and
// DynamicDequantize (scales and zero points as runtime tensors): per
// tensor, per channel or per group, any integer storage the opset allows
// (s4/u4 two to a byte included), f32/bf16/f16 on the float side, any
// strides. Plain C++ with the reference's arithmetic in its order: scale,
// zero point and value read through ir::load_value, then
//   q = x * (1/scale) + zp   or   x = (q - zp) * scale   in f32,
// stored with ir::store_value (saturating, rounding) — the same bits. The
// speed comes from walking rows with running offsets instead of
// unravelling every element and dividing by the group shape.
#include "backends/cpu/kernels/quant/quant_dynamic.hpp"

#include <algorithm>
#include <vector>

#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "ops/registry.hpp"
#include "ops/schema.hpp"

namespace llga {
namespace cpu {
namespace quant_dynamic {

namespace {

struct layout_t {
    bool quantize = false;
    data_type_t sdt = dnnl_f32, ddt = dnnl_f32, pdt = dnnl_f32,
                zdt = dnnl_s32;
    int src = -1, sc = -1, zp = -1, out = -1;
    dims_t dims, ss, ds; // src / dst dims and element strides
    // Parameter element of src index idx: sum_d (idx[d] / grp[d]) * st[d]
    // (st 0 where the parameter does not vary along d).
    dims_t grp, sst, zst;
    std::string name;
};

// Strides of a parameter tensor `p` over the src dims: per tensor (one
// element) none; per channel its only dim along `axis`; per group its own
// dims (same rank as src, tiling it by `grp`). Shapes that would send an
// index past the parameter tensor are declined.
bool param_strides(const logical_tensor_t &p, const std::string &qt,
        int64_t axis, const dims_t &src_dims, const dims_t &grp, dims_t &st,
        std::string *why) {
    const size_t rank = src_dims.size();
    st.assign(rank, 0);
    if (ir::nelems(p) == 1) return true;
    const dims_t ps = ir::strides_of(p);
    if (ops::iequals(qt, "per_channel")) {
        if (p.ndims != 1 || p.dims[0] != src_dims[static_cast<size_t>(axis)])
            return decline(why, "per_channel parameters are not [C]");
        st[static_cast<size_t>(axis)] = ps[0];
        return true;
    }
    if (p.ndims != static_cast<int>(rank))
        return decline(why, "per_group parameters of another rank");
    // Every src index must land on a parameter (the shape the opset
    // requires: parameter dims times group_shape equal the src dims).
    for (size_t d = 0; d < rank; ++d) {
        if (p.dims[d] * grp[d] != src_dims[d])
            return decline(why, "per_group parameters do not tile src");
        st[d] = p.dims[d] == 1 ? 0 : ps[d];
    }
    return true;
}

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *single = compiler::single_op(plan, why);
    if (!single) return false;
    const ir::op_t &op = *single;
    if (op.kind != dnnl_graph_op_dynamic_quantize
            && op.kind != dnnl_graph_op_dynamic_dequantize)
        return decline(why, "not DynamicQuantize or DynamicDequantize");
    l.quantize = op.kind == dnnl_graph_op_dynamic_quantize;
    const std::string kind = l.quantize ? "DynamicQuantize" : "DynamicDequantize";
    if (op.inputs.size() < 2 || op.inputs.size() > 3 || op.outputs.size() != 1)
        return decline(why, kind + ": unexpected port count");
    for (const auto *v : {&op.inputs, &op.outputs})
        for (const auto &lt : *v)
            if (!ir::strides_known(lt) || !ir::shape_known(lt))
                return decline(why, kind + ": a tensor has no strided layout");
    const logical_tensor_t &src = op.inputs[0], &dst = op.outputs[0];
    l.sdt = src.data_type;
    l.ddt = dst.data_type;
    l.pdt = op.inputs[1].data_type;
    if (op.inputs.size() > 2) l.zdt = op.inputs[2].data_type;
    l.dims = ir::dims_of(src);
    if (l.dims != ir::dims_of(dst) || l.dims.empty())
        return decline(why, kind + ": src and dst shapes differ");
    l.ss = ir::strides_of(src);
    l.ds = ir::strides_of(dst);
    const size_t rank = l.dims.size();
    const std::string qt = op.get_str(dnnl_graph_op_attr_qtype, "per_tensor");
    int64_t axis = 0;
    if (!ir::normalize_axis(op.get_s64(dnnl_graph_op_attr_axis, 1),
                static_cast<int>(rank), axis))
        return decline(why, kind + ": axis out of range");
    l.grp.assign(rank, 1);
    if (ops::iequals(qt, "per_group")) {
        const std::vector<int64_t> g = op.get_s64s(dnnl_graph_op_attr_group_shape);
        if (g.size() != rank) return decline(why, kind + ": group_shape rank");
        for (size_t d = 0; d < rank; ++d) {
            if (g[d] < 1) return decline(why, kind + ": group_shape < 1");
            l.grp[d] = g[d];
        }
    } else if (!ops::iequals(qt, "per_tensor")
            && !ops::iequals(qt, "per_channel")) {
        return decline(why, kind + ": qtype " + qt);
    }
    l.zst.assign(rank, 0); // no zero points: always 0
    if (!param_strides(op.inputs[1], qt, axis, l.dims, l.grp, l.sst, why))
        return false;
    if (op.inputs.size() > 2
            && !param_strides(op.inputs[2], qt, axis, l.dims, l.grp, l.zst, why))
        return false;
    // Rows are written in parallel: a destination packed two to a byte
    // would share bytes between them (the opset has none: u8/s8 and
    // floats only).
    if (l.ddt == dnnl_s4 || l.ddt == dnnl_u4)
        return decline(why, kind + ": a 4-bit destination");
    l.src = compiler::find_port(plan.inputs, src.id);
    l.sc = compiler::find_port(plan.inputs, op.inputs[1].id);
    l.zp = op.inputs.size() > 2 ? compiler::find_port(plan.inputs, op.inputs[2].id)
                                : -1;
    l.out = compiler::find_port(plan.outputs, dst.id);
    if (l.src < 0 || l.sc < 0 || l.out < 0
            || (op.inputs.size() > 2 && l.zp < 0))
        return decline(why, kind + ": a tensor is not a partition port");
    l.name = std::string(l.quantize ? "dynamic_quantize_" : "dynamic_dequantize_")
            + ir::dtype_name(l.sdt) + "_" + ir::dtype_name(l.ddt) + "_"
            + (ops::iequals(qt, "per_group") ? "per_group"
                            : ops::iequals(qt, "per_channel") ? "per_channel"
                                                              : "per_tensor");
    return true;
}

class dynamic_kernel_t : public compiler::kernel_t {
public:
    explicit dynamic_kernel_t(layout_t l) : l_(std::move(l)) {}
    const char *name() const override { return l_.name.c_str(); }

    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const layout_t &l = l_;
        const void *src = ctx.inputs[l.src], *sc = ctx.inputs[l.sc];
        const void *zp = l.zp >= 0 ? ctx.inputs[l.zp] : nullptr;
        void *dst = ctx.outputs[l.out];
        const size_t rank = l.dims.size();
        const int64_t cols = l.dims.back();
        int64_t rows = 1;
        for (size_t d = 0; d + 1 < rank; ++d)
            rows *= l.dims[d];
        const int64_t grain = std::max<int64_t>(1, 4096 / std::max<int64_t>(cols, 1));
        auto run_rows = [&](int64_t lo, int64_t hi) {
            for (int64_t r = lo; r < hi; ++r) {
                // Offsets of the row's first element.
                int64_t so = 0, dof = 0, po = 0, zo = 0, rest = r;
                for (size_t d = rank - 1; d-- > 0;) {
                    const int64_t i = rest % l.dims[d];
                    rest /= l.dims[d];
                    so += i * l.ss[d];
                    dof += i * l.ds[d];
                    po += i / l.grp[d] * l.sst[d];
                    zo += i / l.grp[d] * l.zst[d];
                }
                const int64_t ps = l.sst[rank - 1], zs = l.zst[rank - 1];
                // Along the row the parameters change once per group, or
                // never when they do not vary along the last dim.
                const int64_t g = ps == 0 && zs == 0 ? cols + 1 : l.grp[rank - 1];
                int64_t cur = -1;
                float scale = 0.f, z = 0.f;
                for (int64_t j = 0; j < cols; ++j) {
                    const int64_t gi = j / g;
                    if (gi != cur) {
                        cur = gi;
                        scale = static_cast<float>(
                                ir::load_value(l.pdt, sc, po + gi * ps));
                        z = zp ? static_cast<float>(
                                    ir::load_value(l.zdt, zp, zo + gi * zs))
                               : 0.f;
                    }
                    const float x = static_cast<float>(
                            ir::load_value(l.sdt, src, so + j * l.ss[rank - 1]));
                    const float y = l.quantize ? x * (1.f / scale) + z
                                               : (x - z) * scale;
                    ir::store_value(l.ddt, dst, dof + j * l.ds[rank - 1], y);
                }
            }
        };
        parallel_for(rows, grain, run_rows);
        return dnnl_success;
    }

private:
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
    return create_by<layout_t, dynamic_kernel_t>(
            plan, "quant_dynamic", analyse, out);
}

} // namespace quant_dynamic
} // namespace cpu
} // namespace llga
