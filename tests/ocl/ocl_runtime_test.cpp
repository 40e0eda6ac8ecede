// SPDX-License-Identifier: Apache-2.0
// tests/ocl/ocl_runtime_test.cpp — the OpenCL runtime under the GPU engine:
// device enumeration, engines and streams (several at once, from several
// threads), the program cache, OpenCL errors as statuses with the CL error
// name and build log, unimplemented ops named, and misuse (CPU stream for a
// GPU partition, OpenCL allocator on a CPU engine, null allocations).
#include <cstring>
#include <thread>

#include "backends/ocl/cl_status.hpp"
#include "ocl_test_util.hpp"

namespace llga {
namespace ocl_test {
namespace {

using ir::attr_value_t;

TEST(OclRuntime, EnginesStreamsAndIndexChecks) {
    LLGA_NEED_GPU();
    const size_t n = dnnl_engine_get_count(dnnl_gpu);
    EXPECT_GE(n, 1u);
    dnnl_engine_t e = nullptr;
    EXPECT_EQ(dnnl_engine_create(&e, dnnl_gpu, n), dnnl_invalid_arguments);
    EXPECT_NE(std::strstr(llga_last_error_message(), "out of range"), nullptr)
            << llga_last_error_message();
    // Several engines and streams at once, created and waited on from
    // several threads.
    std::vector<std::thread> ts;
    std::vector<int> ok(4, 0);
    for (int t = 0; t < 4; ++t)
        ts.emplace_back([&, t] {
            dnnl_engine_t eng = nullptr;
            dnnl_stream_t s = nullptr;
            if (dnnl_engine_create(&eng, dnnl_gpu, 0) != dnnl_success) return;
            dnnl_engine_kind_t k;
            dnnl_engine_get_kind(eng, &k);
            if (dnnl_stream_create(&s, eng, dnnl_stream_in_order)
                    == dnnl_success
                    && dnnl_stream_wait(s) == dnnl_success && k == dnnl_gpu)
                ok[t] = 1;
            dnnl_stream_destroy(s);
            dnnl_engine_destroy(eng);
        });
    for (auto &t : ts)
        t.join();
    for (int t = 0; t < 4; ++t)
        EXPECT_EQ(ok[t], 1) << "thread " << t;
}

TEST(OclRuntime, ProgramCacheHitsAndBuildFailureCarriesLog) {
    LLGA_NEED_GPU();
    ocl::program_cache_t &pc = gpu()->dev->programs();
    cl_program a = nullptr, b = nullptr;
    const std::string src = "kernel void k(global float *p) { p[0] = 1.f; }";
    ASSERT_EQ(pc.get(src, "-cl-std=CL1.2", "test", a), dnnl_success);
    const size_t n = pc.size();
    ASSERT_EQ(pc.get(src, "-cl-std=CL1.2", "test", b), dnnl_success);
    EXPECT_EQ(a, b);
    EXPECT_EQ(pc.size(), n);
    cl_program c = nullptr;
    ASSERT_EQ(pc.get(src, "-cl-std=CL1.2 -DX=1", "test", c), dnnl_success);
    EXPECT_NE(a, c); // options are part of the key
    cl_program bad = nullptr;
    EXPECT_EQ(pc.get("kernel void k(global float *p) { p[0] = undeclared; }",
                      "-cl-std=CL1.2", "broken", bad),
            dnnl_runtime_error);
    const std::string msg = llga_last_error_message();
    EXPECT_NE(msg.find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos) << msg;
    EXPECT_NE(msg.find("undeclared"), std::string::npos) << msg;
    EXPECT_NE(msg.find("broken"), std::string::npos) << msg;
}

TEST(OclRuntime, ClErrorsBecomeStatusesWithNames) {
    EXPECT_EQ(ocl::cl_fail(CL_OUT_OF_RESOURCES, "x"), dnnl_out_of_memory);
    EXPECT_NE(std::strstr(llga_last_error_message(), "CL_OUT_OF_RESOURCES"),
            nullptr);
    EXPECT_EQ(ocl::cl_fail(CL_INVALID_KERNEL_ARGS, "y"), dnnl_runtime_error);
    EXPECT_NE(std::strstr(llga_last_error_message(), "CL_INVALID_KERNEL_ARGS"),
            nullptr);
}

TEST(OclRuntime, OpWithoutKernelIsUnimplementedAndNamed) {
    LLGA_NEED_GPU();
    ir::op_t op;
    // Wildcard has no computation, so it never gets a kernel.
    op.kind = dnnl_graph_op_wildcard;
    op.inputs = {make_t(1, dnnl_f32, {2, 3})};
    op.outputs = {make_t(2, dnnl_f32, {2, 3})};
    compiler::plan_t plan;
    plan.ops = {op};
    plan.inputs = op.inputs;
    plan.outputs = op.outputs;
    std::shared_ptr<const compiler::kernel_t> k;
    EXPECT_EQ(ocl::backend_for(*gpu()->engine)->compile(plan, k),
            dnnl_unimplemented);
    EXPECT_NE(std::strstr(llga_last_error_message(), "Wildcard"), nullptr)
            << llga_last_error_message();
    EXPECT_EQ(k, nullptr);
}

TEST(OclRuntime, GpuKernelRejectsCpuStream) {
    LLGA_NEED_GPU();
    ir::op_t op = make_op(dnnl_graph_op_relu, {make_t(1, dnnl_f32, {4})}, {},
            dnnl_f32, 2);
    compiler::plan_t plan;
    plan.ops = {op};
    plan.inputs = op.inputs;
    plan.outputs = op.outputs;
    std::shared_ptr<const compiler::kernel_t> k;
    ASSERT_EQ(ocl::backend_for(*gpu()->engine)->compile(plan, k), dnnl_success);
    dnnl_engine_t cpu = nullptr;
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_stream_create(&s, cpu, 0), dnnl_success);
    float in[4] = {1, -1, 2, -2}, out[4];
    compiler::exec_ctx_t ctx;
    ctx.stream = s;
    ctx.engine = cpu;
    ctx.allocator = &cpu->allocator();
    ctx.inputs = {in};
    ctx.outputs = {out};
    EXPECT_EQ(k->execute(ctx), dnnl_invalid_arguments);
    EXPECT_NE(std::strstr(llga_last_error_message(), "GPU engine"), nullptr)
            << llga_last_error_message();
    dnnl_stream_destroy(s);
    dnnl_engine_destroy(cpu);
}

void *null_alloc(size_t, size_t, cl_device_id, cl_context) { return nullptr; }
void null_free(void *, cl_device_id, cl_context, cl_event) {}

TEST(OclRuntime, NullAllocationAndWrongEngineKind) {
    LLGA_NEED_GPU();
    dnnl_graph_allocator_t a = nullptr;
    ASSERT_EQ(dnnl_graph_ocl_interop_allocator_create(&a, null_alloc, null_free),
            dnnl_success);
    // An OpenCL allocator cannot serve a CPU engine.
    dnnl_engine_t e = nullptr;
    EXPECT_EQ(dnnl_graph_make_engine_with_allocator(&e, dnnl_cpu, 0, a),
            dnnl_invalid_arguments);
    EXPECT_NE(std::strstr(llga_last_error_message(), "GPU engine"), nullptr);
    // On a GPU engine, a library-allocated tensor reports the failure.
    ASSERT_EQ(dnnl_graph_ocl_interop_make_engine_with_allocator(&e,
                      gpu()->dev->device(), gpu()->dev->context(), a),
            dnnl_success);
    dnnl_graph_logical_tensor_t lt;
    ASSERT_EQ(dnnl_graph_logical_tensor_init_with_dims(&lt, 1, dnnl_f32, 1,
                      std::vector<int64_t> {16}.data(),
                      dnnl_graph_layout_type_strided,
                      dnnl_graph_tensor_property_undef),
            dnnl_success);
    dnnl_graph_tensor_t t = nullptr;
    EXPECT_EQ(dnnl_graph_tensor_create(&t, &lt, e, DNNL_MEMORY_ALLOCATE),
            dnnl_out_of_memory);
    EXPECT_NE(std::strstr(llga_last_error_message(), "tensor 1"), nullptr)
            << llga_last_error_message();
    // Interop queries on a CPU engine are refused with a message.
    dnnl_engine_t cpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    cl_context ctx = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_engine_get_context(cpu, &ctx),
            dnnl_invalid_arguments);
    EXPECT_NE(std::strstr(llga_last_error_message(), "not an OpenCL"), nullptr);
    dnnl_engine_destroy(cpu);
    dnnl_engine_destroy(e);
    dnnl_graph_allocator_destroy(a);
}

} // namespace
} // namespace ocl_test
} // namespace llga
