// SPDX-License-Identifier: Apache-2.0
// tools/run/check_case.cpp — the last step of preparing a case: every tensor
// (from the file, --in-shapes, --mb or shape inference) goes through the
// library's checked size arithmetic, so hostile shapes and strides end in a
// message instead of a huge or undersized buffer, and graph outputs whose
// strides overlap are refused as the library refuses them; --fill specs are
// checked against the graph's inputs.
#include <algorithm>

#include "base/checked_size.hpp"
#include "base/status.hpp"
#include "ir/logical_tensor.hpp"
#include "fill_spec.hpp"
#include "prepare.hpp"

namespace llga_run {

using namespace llga;

bool check_case_layouts(const prepared_t &p, std::string &error) {
    for (const auto &kv : p.tensors) {
        const logical_tensor_t &t = kv.second;
        if (check_shape(t, "logical tensor") != dnnl_success) {
            error = last_error();
            return false;
        }
        // The runner allocates every known tensor; its size must be known.
        if (ir::shape_known(t) && ir::strides_known(t)
                && ir::mem_size(t) == static_cast<size_t>(-1)) {
            error = "tensor " + std::to_string(t.id)
                    + ": its strides address more than 2^48 elements";
            return false;
        }
    }
    for (size_t id : p.outputs) {
        auto it = p.tensors.find(id);
        if (it == p.tensors.end()) continue;
        const logical_tensor_t &t = it->second;
        if (ir::strides_known(t) && ir::shape_known(t)
                && strides_overlap(t.dims, t.layout.strides, t.ndims)) {
            error = "output tensor " + std::to_string(id) + " has strides "
                    + ir::dims_to_string(ir::strides_of(t))
                    + " that overlap; outputs need non-overlapping strides";
            return false;
        }
    }
    return check_fill(p.fill, p, error);
}

} // namespace llga_run
