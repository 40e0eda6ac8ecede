// SPDX-License-Identifier: Apache-2.0
// backends/ref/ref_backend.cpp — op-by-op execution with intermediates
// allocated per execution from the engine's allocator, and constant inputs
// served from the constant tensor cache.
#include "backends/ref/ref_backend.hpp"

#include <atomic>
#include <unordered_map>

#include "base/knobs.hpp"
#include "base/hash.hpp"
#include "base/status.hpp"
#include "compiler/constant_prep.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "runtime/strided_copy.hpp"

namespace llga {
namespace ref {

namespace {

std::atomic<int> &layout_mode_slot() {
    static std::atomic<int> mode {
            knob_string(knob_t::ref_any_layout) == "permuted"
                    ? static_cast<int>(any_layout_mode_t::permuted)
                    : static_cast<int>(any_layout_mode_t::plain)};
    return mode;
}

struct intermediate_t {
    size_t id;
    size_t bytes;
};

// A constant input port the kernel prepares: copied into dense row-major
// (the layout the kernel's prepared ops expect) once, then reused.
struct constant_slot_t {
    size_t port;  // index in plan.inputs
    size_t id;    // tensor id
    logical_tensor_t src; // op-level (physical strides) as given
    logical_tensor_t dst; // dense row-major
    size_t bytes;
    size_t detail;
};

size_t hash_lt(const logical_tensor_t &lt) {
    size_t h = hash_value(0, static_cast<int>(lt.data_type));
    for (int d = 0; d < lt.ndims; ++d) {
        h = hash_value(h, lt.dims[d]);
        h = hash_value(h, lt.layout.strides[d]);
    }
    return h;
}

class ref_kernel_t : public compiler::kernel_t {
public:
    explicit ref_kernel_t(const compiler::plan_t &plan) : plan_(plan) {
        // Tensors produced inside the partition but not among its outputs
        // live only during one execution.
        for (const auto &op : plan_.ops)
            for (const auto &lt : op.outputs) {
                bool is_port = false;
                for (const auto &o : plan_.outputs)
                    is_port = is_port || o.id == lt.id;
                if (!is_port) intermediates_.push_back({lt.id, ir::mem_size(lt)});
            }
        prepared_ops_ = plan_.ops;
        for (size_t k = 0; k < plan_.inputs.size(); ++k)
            add_constant(k);
    }

    const char *name() const override { return "ref"; }

    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        std::unordered_map<size_t, void *> buffers;
        for (size_t k = 0; k < plan_.inputs.size(); ++k)
            buffers[plan_.inputs[k].id] = const_cast<void *>(ctx.inputs[k]);
        for (size_t k = 0; k < plan_.outputs.size(); ++k)
            buffers[plan_.outputs[k].id] = ctx.outputs[k];
        // Prepared constants stay alive until this execution ends, even if
        // the cache evicts them meanwhile.
        std::vector<rt::constant_ptr_t> held;
        const bool prepare
                = !constants_.empty() && compiler::constant_cache_enabled(ctx);
        for (size_t c = 0; prepare && c < constants_.size(); ++c) {
            const constant_slot_t &s = constants_[c];
            const void *src = ctx.inputs[s.port];
            compiler::constant_request_t req;
            req.backend = compiler::backend_id::ref;
            req.slot = s.port;
            req.src = src;
            req.bytes = s.bytes;
            req.detail = s.detail;
            rt::constant_ptr_t buf;
            LLGA_RETURN_IF_ERROR(compiler::get_prepared_constant(ctx, *this,
                    req,
                    [&](void *dst) {
                        rt::strided_copy(src, ir::strides_of(s.src), dst,
                                ir::strides_of(s.dst), ir::dims_of(s.src),
                                ir::dtype_storage_bytes(s.src.data_type, 1));
                        return dnnl_success;
                    },
                    buf));
            buffers[s.id] = buf->data();
            held.push_back(std::move(buf));
        }
        const std::vector<ir::op_t> &ops = prepare ? prepared_ops_ : plan_.ops;

        std::vector<std::pair<void *, size_t>> temps;
        status_t st = dnnl_success;
        for (const auto &t : intermediates_) {
            void *p = ctx.allocator->allocate(t.bytes, rt::lifetime_t::temp);
            if (!p) {
                st = fail(dnnl_out_of_memory,
                        "allocating %zu bytes for intermediate tensor %zu",
                        t.bytes, t.id);
                break;
            }
            temps.emplace_back(p, t.bytes);
            buffers[t.id] = p;
        }
        for (size_t i = 0; st == dnnl_success && i < ops.size(); ++i) {
            const ir::op_t &op = ops[i];
            std::vector<const void *> in;
            std::vector<void *> out;
            for (const auto &lt : op.inputs)
                in.push_back(buffers[lt.id]);
            for (const auto &lt : op.outputs)
                out.push_back(buffers[lt.id]);
            st = ops::find_op_def(op.kind)->ref(op, in, out);
        }
        for (auto &t : temps)
            ctx.allocator->deallocate(t.first, t.second, rt::lifetime_t::temp);
        return st;
    }

private:
    void add_constant(size_t port) {
        const logical_tensor_t &p = plan_.inputs[port];
        if (p.property != dnnl_graph_tensor_property_constant) return;
        // Sub-byte types have no per-element copy; 0-D and empty tensors
        // are not worth caching.
        if (ir::dtype_bits(p.data_type) < 8 || p.ndims <= 0
                || ir::nelems(p) <= 0)
            return;
        // An input that is also an output (pass-through) must stay the
        // user's buffer.
        for (const auto &o : plan_.outputs)
            if (o.id == p.id) return;
        const logical_tensor_t *src = nullptr;
        for (const auto &op : plan_.ops)
            for (const auto &lt : op.inputs)
                if (lt.id == p.id) src = &lt;
        if (!src) return;
        constant_slot_t s;
        s.port = port;
        s.id = p.id;
        s.src = *src;
        s.dst = *src;
        const dims_t dense = ir::dense_strides(ir::dims_of(*src));
        for (int d = 0; d < src->ndims; ++d)
            s.dst.layout.strides[d] = dense[d];
        s.bytes = ir::mem_size(s.dst);
        s.detail = hash_value(hash_lt(s.src), hash_lt(s.dst));
        for (auto &op : prepared_ops_)
            for (auto &lt : op.inputs)
                if (lt.id == p.id) lt = s.dst;
        constants_.push_back(s);
    }

    compiler::plan_t plan_;
    std::vector<ir::op_t> prepared_ops_; // constant inputs dense row-major
    std::vector<intermediate_t> intermediates_;
    std::vector<constant_slot_t> constants_;
};

class ref_backend_t : public compiler::backend_t {
public:
    const char *name() const override { return "ref"; }
    bool runs_any_partition() const override { return true; }
    bool supports(const compiler::plan_t &plan) const override {
        for (const auto &op : plan.ops)
            if (!ops::has_reference(op.kind)) return false;
        return true;
    }
    status_t compile(const compiler::plan_t &plan,
            std::shared_ptr<const compiler::kernel_t> &out) const override {
        out = std::make_shared<ref_kernel_t>(plan);
        return dnnl_success;
    }
    bool choose_layout(const compiler::plan_t &plan, const logical_tensor_t &lt,
            std::vector<int> &order) const override {
        if (any_layout_mode() != any_layout_mode_t::permuted || lt.ndims < 2)
            return false;
        order.resize(lt.ndims);
        for (int d = 0; d < lt.ndims; ++d)
            order[d] = d;
        std::swap(order[lt.ndims - 1], order[lt.ndims - 2]);
        return true;
    }
    std::string config_key() const override {
        return any_layout_mode() == any_layout_mode_t::permuted ? "perm" : "";
    }
};

} // namespace

const compiler::backend_t &ref_backend() {
    static const ref_backend_t b;
    return b;
}

void set_any_layout_mode(any_layout_mode_t mode) {
    layout_mode_slot().store(static_cast<int>(mode));
}

any_layout_mode_t any_layout_mode() {
    return static_cast<any_layout_mode_t>(layout_mode_slot().load());
}

} // namespace ref
} // namespace llga
