// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/gemm_blocking.cpp — block split, task origins,
// batch folding and post-op operand tables of the GEMM drivers (see
// gemm_blocking.hpp).
#include "backends/cpu/kernels/gemm/gemm_blocking_p.hpp"

#include <algorithm>

#include "backends/cpu/kernels/kernel_util.hpp"

namespace llga {
namespace cpu {
namespace gemm {

block_grid_t split_blocks(int64_t M, int64_t N, int64_t nbatch, int64_t mr,
        int64_t nr, int64_t mc_max, int64_t nc_max, int64_t want,
        const split_rule_t &rule) {
    int64_t mb = div_up(M, round_up(std::min(M, mc_max), mr));
    int64_t nb = div_up(N, std::min(round_up(N, nr), nc_max));
    while (nbatch * mb * nb < want) {
        if (rule.m_first_rows > 0 && div_up(M, mb + 1) >= rule.m_first_rows)
            ++mb;
        else if (div_up(N, nb + 1) >= rule.min_nc)
            ++nb;
        else if (div_up(M, mb + 1) >= rule.min_mc)
            ++mb;
        else if (div_up(N, nb + 1) >= nr)
            ++nb;
        else
            break;
    }
    block_grid_t g;
    g.mc = round_up(div_up(M, mb), mr);
    g.nc = round_up(div_up(N, nb), nr);
    g.mblocks = div_up(M, g.mc);
    g.nblocks = div_up(N, g.nc);
    return g;
}

void task_origin(int64_t task, const block_grid_t &g,
        const batch_strides_t &b, int64_t *m0, int64_t *n0, int64_t *aoff,
        int64_t *boff, int64_t *doff) {
    *n0 = task % g.nblocks * g.nc;
    *m0 = (task / g.nblocks) % g.mblocks * g.mc;
    int64_t bt = task / (g.nblocks * g.mblocks);
    *aoff = *boff = *doff = 0;
    for (size_t i = b.batch.size(); i-- > 0;) {
        const int64_t idx = bt % b.batch[i];
        bt /= b.batch[i];
        *aoff += idx * b.a_bs[i];
        *boff += idx * b.b_bs[i];
        *doff += idx * b.d_bs[i];
    }
}

void fold_batch(const batch_view_t &v) {
    while (!v.batch.empty()) {
        const size_t i = v.batch.size() - 1;
        const int64_t n = v.batch[i];
        if (n != 1) {
            if (v.b_bs[i] != 0) break;
            bool po_ok = true;
            for (const postop_t &p : v.post.ops) {
                if (!p.has_operand() || p.bs.empty()) continue;
                const bool by_row = p.bcast == po_bcast_t::row
                        || p.bcast == po_bcast_t::full;
                if (!by_row ? p.bs[i] != 0
                            : v.M != 1 && p.bs[i] != v.M * p.ld)
                    po_ok = false;
            }
            if (!po_ok) break;
            if (v.M == 1)
                for (postop_t &p : v.post.ops)
                    if (p.has_operand() && !p.bs.empty()
                            && (p.bcast == po_bcast_t::row
                                    || p.bcast == po_bcast_t::full))
                        p.ld = p.bs[i];
            if (v.M == 1) {
                // A single row: the batch strides simply become row strides.
                v.sam = v.a_bs[i];
                v.sdm = v.d_bs[i];
            } else if (v.a_bs[i] != v.M * v.sam || v.d_bs[i] != v.M * v.sdm) {
                break;
            }
            v.M *= n;
        }
        v.batch.pop_back();
        v.a_bs.pop_back();
        v.b_bs.pop_back();
        v.d_bs.pop_back();
        for (postop_t &p : v.post.ops)
            if (!p.bs.empty()) p.bs.pop_back();
    }
}

void po_operand_table(const postops_t &po, const std::vector<int64_t> &batch,
        int64_t bt, const void *const *args, int64_t row, int64_t col,
        postop_ptr_t *out) {
    int idx = 0;
    for (const postop_t &p : po.ops) {
        if (!p.has_operand()) continue;
        const int64_t es = static_cast<int64_t>(po_dt_size(p.src_dt));
        int64_t off = 0, b = bt;
        for (size_t i = batch.size(); i-- > 0;) {
            const int64_t bi = b % batch[i];
            b /= batch[i];
            if (!p.bs.empty()) off += bi * p.bs[i];
        }
        const bool by_row = p.bcast == po_bcast_t::row
                || p.bcast == po_bcast_t::full;
        const bool by_col = p.bcast == po_bcast_t::col
                || p.bcast == po_bcast_t::full;
        if (by_row) off += row * p.ld;
        if (by_col) off += col;
        out[idx].p = static_cast<const char *>(args[idx]) + off * es;
        out[idx].ld = by_row ? p.ld * es : 0;
        ++idx;
    }
}

} // namespace gemm
} // namespace cpu
} // namespace llga
