// SPDX-License-Identifier: Apache-2.0
// backends/ocl/device.hpp — OpenCL devices behind GPU engines: discovery
// (which devices count as GPUs), the per-engine device object (context,
// memory: Intel USM where the device has it, else SVM; the user's allocation
// callbacks), and the per-device program cache.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/ocl/cl.hpp"
#include "compiler/kernel.hpp"
#include "runtime/allocator.hpp"
#include "runtime/device.hpp"

namespace llga {
namespace ocl {

// Devices that GPU engines enumerate, in platform order: every
// CL_DEVICE_TYPE_GPU device, plus CPU and accelerator devices when
// LLGA_OCL_ANY_DEVICE=1 (so PoCL's CPU device can serve as the GPU).
// Discovered once per process.
const std::vector<cl_device_id> &gpu_devices();
// Why gpu_devices() is empty (for messages), "" when it is not.
std::string no_device_reason();

enum class mem_kind_t { usm, svm };

// Built programs of one (context, device), keyed by a hash of the source
// and the build options.
class program_cache_t {
public:
    program_cache_t(cl_context ctx, cl_device_id dev) : ctx_(ctx), dev_(dev) {}
    ~program_cache_t();
    // Builds (or finds) the program; on failure the message carries the CL
    // error and the build log.
    status_t get(const std::string &source, const std::string &options,
            const std::string &what, cl_program &out);
    size_t size() const;

private:
    cl_context ctx_;
    cl_device_id dev_;
    mutable std::mutex mu_;
    std::map<std::string, cl_program> programs_;
};

class device_impl_t : public rt::device_t,
                      public std::enable_shared_from_this<device_impl_t> {
public:
    // `context` null: the shared default context of `device`. A user's
    // context is retained. `alloc` may carry OpenCL allocation callbacks.
    static status_t create(cl_device_id device, cl_context context,
            const rt::allocator_t &alloc,
            std::shared_ptr<device_impl_t> &out);
    ~device_impl_t() override;

    void *allocate(size_t size, size_t alignment) const override;
    void deallocate(void *p, void *event) const override;
    std::string tag() const override;
    std::string description() const override;

    cl_device_id device() const { return dev_; }
    cl_context context() const { return ctx_; }
    mem_kind_t mem_kind() const { return mem_kind_; }
    program_cache_t &programs() const { return *programs_; }
    const compiler::backend_t &backend() const { return *backend_; }

    // Passes a device pointer as kernel argument `idx`.
    cl_int set_arg_pointer(cl_kernel k, cl_uint idx, const void *p) const;
    // Copies between device and host memory on `q` (blocking).
    status_t copy(cl_command_queue q, void *dst, const void *src,
            size_t bytes) const;
    size_t max_work_group() const { return max_wg_; }

private:
    device_impl_t() = default;
    cl_device_id dev_ = nullptr;
    cl_context ctx_ = nullptr;
    mem_kind_t mem_kind_ = mem_kind_t::svm;
    bool fine_grain_ = false;
    size_t max_wg_ = 1;
    rt::allocator_t::generic_fn_t user_alloc_ = nullptr;
    rt::allocator_t::generic_fn_t user_free_ = nullptr;
    // USM entry points (cl_intel_unified_shared_memory).
    void *usm_alloc_ = nullptr, *usm_free_ = nullptr, *usm_set_arg_ = nullptr,
         *usm_memcpy_ = nullptr;
    std::shared_ptr<program_cache_t> programs_;
    std::unique_ptr<compiler::backend_t> backend_;
};

// The command queue behind a GPU stream (in-order).
class queue_impl_t : public rt::queue_t {
public:
    queue_impl_t(std::shared_ptr<const device_impl_t> dev, cl_command_queue q)
        : dev_(std::move(dev)), q_(q) {}
    ~queue_impl_t() override;
    status_t wait() override;
    cl_command_queue get() const { return q_; }
    const device_impl_t &device() const { return *dev_; }

private:
    std::shared_ptr<const device_impl_t> dev_;
    cl_command_queue q_;
};

// Makes the backend that compiles partitions for `dev` (ocl_backend.cpp).
std::unique_ptr<compiler::backend_t> make_backend(const device_impl_t &dev);

} // namespace ocl
} // namespace llga
