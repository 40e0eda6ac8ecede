// SPDX-License-Identifier: Apache-2.0
// runtime/stream.hpp — an execution queue on an engine. CPU execution is
// synchronous in the calling thread (parallel inside each kernel), so work
// submitted to a CPU stream is complete when execute returns and wait() has
// nothing to wait for. A device stream carries a queue_t (an in-order
// device queue) and wait() waits for it.
#pragma once

#include <memory>

#include "runtime/engine.hpp"

namespace llga {
namespace rt {

class stream_t {
public:
    stream_t(engine_t *engine, unsigned flags) : engine_(engine), flags_(flags) {}
    stream_t(engine_t *engine, unsigned flags, std::shared_ptr<queue_t> q)
        : engine_(engine), flags_(flags), queue_(std::move(q)) {}
    virtual ~stream_t() = default;
    engine_t *engine() const { return engine_; }
    unsigned flags() const { return flags_; }
    status_t wait() { return queue_ ? queue_->wait() : dnnl_success; }
    queue_t *queue() const { return queue_.get(); }

    static status_t check_flags(unsigned flags);

private:
    engine_t *engine_;
    unsigned flags_;
    std::shared_ptr<queue_t> queue_;
};

} // namespace rt
} // namespace llga
