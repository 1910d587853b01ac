// SPDX-License-Identifier: Apache-2.0
#pragma once
// Watches one run for faults and for what its paths do: runs the --at
// commands on their own thread (client/fault_schedule.hpp), keeps every
// timed reply with the path that carried it, reads the first flow's paths
// at each interval, at each --at command and at the end, and once the run
// is over puts both ends' path events on the measurement's timeline and
// measures what the fault cost (report/paths_report.hpp).
//
// Reply attribution: over SCTP each reply is put on the path whose peer
// address it came from (the source address of the packet that brought it,
// as recvmsg gives it; transport/sctp_path_events.hpp). That is the path of
// the reply, chosen by the server; the request went the client's own
// primary path, which the events and readings show. A fault that silences
// one direction only may leave the replies on the faulted path while the
// requests went around it: the longest gap then measures the outage.

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "client/fault_schedule.hpp"
#include "client/run_watch.hpp"
#include "options/client_options.hpp"
#include "options/program_info.hpp"
#include "protocol/sctp_paths_blob.hpp"
#include "report/paths_report.hpp"
#include "transport/message_channel.hpp"
#include "transport/sctp_path_info.hpp"

namespace sctp_perf {

// The most timed replies kept for the failure's figures, over all worker
// threads: 24 bytes each, about 48 MB at most; replies beyond are counted,
// and the report says the figures leave them out.
inline constexpr std::size_t max_timed_replies_kept = 2'000'000;

// The most readings of the first flow's paths kept for the report: an hour
// of intervals of one second; later interval readings still make their
// progress lines.
inline constexpr std::size_t max_path_readings_kept = 3600;

class failure_watch final : public run_watch {
  public:
    // `channels`: the flows' channels, flow k's at k, connected and their
    // tests accepted. Where the first one's paths are watched, its socket is
    // read (its paths) until measurement_ended(); the channels' path
    // watches are kept for the end. Timed replies are kept where some
    // flow's paths are watched or --at was given, and only then.
    failure_watch(const client_options& options, const program_info& program,
                  const std::vector<message_channel*>& channels);
    ~failure_watch() override;

    void measuring_from(clock::time_point measure_from) override;
    reply_timeline* timeline(unsigned worker, unsigned workers) override;
    const interval_paths_sample* interval_ends(clock::time_point end) override;
    void measurement_ended(clock::time_point end) override;
    void connection_ended(unsigned flow) override;

    // Once the run is over: the report's section. `server_paths`: each
    // flow's account's "paths", flow k's at k, empty when the server sends
    // no account (plain ping-pong); `server_settings`: what the servers
    // said of themselves, flow k's server's at k modulo their number.
    path_failure_report finish(
        const std::vector<std::optional<protocol::path_events_blob>>& server_paths,
        const std::vector<nlohmann::json>& server_settings);

  private:
    struct timed_reading {
        clock::time_point at;
        std::string why;
        association_paths paths;
    };
    // Reads the first flow's paths into readings_ and returns them; nothing
    // once the socket is no longer to be read.
    std::optional<association_paths> take_reading(clock::time_point at, std::string why);
    std::uint64_t client_events_between(clock::time_point from, clock::time_point to) const;

    bool sctp_;
    bool watched_ = false;  // some flow's paths are watched (client/sctp_path_setup.hpp)
    bool keeps_replies_ = false;
    fault_request faults_;
    sctp_path_request asked_;
    std::optional<sctp_path_values> in_use_;
    sctp_path_system system_;
    std::uint32_t rto_max_ms_ = 0;
    int fd_ = -1;  // the first flow's socket, until measurement_ended(); under readings_mutex_
    std::int32_t assoc_id_ = 0;
    std::vector<std::shared_ptr<sctp_path_watch>> flow_paths_;  // flow k's at k; null over TCP
    std::optional<fault_schedule> schedule_;
    std::optional<clock::time_point> t0_;
    std::chrono::system_clock::time_point t0_wall_{};
    std::vector<std::unique_ptr<reply_timeline>> timelines_;

    mutable std::mutex readings_mutex_;  // the schedule's thread reads at each --at
    std::vector<timed_reading> readings_;
    clock::time_point last_interval_end_{};
    interval_paths_sample interval_sample_;
};

}  // namespace sctp_perf
