// capi/backends.cpp — the list of enabled backends, best first. The C API
// layer is the only place that sees every backend, so the compiler stays
// independent of them.
#include "backends/cpu/cpu_backend.hpp"
#include "backends/ref/ref_backend.hpp"
#include "capi/handles.hpp"

namespace llga {
namespace capi {

const compiler::backend_list_t &enabled_backends() {
    static const compiler::backend_list_t list = {
            &cpu::cpu_backend(), &ref::ref_backend()};
    return list;
}

} // namespace capi
} // namespace llga
