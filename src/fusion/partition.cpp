// SPDX-License-Identifier: Apache-2.0
// fusion/partition.cpp — partition signature and ids.
#include "fusion/partition.hpp"

#include <atomic>

#include "ir/logical_tensor.hpp"

namespace llga {
namespace fusion {

size_t next_partition_id() {
    static std::atomic<size_t> next {0};
    return next++;
}

namespace {
// A tensor as the signature sees it: id, data type and shape as the graph
// gave them. Types and shapes of values inside the partition change what
// it computes (an f32 or f16 score tensor between two MatMuls) although no
// port shows them.
void add_tensor(std::string &s, const logical_tensor_t &lt) {
    s += std::to_string(lt.id) + ":" + std::to_string(lt.data_type);
    for (int d = 0; d < lt.ndims && d < DNNL_MAX_NDIMS; ++d)
        s += (d ? "x" : "[") + std::to_string(lt.dims[d]);
    s += lt.ndims > 0 ? "]," : ",";
}
} // namespace

std::string partition_t::signature() const {
    std::string s = "fp" + std::to_string(static_cast<int>(fpmath_mode))
            + (fpmath_apply_to_int ? "i" : "") + "|";
    for (const auto &op : ops) {
        s += std::to_string(static_cast<int>(op.kind)) + "#"
                + std::to_string(op.id) + "{";
        for (const auto &kv : op.attrs)
            s += std::to_string(static_cast<int>(kv.first)) + "="
                    + kv.second.to_string() + ";";
        s += "}(";
        for (const auto &lt : op.inputs)
            add_tensor(s, lt);
        s += ")->(";
        for (const auto &lt : op.outputs)
            add_tensor(s, lt);
        s += ")";
    }
    return s;
}

} // namespace fusion
} // namespace llga
