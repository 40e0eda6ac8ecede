// SPDX-License-Identifier: Apache-2.0
// tests/unit/tools/run_options_test.cpp — llga-run's option and batch-file
// parser (tools/run/options.hpp): accumulation, --reset, Cartesian expansion
// of comma-separated alternatives, tokenizer rules and error reporting.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "options.hpp"

using namespace llga_run;

namespace {
std::vector<run_item_t> parse(const std::vector<std::string> &args,
        global_opts_t *g_out = nullptr, std::string *err = nullptr) {
    global_opts_t g;
    parser_t p(g);
    std::string e;
    bool ok = p.parse_args(args, e);
    if (err) *err = ok ? "" : e;
    if (g_out) *g_out = g;
    return p.items;
}
} // namespace

TEST(RunOptions, CaseLineOptionsAccumulate) {
    auto items = parse({"--mb=4", "--op-attrs=0:auto_pad:SAME_UPPER",
            "--in-shapes=0:2x28x28x32*acdb", "--case=op/f32/conv_2d.json"});
    ASSERT_EQ(items.size(), 1u);
    const auto &o = items[0].opts;
    EXPECT_EQ(o.case_path, "op/f32/conv_2d.json");
    EXPECT_EQ(o.mb, 4);
    EXPECT_EQ(o.op_attrs, "0:auto_pad:SAME_UPPER");
    EXPECT_EQ(o.in_shapes, "0:2x28x28x32*acdb");
    EXPECT_EQ(o.expected_partitions, 1);
    EXPECT_EQ(o.repro(),
            "--mb=4 --in-shapes=0:2x28x28x32*acdb "
            "--op-attrs=0:auto_pad:SAME_UPPER --case=op/f32/conv_2d.json");
}

TEST(RunOptions, ResetRestoresDefaults) {
    auto items = parse({"--dt=bf16", "--expected-n-partitions=3", "--case=a.json",
            "--reset", "--case=b.json"});
    ASSERT_EQ(items.size(), 2u);
    EXPECT_EQ(items[0].opts.dt, "bf16");
    EXPECT_EQ(items[0].opts.expected_partitions, 3);
    EXPECT_EQ(items[1].opts.dt, "");
    EXPECT_EQ(items[1].opts.expected_partitions, 1);
}

TEST(RunOptions, CommasExpandToCartesianProduct) {
    auto items = parse({"--dt=f32,bf16,f16", "--op-kind=0:Abs,0:Exp", "--case=x.json"});
    ASSERT_EQ(items.size(), 6u);
    EXPECT_EQ(items[0].opts.op_kind, "0:Abs");
    EXPECT_EQ(items[0].opts.dt, "f32");
    EXPECT_EQ(items[5].opts.op_kind, "0:Exp");
    EXPECT_EQ(items[5].opts.dt, "f16");
    // Only the last partition count counts, as in benchdnn.
    items = parse({"--expected-n-partitions=2,3", "--case=x.json"});
    ASSERT_EQ(items.size(), 1u);
    EXPECT_EQ(items[0].opts.expected_partitions, 3);
}

TEST(RunOptions, GlobalKnobs) {
    global_opts_t g;
    auto items = parse({"--mode=P", "--partition-check=report",
                               "--partition-policy=debug", "--engine=cpu", "-v2",
                               "--expect-partitions", "0", "--max-work=50",
                               "--case=x.json"},
            &g);
    EXPECT_EQ(g.mode, run_mode_t::perf);
    EXPECT_EQ(g.partition_check, partition_check_t::report);
    EXPECT_EQ(g.policy, policy_t::debug);
    EXPECT_EQ(g.verbose, 2);
    EXPECT_DOUBLE_EQ(g.max_work_mops, 50);
    ASSERT_EQ(items.size(), 1u);
    EXPECT_EQ(items[0].opts.expected_partitions, 0);
}

TEST(RunOptions, ErrorsNameTheOption) {
    std::string err;
    parse({"--bogus=1"}, nullptr, &err);
    EXPECT_NE(err.find("--bogus=1"), std::string::npos);
    parse({"--mb=x", "--case=a.json"}, nullptr, &err);
    EXPECT_NE(err.find("--mb"), std::string::npos);
    parse({"--partition-check=maybe"}, nullptr, &err);
    EXPECT_NE(err.find("strict|report"), std::string::npos);
    parse({"--batch=/nonexistent/file"}, nullptr, &err);
    EXPECT_NE(err.find("cannot open"), std::string::npos);
}

TEST(RunOptions, ExpansionIsBoundedInRunsAndBytes) {
    // Comma lists multiply: 400 x 400 alternatives is past the run bound.
    std::string many = "--dt=f32";
    for (int i = 0; i < 399; ++i)
        many += ",f32";
    std::string err;
    std::vector<run_item_t> items
            = parse({many, "--op-kind=" + many.substr(5), "--case=a.json"},
                    nullptr, &err);
    EXPECT_TRUE(items.empty());
    EXPECT_NE(err.find("more than 100000 runs"), std::string::npos) << err;
    // Few runs, long options: 50000 runs of a 2 KiB attribute string are
    // past the byte bound (the fuzzer's 15-second, 840 MB input).
    const std::string attr = "--op-attrs=0:auto_pad:" + std::string(2048, 'x');
    std::string dts = "--dt=f32";
    for (int i = 0; i < 49999; ++i)
        dts += ",";
    items = parse({attr, dts, "--case=a.json"}, nullptr, &err);
    EXPECT_TRUE(items.empty());
    EXPECT_NE(err.find("MiB"), std::string::npos) << err;
    // Within both bounds the expansion happens.
    items = parse({attr, "--dt=f32,bf16,f16", "--case=a.json"}, nullptr, &err);
    EXPECT_EQ(items.size(), 3u) << err;
}

TEST(RunOptions, BatchTokenizer) {
    auto t = parser_t::tokenize_batch(
            "# comment\n--reset --case=a.json  # trailing\n"
            "--mb=2 \\\n--case=b.json\n\n--in-shapes=0:1x\\\n2 --case=c.json\n");
    std::vector<std::string> want {"--reset", "--case=a.json", "--mb=2",
            "--case=b.json", "--in-shapes=0:1x2", "--case=c.json"};
    EXPECT_EQ(t, want);
}

TEST(RunOptions, BatchFilesRecordTheirDirectory) {
    const std::string path = ::testing::TempDir() + "llga_run_batch_test";
    {
        std::ofstream f(path);
        f << "--reset --dt=bf16 --case=op/f32/add.json\n--reset --case=y.json\n";
    }
    auto items = parse({"--batch=" + path});
    std::remove(path.c_str());
    ASSERT_EQ(items.size(), 2u);
    EXPECT_EQ(items[0].opts.dt, "bf16");
    ASSERT_FALSE(items[0].search_dirs.empty());
    EXPECT_EQ(items[1].opts.dt, "");
}

TEST(RunOptions, Dims) {
    std::vector<int64_t> d;
    EXPECT_TRUE(parse_dims("2x3x4", d));
    EXPECT_EQ(d, (std::vector<int64_t> {2, 3, 4}));
    EXPECT_TRUE(parse_dims("-", d));
    EXPECT_TRUE(d.empty());
    EXPECT_FALSE(parse_dims("2xx3", d));
    EXPECT_FALSE(parse_dims("2x-1", d));
}
