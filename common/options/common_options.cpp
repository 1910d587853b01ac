// SPDX-License-Identifier: Apache-2.0
#include "options/common_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options/parsers.hpp>
#include <boost/program_options/positional_options.hpp>
#include <boost/program_options/value_semantic.hpp>
#include <cctype>
#include <ostream>

#include "errors.hpp"
#include "options/option_numbers.hpp"
#include "runtime/cpu_affinity.hpp"
#include "version.hpp"

namespace sctp_perf {

const char* const number_forms_note =
    "N and BYTES take 100000, 1e5, 100k or 1M (k, M, G: 10^3, 10^6, 10^9; Ki, Mi,\n"
    "Gi: 2^10, 2^20, 2^30), but must come out whole: 1.5k is 1500, 2.5 is an error.\n";
namespace po = boost::program_options;

namespace {

std::string describe_count(count_kind kind) {
    switch (kind) {
        case count_kind::count:
            return "a count such as 100000, 1e5, 100k or 1M";
        case count_kind::bytes:
            return "a size in bytes such as 262144, 256Ki or 4Mi";
        case count_kind::integer:
            break;
    }
    return "a whole number";
}

std::string describe_real(real_kind kind) {
    switch (kind) {
        case real_kind::seconds:
            return "a number of seconds such as 10, 0.5 or 1e-3";
        case real_kind::microseconds:
            return "a number of microseconds such as 10000, 2.5 or 1e4";
        case real_kind::rate:
            break;
    }
    return "a rate such as 1000, 2.5, 1e5 or 100k";
}

std::string unreadable_sentence(const std::string& option_name, const std::string& expected,
                                const std::string& text, number_problem problem) {
    const char* why = "";
    switch (problem) {
        case number_problem::fraction:
            why = " (a fraction; a count must come out whole)";
            break;
        case number_problem::negative:
            why = " (negative)";
            break;
        case number_problem::too_large:
            why = " (too large)";
            break;
        case number_problem::none:
        case number_problem::unreadable:
            break;
    }
    return fmt::format("{} must be {}, not '{}'{}", option_name, expected, text, why);
}

}  // namespace

po::typed_value<std::string>* count_value(long long& into, std::vector<std::string>& unreadable,
                                          std::string option_name, count_kind kind) {
    return po::value<std::string>()->notifier(
        [&into, &unreadable, option_name = std::move(option_name), kind](const std::string& text) {
            const auto reading = read_count(text);
            if (reading.value) {
                into = *reading.value;
            } else {
                unreadable.push_back(
                    unreadable_sentence(option_name, describe_count(kind), text, reading.problem));
            }
        });
}

po::typed_value<std::string>* real_value(double& into, std::vector<std::string>& unreadable,
                                         std::string option_name, real_kind kind) {
    return po::value<std::string>()->notifier(
        [&into, &unreadable, option_name = std::move(option_name), kind](const std::string& text) {
            const auto reading = read_real(text, kind == real_kind::rate);
            if (reading.value) {
                into = *reading.value;
            } else {
                unreadable.push_back(
                    unreadable_sentence(option_name, describe_real(kind), text, reading.problem));
            }
        });
}

void add_common_options(option_groups& groups, raw_common_options& raw,
                        const program_info& program) {
    auto& unreadable = raw.unreadable_numbers;
    // clang-format off
    groups.general.add_options()
        ("help,h", "show this help and exit")
        ("version", "show the version and exit");
    if (program.offers_transport_choice) {
        groups.connection.add_options()
            ("test-transport-protocol,t",
             po::value(&raw.transport)->default_value("sctp")->value_name("sctp|tcp"),
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
             ->default_value("10")->value_name("S"),
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
        ("cpu", po::value(&raw.cpu)->value_name("LIST"),
         "run only on these CPUs, e.g. 0, 1-3 or 0,2-3 (sched_setaffinity, set before the "
         "program connects or listens; a server's sessions inherit it; default: any CPU)")
        ("spin", po::bool_switch(&raw.spin),
         "wait for data by polling the socket in a busy loop (non-blocking receives) instead "
         "of sleeping in the kernel: no wake-up in the round trip, but a whole CPU per waiting "
         "connection; --io-timeout still bounds every wait");
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
}

common_options validate_common_options(const raw_common_options& raw,
                                       const po::variables_map& given, const program_info& program,
                                       std::vector<std::string>& errors) {
    common_options result;
    errors.insert(errors.end(), raw.unreadable_numbers.begin(), raw.unreadable_numbers.end());
    result.nagle = raw.nagle;
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

    if (!(raw.io_timeout_s > 0.0 && raw.io_timeout_s <= 86400.0)) {
        errors.push_back("--io-timeout must be more than 0 and at most 86400 seconds");
    } else {
        result.io_timeout = std::chrono::milliseconds(
            std::max<long long>(1, static_cast<long long>(raw.io_timeout_s * 1000.0 + 0.5)));
    }

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
    if (given.count("cpu")) {
        if (auto cpus = parse_cpu_list(raw.cpu)) {
            result.cpus = std::move(*cpus);
        } else {
            errors.push_back(
                "--cpu must list CPU numbers and ranges separated by commas, such as "
                "0, 1-3 or 0,2-3, not '" +
                raw.cpu + "'");
        }
    }
    result.spin = raw.spin;
    result.sctp = validate_sctp_feature_options(raw.sctp, given, result.transport, errors);
    return result;
}

std::vector<std::string> normalise_long_option_names(int argc, const char* const* argv) {
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg.size() > 2 && arg.compare(0, 2, "--") == 0) {
            const auto name_end = std::min(arg.find('='), arg.size());
            for (std::size_t c = 2; c < name_end; ++c) {
                if (arg[c] == '_') {
                    arg[c] = '-';
                }
            }
        }
        args.push_back(std::move(arg));
    }
    return args;
}

namespace {

// Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: the
// optimal-string-alignment distance, so "--quite" is one edit from "--quiet".
std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) {
        d[i][0] = i;
    }
    for (std::size_t j = 0; j <= b.size(); ++j) {
        d[0][j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                                d[i - 1][j - 1] + (a[i - 1] != b[j - 1] ? 1 : 0)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
            }
        }
    }
    return d[a.size()][b.size()];
}

std::vector<std::string> long_names(const option_groups& groups) {
    std::vector<std::string> names;
    for (const auto* group : {&groups.server, &groups.test, &groups.histogram, &groups.connection,
                              &groups.sctp, &groups.output, &groups.general}) {
        for (const auto& option : group->options()) {
            if (!option->long_name().empty()) {
                names.push_back(option->long_name());
            }
        }
    }
    return names;
}

std::string lower(std::string text) {
    for (auto& c : text) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return text;
}

std::string unknown_option_sentence(const po::unknown_option& e, const option_groups& groups) {
    std::string sentence = e.what();
    std::string typed = e.get_option_name();
    if (typed.size() > 2 && typed.compare(0, 2, "--") == 0) {
        typed = typed.substr(2, typed.find('=') - 2);
        if (const auto near = suggest_long_option(typed, long_names(groups))) {
            sentence += ": did you mean --" + *near + "?";
        }
    }
    return sentence;
}

// Appends `text` to `out` word by word, the first line continuing at
// `first_column`, later ones indented by `indent` spaces, none wider than
// `width` unless a single word is; ends the last line.
void wrap(std::string& out, const std::string& text, std::size_t indent, std::size_t width,
          std::size_t first_column) {
    std::size_t column = first_column;
    bool line_empty = true;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const auto word_end = std::min(text.find(' ', pos), text.size());
        const std::string word = text.substr(pos, word_end - pos);
        pos = word_end + 1;
        if (word.empty()) {
            continue;
        }
        if (!line_empty && column + 1 + word.size() > width) {
            out += '\n' + std::string(indent, ' ');
            column = indent;
            line_empty = true;
        }
        if (!line_empty) {
            out += ' ';
            ++column;
        }
        out += word;
        column += word.size();
        line_empty = false;
    }
    out += '\n';
}

// "N (=1000000)" from Boost's typed_value::name(): the value's name and the
// default as text; `default_text` is empty when there is none.
void split_semantic_name(const std::string& name, std::string& value_name,
                         std::string& default_text) {
    const auto open = name.find(" (=");
    if (open == std::string::npos || name.back() != ')') {
        value_name = name;
        default_text.clear();
        return;
    }
    value_name = name.substr(0, open);
    default_text = name.substr(open + 3, name.size() - open - 4);
}

void write_option(std::string& out, const po::option_description& option) {
    // "  -c, --test-iterations N" or "      --rate R"; the description starts
    // in its own column, or on the next line when the name runs into it.
    constexpr std::size_t description_column = 30;
    const std::string short_name =
        option.canonical_display_name(po::command_line_style::allow_dash_for_short);
    std::string line = "  ";
    if (!short_name.empty() && short_name.size() == 2 && short_name[0] == '-' &&
        short_name[1] != '-') {
        line += short_name + ", ";
    } else {
        line += "    ";
    }
    line += "--" + option.long_name();
    std::string value_name;
    std::string default_text;
    const auto& semantic = option.semantic();
    if (semantic && semantic->max_tokens() > 0) {
        split_semantic_name(semantic->name(), value_name, default_text);
        line += ' ' + value_name;
    }
    std::string description = option.description();
    if (!default_text.empty()) {
        description += " (default: " + default_text + ")";
    }
    out += line;
    if (line.size() + 2 > description_column) {
        out += '\n' + std::string(description_column, ' ');
    } else {
        out += std::string(description_column - line.size(), ' ');
    }
    wrap(out, description, description_column, help_width, description_column);
}

}  // namespace

std::optional<std::string> suggest_long_option(const std::string& typed,
                                               const std::vector<std::string>& long_names) {
    const std::string wanted = lower(typed);
    if (wanted.empty()) {
        return std::nullopt;
    }
    // A unique prefix ("--payload") is what the user meant: guessing is off
    // so that it never silently picks an option, but it may be suggested.
    std::vector<std::string> extending;
    for (const auto& name : long_names) {
        if (wanted.size() >= 3 && name.compare(0, wanted.size(), wanted) == 0) {
            extending.push_back(name);
        }
    }
    if (extending.size() == 1) {
        return extending.front();
    }
    // Otherwise the nearest name by edit distance, when the distance is small
    // for the length: one edit in a short name, up to three in a long one.
    const std::size_t allowed = std::clamp<std::size_t>(wanted.size() / 5, 1, 3);
    std::optional<std::string> best;
    std::size_t best_distance = allowed + 1;
    for (const auto& name : long_names) {
        const auto distance = edit_distance(wanted, name);
        if (distance < best_distance) {
            best_distance = distance;
            best = name;
        }
    }
    return best;
}

void write_help(std::ostream& out, const program_info& program, const help_layout& help) {
    std::string text = program.name + " - ";
    wrap(text, program.summary, 2, help_width, text.size());
    text += "\nUsage: " + help.usage + "\n";
    for (const auto& [caption, group] : help.groups) {
        if (group->options().empty()) {
            continue;
        }
        text += '\n' + caption + ":\n";
        for (const auto& option : group->options()) {
            write_option(text, *option);
        }
    }
    if (!help.notes.empty()) {
        text += '\n' + help.notes;
    }
    if (!help.examples.empty()) {
        text += "\nExamples:\n" + help.examples;
    }
    out << text;
}

bool parse_command_line(int argc, const char* const* argv, const option_groups& groups,
                        const help_layout& help, const program_info& program,
                        po::variables_map& given, std::ostream& out) {
    po::options_description all;
    for (const auto* group : {&groups.server, &groups.test, &groups.histogram, &groups.connection,
                              &groups.sctp, &groups.output, &groups.general, &groups.hidden}) {
        all.add(*group);
    }
    // Stray words are collected under a hidden name so the error can quote them.
    all.add_options()("unexpected-argument", po::value<std::vector<std::string>>());
    po::positional_options_description stray;
    stray.add("unexpected-argument", -1);
    try {
        // Long options must be spelled out in full: a guessed abbreviation
        // could silently pick the wrong option.
        const auto style =
            po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
        po::store(po::command_line_parser(normalise_long_option_names(argc, argv))
                      .options(all)
                      .positional(stray)
                      .style(style)
                      .run(),
                  given);
        po::notify(given);
    } catch (const po::unknown_option& e) {
        throw usage_error(unknown_option_sentence(e, groups));
    } catch (const po::error& e) {
        throw usage_error(e.what());
    }
    if (given.count("unexpected-argument")) {
        const auto& words = given["unexpected-argument"].as<std::vector<std::string>>();
        throw usage_error("unexpected argument '" + words.front() +
                          "': every value belongs to an option (-x VALUE or --name VALUE)");
    }
    if (given.count("help")) {
        write_help(out, program, help);
        return false;
    }
    if (given.count("version")) {
        out << program.name << " (sctp-perf) " << version_string << '\n';
        return false;
    }
    return true;
}

namespace {

std::string join_sentences(const std::vector<std::string>& sentences,
                           const std::string& program_name) {
    std::string message;
    for (const auto& sentence : sentences) {
        message += (message.empty() ? "" : "\n" + program_name + ": ") + sentence;
    }
    return message;
}

}  // namespace

usage_error_list::usage_error_list(const std::vector<std::string>& sentences,
                                   const std::string& program_name)
    : usage_error(join_sentences(sentences, program_name)), sentences_(sentences) {}

void throw_if_invalid(const std::vector<std::string>& errors, const program_info& program) {
    if (!errors.empty()) {
        throw usage_error_list(errors, program.name);
    }
}

}  // namespace sctp_perf
