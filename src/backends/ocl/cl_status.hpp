// SPDX-License-Identifier: Apache-2.0
// backends/ocl/cl_status.hpp — OpenCL error codes as dnnl statuses, with the
// CL error name in llga_last_error_message().
#pragma once

#include "backends/ocl/cl.hpp"
#include "base/status.hpp"

namespace llga {
namespace ocl {

const char *cl_error_name(cl_int err);
// dnnl_out_of_memory for allocation failures, dnnl_runtime_error otherwise;
// the message is "<what>: <CL_ERROR_NAME> (<code>)".
status_t cl_status(cl_int err);
status_t cl_fail(cl_int err, const char *what);

#define LLGA_CL_CHECK(call, what) \
    do { \
        const cl_int llga_cl_err_ = (call); \
        if (llga_cl_err_ != CL_SUCCESS) \
            return ::llga::ocl::cl_fail(llga_cl_err_, what); \
    } while (0)

} // namespace ocl
} // namespace llga
