// SPDX-License-Identifier: Apache-2.0
#include "transport/sctp_features.hpp"

#include <sys/socket.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <system_error>
#include <type_traits>
#include <utility>

namespace sctp_perf {

namespace {

constexpr std::uint32_t max_ttl_ms = 86'400'000;  // one day
constexpr std::uint32_t max_rtx = 1000;

// from_chars takes no sign, space or '+' for an unsigned type, so checking
// that it used every character leaves exactly the whole numbers.
std::optional<std::uint64_t> parse_whole_number(std::string_view text) {
    std::uint64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (error != std::errc{} || stop != end) {
        return std::nullopt;
    }
    return value;
}

template <class T>
std::vector<std::byte> bytes_of(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<std::byte> bytes(sizeof value);
    std::memcpy(bytes.data(), &value, sizeof value);
    return bytes;
}

template <class T>
sctp_socket_option option_of(int name, std::string name_text, std::string option, const T& value) {
    return {name, std::move(name_text), std::move(option), bytes_of(value)};
}

sctp_assoc_value future_assoc_value(std::uint32_t value) {
    sctp_assoc_value v{};
    v.assoc_id = SCTP_FUTURE_ASSOC;
    v.assoc_value = value;
    return v;
}

std::string failure_message(const sctp_socket_option& option, int error,
                            const sctp_feature_request& request) {
    if (error == ENOPROTOOPT) {
        return "this kernel has no " + option.name_text + " (needed for " + option.option + ")";
    }
    std::string message = "cannot set " + option.name_text + " for " + option.option;
    // Linux answers EINVAL for a scheduler number above its SCTP_SS_MAX,
    // which is rr before 6.2 added fc and wfq.
    if (option.name == SCTP_STREAM_SCHEDULER && error == EINVAL && request.scheduler &&
        *request.scheduler >= stream_scheduler::fc) {
        message += ": this kernel has no '" + std::string(name_of(*request.scheduler)) +
                   "' stream scheduler (it came with Linux 6.2)";
    }
    // Linux answers EPERM unless both the network namespace's intl_enable
    // and the socket's SCTP_FRAGMENT_INTERLEAVE are on; the plan has just
    // set the latter, so the sysctl is what is missing.
    if (option.name == SCTP_INTERLEAVING_SUPPORTED && error == EPERM) {
        message += ": I-DATA interleaving needs sysctl net.sctp.intl_enable=1";
    }
    if (option.name == SCTP_DELAYED_SACK && error == EINVAL) {
        message += ": Linux takes a SACK delay of at most 500 ms";
    }
    return message;
}

// Returns 0, or the errno that getsockopt() left.
template <class T>
int get_option(int fd, int name, T& value) {
    socklen_t length = sizeof value;
    return ::getsockopt(fd, IPPROTO_SCTP, name, &value, &length) == 0 ? 0 : errno;
}

template <class T>
void read_option(int fd, int name, const char* name_text, T& value) {
    if (const int error = get_option(fd, name, value); error != 0) {
        throw std::system_error(error, std::generic_category(),
                                std::string("cannot read ") + name_text);
    }
}

std::string scheduler_name(std::uint32_t value) {
    if (value <= static_cast<std::uint32_t>(stream_scheduler::wfq)) {
        return std::string(name_of(static_cast<stream_scheduler>(value)));
    }
    return "scheduler " + std::to_string(value);
}

}  // namespace

std::optional<pr_sctp> parse_pr_sctp(std::string_view text) {
    const auto colon = text.find(':');
    if (colon == std::string_view::npos) {
        return std::nullopt;
    }
    const std::string_view policy = text.substr(0, colon);
    const auto value = parse_whole_number(text.substr(colon + 1));
    if (!value) {
        return std::nullopt;
    }
    if (policy == "ttl" && *value >= 1 && *value <= max_ttl_ms) {
        return pr_sctp{pr_sctp_policy::ttl, static_cast<std::uint32_t>(*value)};
    }
    if (policy == "rtx" && *value <= max_rtx) {
        return pr_sctp{pr_sctp_policy::rtx, static_cast<std::uint32_t>(*value)};
    }
    return std::nullopt;
}

std::string describe(const pr_sctp& pr) {
    switch (pr.policy) {
        case pr_sctp_policy::ttl:
            return "ttl:" + std::to_string(pr.value);
        case pr_sctp_policy::rtx:
            return "rtx:" + std::to_string(pr.value);
        case pr_sctp_policy::none:
            break;
    }
    return "none";
}

std::optional<stream_scheduler> parse_stream_scheduler(std::string_view text) {
    for (const auto scheduler :
         {stream_scheduler::fcfs, stream_scheduler::prio, stream_scheduler::rr,
          stream_scheduler::fc, stream_scheduler::wfq}) {
        if (text == name_of(scheduler)) {
            return scheduler;
        }
    }
    return std::nullopt;
}

std::string_view name_of(stream_scheduler scheduler) noexcept {
    switch (scheduler) {
        case stream_scheduler::fcfs:
            return "fcfs";
        case stream_scheduler::prio:
            return "prio";
        case stream_scheduler::rr:
            return "rr";
        case stream_scheduler::fc:
            return "fc";
        case stream_scheduler::wfq:
            return "wfq";
    }
    return "unknown";
}

std::vector<sctp_socket_option> plan_sctp_features(const sctp_feature_request& request) {
    std::vector<sctp_socket_option> plan;
    if (request.streams != 1) {
        // Zero keeps a field (Linux sctp_setsockopt_initmsg), so the attempt
        // count and INIT timeout stay the system's.
        sctp_initmsg init{};
        init.sinit_num_ostreams = request.streams;
        init.sinit_max_instreams = request.streams;
        plan.push_back(option_of(SCTP_INITMSG, "SCTP_INITMSG", "--streams", init));
    }
    if (request.pr.any()) {
        plan.push_back(
            option_of(SCTP_PR_SUPPORTED, "SCTP_PR_SUPPORTED", "--pr-sctp", future_assoc_value(1)));
    }
    if (request.sack_delay_ms || request.sack_freq) {
        // Linux (__sctp_setsockopt_delayed_ack): a zero field keeps the
        // socket's value, and both zero changes nothing; a nonzero delay
        // must be at most 500 ms (EINVAL otherwise) and turns delayed SACK
        // on; a frequency of 1 turns delayed SACK off (a SACK for every
        // packet), above 1 sets it and turns delayed SACK on.
        sctp_sack_info sack{};
        sack.sack_assoc_id = SCTP_FUTURE_ASSOC;
        sack.sack_delay = request.sack_delay_ms.value_or(0);
        sack.sack_freq = request.sack_freq.value_or(0);
        const char* option = !request.sack_freq       ? "--sack-delay"
                             : !request.sack_delay_ms ? "--sack-freq"
                                                      : "--sack-delay and --sack-freq";
        plan.push_back(option_of(SCTP_DELAYED_SACK, "SCTP_DELAYED_SACK", option, sack));
    }
    if (request.scheduler) {
        // Our enum has Linux's enum sctp_sched_type numbers; fc and wfq are
        // sent by number, since headers older than Linux 6.2 lack their names.
        plan.push_back(
            option_of(SCTP_STREAM_SCHEDULER, "SCTP_STREAM_SCHEDULER", "--stream-scheduler",
                      future_assoc_value(static_cast<std::uint32_t>(*request.scheduler))));
    }
    if (request.interleave) {
        // Level 2 (RFC 6458, 8.1.20) lets messages of different streams
        // interleave, which is what I-DATA is for. Linux keeps only whether
        // it is nonzero, and refuses SCTP_INTERLEAVING_SUPPORTED until it is.
        const int level = 2;
        plan.push_back(
            option_of(SCTP_FRAGMENT_INTERLEAVE, "SCTP_FRAGMENT_INTERLEAVE", "--interleave", level));
        plan.push_back(option_of(SCTP_INTERLEAVING_SUPPORTED, "SCTP_INTERLEAVING_SUPPORTED",
                                 "--interleave", future_assoc_value(1)));
    }
    return plan;
}

void apply_sctp_features(int fd, const sctp_feature_request& request) {
    for (const auto& option : plan_sctp_features(request)) {
        if (::setsockopt(fd, IPPROTO_SCTP, option.name, option.value.data(),
                         static_cast<socklen_t>(option.value.size())) != 0) {
            const int error = errno;
            throw std::system_error(error, std::generic_category(),
                                    failure_message(option, error, request));
        }
    }
}

std::optional<std::uint32_t> data_chunks_awaited(int fd, std::int32_t assoc_id) noexcept {
    sctp_status status{};
    status.sstat_assoc_id = assoc_id;
    if (get_option(fd, SCTP_STATUS, status) != 0) {
        return std::nullopt;
    }
    return status.sstat_penddata;
}

sctp_feature_state read_sctp_features(int fd, std::int32_t assoc_id) {
    // Association id 0 names the one association of a one-to-one or
    // peeled-off socket; Linux ignores the id on those.
    sctp_feature_state state;

    sctp_status status{};
    status.sstat_assoc_id = assoc_id;
    read_option(fd, SCTP_STATUS, "SCTP_STATUS", status);
    state.outbound_streams = status.sstat_outstrms;
    state.inbound_streams = status.sstat_instrms;

    // With delayed SACK off, Linux reports a delay of 0 and a frequency of 1.
    sctp_sack_info sack{};
    sack.sack_assoc_id = assoc_id;
    read_option(fd, SCTP_DELAYED_SACK, "SCTP_DELAYED_SACK", sack);
    state.sack_delay_ms = sack.sack_delay;
    state.sack_freq = sack.sack_freq;

    // On an association these say what the peer agreed to, not what this
    // end offered.
    sctp_assoc_value pr{};
    pr.assoc_id = assoc_id;
    read_option(fd, SCTP_PR_SUPPORTED, "SCTP_PR_SUPPORTED", pr);
    state.pr_supported = pr.assoc_value != 0;

    // A kernel too old to know the option cannot have interleaved.
    sctp_assoc_value interleaving{};
    interleaving.assoc_id = assoc_id;
    if (const int error = get_option(fd, SCTP_INTERLEAVING_SUPPORTED, interleaving);
        error != 0 && error != ENOPROTOOPT) {
        throw std::system_error(error, std::generic_category(),
                                "cannot read SCTP_INTERLEAVING_SUPPORTED");
    }
    state.interleaving = interleaving.assoc_value != 0;

    sctp_assoc_value scheduler{};
    scheduler.assoc_id = assoc_id;
    read_option(fd, SCTP_STREAM_SCHEDULER, "SCTP_STREAM_SCHEDULER", scheduler);
    state.scheduler = scheduler_name(scheduler.assoc_value);
    return state;
}

pr_sctp_abandoned read_pr_sctp_abandoned(int fd, std::int32_t assoc_id) {
    // SCTP_PR_SCTP_ALL sums the counters of every policy; stream 0 is
    // ignored for the association-wide option.
    sctp_prstatus status{};
    status.sprstat_assoc_id = assoc_id;
    status.sprstat_sid = 0;
    status.sprstat_policy = SCTP_PR_SCTP_ALL;
    read_option(fd, SCTP_PR_ASSOC_STATUS, "SCTP_PR_ASSOC_STATUS", status);
    return {status.sprstat_abandoned_unsent, status.sprstat_abandoned_sent};
}

}  // namespace sctp_perf
