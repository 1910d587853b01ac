// SPDX-License-Identifier: Apache-2.0
#include "options/option_help.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options/cmdline.hpp>
#include <boost/program_options/value_semantic.hpp>
#include <cctype>
#include <ostream>

#include "errors.hpp"

namespace sctp_perf {
namespace po = boost::program_options;

const char* const number_forms_note =
    "N and BYTES take 100000, 1e5, 100k or 1M (k, M, G: 10^3, 10^6, 10^9; Ki, Mi,\n"
    "Gi: 2^10, 2^20, 2^30), but must come out whole: 1.5k is 1500, 2.5 is an error.\n";

namespace {

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

// The description up to its first "; " or " (": what the option is, without
// the ranges, cases and reasons that follow, for the short help.
std::string first_clause(const std::string& description) {
    return description.substr(0, std::min(description.find("; "), description.find(" (")));
}

// `brief`: the first clause of the description only (and the default).
void write_option(std::string& out, const po::option_description& option, bool brief = false) {
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
    std::string description = brief ? first_clause(option.description()) : option.description();
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

// "NAME - summary", wrapped, and the usage line: how every help begins.
std::string help_heading(const program_info& program, const help_layout& help) {
    std::string text = program.name + " - ";
    wrap(text, program.summary, 2, help_width, text.size());
    text += "\nUsage: " + help.usage + "\n";
    return text;
}

std::string group_name(const std::string& caption) {
    std::string name = caption;
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return name;
}

void write_group(std::string& text, const std::string& caption,
                 const po::options_description& group) {
    text += '\n' + caption + ":\n";
    for (const auto& option : group.options()) {
        write_option(text, *option);
    }
}

// "a, b, c or d".
std::string listed(const std::vector<std::string>& names) {
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i) {
        text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    }
    return text;
}

// The options most runs need, then the line that names the groups.
void write_essentials(std::string& text, const help_layout& help) {
    text += "\nThe options most runs need:\n";
    for (const auto& name : help.essentials) {
        for (const auto& [caption, group] : help.groups) {
            if (const auto* option = group->find_nothrow(name, false)) {
                write_option(text, *option, /*brief=*/true);
                break;
            }
        }
    }
    if (!help.essentials_note.empty()) {
        text += '\n' + help.essentials_note;
    }
    auto groups = help_group_names(help);
    groups.pop_back();  // "all", named apart
    text += '\n';
    wrap(text,
         "Every option of a group: --help GROUP, GROUP one of " + listed(groups) +
             ". Every option, with notes and examples: --help all.",
         0, help_width, 0);
}

}  // namespace

std::vector<std::string> help_group_names(const help_layout& help) {
    std::vector<std::string> names;
    for (const auto& [caption, group] : help.groups) {
        if (!group->options().empty()) {
            names.push_back(group_name(caption));
        }
    }
    names.emplace_back(whole_help_group);
    return names;
}

void write_help(std::ostream& out, const program_info& program, const help_layout& help) {
    std::string text = help_heading(program, help);
    for (const auto& [caption, group] : help.groups) {
        if (!group->options().empty()) {
            write_group(text, caption, *group);
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

void write_help_for(std::ostream& out, const program_info& program, const help_layout& help,
                    const std::string& group) {
    if (group == whole_help_group || (group.empty() && help.essentials.empty())) {
        write_help(out, program, help);
        return;
    }
    std::string text = help_heading(program, help);
    if (group.empty()) {
        write_essentials(text, help);
        out << text;
        return;
    }
    for (const auto& [caption, options] : help.groups) {
        if (!options->options().empty() && group_name(caption) == group) {
            write_group(text, caption, *options);
            out << text;
            return;
        }
    }
    throw usage_error(fmt::format("--help takes one of the groups {}, not '{}'",
                                  listed(help_group_names(help)), group));
}

}  // namespace sctp_perf
