// SPDX-License-Identifier: Apache-2.0
#pragma once
// Files a client writes besides stdout (--json-file, --interval-csv,
// --histogram-log): opened before the test runs, so that a path that cannot
// be written fails at once rather than after a long run, and checked when
// closed, so that a full disk is an error, never a silently short file.

#include <fmt/format.h>

#include <cerrno>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>

namespace sctp_perf {

// Opens `path` for writing (creating or truncating it); an empty path gives
// a closed stream. Throws std::system_error naming `what` and the path.
inline std::ofstream open_output_file(const std::string& path, std::string_view what) {
    std::ofstream file;
    if (!path.empty()) {
        file.open(path);
        if (!file) {
            throw std::system_error(errno, std::generic_category(),
                                    fmt::format("cannot open the {} {}", what, path));
        }
    }
    return file;
}

// Closes `file` if open. Throws std::system_error naming `what` and the path
// if anything written to it was lost.
inline void close_output_file(std::ofstream& file, const std::string& path, std::string_view what) {
    if (!file.is_open()) {
        return;
    }
    file.close();
    if (!file) {
        throw std::system_error(errno, std::generic_category(),
                                fmt::format("cannot write the {} {}", what, path));
    }
}

}  // namespace sctp_perf
