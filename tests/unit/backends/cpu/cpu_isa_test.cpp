// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/cpu_isa_test.cpp — ISA and vendor detection against
// the kernel's own view (/proc/cpuinfo), the ONEDNN_MAX_CPU_ISA names and
// order, and the test hook that lowers the maximum at runtime.
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "backends/cpu/isa.hpp"

namespace llga {
namespace cpu {
namespace {

// The words after "<key> :" on the first line of /proc/cpuinfo that
// starts with `key`.
std::set<std::string> proc_cpuinfo_words(const char *key) {
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    std::set<std::string> words;
    while (std::getline(f, line)) {
        if (line.rfind(key, 0) != 0) continue;
        std::istringstream ss(line.substr(line.find(':') + 1));
        std::string w;
        while (ss >> w)
            words.insert(w);
        break;
    }
    return words;
}

std::set<std::string> proc_cpuinfo_flags() {
    return proc_cpuinfo_words("flags");
}

TEST(CpuIsa, NamesParseCaseInsensitively) {
    isa_t i = isa_t::sse41;
    EXPECT_TRUE(parse_isa("AVX512_CORE_AMX", &i));
    EXPECT_EQ(i, isa_t::avx512_core_amx);
    EXPECT_TRUE(parse_isa("avx2_vnni_2", &i));
    EXPECT_EQ(i, isa_t::avx2_vnni_2);
    EXPECT_TRUE(parse_isa("Default", &i));
    EXPECT_EQ(i, isa_t::isa_default);
    EXPECT_FALSE(parse_isa("avx1024", &i));
    for (int k = 0; k <= static_cast<int>(isa_t::isa_default); ++k) {
        isa_t back = isa_t::isa_default;
        ASSERT_TRUE(parse_isa(isa_name(static_cast<isa_t>(k)), &back));
        EXPECT_EQ(static_cast<int>(back), k);
    }
}

TEST(CpuIsa, OrderMatchesTheKnob) {
    // The knob admits every level at or below the chosen one, so the enum
    // order is part of the contract.
    EXPECT_LT(isa_t::sse41, isa_t::avx);
    EXPECT_LT(isa_t::avx2, isa_t::avx2_vnni);
    EXPECT_LT(isa_t::avx2_vnni_2, isa_t::avx512_core);
    EXPECT_LT(isa_t::avx512_core_fp16, isa_t::avx512_core_amx);
    EXPECT_LT(isa_t::avx512_core_amx_fp16, isa_t::isa_default);
}

TEST(CpuIsa, DetectionAgreesWithProcCpuinfo) {
    const auto flags = proc_cpuinfo_flags();
    if (flags.empty()) GTEST_SKIP() << "no /proc/cpuinfo flags";
    const cpu_features_t &f = host_features();
    auto has = [&](const char *n) { return flags.count(n) != 0; };
    EXPECT_EQ(f.avx2, has("avx2"));
    EXPECT_EQ(f.fma, has("fma"));
    EXPECT_EQ(f.avx512f, has("avx512f"));
    EXPECT_EQ(f.avx512bw, has("avx512bw"));
    EXPECT_EQ(f.avx512vl, has("avx512vl"));
    EXPECT_EQ(f.avx512_vnni, has("avx512_vnni"));
    EXPECT_EQ(f.avx512_bf16, has("avx512_bf16"));
    EXPECT_EQ(f.avx512_fp16, has("avx512_fp16"));
    // The asmjit snapshot reads the wrong CPUID bit for this one.
    EXPECT_EQ(f.avx_vnni, has("avx_vnni"));
    EXPECT_EQ(f.amx_tile, has("amx_tile"));
    EXPECT_EQ(f.amx_int8, has("amx_int8"));
    EXPECT_EQ(f.amx_bf16, has("amx_bf16"));
    const auto vendor = proc_cpuinfo_words("vendor_id");
    EXPECT_EQ(f.amd,
            vendor.count("AuthenticAMD") != 0
                    || vendor.count("HygonGenuine") != 0);
}

// The kernel's cache description: the first level-2 cache of cpu0.
TEST(CpuIsa, L2SizeAgreesWithSysfs) {
    for (int i = 0; i < 8; ++i) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index"
                + std::to_string(i) + "/";
        std::ifstream level(dir + "level"), size(dir + "size");
        int lv = 0;
        std::string sz;
        if (!(level >> lv) || !(size >> sz)) break;
        if (lv != 2) continue;
        ASSERT_FALSE(sz.empty());
        ASSERT_EQ(sz.back(), 'K') << sz;
        EXPECT_EQ(host_features().l2_kib, std::stoi(sz));
        return;
    }
    GTEST_SKIP() << "no level-2 cache in sysfs";
}

TEST(CpuIsa, LevelsNest) {
    if (host_supports(isa_t::avx512_core)) {
        EXPECT_TRUE(host_supports(isa_t::avx2));
        EXPECT_TRUE(host_supports(isa_t::avx));
    }
    if (host_supports(isa_t::avx512_core_bf16)) {
        EXPECT_TRUE(host_supports(isa_t::avx512_core_vnni));
    }
    if (host_supports(isa_t::avx512_core_amx)) {
        EXPECT_TRUE(amx_permission_granted());
    }
    if (host_features().amx_tile) {
        // The request is idempotent.
        const bool g = amx_permission_granted();
        EXPECT_EQ(g, amx_permission_granted());
    }
}

TEST(CpuIsa, TestHookLowersTheMaximum) {
    set_max_isa_for_testing(isa_t::avx2);
    EXPECT_EQ(max_isa(), isa_t::avx2);
    EXPECT_FALSE(isa_available(isa_t::avx512_core));
    EXPECT_EQ(isa_available(isa_t::avx2), host_supports(isa_t::avx2));
    if (host_supports(isa_t::avx2)) {
        EXPECT_STREQ(isa_name(), "avx2");
    }
    set_max_isa_for_testing(isa_t::sse41);
    EXPECT_FALSE(isa_available(isa_t::avx));
    set_max_isa_for_testing(isa_t::isa_default);
    EXPECT_EQ(isa_available(isa_t::avx512_core),
            host_supports(isa_t::avx512_core));
    reset_max_isa_for_testing();
    if (host_supports(isa_t::avx512_core)
            && max_isa() == isa_t::isa_default) {
        EXPECT_GE(best_available_isa(), isa_t::avx512_core);
    }
}

} // namespace
} // namespace cpu
} // namespace llga
