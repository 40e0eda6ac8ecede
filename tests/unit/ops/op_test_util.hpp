// SPDX-License-Identifier: Apache-2.0
// tests/unit/ops/op_test_util.hpp — runs one op through the ops/ layer alone:
// schema verification, shape inference and reference semantics, with dense or
// strided inputs given as double values and outputs read back as doubles.
// Expected values in tests must come from hand derivation or an independent
// formula written in the test, never from this library's code.
#pragma once

#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace test {

class op_runner_t {
public:
    explicit op_runner_t(op_kind_t kind, size_t id = 1) {
        op_.kind = kind;
        op_.id = id;
        op_.name = "test_op";
    }

    // Dense row-major input with the given values (converted to dt).
    op_runner_t &input(data_type_t dt, const dims_t &dims,
            const std::vector<double> &values = {}) {
        return input_strided(dt, dims, ir::dense_strides(dims), values);
    }
    // Strided input; values are given in logical row-major order.
    op_runner_t &input_strided(data_type_t dt, const dims_t &dims,
            const dims_t &strides, const std::vector<double> &values) {
        logical_tensor_t lt = ir::make_lt(next_id_++, dt, dims);
        for (size_t d = 0; d < strides.size(); ++d)
            lt.layout.strides[d] = strides[d];
        size_t bytes = ir::mem_size(lt);
        if (bytes == static_cast<size_t>(-1)) bytes = 0;
        std::vector<uint8_t> buf(bytes + 16, 0);
        // Inputs with unknown dims exist only for shape-inference tests:
        // they get no data.
        const int64_t n = ir::shape_known(lt) ? ir::product(dims) : 0;
        int64_t idx[DNNL_MAX_NDIMS];
        for (int64_t i = 0; i < n && !values.empty(); ++i) {
            ir::unravel(i, dims, idx);
            const int64_t off = ir::offset_of(idx, strides.data(),
                    static_cast<int>(dims.size()));
            ir::store_value(dt, buf.data(), off, values[i % values.size()]);
        }
        op_.inputs.push_back(lt);
        in_bufs_.push_back(std::move(buf));
        return *this;
    }
    // Output with declared dims (empty + known_rank=false: unknown rank).
    op_runner_t &output(data_type_t dt, const dims_t &dims = {},
            bool known_rank = false) {
        logical_tensor_t lt = known_rank || !dims.empty()
                ? ir::make_lt(next_id_++, dt, dims)
                : ir::make_lt_unknown(next_id_++, dt);
        if (!known_rank && dims.empty())
            lt.layout_type = dnnl_graph_layout_type_strided;
        op_.outputs.push_back(lt);
        return *this;
    }
    op_runner_t &attr(attr_id_t a, ir::attr_value_t v) {
        op_.set_attr(a, std::move(v));
        return *this;
    }
    op_runner_t &f32(attr_id_t a, float v) {
        return attr(a, ir::attr_value_t::make_f32(v));
    }
    op_runner_t &f32s(attr_id_t a, std::vector<float> v) {
        return attr(a, ir::attr_value_t::make_f32s(std::move(v)));
    }
    op_runner_t &s64(attr_id_t a, int64_t v) {
        return attr(a, ir::attr_value_t::make_s64(v));
    }
    op_runner_t &s64s(attr_id_t a, std::vector<int64_t> v) {
        return attr(a, ir::attr_value_t::make_s64s(std::move(v)));
    }
    op_runner_t &boolean(attr_id_t a, bool v) {
        return attr(a, ir::attr_value_t::make_bool(v));
    }
    op_runner_t &str(attr_id_t a, std::string v) {
        return attr(a, ir::attr_value_t::make_str(std::move(v)));
    }

    status_t verify() { return ops::verify_op(op_); }
    status_t infer() {
        LLGA_RETURN_IF_ERROR(verify());
        return ops::infer_shapes(op_);
    }
    // verify + infer + allocate outputs + reference.
    status_t run() {
        LLGA_RETURN_IF_ERROR(infer());
        const ops::op_def_t *def = ops::find_op_def(op_.kind);
        if (!def || !def->ref) return dnnl_unimplemented;
        out_bufs_.clear();
        for (auto &lt : op_.outputs) {
            size_t bytes = ir::mem_size(lt);
            if (bytes == static_cast<size_t>(-1)) return dnnl_invalid_shape;
            out_bufs_.emplace_back(bytes + 16, 0xA5); // poison
        }
        std::vector<const void *> in;
        for (auto &b : in_bufs_)
            in.push_back(b.data());
        std::vector<void *> out;
        for (auto &b : out_bufs_)
            out.push_back(b.data());
        return def->ref(op_, in, out);
    }

    dims_t out_dims(size_t k = 0) const { return ir::dims_of(op_.outputs[k]); }
    // Output values in logical row-major order.
    std::vector<double> out_values(size_t k = 0) const {
        const logical_tensor_t &lt = op_.outputs[k];
        const dims_t dims = ir::dims_of(lt), strides = ir::strides_of(lt);
        std::vector<double> r(static_cast<size_t>(ir::product(dims)));
        int64_t idx[DNNL_MAX_NDIMS];
        for (size_t i = 0; i < r.size(); ++i) {
            ir::unravel(static_cast<int64_t>(i), dims, idx);
            r[i] = ir::load_value(lt.data_type, out_bufs_[k].data(),
                    ir::offset_of(idx, strides.data(), lt.ndims));
        }
        return r;
    }
    ir::op_t &op() { return op_; }

private:
    ir::op_t op_;
    size_t next_id_ = 100;
    std::vector<std::vector<uint8_t>> in_bufs_, out_bufs_;
};

// Element-wise comparison with an absolute + relative tolerance.
inline void expect_near_all(const std::vector<double> &got,
        const std::vector<double> &want, double atol = 1e-5,
        double rtol = 1e-5) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(got[i], want[i], atol + rtol * std::abs(want[i]))
                << "at element " << i;
}

} // namespace test
} // namespace llga
