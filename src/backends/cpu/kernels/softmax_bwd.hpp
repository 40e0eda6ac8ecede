// backends/cpu/kernels/softmax_bwd.hpp — SoftMaxBackward and
// LogSoftmaxBackward on f32, any axis and strides: per slice along the
// axis, the reference's double sum (dy·y, or dy) and then its expression
// per element (y (dy − s), or dy − e^y s), so results match it bit for
// bit; slices run in parallel (the reference walks them on one thread).
#pragma once

#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace softmax_bwd {

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace softmax_bwd
} // namespace cpu
} // namespace llga
