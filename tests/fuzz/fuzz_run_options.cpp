// SPDX-License-Identifier: Apache-2.0
// tests/fuzz/fuzz_run_options.cpp — libFuzzer target for llga-run's option
// parser: the input is read as a batch file (tokenized the way --batch= files
// are) and as command-line tokens, and fed to the accumulating parser. Any
// input either parses or fails with a message; nothing may crash, hang or
// trip a sanitizer. --batch= tokens are dropped: the target must not read
// arbitrary files.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "options.hpp"

using namespace llga_run;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    std::vector<std::string> toks;
    for (auto &t : parser_t::tokenize_batch(text))
        if (t.compare(0, 8, "--batch=") != 0) toks.push_back(t);
    global_opts_t g;
    parser_t p(g);
    std::string error;
    if (!p.parse_args(toks, error) && error.empty()) std::abort();
    for (const auto &item : p.items) {
        (void)item.opts.repro();
        std::vector<int64_t> dims;
        for (const auto &part : split(item.opts.in_shapes, '+')) {
            const size_t colon = part.find(':');
            if (colon != std::string::npos)
                (void)parse_dims(part.substr(colon + 1), dims);
        }
    }
    return 0;
}
