// SPDX-License-Identifier: Apache-2.0
// backends/cpu/jit_runtime.cpp — JitRuntime ownership, the descriptor-keyed
// kernel cache, asmjit error collection, JIT-time reporting, and the
// optional perf(1) symbol map (LLGA_JIT_PERF_MAP=1 appends every kernel to
// /tmp/perf-<pid>.map, so profiles name JIT code instead of "[JIT]").
#include "backends/cpu/jit_runtime.hpp"

#include <unistd.h>

#include <cstdio>
#include <mutex>
#include <unordered_map>

#include "backends/cpu/cpu_backend.hpp"
#include "base/knobs.hpp"
#include "base/verbose.hpp"

namespace llga {
namespace cpu {

namespace {

// Keeps the first asmjit error and its message; asmjit keeps emitting after
// an error, so the generator's status alone would miss it.
class error_collector_t : public asmjit::ErrorHandler {
public:
    void handleError(asmjit::Error err, const char *message,
            asmjit::BaseEmitter *) override {
        if (err_ == asmjit::kErrorOk) {
            err_ = err;
            msg_ = message ? message : asmjit::DebugUtils::errorAsString(err);
        }
    }
    asmjit::Error err_ = asmjit::kErrorOk;
    std::string msg_;
};

struct jit_state_t {
    std::mutex mutex; // guards the runtime and the cache
    asmjit::JitRuntime rt;
    // The map hashes the descriptor bytes; equal hashes still compare the
    // full descriptor, so collisions cannot hand out a wrong kernel.
    std::unordered_map<std::string, const void *> cache;
};

jit_state_t &state() {
    // Leaked on purpose: kernels may run from other static destructors.
    static jit_state_t *s = new jit_state_t();
    return *s;
}

// One line per kernel in perf's JIT map format ("start size name", hex).
void perf_map_add(const void *fn, size_t size, const char *name) {
    static const bool on = knob_int(knob_t::jit_perf_map, 0) != 0;
    if (!on) return;
    char path[64];
    std::snprintf(path, sizeof(path), "/tmp/perf-%d.map",
            static_cast<int>(getpid()));
    if (FILE *f = std::fopen(path, "a")) {
        std::fprintf(f, "%zx %zx %s\n", reinterpret_cast<size_t>(fn), size,
                name);
        std::fclose(f);
    }
}

} // namespace

status_t jit_get_or_generate(const std::string &key, const char *name,
        const jit_emit_fn_t &emit, const void **entry) {
    jit_state_t &s = state();
    // Generation happens under the lock so a kernel is never built twice;
    // it takes well under a millisecond and only happens at compile time.
    std::lock_guard<std::mutex> lock(s.mutex);
    auto it = s.cache.find(key);
    if (it != s.cache.end()) {
        *entry = it->second;
        return dnnl_success;
    }
    const double t0 = now_ms();
    asmjit::CodeHolder code;
    if (code.init(s.rt.environment()) != asmjit::kErrorOk)
        return fail(dnnl_runtime_error, "cpu jit: cannot initialise code "
                                        "holder for %s", name);
    error_collector_t errors;
    code.setErrorHandler(&errors);
    asmjit::x86::Assembler a(&code);
    LLGA_RETURN_IF_ERROR(emit(a));
    if (errors.err_ != asmjit::kErrorOk)
        return fail(dnnl_runtime_error, "cpu jit: generating %s failed: %s",
                name, errors.msg_.c_str());
    void *fn = nullptr;
    const asmjit::Error e = s.rt.add(&fn, &code);
    if (e != asmjit::kErrorOk)
        return fail(dnnl_runtime_error, "cpu jit: adding %s failed: %s", name,
                asmjit::DebugUtils::errorAsString(e));
    s.cache.emplace(key, fn);
    *entry = fn;
    perf_map_add(fn, code.codeSize(), name);
    verbose_printf(vflag_profile_create, wall_ms(), "common,info,jit,%s,%g",
            verbose_field(name).c_str(), now_ms() - t0);
    return dnnl_success;
}

size_t jit_cache_size() {
    jit_state_t &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    return s.cache.size();
}

} // namespace cpu
} // namespace llga
