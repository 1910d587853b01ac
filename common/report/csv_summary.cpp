// SPDX-License-Identifier: Apache-2.0
#include "report/csv_summary.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cerrno>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "protocol/wire_protocol.hpp"
#include "report/defined_statistics.hpp"
#include "report/output_file.hpp"
#include "report/run_notes.hpp"
#include "report/units.hpp"

namespace sctp_perf {
namespace {

// The latency figures of a line, in microseconds; unset when no round trip
// was measured.
struct latency_figures {
    std::uint64_t count = 0;
    std::optional<double> min_us, mean_us, stddev_us, max_us;
    std::vector<std::optional<double>> percentile_us;  // in reported_percentiles' order
};

latency_figures figures_of(const log_linear_histogram& h, const running_stats* exact) {
    latency_figures f;
    f.count = h.count();
    f.percentile_us.resize(std::size(reported_percentiles));
    if (f.count == 0) {
        return f;
    }
    // Ping-pong keeps exact summary statistics beside the histogram; the
    // load modes' histogram keeps exact ones itself (integer sums).
    f.min_us = exact != nullptr ? exact->min() : us_of_ns(static_cast<double>(h.min_ns()));
    f.mean_us = exact != nullptr ? exact->mean() : us_of_ns(h.mean_ns());
    f.stddev_us = exact != nullptr ? defined_stddev(*exact) : defined_stddev_us(h);
    f.max_us = exact != nullptr ? exact->max() : us_of_ns(static_cast<double>(h.max_ns()));
    for (std::size_t i = 0; i < std::size(reported_percentiles); ++i) {
        f.percentile_us[i] = us_of_ns(h.percentile_ns(reported_percentiles[i].parts_per_million));
    }
    return f;
}

std::string field(const std::optional<double>& us_value) {
    return us_value ? fmt::format("{:.3f}", *us_value) : std::string();
}

// Whatever CSV needs quoted is quoted (program names and hosts never do, but
// a field a parser splits would shift every column after it).
std::string quoted(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) {
        return text;
    }
    std::string out = "\"";
    for (const char c : text) {
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return out + "\"";
}

bool is_empty(const std::string& path) {
    std::error_code ec;
    return std::filesystem::file_size(path, ec) == 0 || ec;
}

// The first line of `path`, empty when the file is empty or absent.
std::string first_line_of(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

}  // namespace

std::string csv_summary_header() {
    std::string header =
        "started_at,program,service,transport,payload_bytes,reply_bytes,mode,flows,"
        "rate_per_flow_per_s,runs,interrupted,duration_s,count,min_us,mean_us,stddev_us";
    for (const auto& p : reported_percentiles) {
        header += ',' + percentile_json_key(p);
    }
    return header + ",max_us,messages_sent,messages_replied,messages_lost";
}

void write_csv_summary_row(std::ostream& out, const run_report& r) {
    const auto& o = r.options;
    const bool load = r.load != nullptr;
    const auto figures = load ? figures_of(r.load->headline(), nullptr)
                              : figures_of(r.recorder->percentiles(), &r.recorder->summary());
    // Ping-pong sends the next request only once the reply has come: what
    // was sent was replied, and nothing can be lost without ending the run.
    const auto sent = load ? r.load->messages_sent : figures.count;
    const auto replied = load ? r.load->messages_replied : figures.count;
    const auto lost = load ? r.load->messages_lost : 0;
    const auto rate = o.mode == protocol::test_mode::rate ? fmt::format("{}", o.rate_per_s) : "";
    fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{},{:.6f},{},{},{},{}",
               quoted(r.environment.started_at), quoted(r.program.name), name_of(r.program.service),
               name_of(o.common.transport), o.payload_bytes(), reply_bytes_of(o),
               protocol::name_of(o.mode), load ? o.flows : 1u, rate,
               r.repeats != nullptr ? r.repeats->runs.size() : std::size_t{1},
               r.interrupted_by != 0 ? "yes" : "no", r.duration_s, figures.count,
               field(figures.min_us), field(figures.mean_us), field(figures.stddev_us));
    for (const auto& p : figures.percentile_us) {
        fmt::print(out, ",{}", field(p));
    }
    fmt::print(out, ",{},{},{},{}\n", field(figures.max_us), sent, replied, lost);
}

void check_csv_summary_file(const std::string& path) {
    std::ofstream file(path, std::ios::app);
    if (!file) {
        throw std::system_error(errno, std::generic_category(),
                                fmt::format("cannot open the --csv-summary file {}", path));
    }
    file.close();
    if (!is_empty(path) && first_line_of(path) != csv_summary_header()) {
        throw std::runtime_error(
            fmt::format("the --csv-summary file {} has other columns than this version writes; "
                        "name a new file",
                        path));
    }
}

void append_csv_summary(const std::string& path, const run_report& report) {
    check_csv_summary_file(path);
    const bool empty = is_empty(path);
    std::ofstream file(path, std::ios::app);
    if (empty) {
        file << csv_summary_header() << '\n';
    }
    write_csv_summary_row(file, report);
    close_output_file(file, path, "--csv-summary file");
}

}  // namespace sctp_perf
