// SPDX-License-Identifier: Apache-2.0
// tests/api/llga_version_test.cpp — llga_version() (llga.h) reports llga's
// own release version, which CMake passes to this test independently
// (PROJECT_VERSION), and is distinct from the oneDNN API version.
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl_common.h"
#include "oneapi/dnnl/llga.h"

TEST(CapiGlobal, LlgaVersionIsTheProjectVersion) {
    const llga_version_t *v = llga_version();
    ASSERT_NE(v, nullptr);
    const std::string got = std::to_string(v->major) + "."
            + std::to_string(v->minor) + "." + std::to_string(v->patch);
    EXPECT_EQ(got, LLGA_TEST_PROJECT_VERSION);
    ASSERT_NE(v->hash, nullptr);
    // Either a full git commit (40 hex digits) or "unknown".
    const std::string hash = v->hash;
    if (hash != "unknown") {
        EXPECT_EQ(hash.size(), 40u) << hash;
        EXPECT_EQ(hash.find_first_not_of("0123456789abcdef"), std::string::npos)
                << hash;
    }
    // Same static object every call; not the oneDNN API version.
    EXPECT_EQ(llga_version(), v);
    const dnnl_version_t *api = dnnl_version();
    EXPECT_FALSE(api->major == v->major && api->minor == v->minor
            && api->patch == v->patch);
}
