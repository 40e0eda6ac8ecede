// SPDX-License-Identifier: Apache-2.0
// capi/tensor.cpp — dnnl_graph_tensor_*.
#include "capi/barrier.hpp"
#include "capi/handles.hpp"
#include "capi/lt_check.hpp"

using namespace llga;

extern "C" {

dnnl_status_t dnnl_graph_tensor_create(dnnl_graph_tensor_t *tensor,
        const dnnl_graph_logical_tensor_t *logical_tensor, dnnl_engine_t engine,
        void *handle) {
    return LLGA_API_BODY("dnnl_graph_tensor_create", {
        LLGA_CHECK_ARG(tensor);
        *tensor = nullptr;
        LLGA_RETURN_IF_ERROR(capi::check_lt(logical_tensor, "logical_tensor"));
        LLGA_CHECK_ARG(engine);
        std::unique_ptr<dnnl_graph_tensor> t(new dnnl_graph_tensor());
        LLGA_RETURN_IF_ERROR(t->init(*logical_tensor, engine, handle));
        *tensor = t.release();
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_tensor_create_scalar(dnnl_graph_tensor_t *tensor,
        const dnnl_graph_logical_tensor_t *logical_tensor, void *handle) {
    return LLGA_API_BODY("dnnl_graph_tensor_create_scalar", {
        LLGA_CHECK_ARG(tensor);
        *tensor = nullptr;
        LLGA_RETURN_IF_ERROR(capi::check_lt(logical_tensor, "logical_tensor"));
        std::unique_ptr<dnnl_graph_tensor> t(new dnnl_graph_tensor());
        LLGA_RETURN_IF_ERROR(t->init_scalar(*logical_tensor, handle));
        *tensor = t.release();
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_tensor_destroy(dnnl_graph_tensor_t tensor) {
    return LLGA_API_BODY("dnnl_graph_tensor_destroy", {
        LLGA_CHECK_ARG(tensor);
        delete tensor;
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_tensor_get_data_handle(
        const_dnnl_graph_tensor_t tensor, void **handle) {
    return LLGA_API_BODY("dnnl_graph_tensor_get_data_handle", {
        LLGA_CHECK_ARG(tensor);
        LLGA_CHECK_ARG(handle);
        *handle = tensor->user_handle();
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_tensor_set_data_handle(
        dnnl_graph_tensor_t tensor, void *handle) {
    return LLGA_API_BODY("dnnl_graph_tensor_set_data_handle", {
        LLGA_CHECK_ARG(tensor);
        return tensor->set_handle(handle);
    });
}

dnnl_status_t dnnl_graph_tensor_get_engine(
        const_dnnl_graph_tensor_t tensor, dnnl_engine_t *engine) {
    return LLGA_API_BODY("dnnl_graph_tensor_get_engine", {
        LLGA_CHECK_ARG(tensor);
        LLGA_CHECK_ARG(engine);
        *engine = static_cast<dnnl_engine_t>(tensor->engine());
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_tensor_get_logical_tensor(
        const_dnnl_graph_tensor_t tensor,
        dnnl_graph_logical_tensor_t *logical_tensor) {
    return LLGA_API_BODY("dnnl_graph_tensor_get_logical_tensor", {
        LLGA_CHECK_ARG(tensor);
        LLGA_CHECK_ARG(logical_tensor);
        *logical_tensor = tensor->desc();
        return dnnl_success;
    });
}

} // extern "C"
