// SPDX-License-Identifier: Apache-2.0
#include "options/option_help.hpp"

#include <algorithm>
#include <boost/program_options/cmdline.hpp>
#include <boost/program_options/value_semantic.hpp>
#include <ostream>

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

}  // namespace sctp_perf
