// backends/ref/ref_backend.cpp — op-by-op execution with intermediates
// allocated per execution from the engine's allocator.
#include "backends/ref/ref_backend.hpp"

#include <unordered_map>

#include "base/status.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace ref {

namespace {

struct intermediate_t {
    size_t id;
    size_t bytes;
};

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
    }

    const char *name() const override { return "ref"; }

    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        std::unordered_map<size_t, void *> buffers;
        for (size_t k = 0; k < plan_.inputs.size(); ++k)
            buffers[plan_.inputs[k].id] = const_cast<void *>(ctx.inputs[k]);
        for (size_t k = 0; k < plan_.outputs.size(); ++k)
            buffers[plan_.outputs[k].id] = ctx.outputs[k];
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
        for (size_t i = 0; st == dnnl_success && i < plan_.ops.size(); ++i) {
            const ir::op_t &op = plan_.ops[i];
            std::vector<const void *> in;
            std::vector<void *> out;
            for (const auto &lt : op.inputs)
                in.push_back(buffers[lt.id]);
            for (const auto &lt : op.outputs)
                out.push_back(buffers[lt.id]);
            st = ops::find_op_def(op.kind)->ref(op, in, out);
        }
        for (auto &t : temps)
            ctx.allocator->deallocate(t.first, t.second);
        return st;
    }

private:
    compiler::plan_t plan_;
    std::vector<intermediate_t> intermediates_;
};

class ref_backend_t : public compiler::backend_t {
public:
    const char *name() const override { return "ref"; }
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
};

} // namespace

const compiler::backend_t &ref_backend() {
    static const ref_backend_t b;
    return b;
}

} // namespace ref
} // namespace llga
