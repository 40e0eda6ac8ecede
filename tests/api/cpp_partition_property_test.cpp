// SPDX-License-Identifier: Apache-2.0
// tests/api/cpp_partition_property_test.cpp — a property test of the
// partitioner through the public C++ API. Random f32 graphs are built from
// the fusion families (linear layers with post-op chains, attention blocks,
// gated MLPs, chained one after another), with optional ops inserted,
// removed and duplicated and intermediates sometimes read from outside.
// For each graph, under the fusion policy:
//   coverage  — every op is in exactly one partition;
//   order     — a partition's inputs are graph inputs or outputs of earlier
//               partitions (so the partitions also form no cycle);
//   ports     — every tensor read by a later partition or by nobody is an
//               output port of its producer's partition;
//   results   — running the partitions in order gives the same graph
//               outputs as running the debug policy's one-op partitions.
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl_graph.hpp"

using namespace dnnl::graph;
using dt = logical_tensor::data_type;
using lt_layout = logical_tensor::layout_type;
using dims = logical_tensor::dims;

namespace {

struct graph_builder_t {
    std::mt19937 rng;
    std::vector<op> ops;
    std::map<size_t, dims> shape;
    std::set<size_t> produced, consumed;
    size_t next_tensor = 1, next_op = 1;
    std::string trace;

    explicit graph_builder_t(uint32_t seed) : rng(seed) {}

    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
    bool coin(int percent = 50) { return pick(100) < percent; }

    logical_tensor lt(size_t id) const {
        return logical_tensor(id, dt::f32, shape.at(id), lt_layout::strided);
    }
    size_t tensor(const dims &d) {
        shape[next_tensor] = d;
        return next_tensor++;
    }
    op &add(op::kind k, std::vector<size_t> ins, size_t out, const char *name) {
        std::vector<logical_tensor> in_lts;
        for (size_t i : ins) {
            in_lts.push_back(lt(i));
            consumed.insert(i);
        }
        ops.emplace_back(next_op++, k, in_lts, std::vector<logical_tensor> {lt(out)},
                name);
        produced.insert(out);
        trace += std::string(name) + " ";
        return ops.back();
    }
    size_t unary(op::kind k, size_t x, const char *name) {
        const size_t y = tensor(shape[x]);
        add(k, {x}, y, name);
        return y;
    }
    size_t binary(op::kind k, size_t x, const dims &other, const char *name) {
        const size_t o = tensor(other), y = tensor(shape[x]);
        add(k, coin() || k == op::kind::Subtract ? std::vector<size_t> {x, o}
                                                 : std::vector<size_t> {o, x},
                y, name);
        return y;
    }
    // Sometimes an op outside the family reads an intermediate.
    void maybe_escape(size_t x) {
        if (coin(15)) unary(op::kind::Abs, x, "escape_abs");
    }

    // One post-op (or a swish pair), on [rows, n] or any-rank x.
    size_t post_op(size_t x) {
        const dims &d = shape[x];
        dims row(d.size(), 1);
        row.back() = d.back();
        switch (pick(7)) {
            case 0: return unary(op::kind::ReLU, x, "relu");
            case 1: return unary(op::kind::GELU, x, "gelu");
            case 2: return unary(op::kind::Tanh, x, "tanh");
            case 3: return binary(op::kind::Add, x, d, "add");
            case 4: return binary(op::kind::Multiply, x, row, "mul");
            case 5: return binary(op::kind::Subtract, x, row, "sub");
            default: {
                const size_t s = unary(op::kind::Sigmoid, x, "sigmoid");
                const size_t y = tensor(d);
                add(op::kind::Multiply, coin() ? std::vector<size_t> {x, s}
                                               : std::vector<size_t> {s, x},
                        y, "swish_mul");
                return y;
            }
        }
    }

    // x [M, K] → MatMul → [BiasAdd] → post(0..6, some duplicated) → [M, N]
    size_t linear(size_t x, int64_t n) {
        const dims xd = shape[x];
        const size_t w = tensor({xd.back(), n});
        size_t y = tensor({xd[0], n});
        add(op::kind::MatMul, {x, w}, y, "matmul");
        maybe_escape(y);
        if (coin()) {
            const size_t b = tensor({n}), z = tensor({xd[0], n});
            add(op::kind::BiasAdd, {y, b}, z, "bias");
            y = z;
        }
        const int posts = pick(7);
        for (int k = 0; k < posts; ++k) {
            const size_t before = next_op;
            y = post_op(y);
            if (coin(20) && next_op == before + 1) // duplicate a single op
                y = post_op(y);
            maybe_escape(y);
        }
        return y;
    }

    // Q [B, H, S, D] → attention → [B, H, S, D] (or heads merged).
    size_t attention(int64_t B, int64_t H, int64_t S, int64_t D) {
        const size_t q = tensor({B, H, S, D}), k = tensor({B, H, S, D});
        const size_t v = tensor({B, H, S, D});
        size_t s = tensor({B, H, S, S});
        add(op::kind::MatMul, {q, k}, s, "qk").set_attr<bool>(op::attr::transpose_b,
                true);
        if (coin(70)) s = binary(coin() ? op::kind::Multiply : op::kind::Divide, s, {1},
                              "scale");
        if (coin(60)) s = binary(op::kind::Add, s, {B, 1, S, S}, "mask");
        if (coin(30)) { // layout ops around the mask (JAX)
            const size_t t = tensor({B, H, S, S});
            add(op::kind::StaticTranspose, {s}, t, "transpose_scores")
                    .set_attr<std::vector<int64_t>>(op::attr::order, {0, 1, 3, 2});
            s = t;
        }
        if (coin(10)) maybe_escape(s);
        const size_t p = tensor({B, H, S, S});
        add(op::kind::SoftMax, {s}, p, "softmax").set_attr<int64_t>(op::attr::axis, -1);
        size_t o = tensor({B, H, S, D});
        add(op::kind::MatMul, {p, v}, o, "pv");
        if (coin()) {
            const size_t t = tensor({B, S, H, D});
            add(op::kind::StaticTranspose, {o}, t, "transpose_out")
                    .set_attr<std::vector<int64_t>>(op::attr::order, {0, 2, 1, 3});
            o = t;
            if (coin()) {
                const size_t r = tensor({B * S, H * D});
                op &re = add(op::kind::StaticReshape, {o}, r, "reshape_out");
                re.set_attr<std::vector<int64_t>>(op::attr::shape, {B * S, H * D});
                re.set_attr<bool>(op::attr::special_zero, false);
                o = r;
            }
        }
        return o;
    }

    // x [M, K] → gate/up MatMuls → [act] → join → down MatMul → [M, K]
    size_t gated_mlp(size_t x, int64_t n) {
        const int64_t k = shape[x].back(), m = shape[x][0];
        const size_t wg = tensor({k, n}), wu = tensor({k, n}), wd = tensor({n, k});
        size_t g = tensor({m, n});
        const size_t u = tensor({m, n});
        add(op::kind::MatMul, {x, wg}, g, "gate");
        add(op::kind::MatMul, {x, wu}, u, "up");
        switch (pick(4)) {
            case 0: break;
            case 1: g = unary(op::kind::ReLU, g, "gate_relu"); break;
            case 2: g = unary(op::kind::GELU, g, "gate_gelu"); break;
            default: {
                const size_t s = unary(op::kind::Sigmoid, g, "gate_sigmoid");
                const size_t y = tensor({m, n});
                add(op::kind::Multiply, {g, s}, y, "gate_swish");
                g = y;
            }
        }
        maybe_escape(g);
        const size_t j = tensor({m, n});
        add(coin() ? op::kind::Multiply : op::kind::Add,
                coin() ? std::vector<size_t> {g, u} : std::vector<size_t> {u, g}, j,
                "join");
        const size_t y = tensor({m, k});
        add(op::kind::MatMul, {j, wd}, y, "down");
        return y;
    }

    void build() {
        const int64_t m = 2 + pick(6), k = 4 * (1 + pick(4));
        size_t x = tensor({m, k});
        const int families = 1 + pick(3);
        for (int f = 0; f < families; ++f) {
            switch (pick(3)) {
                case 0: x = linear(x, 4 * (1 + pick(4))); break;
                case 1: x = gated_mlp(x, 4 * (1 + pick(3))); break;
                default: {
                    const size_t a = attention(1 + pick(2), 1 + pick(3),
                            2 + pick(6), 4 * (1 + pick(2)));
                    (void)a;
                }
            }
        }
    }
};

float value_of(size_t id, size_t i) {
    const uint32_t h = static_cast<uint32_t>(id * 2654435761u + i * 40503u);
    // Never 0 (some inputs are divisors); exact in every float type.
    return (static_cast<float>(static_cast<int>(h % 16) - 8) + 0.5f) / 16.f;
}

// Runs the graph's partitions in order; returns every tensor computed.
std::map<size_t, std::vector<float>> run(graph_builder_t &gb,
        std::vector<partition> &parts, const dnnl::engine &eng, dnnl::stream &strm) {
    std::map<size_t, std::vector<float>> data;
    auto buffer = [&](size_t id) -> std::vector<float> & {
        auto it = data.find(id);
        if (it != data.end()) return it->second;
        size_t n = 1;
        for (int64_t d : gb.shape.at(id))
            n *= static_cast<size_t>(d);
        std::vector<float> v(n);
        if (!gb.produced.count(id))
            for (size_t i = 0; i < n; ++i)
                v[i] = value_of(id, i);
        return data.emplace(id, std::move(v)).first->second;
    };
    for (auto &p : parts) {
        auto ins = p.get_input_ports(), outs = p.get_output_ports();
        auto cp = p.compile(ins, outs, eng);
        std::vector<tensor> ti, to;
        for (auto &l : ins)
            ti.emplace_back(l, eng, buffer(l.get_id()).data());
        for (auto &l : outs)
            to.emplace_back(l, eng, buffer(l.get_id()).data());
        cp.execute(strm, ti, to);
    }
    return data;
}

TEST(PartitionProperty, RandomFamilyGraphs) {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);
    int fused_graphs = 0;
    for (uint32_t seed = 1; seed <= 200; ++seed) {
        graph_builder_t gb(seed);
        gb.build();
        SCOPED_TRACE("seed " + std::to_string(seed) + ": " + gb.trace);
        std::vector<std::vector<partition>> results;
        for (auto policy : {partition::policy::fusion, partition::policy::debug}) {
            graph g(dnnl::engine::kind::cpu);
            for (auto &o : gb.ops)
                g.add_op(o);
            g.finalize();
            results.push_back(g.get_partitions(policy));
        }
        auto &fused = results[0];
        ASSERT_EQ(results[1].size(), gb.ops.size());
        if (fused.size() < gb.ops.size()) ++fused_graphs;

        // Coverage, order and ports.
        std::map<size_t, size_t> part_of_op; // op id -> partition index
        std::map<size_t, size_t> part_of_tensor; // produced tensor -> index
        for (size_t k = 0; k < fused.size(); ++k) {
            ASSERT_TRUE(fused[k].is_supported());
            for (size_t id : fused[k].get_ops()) {
                ASSERT_EQ(part_of_op.count(id), 0u) << "op " << id << " twice";
                part_of_op[id] = k;
            }
            for (auto &l : fused[k].get_output_ports())
                part_of_tensor[l.get_id()] = k;
            for (auto &l : fused[k].get_input_ports()) {
                const size_t id = l.get_id();
                if (!gb.produced.count(id)) continue; // graph input
                auto it = part_of_tensor.find(id);
                ASSERT_NE(it, part_of_tensor.end())
                        << "partition " << k << " reads tensor " << id
                        << " before (or without) its producer's partition";
                ASSERT_LT(it->second, k);
            }
        }
        ASSERT_EQ(part_of_op.size(), gb.ops.size()) << "every op in a partition";
        for (size_t id : gb.produced) {
            if (!gb.consumed.count(id)) {
                ASSERT_EQ(part_of_tensor.count(id), 1u)
                        << "graph output " << id << " is no output port";
            }
        }

        // Results: every tensor both runs produce as a port must agree, the
        // graph outputs included.
        auto got = run(gb, fused, eng, strm);
        auto want = run(gb, results[1], eng, strm);
        size_t compared = 0;
        for (auto &kv : got) {
            if (!gb.produced.count(kv.first)) continue;
            auto w = want.find(kv.first);
            ASSERT_NE(w, want.end());
            for (size_t i = 0; i < kv.second.size(); ++i)
                ASSERT_NEAR(kv.second[i], w->second[i],
                        1e-4f * (1.f + std::fabs(w->second[i])))
                        << "tensor " << kv.first << " element " << i;
            ++compared;
        }
        EXPECT_GT(compared, 0u);
    }
    // The generator must actually exercise fusion.
    EXPECT_GT(fused_graphs, 100);
}

} // namespace
