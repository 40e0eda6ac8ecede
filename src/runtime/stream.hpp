// runtime/stream.hpp — an execution queue on an engine. CPU execution is
// synchronous in the calling thread (parallel inside each kernel), so work
// submitted to a CPU stream is complete when execute returns and wait() has
// nothing to wait for.
#pragma once

#include "runtime/engine.hpp"

namespace llga {
namespace rt {

class stream_t {
public:
    stream_t(engine_t *engine, unsigned flags) : engine_(engine), flags_(flags) {}
    virtual ~stream_t() = default;
    engine_t *engine() const { return engine_; }
    unsigned flags() const { return flags_; }
    status_t wait() { return dnnl_success; }

    static status_t check_flags(unsigned flags);

private:
    engine_t *engine_;
    unsigned flags_;
};

} // namespace rt
} // namespace llga
