// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/eltwise/select_compare.cpp — see select_compare.hpp.
#include "backends/cpu/kernels/eltwise/select_compare.hpp"

#include <cstdint>
#include <vector>

#include "backends/cpu/kernels/common/broadcast_runs.hpp"
#include "backends/cpu/kernels/common/elem_io.hpp"
#include "backends/cpu/kernels/data/movement.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"

namespace llga {
namespace cpu {
namespace select_compare {

namespace {

// Elements per task: a compare or a select costs about a nanosecond.
constexpr int64_t k_chunk = 16384;

struct layout_t {
    std::string name;
    bool select = false;
    data_type_t dt = dnnl_f32; // GreaterEqual: its inputs'; Select: values'
    int in[3] = {-1, -1, -1}, out = -1;
    common::runs_t runs; // operands: dst, then the op's inputs
    // Inputs of the output's shape stored otherwise, copied into its
    // layout first so their runs are contiguous.
    movement::relayout_t reorder[3];
};

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *single = compiler::single_op(plan, why);
    if (!single) return false;
    const ir::op_t &op = *single;
    l.select = op.kind == dnnl_graph_op_select;
    if (op.kind != dnnl_graph_op_greater_equal && !l.select)
        return decline(why, "not GreaterEqual or Select");
    const std::string kind = l.select ? "Select" : "GreaterEqual";
    const size_t nin = l.select ? 3 : 2;
    if (op.inputs.size() != nin || op.outputs.size() != 1)
        return decline(why, kind + ": unexpected port count");
    const logical_tensor_t &o = op.outputs[0];
    // GreaterEqual: both inputs one of f32/bf16/f16/s32, boolean out.
    // Select: boolean cond, then values and dst of one f32/bf16/f16 type.
    l.dt = op.inputs[l.select ? 1 : 0].data_type;
    const bool types_ok = l.select
            ? op.inputs[0].data_type == dnnl_boolean && common::is_fp(l.dt)
                    && op.inputs[2].data_type == l.dt && o.data_type == l.dt
            : (common::is_fp(l.dt) || l.dt == dnnl_s32)
                    && op.inputs[1].data_type == l.dt
                    && o.data_type == dnnl_boolean;
    if (!types_ok)
        return decline(why, kind + ": unsupported data types");
    if (!ir::is_dense_any_order(o))
        return decline(why, kind + ": the output is not dense");
    std::vector<logical_tensor_t> as_read = op.inputs;
    for (size_t k = 0; k < nin; ++k) {
        const logical_tensor_t &lt = op.inputs[k];
        if (!ir::strides_known(lt))
            return decline(why, kind + ": tensor " + std::to_string(lt.id)
                            + " has no strides");
        if (ir::dims_of(lt) != ir::dims_of(o)) continue; // broadcast
        l.reorder[k] = movement::relayout(lt, o,
                ir::dtype_storage_bytes(lt.data_type, 1));
        for (int d = 0; d < o.ndims; ++d)
            as_read[k].layout.strides[d] = o.layout.strides[d];
    }
    std::string reason;
    if (!common::plan(o, as_read, l.runs, &reason))
        return decline(why, kind + ": " + reason);
    for (size_t k = 0; k < nin; ++k) {
        l.in[k] = compiler::find_port(plan.inputs, op.inputs[k].id);
        if (l.in[k] < 0) return decline(why, kind + ": input is not a port");
    }
    l.out = compiler::find_port(plan.outputs, o.id);
    if (l.out < 0) return decline(why, kind + ": output is not a port");
    const char *tn = l.dt == dnnl_s32 ? "s32"
            : l.dt == dnnl_f32        ? "f32"
            : l.dt == dnnl_bf16       ? "bf16"
                                      : "f16";
    l.name = std::string(l.select ? "select_" : "greater_equal_") + tn;
    return true;
}

// GreaterEqual's operand types: values widened exactly (the reference
// compares them as doubles, which orders them the same).
struct s32_t {
    using raw_t = int32_t;
    static int32_t load(int32_t v) { return v; }
};

template <typename B>
void with_compare_type(data_type_t dt, B &&body) {
    if (dt == dnnl_s32) return body(s32_t());
    common::with_fp(dt, body);
}

// Select copies the chosen value's bits, except that a NaN comes out as
// the reference stores it after widening it to double: it gets the quiet
// bit, the payload kept (ir::f32_to_bf16 / f32_to_f16).
struct bits32_t {
    using raw_t = uint32_t;
    static uint32_t canon(uint32_t u) {
        return u | ((u & 0x7fffffffu) > 0x7f800000u ? 0x00400000u : 0u);
    }
};
struct bf16_bits_t {
    using raw_t = uint16_t;
    static uint16_t canon(uint16_t h) {
        return static_cast<uint16_t>(h | ((h & 0x7fffu) > 0x7f80u ? 0x0040u : 0u));
    }
};
struct f16_bits_t {
    using raw_t = uint16_t;
    static uint16_t canon(uint16_t h) {
        return static_cast<uint16_t>(h | ((h & 0x7fffu) > 0x7c00u ? 0x0200u : 0u));
    }
};

template <typename B>
void with_select_type(data_type_t dt, B &&body) {
    if (dt == dnnl_f32) return body(bits32_t());
    if (dt == dnnl_bf16) return body(bf16_bits_t());
    body(f16_bits_t());
}

class kernel_t : public compiler::kernel_t {
public:
    explicit kernel_t(layout_t l) : l_(std::move(l)) {}
    const char *name() const override { return l_.name.c_str(); }

    // Element i of every input is read before element i of dst is written,
    // so Select in place on src_0 is safe.
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        scratch_frame_t frame;
        const void *in[3] = {nullptr, nullptr, nullptr};
        const int nin = l_.select ? 3 : 2;
        for (int k = 0; k < nin; ++k)
            in[k] = l_.reorder[k].apply(ctx.inputs[l_.in[k]], frame);
        void *out = ctx.outputs[l_.out];
        const common::runs_t &r = l_.runs;
        if (l_.select) {
            with_select_type(l_.dt, [&](auto ty) {
                using R = typename decltype(ty)::raw_t;
                common::for_each_piece(r, k_chunk, [&](const int64_t *off, int64_t len) {
                    const auto *cp = static_cast<const uint8_t *>(in[0]) + off[1];
                    const R *ap = static_cast<const R *>(in[1]) + off[2];
                    const R *bp = static_cast<const R *>(in[2]) + off[3];
                    R *dp = static_cast<R *>(out) + off[0];
                    const int64_t *steps = &r.inner_step[1];
                    common::with_steps<3>(steps, [&](auto ic, auto ia, auto ib) {
                        // Both values loaded, then selected: no branch.
                        for (int64_t t = 0; t < len; ++t) {
                            const R a = ap[ia(t)], b = bp[ib(t)];
                            dp[t] = decltype(ty)::canon(cp[ic(t)] != 0 ? a : b);
                        }
                    });
                });
            });
            return dnnl_success;
        }
        with_compare_type(l_.dt, [&](auto ty) {
            using T = decltype(ty);
            using R = typename T::raw_t;
            common::for_each_piece(r, k_chunk, [&](const int64_t *off, int64_t len) {
                const R *ap = static_cast<const R *>(in[0]) + off[1];
                const R *bp = static_cast<const R *>(in[1]) + off[2];
                uint8_t *dp = static_cast<uint8_t *>(out) + off[0];
                common::with_steps<2>(&r.inner_step[1], [&](auto ia, auto ib) {
                    for (int64_t t = 0; t < len; ++t)
                        dp[t] = T::load(ap[ia(t)]) >= T::load(bp[ib(t)]) ? 1 : 0;
                });
            });
        });
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
    return create_by<layout_t, kernel_t>(plan, "select_compare", analyse, out);
}

} // namespace select_compare
} // namespace cpu
} // namespace llga
