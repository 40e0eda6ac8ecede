// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/common/broadcast_runs.cpp — see broadcast_runs.hpp.
#include "backends/cpu/kernels/common/broadcast_runs.hpp"

#include <algorithm>

#include "backends/cpu/kernels/kernel_util.hpp"
#include "ir/logical_tensor.hpp"

namespace llga {
namespace cpu {
namespace common {

namespace {

// An operand's (dims, strides) right-aligned to `rank` dims, leading unit
// dims dropped or added; false if it has more non-unit dims than that.
bool align(const logical_tensor_t &lt, size_t rank, dims_t &d, dims_t &st) {
    d = ir::dims_of(lt);
    st = ir::strides_of(lt);
    while (d.size() > rank) {
        if (d.front() != 1) return false;
        d.erase(d.begin());
        st.erase(st.begin());
    }
    d.insert(d.begin(), rank - d.size(), 1);
    st.insert(st.begin(), rank - st.size(), 0);
    return true;
}

} // namespace

bool plan(const logical_tensor_t &out, const std::vector<logical_tensor_t> &ins,
        runs_t &r, std::string *why) {
    const size_t nk = ins.size() + 1;
    if (nk > k_max_operands) return decline(why, "too many operands");
    const dims_t od = ir::dims_of(out);
    const size_t rank = od.size();
    std::vector<dims_t> d(nk), st(nk);
    for (size_t k = 0; k < nk; ++k) {
        const logical_tensor_t &lt = k == 0 ? out : ins[k - 1];
        if (!ir::strides_known(lt))
            return decline(why, "tensor " + std::to_string(lt.id)
                            + " has no strides");
        if (!align(lt, rank, d[k], st[k]))
            return decline(why, "an operand has more dims than the output");
    }
    // The output's non-unit dims, innermost (smallest stride) first.
    std::vector<size_t> order;
    for (size_t i = 0; i < rank; ++i)
        if (od[i] != 1) order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
            [&](size_t x, size_t y) { return st[0][x] < st[0][y]; });
    struct group_t {
        int64_t ext;
        int64_t step[k_max_operands]; // stride of its innermost dim
        int64_t next[k_max_operands]; // stride the next outer dim must have
        bool bc[k_max_operands];      // broadcast along it
    };
    std::vector<group_t> g; // innermost first
    for (size_t i : order) {
        group_t n {};
        n.ext = od[i];
        bool merge = !g.empty();
        for (size_t k = 0; k < nk; ++k) {
            if (d[k][i] != 1 && d[k][i] != od[i])
                return decline(why, "the operands do not broadcast to the output");
            n.bc[k] = d[k][i] == 1;
            n.step[k] = n.bc[k] ? 0 : st[k][i];
            n.next[k] = n.step[k] * od[i];
            if (merge && (g.back().bc[k] != n.bc[k]
                                 || (!n.bc[k] && st[k][i] != g.back().next[k])))
                merge = false;
        }
        if (!merge) {
            g.push_back(n);
            continue;
        }
        group_t &t = g.back();
        t.ext *= od[i];
        for (size_t k = 0; k < nk; ++k)
            t.next[k] = n.next[k];
    }
    r = runs_t();
    r.inner_step.assign(nk, 1);
    r.outer_step.assign(nk, {});
    if (g.empty()) return true; // a single element
    r.inner = g.front().ext;
    for (size_t k = 0; k < nk; ++k)
        r.inner_step[k] = g.front().step[k];
    for (size_t j = g.size(); j-- > 1;) {
        r.outer.push_back(g[j].ext);
        for (size_t k = 0; k < nk; ++k)
            r.outer_step[k].push_back(g[j].step[k]);
    }
    return true;
}

} // namespace common
} // namespace cpu
} // namespace llga
