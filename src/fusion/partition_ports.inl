// SPDX-License-Identifier: Apache-2.0
// fusion/partition_ports.inl — port computation (template body).
#include <unordered_set>

namespace llga {
namespace fusion {

template <typename F>
void compute_ports(partition_t &p, F consumed_outside) {
    std::unordered_set<size_t> produced, seen;
    for (const auto &op : p.ops)
        for (const auto &lt : op.outputs)
            produced.insert(lt.id);
    p.inputs.clear();
    p.outputs.clear();
    for (const auto &op : p.ops)
        for (const auto &lt : op.inputs)
            if (!produced.count(lt.id) && seen.insert(lt.id).second)
                p.inputs.push_back(lt);
    bool any_inside_use = false;
    for (const auto &op : p.ops)
        for (const auto &lt : op.outputs) {
            any_inside_use = false;
            for (const auto &user : p.ops)
                for (const auto &in : user.inputs)
                    if (in.id == lt.id) any_inside_use = true;
            if (!any_inside_use || consumed_outside(lt.id))
                p.outputs.push_back(lt);
        }
}

} // namespace fusion
} // namespace llga
