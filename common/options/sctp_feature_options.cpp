// SPDX-License-Identifier: Apache-2.0
#include "options/sctp_feature_options.hpp"

#include <fmt/format.h>

#include <boost/program_options/value_semantic.hpp>
#include <utility>

#include "options/number_values.hpp"
#include "options/option_parsing.hpp"

namespace sctp_perf {
namespace po = boost::program_options;

void add_sctp_feature_options(po::options_description& options, raw_sctp_feature_options& raw,
                              std::vector<std::string>& unreadable) {
    // clang-format off
    options.add_options()
        ("streams", count_value(raw.streams, unreadable, "--streams")
             ->default_value(default_text(default_streams))->value_name("N"),
         "streams to ask for each way (SCTP_INITMSG), 1..65535; the messages of a flow take "
         "them in turn, and the server answers on the stream a request came in on")
        ("unordered", po::bool_switch(&raw.unordered),
         "send the test's messages unordered (SCTP_UNORDERED)")
        ("pr-sctp", po::value(&raw.pr_sctp)->value_name("POLICY"),
         "partial reliability for the test's messages: ttl:MS (give a message up MS "
         "milliseconds after it was sent) or rtx:N (after N retransmissions); needs --rate or "
         "--throughput on the client")
        ("sack-delay",
         count_value(raw.sack_delay_ms, unreadable, "--sack-delay", count_kind::integer)
             ->value_name("MS"),
         "delayed-SACK timeout, milliseconds, 1..500 (SCTP_DELAYED_SACK)")
        ("sack-freq", count_value(raw.sack_freq, unreadable, "--sack-freq")->value_name("N"),
         "packets per SACK, 1..65535; 1 turns delayed SACKs off (SCTP_DELAYED_SACK)")
        ("stream-scheduler", po::value(&raw.scheduler)->value_name("NAME"),
         "the sender's stream scheduler: fcfs, prio, rr, fc or wfq (SCTP_STREAM_SCHEDULER; "
         "fc and wfq need Linux 6.2 or later)")
        ("interleave", po::bool_switch(&raw.interleave),
         "interleave messages of different streams with I-DATA chunks (RFC 8260; needs sysctl "
         "net.sctp.intl_enable=1 at both ends)");
    // clang-format on
}

namespace {

// With -t tcp: one sentence for each SCTP option given, by name, so that a
// user who asked for one learns it was not used.
void refuse_on_tcp(const raw_sctp_feature_options& raw, const po::variables_map& given,
                   std::vector<std::string>& errors) {
    const std::pair<const char*, bool> asked[] = {
        {"streams", given_by_user(given, "streams")},
        {"unordered", raw.unordered},
        {"pr-sctp", given_by_user(given, "pr-sctp")},
        {"sack-delay", given_by_user(given, "sack-delay")},
        {"sack-freq", given_by_user(given, "sack-freq")},
        {"stream-scheduler", given_by_user(given, "stream-scheduler")},
        {"interleave", raw.interleave},
    };
    for (const auto& [name, on] : asked) {
        if (on) {
            errors.push_back(
                fmt::format("--{} applies to SCTP only; drop it or use -t sctp", name));
        }
    }
}

// --sack-delay and --sack-freq: SCTP_DELAYED_SACK's two fields.
void validate_sack(const raw_sctp_feature_options& raw, const po::variables_map& given,
                   sctp_feature_request& request, std::vector<std::string>& errors) {
    if (given_by_user(given, "sack-delay")) {
        if (raw.sack_delay_ms < 1 || raw.sack_delay_ms > 500) {
            errors.push_back("--sack-delay must be 1..500 milliseconds (RFC 9260 caps it at 500)");
        } else {
            request.sack_delay_ms = static_cast<std::uint32_t>(raw.sack_delay_ms);
        }
    }
    if (given_by_user(given, "sack-freq")) {
        if (raw.sack_freq < 1 || raw.sack_freq > 65535) {
            errors.push_back("--sack-freq must be 1..65535 packets (1: no delayed SACKs)");
        } else {
            request.sack_freq = static_cast<std::uint32_t>(raw.sack_freq);
        }
    }
}

}  // namespace

sctp_feature_request validate_sctp_feature_options(const raw_sctp_feature_options& raw,
                                                   const po::variables_map& given,
                                                   transport_protocol transport,
                                                   std::vector<std::string>& errors) {
    sctp_feature_request request;
    if (transport == transport_protocol::tcp) {
        refuse_on_tcp(raw, given, errors);
        return request;
    }
    if (raw.streams < 1 || raw.streams > 65535) {
        errors.push_back("--streams must be 1..65535");
    } else {
        request.streams = static_cast<std::uint16_t>(raw.streams);
    }
    request.unordered = raw.unordered;
    if (given_by_user(given, "pr-sctp")) {
        if (const auto pr = parse_pr_sctp(raw.pr_sctp)) {
            request.pr = *pr;
        } else {
            errors.push_back(
                fmt::format("--pr-sctp must be ttl:MS (1..86400000 milliseconds) or rtx:N (0..1000 "
                            "retransmissions), not '{}'",
                            raw.pr_sctp));
        }
    }
    validate_sack(raw, given, request, errors);
    if (given_by_user(given, "stream-scheduler")) {
        if (const auto scheduler = parse_stream_scheduler(raw.scheduler)) {
            request.scheduler = *scheduler;
        } else {
            errors.push_back(fmt::format(
                "--stream-scheduler must be fcfs, prio, rr, fc or wfq, not '{}'", raw.scheduler));
        }
    }
    request.interleave = raw.interleave;
    return request;
}

}  // namespace sctp_perf
