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
            s += std::to_string(lt.id) + ",";
        s += ")->(";
        for (const auto &lt : op.outputs)
            s += std::to_string(lt.id) + ",";
        s += ")";
    }
    return s;
}

} // namespace fusion
} // namespace llga
