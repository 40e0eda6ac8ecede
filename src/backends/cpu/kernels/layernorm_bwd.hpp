// backends/cpu/kernels/layernorm_bwd.hpp — LayerNormBackward on f32, dense
// row-major tensors, with or without gamma, with or without the
// diff_gamma / diff_beta outputs. diff_src is computed row by row and the
// weight gradients by blocks of columns over all rows (unit-stride inner
// loops), each with the reference's double expressions in its order, so
// results match it bit for bit.
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace layernorm_bwd {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace layernorm_bwd
} // namespace cpu
} // namespace llga
