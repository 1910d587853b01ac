// SPDX-License-Identifier: Apache-2.0
#include "report/sctp_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <string>

#include "protocol/server_settings_blob.hpp"
#include "report/transport_json.hpp"
#include "transport/sctp_features_blob.hpp"

namespace sctp_perf {
namespace {

using json = nlohmann::ordered_json;

const char* yes_no(bool value) {
    return value ? "yes" : "no";
}

// One line, alike for the client's features (read here) and the server's
// (from its settings blob).
void write_sctp_line(std::ostream& out, const char* end, const protocol::sctp_features_blob& s) {
    fmt::print(out,
               "\tsctp ({}): streams used {}, negotiated out {} in {}; unordered {}; pr-sctp {} "
               "(peer agreed: {}); sack delay {} ms, every {} packet(s); scheduler {}; "
               "interleaving (I-DATA) {}\n",
               end, s.streams_used, s.outbound_streams, s.inbound_streams, yes_no(s.unordered),
               s.pr_sctp, yes_no(s.pr_supported), s.sack_delay_ms, s.sack_freq, s.scheduler,
               yes_no(s.interleaving));
}

void write_counters_line(std::ostream& out, const char* end, const transport_counters& c) {
    std::string values;
    for (const auto& counter : c.counters) {
        values += fmt::format("{}{} {}", values.empty() ? "" : ", ", counter.name, counter.value);
    }
    fmt::print(out, "\ttransport ({}, {}): {}\n", end, c.source, values);
}

const transport_counters* client_counters(const run_report& r) {
    if (r.load != nullptr) {
        return r.load->transport ? &*r.load->transport : nullptr;
    }
    return r.transport ? &*r.transport : nullptr;
}

}  // namespace

void write_sctp_and_transport_lines(std::ostream& out, const run_report& r) {
    if (r.sctp_features) {
        write_sctp_line(out, "client", sctp_features_of(r.options.common.sctp, *r.sctp_features));
    }
    if (const auto server = protocol::decode_server_settings(r.server_settings).sctp) {
        write_sctp_line(out, "server", *server);
    }
    if (const auto* counters = client_counters(r)) {
        write_counters_line(out,
                            r.load != nullptr && r.load->flows > 1 ? "client, all flows" : "client",
                            *counters);
    }
    if (r.load != nullptr && r.load->server.transport) {
        write_counters_line(out, r.load->flows > 1 ? "server, all flows" : "server",
                            *r.load->server.transport);
    }
}

void write_abandoned_line(std::ostream& out, const load_result& l) {
    if (!l.partially_reliable) {
        return;
    }
    fmt::print(out,
               "\tabandoned (PR-SCTP): {} replies missing at the end; the client's kernel gave "
               "up {} requests, the server's {} replies; latency covers the delivered messages "
               "only\n",
               l.messages_abandoned, l.requests_abandoned_by_client_kernel,
               l.replies_abandoned_by_server_kernel);
}

void write_stream_table(std::ostream& out, const load_result& l) {
    if (l.per_stream.empty()) {
        return;
    }
    fmt::print(out, "streams:\n\t{:>6} {:>12} {:>12}\n", "stream", "replied", "p99 us");
    for (const auto& s : l.per_stream) {
        fmt::print(out, "\t{:>6} {:>12} {:>12}\n", s.stream, s.replies,
                   s.p99_us ? fmt::format("{:.3f}", *s.p99_us) : std::string("-"));
    }
    if (l.per_stream.size() > stream_samples_with_latency) {
        fmt::print(out, "\t(p99 is kept for the first {} streams only)\n",
                   stream_samples_with_latency);
    }
    fmt::print(out, "\n");
}

json client_sctp_json(const run_report& r) {
    if (!r.sctp_features) {
        return nullptr;
    }
    return protocol::encode_sctp_features(
        sctp_features_of(r.options.common.sctp, *r.sctp_features));
}

json client_transport_json(const run_report& r) {
    const auto* counters = client_counters(r);
    return counters ? transport_counters_json(*counters) : json(nullptr);
}

json per_stream_json(const load_result& l) {
    json streams = json::array();
    for (const auto& s : l.per_stream) {
        streams.push_back({{"stream", s.stream},
                           {"messages_replied", s.replies},
                           {"p99_us", s.p99_us ? json(*s.p99_us) : json(nullptr)}});
    }
    return streams;
}

}  // namespace sctp_perf
