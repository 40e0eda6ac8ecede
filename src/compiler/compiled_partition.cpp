// SPDX-License-Identifier: Apache-2.0
// compiler/compiled_partition.cpp — compile pipeline, cache, execution checks.
#include "compiler/compiled_partition.hpp"

#include <cstring>

#include "base/checked_size.hpp"
#include "base/status.hpp"
#include "base/verbose.hpp"
#include "compiler/op_sequence.hpp"
#include "compiler/pass_fold_bias.hpp"
#include "compiler/pass_infer_shapes.hpp"
#include "compiler/pass_layout.hpp"
#include "compiler/pass_relabel_ops.hpp"
#include "compiler/pass_weight_scales.hpp"
#include "compiler/verbose_info.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "runtime/compiled_cache.hpp"
#include "runtime/strided_copy.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace compiler {

namespace {

const logical_tensor_t *find_by_id(
        const std::vector<logical_tensor_t> &v, size_t id) {
    for (const auto &lt : v)
        if (lt.id == id) return &lt;
    return nullptr;
}

// As oneDNN, the given logical tensors are matched to the partition's ports
// by id: tensors whose id is no port of this side are ignored, the first of
// repeated ids is used, and every port must be found. `used` receives the
// matched tensors in the order they were given (the order execute takes).
status_t match_ports(const fusion::partition_t &p,
        const std::vector<logical_tensor_t> &given,
        const std::vector<logical_tensor_t> &ports, const char *side,
        std::vector<logical_tensor_t> &used) {
    used.clear();
    for (const auto &lt : given) {
        const logical_tensor_t *port = find_by_id(ports, lt.id);
        if (!port || find_by_id(given, lt.id) != &lt) continue;
        if (lt.data_type != port->data_type)
            return fail(dnnl_invalid_arguments,
                    "%s tensor %zu is %s but the graph declared %s", side,
                    lt.id, ir::dtype_name(lt.data_type),
                    ir::dtype_name(port->data_type));
        if (lt.ndims > DNNL_MAX_NDIMS || lt.ndims < DNNL_GRAPH_UNKNOWN_NDIMS)
            return fail(dnnl_invalid_arguments,
                    "%s tensor %zu has invalid rank %d", side, lt.id, lt.ndims);
        used.push_back(lt);
    }
    for (const auto &port : ports)
        if (!find_by_id(used, port.id))
            return fail(dnnl_invalid_arguments,
                    "partition %zu: no logical tensor given for its %s port "
                    "%zu (%zu given)",
                    p.id, side, port.id, given.size());
    return dnnl_success;
}

// Matches both sides; inputs need a concrete shape.
status_t check_ports(const fusion::partition_t &p,
        const std::vector<logical_tensor_t> &inputs,
        const std::vector<logical_tensor_t> &outputs,
        std::vector<logical_tensor_t> &ins, std::vector<logical_tensor_t> &outs) {
    LLGA_RETURN_IF_ERROR(match_ports(p, inputs, p.inputs, "input", ins));
    LLGA_RETURN_IF_ERROR(match_ports(p, outputs, p.outputs, "output", outs));
    for (const auto &lt : ins)
        LLGA_RETURN_IF_ERROR(check_shape(lt, "input tensor"));
    for (const auto &lt : outs) {
        LLGA_RETURN_IF_ERROR(check_shape(lt, "output tensor"));
        if (ir::strides_known(lt) && ir::shape_known(lt)
                && strides_overlap(lt.dims, lt.layout.strides, lt.ndims))
            return fail(dnnl_invalid_arguments,
                    "output tensor %zu: strides %s overlap or interleave "
                    "(two elements could share memory); outputs need "
                    "strides where, ordered by size, each exceeds the span of "
                    "the smaller ones",
                    lt.id,
                    ir::dims_to_string(ir::strides_of(lt)).c_str());
    }
    for (const auto &lt : ins)
        if (!ir::shape_known(lt))
            return fail(dnnl_invalid_arguments,
                    "input tensor %zu needs a known shape to compile (%s)",
                    lt.id, ir::lt_to_string(lt).c_str());
    return dnnl_success;
}

std::string cache_key(const fusion::partition_t &p,
        const std::vector<logical_tensor_t> &inputs,
        const std::vector<logical_tensor_t> &outputs,
        const rt::engine_t &engine, const backend_list_t &backends) {
    // signature() carries the ops, attributes and fpmath mode.
    std::string key = p.signature();
    key += "|e" + std::to_string(static_cast<int>(engine.kind())) + ":"
            + std::to_string(engine.index()) + "|";
    // Backend settings that change compile results (ISA caps, layout modes).
    for (const backend_t *b : backends)
        key += std::string(b->name()) + "=" + b->config_key() + ";";
    key += "|";
    // The raw struct bytes capture every field (id, dims, layout, property).
    auto add = [&](const logical_tensor_t &lt) {
        key.append(reinterpret_cast<const char *>(&lt), sizeof(lt));
    };
    for (const auto &lt : inputs)
        add(lt);
    key += "|";
    for (const auto &lt : outputs)
        add(lt);
    return key;
}

void compute_inplace(compiled_t &c) {
    if (c.plan.ops.size() != 1) return;
    const ir::op_t &op = c.plan.ops[0];
    const ops::op_def_t *def = ops::find_op_def(op.kind);
    if (!def || def->traits.inplace_input < 0 || op.outputs.empty()) return;
    const size_t k = static_cast<size_t>(def->traits.inplace_input);
    if (k >= op.inputs.size()) return;
    const logical_tensor_t &in = op.inputs[k], &out = op.outputs[0];
    if (in.data_type != out.data_type || in.ndims != out.ndims) return;
    if (in.property == dnnl_graph_tensor_property_host_scalar) return;
    if (std::memcmp(in.dims, out.dims, sizeof(dim_t) * in.ndims) != 0) return;
    if (std::memcmp(in.layout.strides, out.layout.strides,
                sizeof(dim_t) * in.ndims)
            != 0)
        return;
    c.inplace.push_back({in.id, out.id});
}

// Picks the kernel for a plan whose passes have run: whole-partition
// kernels first; for several ops, catch-all backends (the reference) come
// after running each op on its best kernel.
status_t make_kernel(const plan_t &plan, const backend_list_t &backends,
        std::shared_ptr<const kernel_t> &out, std::string *backend) {
    std::shared_ptr<const kernel_t> k;
    const bool multi = plan.ops.size() > 1;
    const char *by = nullptr;
    for (const backend_t *b : backends) {
        if (multi && b->runs_any_partition()) continue;
        if (!b->supports(plan)) continue;
        LLGA_RETURN_IF_ERROR(b->compile(plan, k));
        by = b->name();
        break;
    }
    if (!k && multi) {
        const status_t st = compile_op_sequence(plan, backends, k);
        if (st != dnnl_success && st != dnnl_unimplemented) return st;
        if (k) by = "op_sequence";
    }
    for (const backend_t *b : backends) {
        if (k || !multi) break;
        if (!b->runs_any_partition() || !b->supports(plan)) continue;
        LLGA_RETURN_IF_ERROR(b->compile(plan, k));
        by = b->name();
    }
    if (backend && by) *backend = std::string(by) + "_backend";
    if (!k)
        return fail(dnnl_unimplemented,
                "no backend can run partition %zu on this engine",
                plan.partition ? plan.partition->id : 0);
    out = k;
    return dnnl_success;
}

status_t compile_uncached(const fusion::partition_t &p,
        const std::vector<logical_tensor_t> &inputs,
        const std::vector<logical_tensor_t> &outputs,
        const backend_list_t &backends, std::shared_ptr<compiled_t> &out) {
    auto c = std::make_shared<compiled_t>();
    plan_t &plan = c->plan;
    plan.partition = &p;
    plan.ops = p.ops;
    for (ir::op_t &op : plan.ops)
        op.fpmath = p.fpmath_mode;
    // Inputs whose strides overlap reach the kernels as dense copies.
    std::vector<logical_tensor_t> kin = inputs;
    for (size_t k = 0; k < kin.size(); ++k) {
        logical_tensor_t &lt = kin[k];
        if (!ir::strides_known(lt) || !ir::shape_known(lt)
                || !strides_overlap(lt.dims, lt.layout.strides, lt.ndims))
            continue;
        if (ir::dtype_bits(lt.data_type) < 8)
            return fail(dnnl_invalid_arguments,
                    "input tensor %zu: overlapping strides are not supported "
                    "for the sub-byte type %s",
                    lt.id, ir::dtype_name(lt.data_type));
        const dims_t s = ir::dense_strides(ir::dims_of(lt));
        for (int d = 0; d < lt.ndims; ++d)
            lt.layout.strides[d] = s[d];
        c->staged.push_back(k);
    }
    plan.inputs = kin;
    plan.outputs = outputs;
    lt_map_t known;
    for (const auto &lt : kin)
        known[lt.id] = lt;
    for (const auto &lt : outputs)
        known[lt.id] = lt;
    pass_weight_scales(plan, known);
    LLGA_RETURN_IF_ERROR(pass_infer_shapes(plan, known));
    // The first backend with a layout wish for an `any` output decides it.
    auto choose = [&](const logical_tensor_t &lt, std::vector<int> &order) {
        for (const backend_t *b : backends)
            if (b->choose_layout(plan, lt, order)) return true;
        return false;
    };
    LLGA_RETURN_IF_ERROR(pass_layout(plan, known, choose));
    pass_relabel_ops(plan);
    pass_fold_bias(plan);
    c->user_inputs = plan.inputs;
    for (size_t k : c->staged)
        c->user_inputs[k] = inputs[k];
    // The library chose or derived these layouts; still, no output may let
    // two elements share memory.
    for (const auto &lt : plan.outputs)
        if (ir::strides_known(lt) && ir::shape_known(lt)
                && strides_overlap(lt.dims, lt.layout.strides, lt.ndims))
            return fail(dnnl_invalid_arguments,
                    "output tensor %zu: strides %s overlap", lt.id,
                    ir::dims_to_string(ir::strides_of(lt)).c_str());
    compute_inplace(*c);
    // A staged input is read from a scratch copy: no in-place pairing.
    for (size_t k : c->staged)
        for (size_t i = c->inplace.size(); i-- > 0;)
            if (c->inplace[i].input_id == inputs[k].id)
                c->inplace.erase(c->inplace.begin() + static_cast<long>(i));
    const int threads = rt::max_threads();
    LLGA_RETURN_IF_ERROR(
            make_kernel(plan, backends, c->kernel, &c->backend_name));
    c->backends = backends;
    if (c->kernel->sized_for_threads()) c->threads = threads;
    out = c;
    return dnnl_success;
}

} // namespace

status_t compile_partition(
        const std::shared_ptr<const fusion::partition_t> &partition,
        const std::vector<logical_tensor_t> &given_inputs,
        const std::vector<logical_tensor_t> &given_outputs, const rt::engine_t &engine,
        const backend_list_t &backends,
        std::shared_ptr<const compiled_t> &out) {
    const fusion::partition_t &p = *partition;
    if (!p.supported)
        return fail(dnnl_invalid_arguments,
                "partition %zu is not supported (%s); the framework must run "
                "its op",
                p.id, p.reason.c_str());
    if (p.engine_kind != engine.kind())
        return fail(dnnl_invalid_arguments,
                "partition %zu was built for engine kind %d but compiled for "
                "%d",
                p.id, static_cast<int>(p.engine_kind),
                static_cast<int>(engine.kind()));
    std::vector<logical_tensor_t> inputs, outputs;
    LLGA_RETURN_IF_ERROR(
            check_ports(p, given_inputs, given_outputs, inputs, outputs));

    const double t0 = now_ms(), stamp = wall_ms();
    const std::string key = cache_key(p, inputs, outputs, engine, backends);
    auto &cache = rt::compiled_cache_t::instance();
    auto hit = std::static_pointer_cast<const compiled_t>(cache.find(key));
    if (hit) {
        // The cached plan may come from an identical partition object.
        out = hit;
    } else {
        std::shared_ptr<compiled_t> c;
        LLGA_RETURN_IF_ERROR(compile_uncached(p, inputs, outputs, backends, c));
        // Keep the partition alive as long as the compiled object.
        auto holder = std::shared_ptr<const compiled_t>(
                c.get(), [c, partition](const compiled_t *) {});
        cache.insert(key, holder);
        out = holder;
    }
    if (verbose_on(vflag_profile_create))
        verbose_printf(vflag_profile_create, stamp, "graph,compile:%s,%s,%g",
                hit ? "cache_hit" : "cache_miss",
                out->verbose_info(engine.kind()).c_str(), now_ms() - t0);
    return dnnl_success;
}

namespace {
std::string layout_detail(const logical_tensor_t &lt) {
    if (lt.layout_type == dnnl_graph_layout_type_opaque)
        return " id " + std::to_string(lt.layout.layout_id);
    if (lt.layout_type == dnnl_graph_layout_type_strided && lt.ndims > 0)
        return " strides " + ir::dims_to_string(ir::strides_of(lt));
    return "";
}

// Every tensor against its compiled port: dtype, rank, dims, layout (strides
// of every dim larger than 1, or the opaque id), engine and buffer. A few
// compares per tensor; the failure paths alone build messages.
status_t check_tensor(const rt::tensor_t *t, const logical_tensor_t &want,
        const rt::engine_t *engine, const char *side, size_t index) {
    if (!t)
        return fail(dnnl_invalid_arguments, "%s tensor %zu is null", side, index);
    const logical_tensor_t &have = t->desc();
    if (have.data_type != want.data_type)
        return fail(dnnl_invalid_arguments,
                "%s %zu: tensor %zu is %s but the compiled port %zu expects %s",
                side, index, have.id, ir::dtype_name(have.data_type), want.id,
                ir::dtype_name(want.data_type));
    if (have.ndims != want.ndims
            || std::memcmp(have.dims, want.dims,
                       sizeof(dim_t) * std::max(want.ndims, 0))
                    != 0)
        return fail(dnnl_invalid_arguments,
                "%s %zu: tensor %zu has shape %s but the compiled port %zu "
                "expects %s",
                side, index, have.id,
                have.ndims < 0
                        ? "of unknown rank"
                        : ir::dims_to_string(ir::dims_of(have)).c_str(),
                want.id, ir::dims_to_string(ir::dims_of(want)).c_str());
    if (!t->is_host_scalar()) {
        bool layout_ok = have.layout_type == want.layout_type;
        if (layout_ok && want.layout_type == dnnl_graph_layout_type_opaque)
            layout_ok = have.layout.layout_id == want.layout.layout_id;
        else if (layout_ok && want.layout_type == dnnl_graph_layout_type_strided)
            for (int d = 0; d < want.ndims; ++d)
                if (want.dims[d] != 1
                        && have.layout.strides[d] != want.layout.strides[d])
                    layout_ok = false;
        if (!layout_ok)
            return fail(dnnl_invalid_arguments,
                    "%s %zu: tensor %zu has layout %s%s but the compiled port "
                    "%zu expects %s%s (query the compiled partition for the "
                    "port's logical tensor)",
                    side, index, have.id, ir::lt_to_string(have).c_str(),
                    layout_detail(have).c_str(), want.id,
                    ir::lt_to_string(want).c_str(),
                    layout_detail(want).c_str());
        if (t->engine() != engine
                && (!t->engine() || t->engine()->kind() != engine->kind()
                        || t->engine()->index() != engine->index()))
            return fail(dnnl_invalid_arguments,
                    "%s %zu: tensor %zu was created on another engine than "
                    "the stream's",
                    side, index, have.id);
    }
    if (!t->data() && ir::nelems(want) != 0)
        return fail(dnnl_invalid_arguments,
                "%s %zu: tensor %zu has no data buffer", side, index, have.id);
    return dnnl_success;
}

// Scratch copies of the staged inputs of one execution, freed on return.
struct staged_buffers_t {
    const rt::allocator_t *alloc = nullptr;
    std::vector<std::pair<void *, size_t>> blocks;
    ~staged_buffers_t() {
        for (auto &b : blocks)
            alloc->deallocate(b.first, b.second, rt::lifetime_t::temp);
    }
};
} // namespace

status_t execute_compiled(const compiled_t &c, rt::stream_t &stream,
        const std::vector<const rt::tensor_t *> &inputs,
        const std::vector<const rt::tensor_t *> &outputs,
        const device_events_t &events) {
    return execute_compiled(c, stream, inputs.data(), inputs.size(),
            outputs.data(), outputs.size(), events);
}

status_t execute_compiled(const compiled_t &c, rt::stream_t &stream,
        const rt::tensor_t *const *inputs, size_t num_inputs,
        const rt::tensor_t *const *outputs, size_t num_outputs,
        const device_events_t &events) {
    const plan_t &plan = c.plan;
    if (num_inputs != plan.inputs.size())
        return fail(dnnl_invalid_arguments,
                "%zu input tensors given, the compiled partition has %zu",
                num_inputs, plan.inputs.size());
    if (num_outputs != plan.outputs.size())
        return fail(dnnl_invalid_arguments,
                "%zu output tensors given, the compiled partition has %zu",
                num_outputs, plan.outputs.size());
    // Memory of one engine kind is not usable on another (a host buffer
    // on a GPU stream, device memory on the CPU).
    const engine_kind_t ek = stream.engine()->kind();
    for (int side = 0; side < 2; ++side) {
        const rt::tensor_t *const *ts = side == 0 ? inputs : outputs;
        const size_t n = side == 0 ? num_inputs : num_outputs;
        for (size_t k = 0; k < n; ++k) {
            const rt::tensor_t *t = ts[k];
            if (t && !t->is_host_scalar() && t->engine()
                    && t->engine()->kind() != ek)
                return fail(dnnl_invalid_arguments,
                        "%s %zu: tensor %zu was created on a %s engine but "
                        "the stream is on a %s engine",
                        side == 0 ? "input" : "output", k, t->desc().id,
                        t->engine()->kind() == dnnl_gpu ? "gpu" : "cpu",
                        ek == dnnl_gpu ? "gpu" : "cpu");
        }
    }
    exec_ctx_t ctx;
    ctx.events = events;
    ctx.stream = &stream;
    ctx.engine = stream.engine();
    ctx.allocator = &stream.engine()->allocator();
    ctx.inputs.reserve(num_inputs);
    ctx.outputs.reserve(num_outputs);
    // Host scalars are passed by value: kernels read this execution's copy,
    // never the user's tensor (which may change or die meanwhile). Sized
    // once, at the first scalar, so the pointers into it stay valid.
    std::vector<int32_t> scalars;
    for (size_t k = 0; k < num_inputs; ++k) {
        LLGA_RETURN_IF_ERROR(check_tensor(
                inputs[k], c.user_inputs[k], ctx.engine, "input", k));
        if (inputs[k]->is_host_scalar()) {
            if (scalars.empty()) scalars.assign(num_inputs, 0);
            scalars[k] = inputs[k]->scalar_value();
            ctx.inputs.push_back(&scalars[k]);
        } else {
            ctx.inputs.push_back(inputs[k]->data());
        }
    }
    for (size_t k = 0; k < num_outputs; ++k) {
        LLGA_RETURN_IF_ERROR(check_tensor(
                outputs[k], plan.outputs[k], ctx.engine, "output", k));
        if (outputs[k]->is_host_scalar())
            return fail(dnnl_invalid_arguments,
                    "output %zu: a host scalar cannot be an output", k);
        ctx.outputs.push_back(outputs[k]->data());
    }
    staged_buffers_t staged;
    staged.alloc = ctx.allocator;
    staged.blocks.reserve(c.staged.size()); // no throw once a block exists
    for (size_t k : c.staged) {
        const logical_tensor_t &dense = plan.inputs[k];
        const size_t bytes = ir::mem_size(dense);
        void *p = ctx.allocator->allocate(bytes, rt::lifetime_t::temp);
        if (!p)
            return fail(dnnl_out_of_memory,
                    "input %zu: allocating %zu bytes for the dense copy of "
                    "tensor %zu failed",
                    k, bytes, dense.id);
        staged.blocks.emplace_back(p, bytes);
        if (ctx.const_keys.empty()) ctx.const_keys.assign(num_inputs, nullptr);
        rt::strided_copy(ctx.inputs[k], ir::strides_of(c.user_inputs[k]), p,
                ir::strides_of(dense), ir::dims_of(dense),
                ir::dtype_storage_bytes(dense.data_type, 1));
        // Prepared constants stay keyed by the user's buffer.
        ctx.const_keys[k] = ctx.inputs[k];
        ctx.inputs[k] = p;
    }
    std::shared_ptr<const kernel_t> kernel = c.kernel;
    if (c.threads > 0) {
        const int n = rt::max_threads();
        if (n != c.threads) LLGA_RETURN_IF_ERROR(c.kernel_for(n, kernel));
    }
    const bool timed = verbose_on(vflag_profile_exec);
    const double t0 = timed ? now_ms() : 0, stamp = timed ? wall_ms() : 0;
    LLGA_RETURN_IF_ERROR(kernel->execute(ctx));
    if (timed) {
        const engine_kind_t ek = stream.engine()->kind();
        // A kernel re-made for another thread count names itself.
        const std::string info = kernel == c.kernel
                ? c.verbose_info(ek)
                : verbose_partition_info(c.plan, ek, kernel->name(),
                        c.backend_name);
        verbose_printf(vflag_profile_exec, stamp, "graph,exec,%s,%g",
                info.c_str(), now_ms() - t0);
    }
    return dnnl_success;
}

status_t compiled_t::kernel_for(
        int n, std::shared_ptr<const kernel_t> &out) const {
    out = kernel;
    if (n == threads || threads == 0) return dnnl_success;
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto &r : replanned_)
        if (r.first == n) {
            out = r.second;
            return dnnl_success;
        }
    if (replanned_.size() >= k_max_replanned) return dnnl_success;
    // Made on the executing thread, so every rt::max_threads() the kernel
    // asks while being made answers `n`.
    const double t0 = now_ms(), stamp = wall_ms();
    // Should that fail (memory), `kernel` still computes the same result
    // with its own split, so it serves `n` from now on.
    std::shared_ptr<const kernel_t> k;
    if (make_kernel(plan, backends, k, nullptr) != dnnl_success) k = kernel;
    replanned_.emplace_back(n, k);
    out = k;
    if (verbose_on(vflag_profile_create)) {
        // oneDNN's compile line, then an llga info line saying why.
        const std::string info = verbose_partition_info(
                plan, dnnl_cpu, k->name(), backend_name);
        verbose_printf(vflag_profile_create, stamp,
                "graph,compile:cache_miss,%s,%g", info.c_str(), now_ms() - t0);
        verbose_printf(vflag_profile_create, stamp,
                "graph,info,llga,rethread,partition %zu kernel remade for %d "
                "threads (compiled for %d)",
                plan.partition ? plan.partition->id : 0, n, threads);
    }
    return dnnl_success;
}

const std::string &compiled_t::verbose_info(engine_kind_t engine) const {
    std::call_once(info_once_, [&] {
        info_ = verbose_partition_info(
                plan, engine, kernel ? kernel->name() : "", backend_name);
    });
    return info_;
}

bool query_port(const compiled_t &c, size_t id, logical_tensor_t &lt) {
    for (const auto &v : {&c.user_inputs, &c.plan.outputs})
        for (const auto &p : *v)
            if (p.id == id) {
                lt = p;
                return true;
            }
    return false;
}

} // namespace compiler
} // namespace llga
