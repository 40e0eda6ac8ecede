// SPDX-License-Identifier: Apache-2.0
// tools/run/reference.cpp — op-by-op reference execution (see reference.hpp).
#include "reference.hpp"

#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

namespace llga_run {

using namespace llga;

bool run_reference(const prepared_t &g, buffers_t &bufs, std::string &error) {
    for (const ir::op_t &src_op : g.ops) {
        if (src_op.kind == dnnl_graph_op_end) continue;
        const ops::op_def_t *def = ops::find_op_def(src_op.kind);
        if (!def || !def->ref) {
            error = ops::describe(src_op) + ": no reference implementation";
            return false;
        }
        ir::op_t op = src_op;
        // The compiler hands every op the graph's math mode; do the same.
        op.fpmath = g.fpmath;
        std::vector<const void *> in;
        std::vector<void *> out;
        for (auto &lt : op.inputs) {
            auto it = bufs.find(lt.id);
            if (it == bufs.end()) {
                error = ops::describe(op) + ": input tensor "
                        + std::to_string(lt.id) + " has no data";
                return false;
            }
            lt = it->second.lt;
            in.push_back(it->second.data());
        }
        for (auto &lt : op.outputs) {
            buffer_t &b = bufs[lt.id];
            b.lt = lt;
            size_t bytes = lt.ndims == 0 ? ir::dtype_storage_bytes(lt.data_type, 1)
                                         : ir::mem_size(lt);
            if (bytes == size_t(-1)) {
                error = ops::describe(op) + ": output tensor "
                        + std::to_string(lt.id) + " has no known layout";
                return false;
            }
            b.resize(bytes);
            out.push_back(b.data());
        }
        if (def->ref(op, in, out) != dnnl_success) {
            error = ops::describe(op) + ": reference failed: " + last_error();
            return false;
        }
    }
    return true;
}

} // namespace llga_run
