// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels_family.hpp — the builders of each kernel family (one
// kernels_<family>.cpp per kernels/<family>.cl); kernels.def maps op kinds
// to them.
#pragma once

#include "backends/ocl/kernel_desc.hpp"
#include "base/status.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/eltwise_math.hpp"

namespace llga {
namespace ocl {

status_t build_eltwise(const ir::op_t &op, std::vector<launch_desc_t> &out);
status_t build_binary(const ir::op_t &op, std::vector<launch_desc_t> &out);
status_t build_copy(const ir::op_t &op, std::vector<launch_desc_t> &out);
status_t build_concat(const ir::op_t &op, std::vector<launch_desc_t> &out);
status_t build_quant(const ir::op_t &op, std::vector<launch_desc_t> &out);
status_t build_matmul(const ir::op_t &op, std::vector<launch_desc_t> &out);
status_t build_conv(const ir::op_t &op, std::vector<launch_desc_t> &out);
status_t build_gen_index(const ir::op_t &op, std::vector<launch_desc_t> &out);
status_t build_reduce(const ir::op_t &op, std::vector<launch_desc_t> &out);
status_t build_norm(const ir::op_t &op, std::vector<launch_desc_t> &out);
status_t build_norm_bwd(const ir::op_t &op, std::vector<launch_desc_t> &out);
status_t build_prelu_bwd(const ir::op_t &op, std::vector<launch_desc_t> &out);
status_t build_pool(const ir::op_t &op, std::vector<launch_desc_t> &out);
status_t build_interp(const ir::op_t &op, std::vector<launch_desc_t> &out);
status_t build_softmax(const ir::op_t &op, std::vector<launch_desc_t> &out);

} // namespace ocl
} // namespace llga
