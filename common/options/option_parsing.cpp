// SPDX-License-Identifier: Apache-2.0
#include "options/option_parsing.hpp"

#include <algorithm>
#include <boost/program_options/parsers.hpp>
#include <boost/program_options/positional_options.hpp>
#include <boost/program_options/value_semantic.hpp>
#include <ostream>

#include "errors.hpp"
#include "options/option_suggestions.hpp"
#include "version.hpp"

namespace sctp_perf {
namespace po = boost::program_options;

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

std::string unknown_option_sentence(const po::unknown_option& e, const option_groups& groups) {
    std::string sentence = e.what();
    std::string typed = e.get_option_name();
    if (typed.size() > 2 && typed.compare(0, 2, "--") == 0) {
        typed = typed.substr(2, typed.find('=') - 2);
        if (const auto near = suggest_long_option(typed, long_option_names(groups))) {
            sentence += ": did you mean --" + *near + "?";
        }
    }
    return sentence;
}

// "--help GROUP" and "-h GROUP" as "--help=GROUP", which Boost reads as the
// help's value: an option whose value may be left out takes none from the
// next word.
void join_help_group(std::vector<std::string>& args) {
    for (std::size_t i = 0; i + 1 < args.size(); ++i) {
        if ((args[i] == "--help" || args[i] == "-h") && !args[i + 1].starts_with('-')) {
            args[i] = "--help=" + args[i + 1];
            args.erase(args.begin() + static_cast<std::ptrdiff_t>(i) + 1);
        }
    }
}

// Stores the words of the command line in `given`, and runs the number
// options' notifiers; throws usage_error for what Boost cannot parse.
void store_command_line(int argc, const char* const* argv, const option_groups& groups,
                        bool help_takes_group, po::variables_map& given) {
    po::options_description all;
    for (const auto* group : groups.shown()) {
        all.add(*group);
    }
    all.add(groups.hidden);
    // Stray words are collected under a hidden name so the error can quote them.
    all.add_options()("unexpected-argument", po::value<std::vector<std::string>>());
    po::positional_options_description stray;
    stray.add("unexpected-argument", -1);
    try {
        // Long options must be spelled out in full: a guessed abbreviation
        // could silently pick the wrong option.
        const auto style =
            po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
        auto args = normalise_long_option_names(argc, argv);
        if (help_takes_group) {
            join_help_group(args);
        }
        po::store(po::command_line_parser(args).options(all).positional(stray).style(style).run(),
                  given);
        po::notify(given);
    } catch (const po::unknown_option& e) {
        throw usage_error(unknown_option_sentence(e, groups));
    } catch (const po::error& e) {
        throw usage_error(e.what());
    }
}

}  // namespace

bool parse_command_line(int argc, const char* const* argv, const option_groups& groups,
                        const help_layout& help, const program_info& program,
                        po::variables_map& given, std::ostream& out) {
    store_command_line(argc, argv, groups, !help.essentials.empty(), given);
    if (given.count("unexpected-argument")) {
        const auto& words = given["unexpected-argument"].as<std::vector<std::string>>();
        throw usage_error("unexpected argument '" + words.front() +
                          "': every value belongs to an option (-x VALUE or --name VALUE)");
    }
    if (given.count("help")) {
        // A group when the help takes one (the programs that name essentials).
        const auto& value = given["help"].value();
        const auto* group = boost::any_cast<std::string>(&value);
        write_help_for(out, program, help, group != nullptr ? *group : std::string());
        return false;
    }
    if (given.count("version")) {
        out << program.name << " (sctp-perf) " << version_string << '\n';
        return false;
    }
    return true;
}

bool given_by_user(const po::variables_map& given, const char* name) {
    return given.count(name) > 0 && !given[name].defaulted();
}

}  // namespace sctp_perf
