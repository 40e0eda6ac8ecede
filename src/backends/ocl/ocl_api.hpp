// SPDX-License-Identifier: Apache-2.0
// backends/ocl/ocl_api.hpp — what the C API layer asks of the OpenCL engine.
// OpenCL handles cross this boundary as void* so capi never includes the
// OpenCL headers itself.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "compiler/kernel.hpp"
#include "runtime/engine.hpp"
#include "runtime/stream.hpp"

namespace llga {
namespace ocl {

// Number of devices GPU engines can use (see device.hpp for which count).
size_t gpu_count();
// Checks a GPU engine index; the message explains an empty device list.
status_t check_gpu_index(size_t index);

// The device object of a GPU engine: default context of device `index`, or
// the user's device and context (native handles). `alloc` may carry OpenCL
// allocation callbacks.
status_t make_device(size_t index, const rt::allocator_t &alloc,
        std::shared_ptr<const rt::device_t> &out);
status_t make_interop_device(void *native_dev, void *native_ctx,
        const rt::allocator_t &alloc, std::shared_ptr<const rt::device_t> &out,
        size_t &index);

// A queue for a stream on a GPU engine: a new in-order queue, or the
// user's (retained; must be in-order).
status_t make_queue(const rt::engine_t &engine, void *native_q,
        std::shared_ptr<rt::queue_t> &out);

// Native handles (not retained); status when the object is not OpenCL.
status_t native_context(const rt::engine_t &engine, void **out);
status_t native_device(const rt::engine_t &engine, void **out);
status_t native_queue(const rt::stream_t &stream, void **out);
// The engine cache blob id of a device (its name, version and driver).
std::string cache_blob_id(void *native_dev);

// The backend that compiles partitions for a GPU engine.
const compiler::backend_t *backend_for(const rt::engine_t &engine);

} // namespace ocl
} // namespace llga
