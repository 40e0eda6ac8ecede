// SPDX-License-Identifier: Apache-2.0
// tests/unit/base/knobs_test.cpp — the tuning-knob table (base/knobs.def):
// names, and reads through base/env.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "base/knobs.hpp"

namespace llga {
namespace {

TEST(Knobs, NamesAreDistinctLlgaVariables) {
    std::set<std::string> seen;
    int n = 0;
#define LLGA_KNOB(id, var, dflt, what) \
    { \
        const std::string name = knob_name(knob_t::id); \
        EXPECT_EQ(name, #var); \
        EXPECT_EQ(name.rfind("LLGA_", 0), 0u) << name; \
        EXPECT_TRUE(seen.insert(name).second) << name << " twice"; \
        EXPECT_NE(std::string(dflt), "") << name; \
        EXPECT_NE(std::string(what), "") << name; \
        ++n; \
    }
#include "base/knobs.def"
#undef LLGA_KNOB
    EXPECT_GE(n, 20);
}

TEST(Knobs, ReadThroughEnv) {
    const char *name = knob_name(knob_t::gemm_kc);
    setenv(name, "96", 1);
    EXPECT_EQ(knob_int(knob_t::gemm_kc, 5), 96);
    EXPECT_EQ(knob_string(knob_t::gemm_kc), "96");
    setenv(name, "9x", 1);
    EXPECT_EQ(knob_int(knob_t::gemm_kc, 5), 5); // malformed -> default
    unsetenv(name);
    EXPECT_EQ(knob_int(knob_t::gemm_kc, 5), 5);
    EXPECT_EQ(knob_string(knob_t::gemm_kc), "");
}

// docs/environment.md has a row for every knob of the table.
TEST(Knobs, EveryKnobIsDocumented) {
    std::ifstream f(std::string(LLGA_SOURCE_DIR) + "/docs/environment.md");
    ASSERT_TRUE(f.good());
    std::stringstream text;
    text << f.rdbuf();
    const std::string doc = text.str();
#define LLGA_KNOB(id, var, dflt, what) \
    EXPECT_NE(doc.find("| `" #var "` |"), std::string::npos) << #var;
#include "base/knobs.def"
#undef LLGA_KNOB
}

} // namespace
} // namespace llga
