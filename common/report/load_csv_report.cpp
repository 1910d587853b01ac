// SPDX-License-Identifier: Apache-2.0
// The per-flow CSV (--flow-csv; write_flow_csv, load_report.hpp).
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <optional>
#include <ostream>
#include <string>

#include "report/load_figures.hpp"
#include "report/load_report.hpp"

namespace sctp_perf {

void write_flow_csv(std::ostream& out, const load_result& l) {
    // Fan-out adds the flow's server as a last column.
    const bool fan_out = !l.per_server.empty();
    fmt::print(out,
               "flow,messages_sent,messages_replied,messages_lost,rate_per_s,p50_us,p99_us,"
               "max_us{}\n",
               fan_out ? ",server" : "");
    const auto field = [](const std::optional<double>& v) {
        return v ? fmt::format("{:.3f}", *v) : std::string();
    };
    for (const auto& f : l.per_flow) {
        const auto figures = figures_of(f);
        fmt::print(out, "{},{},{},{},{:.3f},{},{},{}{}\n", f.flow, f.messages_sent,
                   f.messages_replied, f.messages_lost, f.rate_per_s, field(figures.p50_us),
                   field(figures.p99_us), field(figures.max_us),
                   fan_out ? "," + l.per_server[f.flow % l.per_server.size()].server : "");
    }
}

}  // namespace sctp_perf
