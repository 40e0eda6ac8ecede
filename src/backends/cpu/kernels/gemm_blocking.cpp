// backends/cpu/kernels/gemm_blocking.cpp — block split and task origins
// of the GEMM drivers (see gemm_blocking.hpp).
#include "backends/cpu/kernels/gemm_blocking.hpp"

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

} // namespace gemm
} // namespace cpu
} // namespace llga
