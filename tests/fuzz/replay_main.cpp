// SPDX-License-Identifier: Apache-2.0
// tests/fuzz/replay_main.cpp — main() for builds without libFuzzer (gcc, or
// LLGA_FUZZ off): runs LLVMFuzzerTestOneInput once on every file named on
// the command line, descending into directories, so the seed corpora and
// the regression inputs of every crash found run in every build. Arguments
// starting with '-' (libFuzzer flags) are ignored.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {
void collect(const std::string &path, std::vector<std::string> &files) {
    struct stat st;
    if (stat(path.c_str(), &st) != 0) return;
    if (!S_ISDIR(st.st_mode)) {
        files.push_back(path);
        return;
    }
    DIR *d = opendir(path.c_str());
    if (!d) return;
    std::vector<std::string> names;
    while (dirent *e = readdir(d))
        if (e->d_name[0] != '.') names.push_back(e->d_name);
    closedir(d);
    std::sort(names.begin(), names.end());
    for (const auto &n : names)
        collect(path + "/" + n, files);
}
} // namespace

int main(int argc, char **argv) {
    std::vector<std::string> files;
    for (int k = 1; k < argc; ++k)
        if (argv[k][0] != '-') collect(argv[k], files);
    for (const auto &f : files) {
        std::ifstream in(f, std::ios::binary);
        const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                std::istreambuf_iterator<char>());
        LLVMFuzzerTestOneInput(
                reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
    }
    std::printf("replayed %zu inputs\n", files.size());
    return 0;
}
