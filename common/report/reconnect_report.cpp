// SPDX-License-Identifier: Apache-2.0
#include "report/reconnect_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <vector>

namespace sctp_perf {

using json = nlohmann::ordered_json;

outage_figures outage_figures_of(const load_result& load) {
    outage_figures figures;
    std::vector<double> lasted;
    for (const auto& flow : load.per_flow) {
        if (!flow.outages.empty()) {
            ++figures.flows;
        }
        for (const auto& outage : flow.outages) {
            ++figures.outages;
            figures.most_attempts = std::max(figures.most_attempts, outage.attempts);
            if (outage.lasted_s) {
                ++figures.resumed;
                lasted.push_back(*outage.lasted_s);
                figures.total_s += *outage.lasted_s;
            } else {
                ++figures.not_over;
            }
        }
    }
    if (!lasted.empty()) {
        figures.lasted_s = spread_of(lasted);
    }
    return figures;
}

namespace {

double ms_of_s(double s) {
    return s * 1000.0;
}

}  // namespace

void write_reconnect_lines(std::ostream& out, const load_result& load) {
    if (!load.reconnect.enabled) {
        return;
    }
    const auto figures = outage_figures_of(load);
    fmt::print(out,
               "\treconnect: {} connection{} ended and {} set up again (--reconnect, waits up to "
               "{} ms), {} still down at the end, over {} flow{}\n",
               figures.outages, figures.outages == 1 ? "" : "s", figures.resumed,
               load.reconnect.longest_wait.count(), figures.not_over, figures.flows,
               figures.flows == 1 ? "" : "s");
    if (figures.lasted_s) {
        fmt::print(out,
                   "\tout of service, milliseconds per outage set up again: min {:.3f}, median "
                   "{:.3f}, max {:.3f}; {:.3f} in all; at most {} attempt{} for one\n",
                   ms_of_s(figures.lasted_s->min), ms_of_s(figures.lasted_s->median),
                   ms_of_s(figures.lasted_s->max), ms_of_s(figures.total_s), figures.most_attempts,
                   figures.most_attempts == 1 ? "" : "s");
    }
    fmt::print(out,
               "\tlost to outages: replies owed {}, messages due while down and not sent {}; "
               "sent on the connections that ended {} (their server accounts ended with them)\n",
               load.replies_lost_to_outages, load.messages_not_sent_in_outages,
               load.messages_sent_on_lost_connections);
}

json reconnect_json(const load_result& load) {
    const auto figures = outage_figures_of(load);
    const auto ms = [](const std::optional<value_spread>& s, double value_spread::*member) {
        return s ? json(ms_of_s((*s).*member)) : json(nullptr);
    };
    return {
        {"longest_wait_ms", load.reconnect.longest_wait.count()},
        {"connections_lost", load.connections_lost},
        {"resumed", figures.resumed},
        {"not_over", figures.not_over},
        {"flows_with_outages", figures.flows},
        {"out_of_service_min_ms", ms(figures.lasted_s, &value_spread::min)},
        {"out_of_service_median_ms", ms(figures.lasted_s, &value_spread::median)},
        {"out_of_service_max_ms", ms(figures.lasted_s, &value_spread::max)},
        {"out_of_service_total_ms", ms_of_s(figures.total_s)},
        {"most_attempts", figures.most_attempts},
        {"replies_lost", load.replies_lost_to_outages},
        {"messages_not_sent", load.messages_not_sent_in_outages},
        {"messages_sent_on_lost_connections", load.messages_sent_on_lost_connections},
    };
}

json flow_outages_json(const flow_result& flow) {
    json outages = json::array();
    for (const auto& outage : flow.outages) {
        outages.push_back({
            {"began_s", outage.began_s},
            {"lasted_ms", outage.lasted_s ? json(ms_of_s(*outage.lasted_s)) : json(nullptr)},
            {"cause", outage.cause},
            {"attempts", outage.attempts},
            {"replies_lost", outage.replies_lost},
            {"messages_not_sent", outage.messages_not_sent},
        });
    }
    return outages;
}

}  // namespace sctp_perf
