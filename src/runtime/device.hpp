// SPDX-License-Identifier: Apache-2.0
// runtime/device.hpp — the seam between the runtime and a device that is not
// the host (the OpenCL engine in backends/ocl). The runtime sees only these
// interfaces: an engine may carry a device_t (its memory and identity) and a
// stream a queue_t (what wait() waits for). Native handles travel as void*,
// so nothing here includes a device API.
#pragma once

#include <cstddef>
#include <string>

#include "base/c_types.hpp"

namespace llga {
namespace rt {

class device_t {
public:
    virtual ~device_t() = default;
    // Device memory: what an engine's allocator returns on this device (a
    // pointer a kernel on the device can use, not necessarily host-readable).
    virtual void *allocate(size_t size, size_t alignment) const = 0;
    // Frees `p` once `event` (a native completion event, may be null) has
    // completed.
    virtual void deallocate(void *p, void *event) const = 0;
    // Identifies the device and context for cache keys and verbose output.
    virtual std::string tag() const = 0;
    virtual std::string description() const = 0;
};

class queue_t {
public:
    virtual ~queue_t() = default;
    // Blocks until everything submitted so far has completed.
    virtual status_t wait() = 0;
};

} // namespace rt
} // namespace llga
