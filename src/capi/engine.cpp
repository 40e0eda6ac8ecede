// SPDX-License-Identifier: Apache-2.0
// capi/engine.cpp — dnnl_engine_*, dnnl_graph_make_engine_with_allocator and
// dnnl_graph_allocator_*.
#include "capi/barrier.hpp"
#include "capi/handles.hpp"
#ifdef LLGA_WITH_OPENCL
#include "backends/ocl/ocl_api.hpp"
#endif

using namespace llga;

namespace llga {
namespace capi {
// Makes an engine of `kind`/`index` with a copy of `alloc` (GPU engines get
// their OpenCL device here).
status_t make_engine(engine_kind_t kind, size_t index,
        const rt::allocator_t &alloc, dnnl_engine_t *engine) {
    if (kind == dnnl_gpu) {
#ifdef LLGA_WITH_OPENCL
        std::shared_ptr<const rt::device_t> dev;
        LLGA_RETURN_IF_ERROR(ocl::make_device(index, alloc, dev));
        *engine = new dnnl_engine(kind, index, alloc, dev);
        return dnnl_success;
#endif
    }
    if (alloc.has_device_callbacks())
        return fail(dnnl_invalid_arguments,
                "an allocator made from OpenCL callbacks needs a GPU engine");
    LLGA_RETURN_IF_ERROR(rt::engine_t::check_create(kind, index));
    *engine = new dnnl_engine(kind, index, alloc);
    return dnnl_success;
}
} // namespace capi
} // namespace llga

extern "C" {

size_t dnnl_engine_get_count(dnnl_engine_kind_t kind) {
    const int raw = capi::raw_enum(kind);
    if (raw < dnnl_any_engine || raw > dnnl_gpu) return 0;
#ifdef LLGA_WITH_OPENCL
    if (kind == dnnl_gpu) return ocl::gpu_count();
#endif
    return rt::engine_t::count(kind);
}

dnnl_status_t dnnl_graph_make_engine_with_allocator(dnnl_engine_t *engine,
        dnnl_engine_kind_t kind, size_t index,
        const_dnnl_graph_allocator_t alloc) {
    return LLGA_API_BODY("dnnl_graph_make_engine_with_allocator", {
        LLGA_CHECK_ARG(engine);
        *engine = nullptr;
        LLGA_CHECK_ARG(alloc);
        LLGA_CHECK_ENUM(kind, dnnl_any_engine, dnnl_gpu, "engine kind");
        return capi::make_engine(kind, index, *alloc, engine);
    });
}

dnnl_status_t dnnl_engine_create(
        dnnl_engine_t *engine, dnnl_engine_kind_t kind, size_t index) {
    return LLGA_API_BODY("dnnl_engine_create", {
        LLGA_CHECK_ARG(engine);
        *engine = nullptr;
        LLGA_CHECK_ENUM(kind, dnnl_any_engine, dnnl_gpu, "engine kind");
        return capi::make_engine(kind, index, rt::allocator_t(), engine);
    });
}

dnnl_status_t dnnl_engine_get_kind(dnnl_engine_t engine, dnnl_engine_kind_t *kind) {
    return LLGA_API_BODY("dnnl_engine_get_kind", {
        LLGA_CHECK_ARG(engine);
        LLGA_CHECK_ARG(kind);
        *kind = engine->kind();
        return dnnl_success;
    });
}

dnnl_status_t dnnl_engine_destroy(dnnl_engine_t engine) {
    return LLGA_API_BODY("dnnl_engine_destroy", {
        LLGA_CHECK_ARG(engine);
        delete engine;
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_allocator_create(dnnl_graph_allocator_t *allocator,
        dnnl_graph_host_allocate_f host_malloc,
        dnnl_graph_host_deallocate_f host_free) {
    return LLGA_API_BODY("dnnl_graph_allocator_create", {
        LLGA_CHECK_ARG(allocator);
        *allocator = nullptr;
        // One callback without the other falls back to the default pair.
        *allocator = new dnnl_graph_allocator(host_malloc, host_free);
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_allocator_destroy(dnnl_graph_allocator_t allocator) {
    return LLGA_API_BODY("dnnl_graph_allocator_destroy", {
        LLGA_CHECK_ARG(allocator);
        delete allocator;
        return dnnl_success;
    });
}

} // extern "C"
