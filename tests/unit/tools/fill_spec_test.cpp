// SPDX-License-Identifier: Apache-2.0
// tests/unit/tools/fill_spec_test.cpp — llga-run's --fill: parsing, checks
// against the graph, and the values written (special values at the stated
// positions, ranges within bounds), plus the layout checks of a prepared
// case (hostile sizes and overlapping outputs refused with a message).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "fill.hpp"
#include "fill_spec.hpp"
#include "ir/logical_tensor.hpp"
#include "options.hpp"
#include "prepare.hpp"

using namespace llga_run;

namespace {

// One graph input (id 3, 16 elements of `dt`) and one output (id 4).
prepared_t one_input(llga::data_type_t dt) {
    prepared_t g;
    g.tensors[3] = llga::ir::make_lt(3, dt, {16});
    g.tensors[4] = llga::ir::make_lt(4, dt, {16});
    g.inputs = {3};
    g.outputs = {4};
    return g;
}

float at(const buffers_t &b, size_t id, size_t i) {
    return static_cast<const float *>(b.at(id).data())[i];
}

} // namespace

TEST(FillSpec, Parses) {
    std::vector<fill_spec_t> s;
    std::string e;
    ASSERT_TRUE(parse_fill("0:range:-1:1+*:nan:4+2:special", s, e)) << e;
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0].kind, fill_spec_t::range);
    EXPECT_EQ(s[0].lo, -1);
    EXPECT_EQ(s[0].hi, 1);
    EXPECT_TRUE(s[1].all);
    EXPECT_EQ(s[1].every, 4);
    EXPECT_TRUE(std::isnan(s[1].v));
    EXPECT_EQ(s[2].kind, fill_spec_t::special);
    for (const char *bad : {"0", "0:range:1", "0:range:2:1", "0:nan:0",
                 "0:pi", "x:nan", "0:range:nan:1", "0:nan:3:4", "-1:zero"}) {
        EXPECT_FALSE(parse_fill(bad, s, e)) << bad;
        EXPECT_NE(e.find("--fill"), std::string::npos) << bad;
    }
}

TEST(FillSpec, ChecksAgainstTheGraph) {
    std::string e;
    const prepared_t g = one_input(dnnl_f32);
    EXPECT_TRUE(check_fill("3:special", g, e)) << e;
    EXPECT_FALSE(check_fill("4:special", g, e)); // an output
    EXPECT_NE(e.find("not a graph input"), std::string::npos) << e;
    const prepared_t gi = one_input(dnnl_s8);
    EXPECT_FALSE(check_fill("3:nan", gi, e));
    EXPECT_NE(e.find("floating-point"), std::string::npos) << e;
    EXPECT_TRUE(check_fill("3:range:-3:3", gi, e)) << e;
}

TEST(FillSpec, SpecialValuesCycle) {
    prepared_t g = one_input(dnnl_f32);
    g.fill = "3:special";
    buffers_t b;
    fill_inputs(g, b);
    EXPECT_TRUE(std::isnan(at(b, 3, 0)));
    EXPECT_EQ(at(b, 3, 1), INFINITY);
    EXPECT_EQ(at(b, 3, 2), -INFINITY);
    EXPECT_EQ(at(b, 3, 3), std::ldexp(1.f, -130)); // denormal in f32
    EXPECT_EQ(std::fpclassify(at(b, 3, 3)), FP_SUBNORMAL);
    EXPECT_EQ(at(b, 3, 4), -std::ldexp(1.f, -130));
    EXPECT_EQ(at(b, 3, 5), 0.f);
    EXPECT_FALSE(std::signbit(at(b, 3, 5)));
    EXPECT_EQ(at(b, 3, 6), 0.f);
    EXPECT_TRUE(std::signbit(at(b, 3, 6)));
    EXPECT_TRUE(std::isfinite(at(b, 3, 7)));
    EXPECT_TRUE(std::isnan(at(b, 3, 8)));
}

TEST(FillSpec, EveryNthAndRange) {
    prepared_t g = one_input(dnnl_f32);
    g.fill = "*:range:2:3+3:-inf:5";
    buffers_t b;
    fill_inputs(g, b);
    for (size_t i = 0; i < 16; ++i) {
        const float v = at(b, 3, i);
        if (i % 5 == 0) {
            EXPECT_EQ(v, -INFINITY) << i;
        } else {
            EXPECT_GE(v, 2.f) << i;
            EXPECT_LE(v, 3.f) << i;
            EXPECT_EQ(v * 8, std::floor(v * 8)) << i; // steps of 1/8
        }
    }
}

TEST(CheckCase, RefusesHugeAndOverlappingOutputs) {
    std::string e;
    prepared_t g = one_input(dnnl_f32);
    EXPECT_TRUE(check_case_layouts(g, e)) << e;
    g.tensors[4].layout.strides[0] = 0; // output with overlapping strides
    EXPECT_FALSE(check_case_layouts(g, e));
    EXPECT_NE(e.find("output tensor 4"), std::string::npos) << e;
    g = one_input(dnnl_f32);
    g.tensors[3].dims[0] = (int64_t(1) << 62) + 1;
    EXPECT_FALSE(check_case_layouts(g, e));
    EXPECT_NE(e.find("tensor 3"), std::string::npos) << e;
    g = one_input(dnnl_f32);
    g.tensors[3].layout.strides[0] = 0; // overlapping input: a view, fine
    EXPECT_TRUE(check_case_layouts(g, e)) << e;
}

TEST(RunOptions, FillExpandsAndHasARepro) {
    global_opts_t go;
    parser_t p(go);
    std::string e;
    ASSERT_TRUE(p.parse_args({"--fill=0:nan,0:inf", "--case=a.json"}, e)) << e;
    ASSERT_EQ(p.items.size(), 2u);
    EXPECT_EQ(p.items[0].opts.fill, "0:nan");
    EXPECT_EQ(p.items[1].opts.fill, "0:inf");
    EXPECT_NE(p.items[1].opts.repro().find("--fill=0:inf"), std::string::npos);
}

TEST(RunOptions, ExpansionIsBounded) {
    global_opts_t go;
    parser_t p(go);
    std::string e;
    std::string many = "--dt=f32";
    for (int k = 0; k < 200; ++k)
        many += ",f32";
    std::string mb = "--mb=1";
    for (int k = 0; k < 200; ++k)
        mb += ",2";
    std::string fill = "--fill=0:nan";
    for (int k = 0; k < 200; ++k)
        fill += ",0:inf";
    EXPECT_FALSE(p.parse_args({many, mb, fill, "--case=a.json"}, e));
    EXPECT_NE(e.find("more than"), std::string::npos) << e;
    EXPECT_FALSE(p.parse_args({"--mb=281474976710657", "--case=a.json"}, e));
}
