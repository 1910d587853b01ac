// SPDX-License-Identifier: Apache-2.0
#include "options/common_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options/value_semantic.hpp>
#include <optional>

#include "runtime/cpu_affinity.hpp"
#include "transport/network_interface.hpp"
#include "transport/poll_before_sleep.hpp"
#include "transport/socket_device.hpp"

namespace sctp_perf {
namespace po = boost::program_options;

void add_common_options(option_groups& groups, raw_common_options& raw,
                        const program_info& program) {
    auto& unreadable = raw.unreadable_numbers;
    // clang-format off
    groups.general.add_options()
        ("help,h",
         po::value<std::string>()->implicit_value(std::string(), "")->value_name("[GROUP]"),
         "show the options most runs need and exit; with GROUP (a caption below, in lower "
         "case), every option of that group; with all, every option, with notes and examples")
        ("version", "show the version and exit");
    if (program.offers_transport_choice) {
        groups.connection.add_options()
            ("test-transport-protocol,t",
             po::value(&raw.transport)->default_value(raw.transport)->value_name("sctp|tcp"),
             "transport protocol");
    } else {
        // Registered so that -t gets a clear sentence instead of "unknown option".
        groups.hidden.add_options()
            ("test-transport-protocol,t", po::value(&raw.transport),
             "not available: this program always uses SCTP");
    }
    groups.connection.add_options()
        ("test-enable-nagle,n", po::bool_switch(&raw.nagle),
         "enable Nagle's algorithm (default: off, TCP_NODELAY or SCTP_NODELAY set)")
        ("io-timeout",
         real_value(raw.io_timeout_s, unreadable, "--io-timeout", real_kind::seconds)
             ->default_value(default_text(default_io_timeout))->value_name("S"),
         "seconds any single send or receive may block before the connection is given up")
        ("sndbuf",
         count_value(raw.sndbuf_bytes, unreadable, "--sndbuf", count_kind::bytes)
             ->value_name("BYTES"),
         "socket send buffer (SO_SNDBUF; the kernel doubles it and the report shows the value "
         "read back; default: the system's)")
        ("rcvbuf",
         count_value(raw.rcvbuf_bytes, unreadable, "--rcvbuf", count_kind::bytes)
             ->value_name("BYTES"),
         "socket receive buffer (SO_RCVBUF; read back and reported the same way)")
        ("max-seg",
         count_value(raw.max_seg_bytes, unreadable, "--max-seg", count_kind::bytes)
             ->value_name("BYTES"),
         fmt::format("largest payload of one segment, set before connecting or listening: "
                     "TCP_MAXSEG over TCP ({}..{}), SCTP_MAXSEG over SCTP, where messages are "
                     "fragmented ({}..{}); the report gives it and the value read back from "
                     "the connection, which the kernel may lower (default: the path's MTU)",
                     min_tcp_max_seg, max_tcp_max_seg, min_sctp_max_seg, max_sctp_max_seg).c_str())
        ("bind-device", po::value(&raw.bind_device)->value_name("IFACE"),
         "tie every socket to this network interface (SO_BINDTODEVICE): traffic goes "
         "through it whatever the routes say; read back and reported")
        ("cpu", po::value(&raw.cpu)->value_name("LIST"),
         "run only on these CPUs, e.g. 0, 1-3 or 0,2-3 (sched_setaffinity, set before the "
         "program connects or listens; a server's sessions inherit it; default: any CPU); with "
         "two or more worker threads (--threads), worker i runs on the list's i-th CPU in "
         "ascending order, round robin when there are more workers than CPUs (with a warning)")
        ("spin", po::bool_switch(&raw.spin),
         "wait for data by polling the socket in a busy loop (non-blocking receives) instead "
         "of sleeping in the kernel: no wake-up in the round trip, but a whole CPU per waiting "
         "connection; --io-timeout still bounds every wait")
        ("poll-before-sleep",
         count_value(raw.poll_before_sleep_us, unreadable, "--poll-before-sleep",
                     count_kind::integer)->value_name("USEC"),
         fmt::format("before a wait for data sleeps in the kernel, poll the socket (a server's "
                     "or load client's epoll set) without sleeping for up to this many "
                     "microseconds, 0..{}: a reply within the bound costs no wake-up, and "
                     "each wait at most this much CPU; 0 sleeps at once; --spin polls without "
                     "bound instead; the report states the policy and the CPU (default: {})",
                     max_poll_before_sleep.count(), default_poll_before_sleep.count()).c_str());
    groups.sctp.add_options()
        ("sctp-rto-initial",
         count_value(raw.sctp_rto_initial_ms, unreadable, "--sctp-rto-initial",
                     count_kind::integer)->value_name("MS"),
         "initial retransmission timeout, milliseconds (default: the system's "
         "net.sctp.rto_initial)")
        ("sctp-rto-min",
         count_value(raw.sctp_rto_min_ms, unreadable, "--sctp-rto-min", count_kind::integer)
             ->value_name("MS"),
         "minimum retransmission timeout, milliseconds (default: net.sctp.rto_min)")
        ("sctp-rto-max",
         count_value(raw.sctp_rto_max_ms, unreadable, "--sctp-rto-max", count_kind::integer)
             ->value_name("MS"),
         "maximum retransmission timeout, milliseconds (default: net.sctp.rto_max)");
    // clang-format on
    add_sctp_feature_options(groups.sctp, raw.sctp, unreadable);
    add_sctp_path_options(groups.sctp, raw.sctp_paths, unreadable);
}

namespace {

// -t: SOCK_SEQPACK offers no choice, and says which programs do.
void validate_transport(const raw_common_options& raw, const po::variables_map& given,
                        const program_info& program, common_options& result,
                        std::vector<std::string>& errors) {
    if (!program.offers_transport_choice) {
        if (given.count("test-transport-protocol")) {
            errors.push_back(program.name +
                             " always uses SCTP: -t/--test-transport-protocol is not available "
                             "(use SOCK_STREAM_clt/SOCK_STREAM_srv for TCP)");
        }
    } else if (const auto transport = parse_transport(raw.transport)) {
        result.transport = *transport;
    } else {
        errors.push_back("-t/--test-transport-protocol must be sctp or tcp, not '" + raw.transport +
                         "'");
    }
}

void validate_io_timeout(const raw_common_options& raw, common_options& result,
                         std::vector<std::string>& errors) {
    if (!(raw.io_timeout_s > 0.0 && raw.io_timeout_s <= 86400.0)) {
        errors.push_back("--io-timeout must be more than 0 and at most 86400 seconds");
    } else {
        result.io_timeout = std::chrono::milliseconds(
            std::max<long long>(1, static_cast<long long>(raw.io_timeout_s * 1000.0 + 0.5)));
    }
}

// --sndbuf and --rcvbuf: each left to the system unless given.
void validate_buffers(const raw_common_options& raw, const po::variables_map& given,
                      common_options& result, std::vector<std::string>& errors) {
    const auto buffer = [&](const char* name, long long value) -> std::optional<int> {
        if (!given.count(name)) {
            return std::nullopt;
        }
        if (value < 1024 || value > 1'073'741'824) {
            errors.push_back(fmt::format("--{} must be 1024..1073741824 bytes", name));
            return std::nullopt;
        }
        return static_cast<int>(value);
    };
    result.buffers.send_bytes = buffer("sndbuf", raw.sndbuf_bytes);
    result.buffers.receive_bytes = buffer("rcvbuf", raw.rcvbuf_bytes);
}

// --sctp-rto-*: each in range, the three in order, and SCTP only. After
// validate_transport, whose transport it reads.
void validate_rto(const raw_common_options& raw, const po::variables_map& given,
                  common_options& result, std::vector<std::string>& errors) {
    const auto rto = [&](const char* name, long long value) -> std::optional<std::uint32_t> {
        if (!given.count(name)) {
            return std::nullopt;
        }
        if (value < 1 || value > 86'400'000) {
            errors.push_back(fmt::format("--{} must be 1..86400000 milliseconds", name));
            return std::nullopt;
        }
        return static_cast<std::uint32_t>(value);
    };
    result.sctp_rto.initial_ms = rto("sctp-rto-initial", raw.sctp_rto_initial_ms);
    result.sctp_rto.min_ms = rto("sctp-rto-min", raw.sctp_rto_min_ms);
    result.sctp_rto.max_ms = rto("sctp-rto-max", raw.sctp_rto_max_ms);
    const auto& r = result.sctp_rto;
    if (r.min_ms && r.max_ms && *r.min_ms > *r.max_ms) {
        errors.push_back("--sctp-rto-min must not exceed --sctp-rto-max");
    }
    if (r.initial_ms && r.min_ms && *r.initial_ms < *r.min_ms) {
        errors.push_back("--sctp-rto-initial must not be below --sctp-rto-min");
    }
    if (r.initial_ms && r.max_ms && *r.initial_ms > *r.max_ms) {
        errors.push_back("--sctp-rto-initial must not exceed --sctp-rto-max");
    }
    if (r.any() && result.transport == transport_protocol::tcp) {
        errors.push_back("--sctp-rto-* options apply to SCTP only; drop them or use -t sctp");
    }
}

// --max-seg: the range the transport's kernel option takes. After
// validate_transport, whose transport it reads.
void validate_max_seg(const raw_common_options& raw, const po::variables_map& given,
                      common_options& result, std::vector<std::string>& errors) {
    if (!given.count("max-seg")) {
        return;
    }
    const bool tcp = result.transport == transport_protocol::tcp;
    const auto low = tcp ? min_tcp_max_seg : min_sctp_max_seg;
    const auto high = tcp ? max_tcp_max_seg : max_sctp_max_seg;
    if (raw.max_seg_bytes < low || raw.max_seg_bytes > high) {
        errors.push_back(
            fmt::format("--max-seg must be {}..{} bytes over {} (the range {})", low, high,
                        tcp ? "TCP" : "SCTP",
                        tcp ? "TCP_MAXSEG takes" : "SCTP_MAXSEG takes for every association"));
        return;
    }
    result.max_seg_bytes = static_cast<std::uint32_t>(raw.max_seg_bytes);
}

// --bind-device: an interface of this host, checked now so that a typo is
// the command line's mistake and not a failure at the first socket.
void validate_bind_device(const raw_common_options& raw, const po::variables_map& given,
                          common_options& result, std::vector<std::string>& errors) {
    if (!given.count("bind-device")) {
        return;
    }
    if (raw.bind_device.empty() || raw.bind_device.size() > max_interface_name) {
        errors.push_back(
            fmt::format("--bind-device takes an interface name of 1..{} characters, not '{}'",
                        max_interface_name, raw.bind_device));
    } else if (!is_interface_name(raw.bind_device)) {
        errors.push_back(fmt::format(
            "--bind-device {}: this host has no such network interface ('ip -brief link' "
            "lists those it has)",
            raw.bind_device));
    } else {
        result.bind_device = raw.bind_device;
    }
}

void validate_cpus(const raw_common_options& raw, const po::variables_map& given,
                   common_options& result, std::vector<std::string>& errors) {
    if (!given.count("cpu")) {
        return;
    }
    if (auto cpus = parse_cpu_list(raw.cpu)) {
        result.cpus = std::move(*cpus);
    } else {
        errors.push_back(
            "--cpu must list CPU numbers and ranges separated by commas, such as "
            "0, 1-3 or 0,2-3, not '" +
            raw.cpu + "'");
    }
}

// --spin, or a bounded poll before each sleep: one waiting policy.
void validate_waiting(const raw_common_options& raw, const po::variables_map& given,
                      common_options& result, std::vector<std::string>& errors) {
    result.spin = raw.spin;
    if (raw.spin && given.count("poll-before-sleep")) {
        errors.push_back(
            "--spin and --poll-before-sleep are two waiting policies: give one (--spin polls "
            "without bound)");
    }
    if (raw.poll_before_sleep_us < 0 || raw.poll_before_sleep_us > max_poll_before_sleep.count()) {
        errors.push_back(fmt::format("--poll-before-sleep must be 0..{} microseconds",
                                     max_poll_before_sleep.count()));
    } else {
        // Spinning, no wait sleeps: the bound is 0, as the report says.
        result.poll_before_sleep =
            std::chrono::microseconds(raw.spin ? 0 : raw.poll_before_sleep_us);
    }
}

}  // namespace

void check_interface_entries(const std::vector<std::string>& entries, const char* option,
                             std::vector<std::string>& errors) {
    for (const auto& entry : entries) {
        const auto found = find_interface(entry, 0);
        if (found && found->addresses.empty()) {
            errors.push_back(fmt::format(
                "{} {}: interface {} has no IP address; give it one (ip address add ADDRESS "
                "dev {}) or name an address instead",
                option, entry, entry, entry));
        }
    }
}

common_options validate_common_options(const raw_common_options& raw,
                                       const po::variables_map& given, const program_info& program,
                                       std::vector<std::string>& errors) {
    common_options result;
    errors.insert(errors.end(), raw.unreadable_numbers.begin(), raw.unreadable_numbers.end());
    result.nagle = raw.nagle;
    validate_transport(raw, given, program, result, errors);
    validate_io_timeout(raw, result, errors);
    validate_buffers(raw, given, result, errors);
    validate_rto(raw, given, result, errors);
    validate_max_seg(raw, given, result, errors);
    validate_bind_device(raw, given, result, errors);
    validate_cpus(raw, given, result, errors);
    validate_waiting(raw, given, result, errors);
    result.sctp = validate_sctp_feature_options(raw.sctp, given, result.transport, errors);
    result.sctp_paths = validate_sctp_path_options(raw.sctp_paths, given, result.transport, errors);
    return result;
}

}  // namespace sctp_perf
