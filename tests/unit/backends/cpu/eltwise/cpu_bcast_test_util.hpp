// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/eltwise/cpu_bcast_test_util.hpp — what the
// broadcast-op suites (PReLU, GreaterEqual/Select, GenIndex) share: tensors of
// any type in random dense orders or padded, values with the edge cases mixed
// in (NaN payloads, signalling NaNs, signed zeros, infinities, subnormals), the
// single op run on the reference and through the cpu backend with outputs
// pre-filled with different garbage, compared element by element byte for byte,
// and other splits of the parallel loops.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/parallel.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"

namespace llga {
namespace cpu {
namespace bcast_test {

using plan_test::bytes_t;

// `lt` stored densely in a random order of its dims (kind 1) or padded in
// one (kind 2); kind 0 leaves it row-major.
inline logical_tensor_t relaid(logical_tensor_t lt, int kind, std::mt19937 &gen) {
    if (kind == 0 || lt.ndims == 0) return lt;
    std::vector<int> perm(static_cast<size_t>(lt.ndims));
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), gen);
    int64_t acc = kind == 2 ? 1 + static_cast<int64_t>(gen() % 2) : 1;
    for (size_t k = perm.size(); k-- > 0;) {
        lt.layout.strides[perm[k]] = acc;
        acc *= lt.dims[perm[k]] + (kind == 2 ? static_cast<int64_t>(gen() % 3) : 0);
    }
    return lt;
}

// One value of type dt: mostly spread over many magnitudes (so the order
// of a sum shows in its rounding), with the edge cases mixed in.
inline void put_value(data_type_t dt, void *p, int64_t i, std::mt19937 &gen) {
    auto *b = static_cast<unsigned char *>(p);
    const unsigned r = gen() % 64;
    if (dt == dnnl_boolean) {
        b[i] = r < 28 ? 0 : r < 60 ? 1 : static_cast<unsigned char>(2 + r);
        return;
    }
    if (dt == dnnl_s32) {
        ir::store_value(dt, p, i, static_cast<double>(static_cast<int>(gen() % 7) - 3)
                        * (r < 4 ? 1e9 / 3 : 1.0));
        return;
    }
    if (r < 10 && (dt == dnnl_bf16 || dt == dnnl_f16)) {
        // Any 16-bit pattern: NaNs with payloads, subnormals, infinities.
        const uint16_t h = static_cast<uint16_t>(gen());
        std::memcpy(b + i * 2, &h, 2);
        return;
    }
    if (r < 10 && dt == dnnl_f32) {
        const uint32_t edges[] = {0x00000000u, 0x80000000u, 0x7f800000u,
                0xff800000u, 0x7fc00000u, 0xffc12345u, 0x7f800001u /* sNaN */,
                0xff812345u /* sNaN */, 0x00000001u, 0x807fffffu};
        std::memcpy(b + i * 4, &edges[r], 4);
        return;
    }
    std::uniform_real_distribution<double> e(-20.0, 20.0);
    const double v = std::exp2(e(gen)) * (gen() % 2 ? -1.0 : 1.0);
    ir::store_value(dt, p, i, r < 14 ? std::round(v) : v);
}

// The whole memory span of lt (padding too) filled with put_value.
inline bytes_t values(const logical_tensor_t &lt, std::mt19937 &gen) {
    bytes_t b(ir::mem_size(lt));
    const size_t es = ir::dtype_storage_bytes(lt.data_type, 1);
    for (size_t i = 0; i < b.size() / es; ++i)
        put_value(lt.data_type, b.data(), static_cast<int64_t>(i), gen);
    return b;
}

// The bytes of element `i` (row-major index) of lt in `b`, as hex.
inline std::string element_hex(const logical_tensor_t &lt, const bytes_t &b,
        int64_t i) {
    const dims_t d = ir::dims_of(lt), st = ir::strides_of(lt);
    int64_t idx[DNNL_MAX_NDIMS];
    ir::unravel(i, d, idx);
    const size_t es = ir::dtype_storage_bytes(lt.data_type, 1);
    const size_t off = static_cast<size_t>(
            ir::offset_of(idx, st.data(), static_cast<int>(d.size()))) * es;
    std::string s = "0x";
    const char *hex = "0123456789abcdef";
    for (size_t k = es; k-- > 0;) {
        const auto c = static_cast<unsigned char>(b[off + k]);
        s += hex[c >> 4];
        s += hex[c & 15];
    }
    return s;
}

// Whether bytes p hold a NaN of floating-point type dt.
inline bool is_nan_at(data_type_t dt, const char *p) {
    if (dt != dnnl_f32 && dt != dnnl_bf16 && dt != dnnl_f16) return false;
    return std::isnan(ir::load_value(dt, p, 0));
}

// Index of the first logical element of lt whose bytes differ, or -1.
// With `any_nan`, two NaNs match whatever their payloads and signs: when
// both operands of a product or sum are NaN, which one x86 returns depends
// on the operand order the compiler chose, in the reference as anywhere.
inline int64_t first_difference(const logical_tensor_t &lt, const bytes_t &a,
        const bytes_t &b, bool any_nan = false) {
    const dims_t d = ir::dims_of(lt), st = ir::strides_of(lt);
    const size_t es = ir::dtype_storage_bytes(lt.data_type, 1);
    const int64_t n = ir::product(d);
    int64_t idx[DNNL_MAX_NDIMS] = {0};
    for (int64_t i = 0; i < n; ++i, ir::next_index(idx, d)) {
        const size_t off = static_cast<size_t>(
                ir::offset_of(idx, st.data(), static_cast<int>(d.size())))
                * es;
        if (std::memcmp(&a[off], &b[off], es) == 0) continue;
        if (any_nan && is_nan_at(lt.data_type, &a[off])
                && is_nan_at(lt.data_type, &b[off]))
            continue;
        return i;
    }
    return -1;
}

// The single op of p on its reference kernel, outputs first filled with
// 0x5a bytes.
inline std::vector<bytes_t> reference(const compiler::plan_t &p,
        const std::vector<bytes_t> &in) {
    return plan_test::run_ref_all(p, in, 0x5a);
}

// Through the cpu backend, outputs first filled with 0xff bytes (NaN for
// floats, so an element left unwritten never matches); the kernel's name
// goes to *kname. `in_place`: output 0 is input `in_place_input` itself.
inline std::vector<bytes_t> through_cpu(const compiler::plan_t &p,
        std::vector<bytes_t> in, std::string *kname, int in_place_input = -1) {
    std::vector<bytes_t> out;
    const compiler::backend_t &be = cpu_backend();
    if (!be.supports(p)) {
        ADD_FAILURE() << "the cpu backend declined";
        return out;
    }
    std::shared_ptr<const compiler::kernel_t> k;
    EXPECT_EQ(be.compile(p, k), dnnl_success) << last_error();
    if (!k) return out;
    *kname = k->name();
    compiler::exec_ctx_t ctx;
    for (const auto &b : in)
        ctx.inputs.push_back(b.data());
    for (const auto &lt : p.outputs)
        out.emplace_back(ir::mem_size(lt), static_cast<char>(0xff));
    for (auto &b : out)
        ctx.outputs.push_back(b.data());
    if (in_place_input >= 0)
        ctx.outputs[0] = in[static_cast<size_t>(in_place_input)].data();
    EXPECT_EQ(k->execute(ctx), dnnl_success) << last_error();
    if (in_place_input >= 0) out[0] = in[static_cast<size_t>(in_place_input)];
    return out;
}

// p's outputs through the cpu backend at avx2 and avx512_core (those the
// host has) equal the reference's element by element, bit for bit (NaN
// matching NaN with `any_nan`), and the kernel that ran is named `kernel`.
inline void expect_reference(const compiler::plan_t &p,
        const std::vector<bytes_t> &in, const std::string &kernel,
        const std::string &what, bool any_nan = false) {
    const std::vector<bytes_t> want = reference(p, in);
    for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
        test_isa::isa_guard_t guard(isa);
        std::string kname;
        const std::vector<bytes_t> got = through_cpu(p, in, &kname);
        ASSERT_EQ(got.size(), want.size()) << what;
        EXPECT_EQ(kname, kernel) << what;
        for (size_t k = 0; k < want.size(); ++k) {
            const int64_t i = first_difference(p.outputs[k], got[k], want[k], any_nan);
            EXPECT_EQ(i, -1) << what << ": output " << k << " differs at "
                             << "element " << i << " (" << isa_name(isa)
                             << "): got "
                             << (i < 0 ? "" : element_hex(p.outputs[k], got[k], i))
                             << " want "
                             << (i < 0 ? "" : element_hex(p.outputs[k], want[k], i));
        }
    }
}

// Runs `body` with the parallel loops split another way: serially, and in
// pieces of `grain` iterations run last to first.
template <typename F>
void under_other_splits(F &&body) {
    const parallel_impl_t saved = parallel_impl();
    set_parallel_impl(nullptr);
    body("serial");
    set_parallel_impl([](int64_t n, int64_t grain, const range_body_t &f) {
        for (int64_t e = n; e > 0; e -= grain)
            f(std::max<int64_t>(0, e - grain), e);
    });
    body("reversed pieces");
    set_parallel_impl(saved);
}

} // namespace bcast_test
} // namespace cpu
} // namespace llga
