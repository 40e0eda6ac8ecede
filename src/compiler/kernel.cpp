// SPDX-License-Identifier: Apache-2.0
// compiler/kernel.cpp — kernel ids and their constant cache cleanup.
#include "compiler/kernel.hpp"

#include <atomic>

#include "runtime/constant_cache.hpp"

namespace llga {
namespace compiler {

namespace {
size_t next_kernel_id() {
    static std::atomic<size_t> next {1};
    return next++;
}
} // namespace

kernel_t::kernel_t() : id_(next_kernel_id()) {}

kernel_t::~kernel_t() {
    for (engine_kind_t k : {dnnl_cpu, dnnl_gpu})
        rt::constant_cache_t::for_each(
                k, [this](rt::constant_cache_t &c) { c.remove_owner(id_); });
}

} // namespace compiler
} // namespace llga
