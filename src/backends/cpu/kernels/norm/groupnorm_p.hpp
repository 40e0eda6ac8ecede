// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/groupnorm_p.hpp — GroupNorm forward for
// channels-last (NXC) tensors with spatial dims, where a group's channels are
// short segments C elements apart: per-channel sums vectorized across the
// contiguous channels of each position, folded into group statistics in C++.
// layernorm.cpp owns the plan analysis and calls this. Internal to
// backends/cpu; asmjit-free.
#pragma once

#include <cstdint>
#include <memory>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/norm/softmax_norm_io.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace norm {

struct gn_nxc_t {
    int64_t batch = 0, sp = 0, channels = 0, groups = 0;
    float eps = 1e-5f;
    bool affine = false, stats = false;
    norm::dt_t sdt = norm::dt_t::f32, ddt = norm::dt_t::f32;
    norm::dt_t pdt = norm::dt_t::f32;  // gamma/beta
    norm::dt_t stdt = norm::dt_t::f32; // mean/variance
    int in[3] = {-1, -1, -1};  // src, gamma, beta ports
    int out[3] = {-1, -1, -1}; // dst, mean, variance ports
};

status_t create_gn_nxc(const gn_nxc_t &g, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace norm
} // namespace cpu
} // namespace llga
