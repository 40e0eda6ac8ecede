// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/norm_types_p.hpp — the spec's type rule of the
// normalisation ops the C++ kernels take (BatchNormInference,
// BatchNormForwardTraining, BatchNormTrainingBackward, LayerNormBackward):
// the data tensors (the first inputs and the first output) share one type,
// f32, bf16 or f16; every other tensor (statistics, scale/shift, weight
// gradients) shares one type, f32, or bf16 with bf16 data.
#pragma once

#include <string>

#include "backends/cpu/kernels/kernel_util.hpp"
#include "ir/op.hpp"

namespace llga {
namespace cpu {

// Checks `op` whose first `data_inputs` inputs and first output are data;
// `data` and `params` name the two groups in the reason. Sets dt (data)
// and pdt (the others; f32 when there are none).
inline bool norm_types(const ir::op_t &op, size_t data_inputs,
        const char *data, const char *params, data_type_t &dt,
        data_type_t &pdt, std::string *why) {
    dt = op.inputs[0].data_type;
    pdt = op.inputs.size() > data_inputs ? op.inputs[data_inputs].data_type
                                         : dnnl_f32;
    bool same = op.outputs[0].data_type == dt;
    for (size_t k = 1; k < data_inputs; ++k)
        same = same && op.inputs[k].data_type == dt;
    if (!same || (dt != dnnl_f32 && dt != dnnl_bf16 && dt != dnnl_f16))
        return decline(why, std::string(data) + " must be one of f32, bf16, f16");
    if (pdt != dnnl_f32 && !(pdt == dnnl_bf16 && dt == dnnl_bf16))
        return decline(why, std::string(params)
                        + " must be f32, or bf16 with bf16 data");
    for (size_t k = data_inputs; k < op.inputs.size(); ++k)
        if (op.inputs[k].data_type != pdt)
            return decline(why, std::string(params) + ": types differ");
    for (size_t k = 1; k < op.outputs.size(); ++k)
        if (op.outputs[k].data_type != pdt)
            return decline(why, std::string(params) + ": types differ");
    return true;
}

} // namespace cpu
} // namespace llga
