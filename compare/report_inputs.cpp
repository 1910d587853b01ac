// SPDX-License-Identifier: Apache-2.0
#include "compare/report_inputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <unordered_map>

#include "report/report_json_reader.hpp"

namespace sctp_perf::compare {
namespace {

std::string error_text(int error) {
    return std::error_code(error, std::generic_category()).message();
}

}  // namespace

std::vector<std::string> report_files_in(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code error;
    const auto status = fs::status(path, error);
    if (error) {
        throw input_error(fmt::format("cannot read {}: {}", path, error.message()));
    }
    if (!fs::is_directory(status)) {
        return {path};
    }
    std::vector<std::string> files;
    for (fs::directory_iterator it(path, error), end; !error && it != end; it.increment(error)) {
        if (it->path().extension() == ".json" && !fs::is_directory(it->status())) {
            files.push_back(it->path().string());
        }
    }
    if (error) {
        throw input_error(fmt::format("cannot list the directory {}: {}", path, error.message()));
    }
    if (files.empty()) {
        throw input_error(fmt::format("the directory {} holds no *.json report", path));
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string read_whole_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        throw input_error(fmt::format("cannot read {}: {}", path, error_text(errno)));
    }
    std::ostringstream text;
    text << file.rdbuf();
    if (file.bad()) {
        throw input_error(fmt::format("cannot read {}: {}", path, error_text(errno)));
    }
    return text.str();
}

std::optional<repeated_input> find_repeated_input(const std::vector<std::string_view>& contents) {
    std::unordered_map<std::string_view, std::size_t> seen;
    for (std::size_t i = 0; i < contents.size(); ++i) {
        const auto [at, added] = seen.emplace(contents[i], i);
        if (!added) {
            return repeated_input{at->second, i};
        }
    }
    return std::nullopt;
}

std::string repeated_input_sentence(const std::string& first, const std::string& again,
                                    std::string_view kind) {
    std::error_code error;
    if (first == again || std::filesystem::equivalent(first, again, error)) {
        return first == again
                   ? fmt::format("{} is given twice: each {} must count once", first, kind)
                   : fmt::format("{} and {} are one file, given twice: each {} must count once",
                                 first, again, kind);
    }
    return fmt::format(
        "{} and {} are the same {} (the same content): a copy would count as another run that "
        "agrees; give one of them",
        first, again, kind);
}

}  // namespace sctp_perf::compare
