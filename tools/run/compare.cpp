// SPDX-License-Identifier: Apache-2.0
// tools/run/compare.cpp — output comparison (see compare.hpp).
#include "compare.hpp"

#include <cmath>

#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"

namespace llga_run {

using namespace llga;

tolerance_t tolerance_for(data_type_t dt) {
    // Relative bounds are a few units in the last place of the output type
    // (JIT kernels use polynomial approximations and other summation orders);
    // f32 allows 1e-4 because errors of ~1e-7 per op compound along a graph.
    // The third value is the norm-wise bound (relative to the output's
    // largest |value|, see compare_outputs). Integer outputs of quantized
    // graphs may differ by one rounding step.
    switch (dt) {
        case dnnl_f32: return {1e-5, 1e-4, 1e-5};
        case dnnl_bf16: return {1.0 / 128, 1.0 / 64, 1.0 / 256}; // 2 ulp of 2^-7
        case dnnl_f16: return {1.0 / 1024, 1.0 / 512, 1.0 / 2048}; // 2 ulp of 2^-10
        case dnnl_f8_e4m3: return {1.0 / 8, 1.0 / 4};
        case dnnl_f8_e5m2: return {1.0 / 4, 1.0 / 2};
        case dnnl_boolean: return {0, 0};
        default: return {1, 0}; // s8, u8, s4, u4, s32
    }
}

compare_result_t compare_outputs(const buffer_t &got, const buffer_t &ref) {
    compare_result_t r;
    r.tol = tolerance_for(ref.lt.data_type);
    if (ir::dims_of(got.lt) != ir::dims_of(ref.lt)
            || got.lt.data_type != ref.lt.data_type) {
        r.ok = false;
        r.note = "metadata differs: library " + ir::lt_to_string(got.lt)
                + ", reference " + ir::lt_to_string(ref.lt);
        return r;
    }
    // Norm-wise part of the bound: an element whose value is the small
    // difference of large terms (a long dot product that cancels) carries
    // the rounding error of the terms, not of itself. oneDNN-style sums in
    // f32 over K = 14336 (gated-mlp-f32.json) give |err| ~ 1 on outputs of
    // ~34 while the output's largest values are ~3e6: fine norm-wise, a
    // failure element-wise. The scale is the largest finite |reference|.
    double scale = 0;
    auto measure = [&](int64_t, int64_t ro) {
        const double b = ir::load_value(ref.lt.data_type, ref.data(), ro);
        if (std::isfinite(b)) scale = std::max(scale, std::fabs(b));
    };
    if (got.lt.ndims == 0)
        measure(0, 0);
    else
        for_each_offset2(ir::dims_of(ref.lt), strides_or_dense(got.lt),
                strides_or_dense(ref.lt), measure);
    r.scale = scale;
    int64_t e = 0;
    auto visit = [&](int64_t go, int64_t ro) {
        const double a = ir::load_value(got.lt.data_type, got.data(), go);
        const double b = ir::load_value(ref.lt.data_type, ref.data(), ro);
        bool bad;
        if (!std::isfinite(a) || !std::isfinite(b)) {
            ++r.nonfinite;
            // NaN matches NaN; infinities must agree in sign.
            bad = !((std::isnan(a) && std::isnan(b)) || a == b);
        } else {
            const double d = std::fabs(a - b);
            r.max_abs = std::max(r.max_abs, d);
            if (d > 0) r.max_rel = std::max(r.max_rel, d / std::max(std::fabs(b), 1e-30));
            bad = d > r.tol.abs + r.tol.rel * std::fabs(b)
                    && d > r.tol.norm * scale;
        }
        if (bad) {
            if (r.first_bad < 0) {
                r.first_bad = e;
                r.bad_got = a;
                r.bad_ref = b;
            }
            ++r.mismatches;
        }
        ++e;
    };
    if (got.lt.ndims == 0)
        visit(0, 0);
    else
        for_each_offset2(ir::dims_of(ref.lt), strides_or_dense(got.lt),
                strides_or_dense(ref.lt), visit);
    r.n = e;
    r.ok = r.mismatches == 0;
    return r;
}

} // namespace llga_run
