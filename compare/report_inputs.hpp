// SPDX-License-Identifier: Apache-2.0
#pragma once
// The inputs of sctp-perf-compare as files: the report files a path names,
// a file's whole text, and the one rule every input follows, reports and
// interval logs alike: each counts once, so the same content given twice (one
// file named twice, or a copy) is found and refused in one sentence.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sctp_perf::compare {

// The whole text of a file. Throws input_error.
std::string read_whole_file(const std::string& path);

// The report files `path` names: `path` itself when it is a file, the
// *.json files directly inside it, by name, when it is a directory. Throws
// input_error when it is neither, cannot be read, or is a directory without
// a *.json file.
std::vector<std::string> report_files_in(const std::string& path);

// Two inputs of one content, by index into `contents`: the first input
// whose content an earlier one has, with that earlier one; nullopt when
// each content comes once.
struct repeated_input {
    std::size_t first = 0;
    std::size_t again = 0;
};
std::optional<repeated_input> find_repeated_input(const std::vector<std::string_view>& contents);

// The sentence that refuses `first` and `again`, two paths of one content:
// one file named twice, or a copy. `kind` is "report" or "log".
std::string repeated_input_sentence(const std::string& first, const std::string& again,
                                    std::string_view kind);

}  // namespace sctp_perf::compare
