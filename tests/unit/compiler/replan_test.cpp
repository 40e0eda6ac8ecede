// SPDX-License-Identifier: Apache-2.0
// tests/unit/compiler/replan_test.cpp — kernels sized for a thread count
// (kernel_t::sized_for_threads) are made again when a compiled partition
// runs under another count, as a framework does when it compiles once and
// then runs inside arenas of its own size: each count gets a kernel made
// while rt::max_threads() answered that count, kept for later runs.
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include "compiler/compiled_partition.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace compiler {
namespace {

// Runs single-ReLU partitions; each kernel remembers the thread count it
// was made under and reports it when it runs.
class counting_backend_t : public backend_t {
public:
    explicit counting_backend_t(bool sized) : sized_(sized) {
        static std::atomic<int> serial {0};
        key_ = std::to_string(serial++);
    }
    struct kernel_impl_t : kernel_t {
        int made_for = 0;
        bool sized = false;
        const counting_backend_t *owner = nullptr;
        const char *name() const override { return "test_relu_sized"; }
        bool sized_for_threads() const override { return sized; }
        status_t execute(const exec_ctx_t &ctx) const override {
            owner->last_run_made_for = made_for;
            const float *x = static_cast<const float *>(ctx.inputs[0]);
            float *y = static_cast<float *>(ctx.outputs[0]);
            for (int i = 0; i < 4; ++i)
                y[i] = x[i] > 0 ? x[i] : 0.f;
            return dnnl_success;
        }
    };
    const char *name() const override { return "counting"; }
    // Its own compiled-partition cache entries: the same partition compiled
    // by an earlier instance must not come back with that one's kernels.
    std::string config_key() const override { return key_; }
    bool supports(const plan_t &plan) const override {
        return plan.ops.size() == 1 && plan.ops[0].kind == dnnl_graph_op_relu;
    }
    status_t compile(const plan_t &,
            std::shared_ptr<const kernel_t> &out) const override {
        auto k = std::make_shared<kernel_impl_t>();
        k->made_for = rt::max_threads();
        k->sized = sized_;
        k->owner = this;
        ++made;
        out = k;
        return dnnl_success;
    }
    mutable std::atomic<int> made {0};
    mutable std::atomic<int> last_run_made_for {0};

private:
    bool sized_;
    std::string key_;
};

std::shared_ptr<fusion::partition_t> relu_partition(size_t id) {
    auto p = std::make_shared<fusion::partition_t>();
    p->id = id;
    p->supported = true;
    ir::op_t o;
    o.id = 1;
    o.kind = dnnl_graph_op_relu;
    o.inputs = {ir::make_lt(1, dnnl_f32, {4})};
    o.outputs = {ir::make_lt(2, dnnl_f32, {4})};
    EXPECT_EQ(ops::verify_op(o), dnnl_success);
    p->ops = {o};
    p->inputs = o.inputs;
    p->outputs = o.outputs;
    return p;
}

class Replan : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }

    // Compiles `p` for `be` inside an arena of `threads`.
    std::shared_ptr<const compiled_t> compile_in(int threads,
            const std::shared_ptr<fusion::partition_t> &p,
            const counting_backend_t &be) {
        std::shared_ptr<const compiled_t> c;
        tbb::task_arena(threads).execute([&] {
            EXPECT_EQ(compile_partition(p, p->inputs, p->outputs, eng_, {&be},
                              c),
                    dnnl_success);
        });
        return c;
    }
    // Runs `c` inside an arena of `threads`; checks the result.
    void run_in(int threads, const compiled_t &c) {
        const float x[4] = {-1, 2, -3, 4};
        float y[4] = {9, 9, 9, 9};
        rt::tensor_t tx, ty;
        ASSERT_EQ(tx.init(c.plan.inputs[0], &eng_, const_cast<float *>(x)),
                dnnl_success);
        ASSERT_EQ(ty.init(c.plan.outputs[0], &eng_, y), dnnl_success);
        tbb::task_arena(threads).execute([&] {
            EXPECT_EQ(execute_compiled(c, strm_, {&tx}, {&ty}), dnnl_success);
        });
        const float want[4] = {0, 2, 0, 4};
        for (int i = 0; i < 4; ++i)
            EXPECT_EQ(y[i], want[i]);
    }

    rt::engine_t eng_ {dnnl_cpu, 0, rt::allocator_t()};
    rt::stream_t strm_ {&eng_, dnnl_stream_in_order};
};

TEST_F(Replan, OtherThreadCountsGetTheirOwnKernelOnce) {
    counting_backend_t be(true);
    auto c = compile_in(1, relu_partition(2001), be);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->threads, 1);
    EXPECT_EQ(be.made.load(), 1);

    run_in(1, *c); // the count it was made for: no new kernel
    EXPECT_EQ(be.made.load(), 1);
    EXPECT_EQ(be.last_run_made_for.load(), 1);

    run_in(2, *c); // made again, while max_threads() answers 2
    EXPECT_EQ(be.made.load(), 2);
    EXPECT_EQ(be.last_run_made_for.load(), 2);
    run_in(2, *c); // and kept
    EXPECT_EQ(be.made.load(), 2);
    EXPECT_EQ(be.last_run_made_for.load(), 2);

    run_in(1, *c); // back to the original
    EXPECT_EQ(be.made.load(), 2);
    EXPECT_EQ(be.last_run_made_for.load(), 1);
}

TEST_F(Replan, KernelsNotSizedForThreadsServeEveryCount) {
    counting_backend_t be(false);
    auto c = compile_in(1, relu_partition(2002), be);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->threads, 0);
    run_in(3, *c);
    run_in(2, *c);
    EXPECT_EQ(be.made.load(), 1);
    EXPECT_EQ(be.last_run_made_for.load(), 1);
}

TEST_F(Replan, AtMostAFewCountsAreKept) {
    counting_backend_t be(true);
    auto c = compile_in(1, relu_partition(2003), be);
    ASSERT_TRUE(c);
    const int extra = static_cast<int>(compiled_t::k_max_replanned);
    // Arenas wider than this 2-core host count only under a raised cap.
    tbb::global_control cap(
            tbb::global_control::max_allowed_parallelism, extra + 4);
    for (int n = 2; n <= extra + 3; ++n)
        run_in(n, *c);
    EXPECT_EQ(be.made.load(), 1 + extra);
    // Counts past the limit run the original kernel; kept ones theirs.
    EXPECT_EQ(be.last_run_made_for.load(), 1);
    run_in(extra + 1, *c);
    EXPECT_EQ(be.last_run_made_for.load(), extra + 1);
    EXPECT_EQ(be.made.load(), 1 + extra);
}

} // namespace
} // namespace compiler
} // namespace llga
