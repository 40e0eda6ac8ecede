// SPDX-License-Identifier: Apache-2.0
// ops/registry.cpp — expands ops.def into the op table and name maps.
#include "ops/registry.hpp"

#include <algorithm>

#include "base/status.hpp"
#include "ops/families.hpp"
#include "ops/infer_util.hpp"

namespace llga {
namespace ops {

// The table must list every public kind once, in enum order.
namespace {
constexpr int k_count = 0
#define LLGA_OP(sym, name, family) +1
#include "ops/ops.def"
#undef LLGA_OP
        ;
static_assert(k_count == dnnl_graph_op_last_symbol,
        "ops.def must list every public op kind");

constexpr int k_index_check[] = {
#define LLGA_OP(sym, name, family) dnnl_graph_op_##sym,
#include "ops/ops.def"
#undef LLGA_OP
};
constexpr bool in_enum_order() {
    for (int k = 0; k < k_count; ++k)
        if (k_index_check[k] != k) return false;
    return true;
}
static_assert(in_enum_order(), "ops.def must follow the public enum order");

const char *const k_names[] = {
#define LLGA_OP(sym, name, family) #name,
#include "ops/ops.def"
#undef LLGA_OP
};

const char *const k_families[] = {
#define LLGA_OP(sym, name, family) #family,
#include "ops/ops.def"
#undef LLGA_OP
};

struct table_t {
    op_def_t defs[k_count];
    table_t() {
#define LLGA_OP(sym, name, family) \
    define_##family(dnnl_graph_op_##sym, defs[dnnl_graph_op_##sym]);
#include "ops/ops.def"
#undef LLGA_OP
    }
};

const table_t &table() {
    static const table_t t;
    return t;
}
} // namespace

const char *op_family(op_kind_t kind) {
    const int k = static_cast<int>(kind);
    return k < 0 || k >= k_count ? nullptr : k_families[k];
}

const op_def_t *find_op_def(op_kind_t kind) {
    const int k = static_cast<int>(kind);
    if (k < 0 || k >= k_count) return nullptr;
    return &table().defs[k];
}

const char *op_kind_name(op_kind_t kind) {
    const int k = static_cast<int>(kind);
    return (k < 0 || k >= k_count) ? nullptr : k_names[k];
}

bool op_kind_from_name(const std::string &name, op_kind_t *kind) {
    for (int k = 0; k < k_count; ++k)
        if (name == k_names[k]) {
            *kind = static_cast<op_kind_t>(k);
            return true;
        }
    return false;
}

const std::vector<op_kind_t> &all_op_kinds() {
    static const std::vector<op_kind_t> kinds = [] {
        std::vector<op_kind_t> v;
        for (int k = 0; k < k_count; ++k)
            v.push_back(static_cast<op_kind_t>(k));
        return v;
    }();
    return kinds;
}

std::string describe(const ir::op_t &op) {
    return op.describe(op_kind_name(op.kind));
}

namespace {
// Every known dim, and the element count of every port, must stay within
// max_dim, so no size arithmetic downstream can overflow int64.
status_t check_sizes(const ir::op_t &op) {
    for (const auto *ports : {&op.inputs, &op.outputs})
        for (const logical_tensor_t &lt : *ports) {
            if (lt.ndims < -1 || lt.ndims > DNNL_MAX_NDIMS)
                return fail(dnnl_invalid_graph_op,
                        "%s: tensor %zu has invalid rank %d",
                        describe(op).c_str(), lt.id, lt.ndims);
            dim_t count = 1;
            for (int d = 0; d < lt.ndims; ++d) {
                const dim_t v = lt.dims[d];
                if (v == unknown_dim) continue;
                if (v < 0 || v > max_dim || (v > 0 && count > max_dim / v))
                    return fail(dnnl_invalid_graph_op,
                            "%s: tensor %zu has dimension %lld at axis %d; "
                            "dims must be in [0, 2^48] with at most 2^48 "
                            "elements",
                            describe(op).c_str(), lt.id,
                            static_cast<long long>(v), d);
                count *= std::max<dim_t>(v, 1);
            }
        }
    for (const auto &kv : op.attrs)
        for (int64_t v : kv.second.i)
            if (v < -max_dim || v > max_dim)
                return fail(dnnl_invalid_graph_op,
                        "%s: attribute '%s' has value %lld; integer attribute "
                        "values must be within +-2^48",
                        describe(op).c_str(), ir::attr_name(kv.first),
                        static_cast<long long>(v));
    return dnnl_success;
}
} // namespace

status_t verify_op(ir::op_t &op) {
    const op_def_t *def = find_op_def(op.kind);
    if (!def)
        return fail(dnnl_invalid_graph_op, "%s: unknown op kind",
                describe(op).c_str());
    if (!def->schema.defined())
        return fail(dnnl_unimplemented, "%s: op kind has no schema yet",
                describe(op).c_str());
    LLGA_RETURN_IF_ERROR(check_sizes(op));
    return def->schema.verify(op, op_kind_name(op.kind));
}

status_t infer_shapes(ir::op_t &op) {
    const op_def_t *def = find_op_def(op.kind);
    if (!def || !def->infer)
        return fail(dnnl_unimplemented, "%s: no shape inference for this kind",
                describe(op).c_str());
    return def->infer(op);
}

bool has_reference(op_kind_t kind) {
    const op_def_t *def = find_op_def(kind);
    return def && def->ref;
}

} // namespace ops
} // namespace llga
