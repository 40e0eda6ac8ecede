// SPDX-License-Identifier: Apache-2.0
// backends/ocl/cl.hpp — the one include of the OpenCL C API (this folder is
// the only one that sees it). Targets OpenCL 3.0 headers but uses nothing
// beyond 1.2 + SVM (2.0 entry points present in 3.0 ICDs), so PoCL and old
// GPU drivers both work.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <CL/cl_ext.h>
