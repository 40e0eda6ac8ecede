// SPDX-License-Identifier: Apache-2.0
// tests/unit/ir/json_files.hpp — finds JSON graph files (the corpus) for the
// JSON tests: a recursive, sorted directory walk.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <dirent.h>
#include <sys/stat.h>

namespace llga {
namespace test {

inline bool is_dir(const std::string &p) {
    struct stat st;
    return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

inline void list_json(const std::string &dir, std::vector<std::string> &out) {
    DIR *d = opendir(dir.c_str());
    if (!d) return;
    std::vector<std::string> names;
    while (dirent *e = readdir(d))
        names.push_back(e->d_name);
    closedir(d);
    std::sort(names.begin(), names.end());
    for (const auto &n : names) {
        if (n == "." || n == "..") continue;
        std::string p = dir + "/" + n;
        if (is_dir(p))
            list_json(p, out);
        else if (n.size() > 5 && n.compare(n.size() - 5, 5, ".json") == 0)
            out.push_back(p);
    }
}

} // namespace test
} // namespace llga
