// SPDX-License-Identifier: Apache-2.0
// tools/run/gpu_mem.hpp — device memory for `llga-run --engine=gpu`: the
// runner fills and checks host buffers, so each tensor of a GPU run gets a
// device buffer (USM where the device has Intel USM, else SVM) that is
// copied in before and out after execution through the stream's OpenCL
// queue, as a user program would.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl_common.h"

namespace llga_run {

class gpu_mem_t {
public:
    gpu_mem_t() = default;
    gpu_mem_t(const gpu_mem_t &) = delete;
    gpu_mem_t &operator=(const gpu_mem_t &) = delete;
    ~gpu_mem_t();
    // False (with the reason) when this build has no OpenCL engine.
    bool init(dnnl_engine_t engine, dnnl_stream_t stream, std::string &error);
    void *alloc(size_t bytes);
    bool copy(void *dst, const void *src, size_t bytes);

private:
    void *ctx_ = nullptr, *queue_ = nullptr;
    bool usm_ = false;
    void *usm_alloc_ = nullptr, *usm_free_ = nullptr, *usm_copy_ = nullptr;
    void *dev_ = nullptr;
    std::vector<void *> blocks_;
};

} // namespace llga_run
