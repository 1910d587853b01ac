// SPDX-License-Identifier: Apache-2.0
#include "client/failure_watch.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "client/failure_figures.hpp"
#include "client/start_wait.hpp"
#include "options/start_time.hpp"
#include "runtime/clock_relation.hpp"
#include "transport/sctp_tuning.hpp"

namespace sctp_perf {
namespace {

fault_row row_of(const fault_outcome& o) {
    fault_row row;
    row.index = o.index;
    row.at_s = std::chrono::duration<double>(o.at).count();
    row.command = o.command;
    row.output_file = o.output_file;
    row.started = o.started;
    row.started_ns = o.started_at.count();
    if (o.started) {
        row.started_utc = utc_iso_text(o.started_wall);
    }
    if (o.took) {
        row.duration_s = std::chrono::duration<double>(*o.took).count();
    }
    row.exit_status = o.exit_status;
    row.signal = o.signal;
    row.timed_out = o.timed_out;
    row.not_started = o.not_started;
    return row;
}

}  // namespace

failure_watch::failure_watch(const client_options& options, const program_info& program,
                             const std::vector<message_channel*>& channels)
    : sctp_(options.common.transport == transport_protocol::sctp),
      faults_(options.faults),
      asked_(options.common.sctp_paths) {
    for (auto* channel : channels) {
        flow_paths_.push_back(channel->path_watch());
        watched_ = watched_ || channel->path_watch() != nullptr;
    }
    keeps_replies_ = watched_ || faults_.any();
    if (sctp_ && !channels.empty()) {
        const int fd = channels.front()->native_handle();
        assoc_id_ = channels.front()->association_id();
        in_use_ = read_sctp_path_settings(fd, assoc_id_);
        system_ = read_sctp_path_system();
        rto_max_ms_ = read_sctp_rto(fd, assoc_id_).max_ms;
        // The first flow's paths are read at each interval only where they
        // are watched: an association of one path has none to tell of.
        if (channels.front()->path_watch() != nullptr) {
            fd_ = fd;
            take_reading(clock::now(), "connected");
        }
    }
    if (faults_.any()) {
        schedule_.emplace(faults_, program.name);
    }
}

failure_watch::~failure_watch() {
    // Before any member goes: the schedule's thread reads the paths into them.
    if (schedule_) {
        schedule_->finish();
    }
}

std::optional<association_paths> failure_watch::take_reading(clock::time_point at,
                                                             std::string why) {
    // Under the lock, so that the socket is never read once
    // measurement_ended() has let it go.
    const std::lock_guard lock(readings_mutex_);
    if (fd_ < 0) {
        return std::nullopt;
    }
    auto paths = read_association_paths(fd_, assoc_id_);
    // Past the bound only the interval readings are left out: those at the
    // --at commands and at the end are what the figures are read from.
    if (readings_.size() < max_path_readings_kept || why != "interval") {
        readings_.push_back({at, std::move(why), paths});
    }
    return paths;
}

void failure_watch::measuring_from(clock::time_point measure_from) {
    if (t0_) {
        return;
    }
    t0_ = measure_from;
    t0_wall_ = wall_time_of(measure_from);
    last_interval_end_ = measure_from;
    if (schedule_) {
        // At each command's instant, before it starts: the paths as the
        // fault finds them (the RTO the prediction starts from).
        schedule_->start(measure_from, [this](unsigned index) {
            take_reading(clock::now(), fmt::format("--at {}", index));
        });
    }
}

reply_timeline* failure_watch::timeline(unsigned worker, unsigned workers) {
    if (!keeps_replies_) {
        return nullptr;
    }
    if (timelines_.size() < workers) {
        timelines_.resize(workers);
    }
    auto& timeline = timelines_.at(worker);
    if (!timeline) {
        timeline = std::make_unique<reply_timeline>(max_timed_replies_kept / std::max(1u, workers));
    }
    return timeline.get();
}

std::uint64_t failure_watch::client_events_between(clock::time_point from,
                                                   clock::time_point to) const {
    std::uint64_t count = 0;
    for (const auto& watch : flow_paths_) {
        if (!watch) {
            continue;
        }
        for (const auto& e : watch->events()) {
            if (e.monotonic_ns > ns_since_epoch(from) && e.monotonic_ns <= ns_since_epoch(to)) {
                ++count;
            }
        }
    }
    return count;
}

const interval_paths_sample* failure_watch::interval_ends(clock::time_point end) {
    const auto read = take_reading(end, "interval");
    if (!read) {
        return nullptr;
    }
    const auto& paths = *read;
    interval_sample_.primary = paths.primary;
    interval_sample_.events = client_events_between(last_interval_end_, end);
    interval_sample_.paths.clear();
    for (const auto& p : paths.paths) {
        interval_sample_.paths.push_back({p.address, p.state, p.srtt_ms, p.rto_ms, p.cwnd_bytes});
    }
    last_interval_end_ = end;
    return &interval_sample_;
}

void failure_watch::measurement_ended(clock::time_point end) {
    if (schedule_) {
        schedule_->stop_starting();  // a command due later belongs to no measurement
    }
    take_reading(end, "end");
    const std::lock_guard lock(readings_mutex_);
    fd_ = -1;  // the sockets close from here on
}

void failure_watch::connection_ended(unsigned flow) {
    if (flow == 0) {
        // Its socket is about to close, and its number may soon be another's.
        const std::lock_guard lock(readings_mutex_);
        fd_ = -1;
    }
}

path_failure_report failure_watch::finish(
    const std::vector<std::optional<protocol::path_events_blob>>& server_paths,
    const std::vector<nlohmann::json>& server_settings) {
    {
        const std::lock_guard lock(readings_mutex_);
        fd_ = -1;
    }
    path_failure_report report;
    report.sctp = sctp_;
    report.paths_watched = watched_;
    report.asked = asked_;
    report.in_use = in_use_;
    report.system = system_;
    if (schedule_) {
        for (const auto& outcome : schedule_->finish()) {
            report.faults.push_back(row_of(outcome));
        }
    }
    const auto t0 = t0_.value_or(clock::now());
    const auto t0_ns = ns_since_epoch(t0);
    if (watched_) {
        report.client = client_path_events(flow_paths_, t0_ns);
        report.server = server_path_events(server_paths, !server_paths.empty(), server_settings,
                                           t0_ns, ns_since_epoch(t0_wall_));
        const std::lock_guard lock(readings_mutex_);
        for (const auto& r : readings_) {
            report.readings.push_back({ns_since_epoch(r.at) - t0_ns, r.why, r.paths});
        }
    }
    failure_inputs in;
    for (const auto& timeline : timelines_) {
        if (timeline) {
            in.timelines.push_back(timeline.get());
        }
    }
    for (const auto& watch : flow_paths_) {
        in.flow_path_addresses.push_back(watch ? watch->path_addresses()
                                               : std::vector<std::string>{});
    }
    in.t0_ns = t0_ns;
    in.client = &report.client;
    in.server = &report.server;
    in.readings = &report.readings;
    in.faults = &report.faults;
    if (sctp_) {
        in.rto_max_ms = rto_max_ms_;
        in.in_use = in_use_;
        in.system = system_;
    }
    if (t0_ && failure_to_measure(in)) {
        report.failure = measure_failure(in);
    }
    return report;
}

}  // namespace sctp_perf
