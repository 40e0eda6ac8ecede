// SPDX-License-Identifier: Apache-2.0
// capi/execute.hpp — the one execute path behind dnnl_graph_compiled_partition_execute
// and dnnl_graph_ocl_interop_compiled_partition_execute: argument checks and
// the handle-to-tensor conversion (on the stack for up to 16 inputs and 16
// outputs, so a call allocates nothing).
#pragma once

#include "capi/handles.hpp"
#include "compiler/compiled_partition.hpp"

namespace llga {
namespace capi {

status_t execute_handles(const_dnnl_graph_compiled_partition_t cp,
        dnnl_stream_t stream, size_t num_inputs,
        const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const_dnnl_graph_tensor_t *outputs,
        const compiler::device_events_t &events);

} // namespace capi
} // namespace llga
