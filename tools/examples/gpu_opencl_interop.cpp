// SPDX-License-Identifier: Apache-2.0
// tools/examples/gpu_opencl_interop.cpp — a user program written only
// against oneDNN's public headers (dnnl_graph.hpp, dnnl_graph_ocl.hpp,
// dnnl_ocl.hpp) and OpenCL: it creates its own cl_context and in-order
// queue, wraps them with ocl_interop, gives the engine an allocator made
// from its own OpenCL allocation callbacks, builds
// Convolution -> BiasAdd -> ReLU -> Convolution -> BiasAdd -> ReLU, compiles
// the partitions, runs them with ocl_interop::execute chained by OpenCL
// events, and checks the result against a plain loop on the host. Then it
// checks that misuse is reported (CPU tensor on a GPU stream, wrong engine
// kind). Exit 0 on success, 77 when there is no OpenCL device (skip).
//
// Run: LLGA_OCL_ANY_DEVICE=1 ./gpu_opencl_interop   (PoCL's CPU device)
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl_graph.hpp"
#include "oneapi/dnnl/dnnl_graph_ocl.hpp"
#include "oneapi/dnnl/dnnl_ocl.hpp"

using namespace dnnl::graph;
using lt = logical_tensor;

namespace {

int failures = 0;
#define CHECK(cond, ...) \
    do { \
        if (!(cond)) { \
            std::printf("FAILED %s:%d: ", __FILE__, __LINE__); \
            std::printf(__VA_ARGS__); \
            std::printf("\n"); \
            ++failures; \
        } \
    } while (0)

// ---- the application's own OpenCL memory callbacks ------------------------
std::atomic<long> live_blocks {0};

void *app_malloc(size_t size, size_t alignment, cl_device_id, cl_context ctx) {
    void *p = clSVMAlloc(ctx, CL_MEM_READ_WRITE, size,
            static_cast<cl_uint>(alignment));
    if (p) ++live_blocks;
    return p;
}

void app_free(void *buf, cl_device_id, cl_context ctx, cl_event event) {
    if (event) clWaitForEvents(1, &event); // free only once it is unused
    clSVMFree(ctx, buf);
    --live_blocks;
}

// ---- host reference ---------------------------------------------------------
// NCHW x OIHW, stride 1, padding 1, 3x3, then + bias and ReLU.
std::vector<float> conv_bias_relu(const std::vector<float> &x, int n, int ic,
        int h, int w, const std::vector<float> &wei, const std::vector<float> &b,
        int oc) {
    std::vector<float> y(static_cast<size_t>(n) * oc * h * w);
    for (int in = 0; in < n; ++in)
        for (int o = 0; o < oc; ++o)
            for (int oh = 0; oh < h; ++oh)
                for (int ow = 0; ow < w; ++ow) {
                    double acc = b[o];
                    for (int i = 0; i < ic; ++i)
                        for (int kh = 0; kh < 3; ++kh)
                            for (int kw = 0; kw < 3; ++kw) {
                                const int ih = oh - 1 + kh, iw = ow - 1 + kw;
                                if (ih < 0 || ih >= h || iw < 0 || iw >= w)
                                    continue;
                                acc += x[((in * ic + i) * h + ih) * w + iw]
                                        * wei[((o * ic + i) * 3 + kh) * 3 + kw];
                            }
                    y[((in * oc + o) * h + oh) * w + ow]
                            = acc > 0 ? static_cast<float>(acc) : 0.f;
                }
    return y;
}

std::vector<float> random_vector(size_t n, unsigned seed) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) {
        seed = seed * 1103515245u + 12345u;
        v[i] = static_cast<float>((seed >> 8) % 2001) / 1000.f - 1.f;
    }
    return v;
}

cl_device_id pick_device() {
    cl_uint np = 0;
    if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0)
        return nullptr;
    std::vector<cl_platform_id> ps(np);
    clGetPlatformIDs(np, ps.data(), nullptr);
    const char *any = std::getenv("LLGA_OCL_ANY_DEVICE");
    const cl_device_type want = any && std::atoi(any) ? CL_DEVICE_TYPE_ALL
                                                       : CL_DEVICE_TYPE_GPU;
    for (cl_platform_id p : ps) {
        cl_device_id d = nullptr;
        cl_uint nd = 0;
        if (clGetDeviceIDs(p, want, 1, &d, &nd) == CL_SUCCESS && nd > 0)
            return d;
    }
    return nullptr;
}

} // namespace

int main() {
    cl_device_id device = pick_device();
    if (!device) {
        std::printf("SKIP: no OpenCL device (set LLGA_OCL_ANY_DEVICE=1 to "
                    "use a CPU device such as PoCL)\n");
        return 77;
    }
    cl_int err = CL_SUCCESS;
    cl_context context
            = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    if (err != CL_SUCCESS) return 1;
    cl_command_queue queue
            = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
    if (err != CL_SUCCESS) return 1;

    const int N = 2, IC = 3, C1 = 8, C2 = 5, H = 7, W = 9;
    {
        allocator alloc = ocl_interop::make_allocator(app_malloc, app_free);
        dnnl::engine eng
                = ocl_interop::make_engine_with_allocator(device, context, alloc);
        dnnl::stream strm = dnnl::ocl_interop::make_stream(eng, queue);
        CHECK(dnnl::ocl_interop::get_context(eng) == context, "context");
        CHECK(dnnl::ocl_interop::get_device(eng) == device, "device");
        CHECK(dnnl::ocl_interop::get_command_queue(strm) == queue, "queue");

        // ---- graph ----------------------------------------------------------
        const auto f32 = lt::data_type::f32;
        const auto strided = lt::layout_type::strided;
        lt src(0, f32, {N, IC, H, W}, strided);
        lt w1(1, f32, {C1, IC, 3, 3}, strided), b1(2, f32, lt::dims {C1}, strided);
        lt c1(3, f32, {N, C1, H, W}, strided), a1(4, f32, {N, C1, H, W}, strided);
        lt r1(5, f32, {N, C1, H, W}, strided);
        lt w2(6, f32, {C2, C1, 3, 3}, strided), b2(7, f32, lt::dims {C2}, strided);
        lt c2(8, f32, {N, C2, H, W}, strided), a2(9, f32, {N, C2, H, W}, strided);
        lt dst(10, f32, {N, C2, H, W}, strided);
        auto conv = [&](size_t id, const lt &x, const lt &w, const lt &y) {
            op o(id, op::kind::Convolution, {x, w}, {y}, "conv");
            o.set_attr<std::vector<int64_t>>(op::attr::strides, {1, 1});
            o.set_attr<std::vector<int64_t>>(op::attr::pads_begin, {1, 1});
            o.set_attr<std::vector<int64_t>>(op::attr::pads_end, {1, 1});
            o.set_attr<std::vector<int64_t>>(op::attr::dilations, {1, 1});
            o.set_attr<std::string>(op::attr::data_format, "NCX");
            o.set_attr<std::string>(op::attr::weights_format, "OIX");
            return o;
        };
        auto bias = [&](size_t id, const lt &x, const lt &b, const lt &y) {
            op o(id, op::kind::BiasAdd, {x, b}, {y}, "bias");
            o.set_attr<std::string>(op::attr::data_format, "NCX");
            return o;
        };
        graph g(dnnl::engine::kind::gpu);
        g.add_op(conv(0, src, w1, c1));
        g.add_op(bias(1, c1, b1, a1));
        g.add_op(op(2, op::kind::ReLU, {a1}, {r1}, "relu"));
        g.add_op(conv(3, r1, w2, c2));
        g.add_op(bias(4, c2, b2, a2));
        g.add_op(op(5, op::kind::ReLU, {a2}, {dst}, "relu"));
        g.finalize();
        std::vector<partition> parts = g.get_partitions();
        std::printf("%zu partition(s)\n", parts.size());
        CHECK(!parts.empty(), "no partitions");

        // ---- data -----------------------------------------------------------
        std::vector<float> h_src = random_vector(N * IC * H * W, 1);
        std::vector<float> h_w1 = random_vector(C1 * IC * 9, 2);
        std::vector<float> h_b1 = random_vector(C1, 3);
        std::vector<float> h_w2 = random_vector(C2 * C1 * 9, 4);
        std::vector<float> h_b2 = random_vector(C2, 5);
        std::vector<void *> owned;
        auto device_copy = [&](const std::vector<float> &h) {
            void *p = clSVMAlloc(context, CL_MEM_READ_WRITE,
                    h.size() * sizeof(float), 64);
            clEnqueueSVMMemcpy(queue, CL_TRUE, p, h.data(),
                    h.size() * sizeof(float), 0, nullptr, nullptr);
            owned.push_back(p);
            return p;
        };
        // Device memory for every tensor that crosses partitions.
        std::map<size_t, void *> mem = {{0, device_copy(h_src)},
                {1, device_copy(h_w1)}, {2, device_copy(h_b1)},
                {6, device_copy(h_w2)}, {7, device_copy(h_b2)}};

        // ---- compile and run, each partition after the previous one's event
        std::vector<cl_event> deps;
        std::map<size_t, lt> known = {{0, src}, {1, w1}, {2, b1}, {6, w2},
                {7, b2}};
        for (partition &p : parts) {
            CHECK(p.is_supported(), "partition not supported");
            std::vector<lt> ins, outs = p.get_output_ports();
            for (const lt &in : p.get_input_ports())
                ins.push_back(known.at(in.get_id()));
            compiled_partition cp = p.compile(ins, outs, eng);
            std::vector<tensor> tin, tout;
            for (const lt &in : ins)
                tin.emplace_back(in, eng, mem.at(in.get_id()));
            for (const lt &o : outs) {
                const lt q = cp.query_logical_tensor(o.get_id());
                void *m = clSVMAlloc(
                        context, CL_MEM_READ_WRITE, q.get_mem_size(), 64);
                owned.push_back(m);
                mem[q.get_id()] = m;
                known[q.get_id()] = q;
                tout.emplace_back(q, eng, m);
            }
            cl_event done = ocl_interop::execute(cp, strm, tin, tout, deps);
            for (cl_event e : deps)
                clReleaseEvent(e);
            deps = {done};
        }
        CHECK(deps.size() == 1 && deps[0], "no completion event");
        clWaitForEvents(1, &deps[0]);
        clReleaseEvent(deps[0]);

        std::vector<float> got(N * C2 * H * W);
        clEnqueueSVMMemcpy(queue, CL_TRUE, got.data(), mem.at(10),
                got.size() * sizeof(float), 0, nullptr, nullptr);
        const std::vector<float> want = conv_bias_relu(
                conv_bias_relu(h_src, N, IC, H, W, h_w1, h_b1, C1), N, C1, H,
                W, h_w2, h_b2, C2);
        int bad = 0;
        for (size_t i = 0; i < want.size(); ++i)
            if (!(std::fabs(got[i] - want[i]) <= 1e-4f + 1e-4f * std::fabs(want[i]))
                    && bad++ < 5)
                CHECK(false, "dst[%zu] = %g, want %g", i, got[i], want[i]);
        std::printf("result: %s (%zu values)\n", bad ? "WRONG" : "ok",
                want.size());

        // ---- misuse is reported -----------------------------------------------
        // A tensor made on the CPU engine cannot run on the GPU stream.
        dnnl::engine cpu(dnnl::engine::kind::cpu, 0);
        {
            graph g1(dnnl::engine::kind::gpu);
            lt x(100, f32, lt::dims {4}, strided), y(101, f32, lt::dims {4}, strided);
            g1.add_op(op(100, op::kind::ReLU, {x}, {y}, "relu"));
            g1.finalize();
            partition p = g1.get_partitions()[0];
            compiled_partition cp = p.compile({x}, {y}, eng);
            std::vector<float> hx(4), hy(4);
            std::vector<tensor> ti = {tensor(x, cpu, hx.data())};
            std::vector<tensor> to = {tensor(y, cpu, hy.data())};
            bool threw = false;
            try {
                ocl_interop::execute(cp, strm, ti, to);
            } catch (const dnnl::error &e) {
                threw = e.status == dnnl_invalid_arguments
                        && std::string(e.what()).find("cpu engine")
                                != std::string::npos;
                std::printf("CPU tensor on a GPU stream: %s\n", e.what());
            }
            CHECK(threw, "a CPU tensor on a GPU stream was accepted");
            // Wrong engine kind: a GPU partition compiled for the CPU engine.
            threw = false;
            try {
                p.compile({x}, {y}, cpu);
            } catch (const dnnl::error &e) {
                threw = e.status == dnnl_invalid_arguments;
                std::printf("GPU partition on a CPU engine: %s\n", e.what());
            }
            CHECK(threw, "a GPU partition compiled for a CPU engine");
        }
        strm.wait();
        for (void *p : owned)
            clSVMFree(context, p);
    }
    CHECK(live_blocks.load() == 0, "%ld blocks of the app allocator leaked",
            live_blocks.load());
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    std::printf("%s\n", failures ? "FAILED" : "PASSED");
    return failures ? 1 : 0;
}
