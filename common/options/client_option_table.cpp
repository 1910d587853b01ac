// SPDX-License-Identifier: Apache-2.0
// The client's option table and the help around it.
#include <fmt/format.h>

#include <boost/program_options/value_semantic.hpp>

#include "options/raw_client_options.hpp"

namespace sctp_perf {
namespace po = boost::program_options;

void add_client_options(option_groups& groups, raw_client_options& raw,
                        const program_info& program) {
    const bool multi = program.service == socket_service::seqpack;
    auto& unreadable = raw.common.unreadable_numbers;
    // clang-format off
    groups.test.add_options()
        ("payload-size-power-of-2,s",
         count_value(raw.payload_power, unreadable, "-s/--payload-size-power-of-2",
                     count_kind::integer)->value_name("POWER"),
         "each request carries 2^POWER bytes, POWER in 0..16 (1 byte to 64 KiB); this or "
         "--payload-bytes is required")
        ("payload-bytes",
         count_value(raw.payload_bytes, unreadable, "--payload-bytes", count_kind::bytes)
             ->value_name("N"),
         "each request carries N bytes, any size from 1 to 65536 (16 or more in the framed "
         "modes); excludes -s")
        ("reply-bytes",
         count_value(raw.reply_bytes, unreadable, "--reply-bytes", count_kind::bytes)
             ->value_name("N"),
         "each reply carries N bytes, 2..65536 (16..65536 in the framed modes, whose replies "
         "carry the 16-byte message header) (default: 2 in ping-pong, 16 in the framed modes)")
        ("echo", po::bool_switch(&raw.echo),
         "each reply is the request sent back, of the payload's size (a full echo; with "
         "--throughput, of the messages --echo-every times); excludes --reply-bytes")
        ("one-way", po::bool_switch(&raw.one_way),
         "one-way latency: the server stamps each request's arrival and its reply's departure "
         "(16 more bytes in each reply), and the report splits each round trip into "
         "client->server, the server's turnaround and server->client (exact on one host; "
         "across hosts only as good as the clocks' synchronization)")
        ("timestamps", po::bool_switch(&raw.timestamps),
         "where the round trip went: the kernel's software stamps (SO_TIMESTAMPING) of each "
         "request handed to the device and each reply's arrival split every round trip into "
         "the client's send stack, the rest (network and server) and the client's receive "
         "stack; with --one-way the server's receive and wake-up (from its kernel's receive "
         "stamp) and its application are parts of their own, and over TCP its send stack "
         "(from its kernel's transmit stamp, carried by the next reply), which leaves the network "
         "alone; under load each message is matched to its own stamps, and a reply read "
         "together with another has no arrival stamp of its own (counted missing); over "
         "SCTP, whose kernel stamps only what it receives, the send stacks stay in the rest")
        ("half-rtt", po::bool_switch(&raw.half_rtt),
         "also report half of each round trip (RTT/2), labelled \"half of the round trip, as "
         "RTI Perftest reports\"; the round trip figures stay")
        ("test-iterations,c",
         count_value(raw.iterations, unreadable, "-c/--test-iterations")
             ->default_value(default_text(default_iterations))->value_name("N"),
         "measured round trips (per flow), after the --primer round trips")
        ("primer",
         count_value(raw.primer, unreadable, "--primer")
             ->default_value(default_text(default_primer_iterations))->value_name("N"),
         fmt::format("unrecorded round trips (per flow, one at a time) before measuring, "
                     "0..{}, to warm caches, paths and the peer", max_primer_iterations).c_str())
        ("duration", real_value(raw.duration_s, unreadable, "--duration", real_kind::seconds)
             ->value_name("S"),
         "run for S seconds instead of a count; excludes -c")
        ("warmup", real_value(raw.warmup_s, unreadable, "--warmup", real_kind::seconds)
             ->default_value(default_text(default_warmup))->value_name("S"),
         "with --duration: first run S more seconds, 0..3600, after the primer, that are "
         "not recorded (no histogram, interval or count), then measure for --duration")
        ("repeat", count_value(raw.repeat, unreadable, "--repeat")
             ->default_value(default_text(default_repeat))->value_name("N"),
         "run the whole test N times, 1..1000, each run on new connections after its own "
         "primer; the report pools the runs and gives each percentile's median over them "
         "with a confidence interval")
        ("pause", real_value(raw.pause_s, unreadable, "--pause", real_kind::seconds)
             ->value_name("S"),
         "with --repeat: wait S seconds between runs, 0..3600 (default: 0)")
        ("start-at", po::value(&raw.start_at)->value_name("TIME"),
         "connect and prime, then begin to measure at TIME, so that clients on several hosts "
         "measure together: ISO 8601 with a zone (2026-11-26T14:05:00Z, "
         "2026-11-26T14:05:00.250+01:00) or Unix seconds (1795701900.5), at most 24 h ahead; "
         "connecting begins 5 s before it, and a client not ready by then fails")
        ("rate", real_value(raw.rate_per_s, unreadable, "--rate", real_kind::rate)
             ->value_name("R"),
         "open loop: R messages per second per flow, each timed from when it was due "
         "(needs a payload of 16 bytes or more)")
        ("total-rate", real_value(raw.total_rate_per_s, unreadable, "--total-rate",
                                  real_kind::rate)->value_name("R"),
         "as --rate, but R messages per second over all flows, divided evenly among them")
        ("arrivals", po::value(&raw.arrivals)->default_value(raw.arrivals)
             ->value_name("uniform|poisson|in-step"),
         "how --rate spreads the flows' messages: constant rates with the flows' phases "
         "spread evenly, exponential gaps (from --seed; none above 20 mean gaps), or every "
         "flow's message k at the same instant (synchronized bursts)")
        ("seed", count_value(raw.seed, unreadable, "--seed", count_kind::integer)
             ->value_name("N"),
         "--arrivals poisson: the seed of the gaps, to repeat a run's schedule (default: "
         "drawn at random and reported)")
        // Ping-pong with --flows, --threads, --interval or an interval file
        // runs framed on the load engine, and needs -s 4 as the load modes do.
        ("throughput", po::bool_switch(&raw.throughput),
         "send as fast as the transport takes; every --echo-every'th message is timed")
        ("echo-every", count_value(raw.echo_every, unreadable, "--echo-every")->value_name("N"),
         fmt::format("load modes: every Nth message asks for a reply and is timed (default: 1 "
                     "with --rate, {} with --throughput)", default_throughput_echo_every).c_str())
        ("batch", count_value(raw.batch, unreadable, "--batch")
             ->default_value(default_text(default_batch))->value_name("N"),
         fmt::format("load modes: send up to N due messages per system call, "
                     "1..{} (TCP: one gathering write; SCTP: one sendmmsg, each request still "
                     "one SCTP message); each message is timed from its own due time",
                     max_batch).c_str())
        ("tick-rate", real_value(raw.tick_rate_per_s, unreadable, "--tick-rate",
                                 real_kind::rate)->value_name("T"),
         "with --rate: cut time into T ticks per second; the messages due within a tick go "
         "together at its start (in calls of up to --batch) and are timed from it, as "
         "TransportPerf's -tickRate")
        ("flows", count_value(raw.flows, unreadable, "--flows")
             ->default_value(default_text(default_flows))->value_name("N"),
         multi ? "associations at once, 1..100000 (each needs a descriptor: see ulimit -n); "
                 "--rate and -c are per flow"
               : "connections at once, 1..100000 (each needs a descriptor: see ulimit -n); "
                 "--rate and -c are per flow")
        ("threads", count_value(raw.threads, unreadable, "--threads")->value_name("N"),
         "client threads driving the flows (default: min(flows, CPUs the client may run on: its --cpu list or affinity))")
        ("connect-window", count_value(raw.connect_window, unreadable, "--connect-window")
             ->default_value(default_text(default_connect_window))->value_name("N"),
         multi ? "associations set up at once (connecting and opening the test), 1..100000; "
                 "lower it to spare a server's backlog of new associations"
               : "flows set up at once (connecting and opening the test), 1..100000; lower it "
                 "to spare a server's SYN backlog");
    groups.histogram.add_options()
        ("histogram-min-bin,m",
         real_value(raw.histogram_min_us, unreadable, "-m/--histogram-min-bin",
                    real_kind::microseconds)
             ->default_value(default_text(default_histogram.min_us))->value_name("US"),
         "lower edge of the histogram, microseconds")
        ("histogram-max-bin,M",
         real_value(raw.histogram_max_us, unreadable, "-M/--histogram-max-bin",
                    real_kind::microseconds)
             ->default_value(default_text(default_histogram.max_us))->value_name("US"),
         "upper edge of the histogram, microseconds")
        ("histogram-bin-count,b",
         count_value(raw.bin_count, unreadable, "-b/--histogram-bin-count")
             ->default_value(default_text(default_histogram.bin_count))->value_name("N"),
         "number of equal-width histogram bins")
        ("histogram-num-outliers,x",
         count_value(raw.max_outliers, unreadable, "-x/--histogram-num-outliers")
             ->default_value(default_text(default_histogram.max_outliers))->value_name("N"),
         "how many out-of-range round trips to list; the most extreme are kept")
        ("all-bins", po::bool_switch(&raw.all_bins),
         "list every bin, empty ones too, as ACE did (by default bins with a count of 0 are "
         "left out of both formats)");
    groups.connection.add_options()
        ("server-host,H", po::value(&raw.server_hosts)->default_value(raw.server_hosts)
             ->value_name("HOSTS"),
         multi ? "server addresses, comma-separated, of one multi-homed server, for one "
                 "association (sctp_connectx); several servers are SOCK_STREAM_clt's -H list"
               : "server host: a name or an IPv4/IPv6 literal; a comma-separated list deals "
                 "--flows over several servers (fan-out: flow k to server k modulo their "
                 "number, a row per server in the report), each entry HOST, HOST:PORT or "
                 "[IPv6]:PORT (-p without a port)")
        ("server-port,p",
         count_value(raw.server_port, unreadable, "-p/--server-port", count_kind::integer)
             ->default_value(default_text(default_port))->value_name("PORT"),
         "server port")
        ("client-connect-addr,i",
         po::value(&raw.client_addresses)->default_value("", "any interface")
             ->value_name(multi ? "ADDRS" : "ADDR"),
         multi ? "local addresses to bind, comma-separated (sctp_bindx); an interface name "
                 "(lo, eth0) stands for every address it has of the association's family"
               : "local address to bind the client to, or an interface name (lo, eth0): its "
                 "first address of the server's family; with --flows, a comma-separated list "
                 "deals the flows over them (flow k binds address k modulo their number), "
                 "each address giving the flows its own ephemeral ports")
        ("client-port,C",
         count_value(raw.client_port, unreadable, "-C/--client-port", count_kind::integer)
             ->default_value("0", "chosen by the kernel")->value_name("PORT"),
         "local port to bind the client to");
    groups.output.add_options()
        ("format", po::value(&raw.format)->default_value(raw.format)->value_name("ace|json"),
         "report format on stdout: the ACE histogram layout or JSON")
        ("json-file", po::value(&raw.json_file)->value_name("FILE"),
         "also write the JSON report to FILE")
        ("interval", real_value(raw.interval_s, unreadable, "--interval", real_kind::seconds)
             ->value_name("S"),
         fmt::format("a progress line on stderr every S seconds (default: {} with --rate or "
                     "--throughput, none in ping-pong; 0: none)", default_load_interval.count()).c_str())
        ("interval-csv", po::value(&raw.interval_csv)->value_name("FILE"),
         "also write the progress lines to this CSV file")
        ("histogram-log", po::value(&raw.histogram_log)->value_name("FILE"),
         "write every interval's latency histograms to FILE in HdrHistogram's interval-log "
         "format (nanoseconds)")
        ("latency-file", po::value(&raw.latency_file)->value_name("FILE"),
         "write every timed message to this CSV file (nanoseconds)")
        ("flow-csv", po::value(&raw.flow_csv)->value_name("FILE"),
         "write every flow's counts, rate and p50, p99 and max latency to this CSV file "
         "(microseconds)")
        ("csv-summary", po::value(&raw.csv_summary)->value_name("FILE"),
         "append one CSV line of this run's figures to FILE (microseconds), under a header "
         "line written only when FILE is new or empty: a shell loop builds a table");
    add_fault_options(groups.test, raw.faults, unreadable);
    add_common_options(groups, raw.common, program);
    add_sctp_primary_option(groups.sctp, raw.common.sctp_paths);
    // After --help and --version: a way to ask the program, as those are.
    groups.general.add_options()
        ("check", po::bool_switch(&raw.check),
         "check the options as a run would, the descriptor and port limits included, then "
         "exit without connecting (no host is resolved, no file opened): status 0 and "
         "nothing printed when a run would start, 2 and the run's sentences when not")
        ("check-lines", po::bool_switch(&raw.check_lines),
         "check many command lines in one run, each as --check would; read them from standard "
         "input, one a line, each a JSON list of its words without the program's name "
         "([\"-s\", \"4\", \"-t\", \"tcp\"]); print the number of each line that would run, "
         "and stop at the first that would not with --check's answer for it; given alone");
    // clang-format on
}

help_layout client_help(const option_groups& groups, const program_info& program) {
    const bool multi = program.service == socket_service::seqpack;
    const std::string& name = program.name;
    const std::string server(server_program_name(program));
    const std::string tcp = multi ? "" : " -t tcp";
    help_layout help;
    help.usage = name + " -s POWER | --payload-bytes N [options]";
    help.groups = {{"Test", &groups.test},
                   {"Histogram", &groups.histogram},
                   {"Connection", &groups.connection},
                   {"SCTP", &groups.sctp},
                   {"Output", &groups.output},
                   {"General", &groups.general}};
    // For a first run against one server, and the ways to keep its results.
    help.essentials = {"payload-size-power-of-2",
                       "payload-bytes",
                       "test-iterations",
                       "duration",
                       "repeat",
                       "rate",
                       "flows",
                       "server-host",
                       "server-port",
                       "test-transport-protocol",
                       "cpu",
                       "format",
                       "json-file",
                       "csv-summary",
                       "check",
                       "check-lines",
                       "help"};
    help.essentials_note =
        "All times are microseconds of a full round trip (request out, reply back),\n"
        "never halved. Exit status: 0 success, 1 runtime failure, 2 usage error.\n";
    help.notes = std::string(number_forms_note) +
                 "R takes the same suffixes and decimals. S is seconds and US microseconds, with\n"
                 "decimals allowed (0.5, 1e-3).\n"
                 "All times are microseconds of a full round trip (request out, reply back),\n"
                 "never halved.\n"
                 "Exit status: 0 success, 1 runtime failure, 2 usage error, 130 or 143\n"
                 "interrupted by SIGINT (Ctrl-C) or SIGTERM: the report of what was measured\n"
                 "is written first, marked interrupted; a second signal ends it at once.\n"
                 "Long names may also be spelled with underscores (--payload_size_power_of_2).\n"
                 "With --repeat above 1, --json-file holds the whole report; --latency-file,\n"
                 "--histogram-log, --interval-csv and --flow-csv describe one run and are\n"
                 "refused. A failure or an interrupt ends the runs: the report covers those\n"
                 "done.\n";
    help.examples = fmt::format(
        "  {0}{1} &\n"
        "      start a server on port {3} (on this host or another)\n"
        "  {2}{1} -s 6 -c 100k\n"
        "      100000 round trips of 64 bytes to localhost\n"
        "  {2}{1} -H 10.0.0.2 -s 10 --format json --json-file run.json\n"
        "      1 KiB round trips to 10.0.0.2; the report as JSON, also in run.json\n"
        "  {2}{1} -s 4 --rate 10k --duration 30 --flows 4\n"
        "      4 flows of 10000 messages per second each, for 30 seconds\n"
        "  {2}{1} -s 6 -c 100k --repeat 10 --pause 1\n"
        "      10 runs of 100000 round trips, a second apart: each percentile over them\n"
        "  {2}{1} -H 10.0.0.2 -s 6 --rate 10k --start-at 1795701900\n"
        "      the same on every client host: all measure from 2026-11-26T14:05:00Z\n",
        server, tcp, name, default_port);
    if (multi) {
        help.examples += "  " + name +
                         " -H 10.0.0.2,10.0.1.2 -s 7 --streams 4\n"
                         "      one association to a two-homed server, its messages on 4 streams\n";
    }
    return help;
}

}  // namespace sctp_perf
