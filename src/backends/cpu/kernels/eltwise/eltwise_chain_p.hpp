// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/eltwise/eltwise_chain_p.hpp — one JIT kernel for a whole
// chain of elementwise ops (the fp_binary_post_ops and fp_eltwise_binary
// partitions, and any such run the op sequence offers): every value stays in
// registers from the first load to the single store. Also declares the
// per-vector emitters of eltwise.cpp that the chain reuses. Internal to
// backends/cpu (it pulls in asmjit).
#pragma once

#include <memory>
#include <string>

#include <asmjit/x86.h>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/eltwise/eltwise.hpp"
#include "backends/cpu/kernels/eltwise/eltwise_jit_math.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace eltwise {

// ---- defined in eltwise.cpp, shared with the chain generator ----
// y = f(x) for one vector: x = v0, y = v1, temporaries v2..v5 and v7.
void emit_unary_math(vec_emitter_t &e, asmjit::x86::Assembler &a, alg_t alg,
        float alpha, float beta);
// y = a op b for one vector: a = v0, b = v6, y = v1.
void emit_binary_math(vec_emitter_t &e, asmjit::x86::Assembler &a, alg_t alg);
// Tail mask for `rem` (1..W-1) lanes (k1 or tail_mask()); clobbers rax/rcx.
void emit_tail_mask(vec_emitter_t &e, asmjit::x86::Assembler &a,
        const asmjit::x86::Gp &rem, const asmjit::Label &mask_table);
// The AVX2 tail-mask table the label above points at; emit after the code.
void emit_mask_table(asmjit::x86::Assembler &a, const asmjit::Label &mask_table);

// ---- the kernel-table hooks of the chain kernel ----
bool accepts_chain(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create_chain(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace eltwise
} // namespace cpu
} // namespace llga
