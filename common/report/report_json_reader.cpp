// SPDX-License-Identifier: Apache-2.0
#include "report/report_json_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <vector>

namespace sctp_perf {

const parsed_json* member_of(const parsed_json& object, std::string_view key) {
    if (!object.is_object()) {
        return nullptr;
    }
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

namespace {

// Where the parser is, as a key path ("percentiles.p50_us", "runs[2].summary"),
// followed through its events so that a text it cannot read, or a number it
// cannot hold, is named by its key and not only by a byte.
class json_path {
  public:
    void follow(parsed_json::parse_event_t event, const parsed_json& parsed) {
        switch (event) {
            case parsed_json::parse_event_t::object_start:
                frames_.push_back({false, {}, 0});
                break;
            case parsed_json::parse_event_t::array_start:
                frames_.push_back({true, {}, 0});
                break;
            case parsed_json::parse_event_t::key:
                frames_.back().key = parsed.get<std::string>();
                break;
            case parsed_json::parse_event_t::object_end:
            case parsed_json::parse_event_t::array_end:
                frames_.pop_back();
                next_element();
                break;
            case parsed_json::parse_event_t::value:
                next_element();
                break;
        }
    }

    // "" at the top level, before any key.
    std::string text() const {
        std::string path;
        for (const auto& frame : frames_) {
            if (frame.array) {
                path += fmt::format("[{}]", frame.index);
            } else if (!frame.key.empty()) {
                path += (path.empty() ? "" : ".") + frame.key;
            }
        }
        return path;
    }

  private:
    struct frame {
        bool array = false;
        std::string key;
        std::size_t index = 0;  // of the element being read
    };

    void next_element() {
        if (!frames_.empty() && frames_.back().array) {
            ++frames_.back().index;
        }
    }

    std::vector<frame> frames_;
};

// The word around byte `byte` (1-based, as the parser counts) of `text`:
// what the parser stumbled on, e.g. "nan".
std::string word_at(std::string_view text, std::size_t byte) {
    const auto is_word = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '-' || c == '+';
    };
    std::size_t begin = std::min(byte > 0 ? byte - 1 : 0, text.size());
    while (begin > 0 && is_word(text[begin - 1])) {
        --begin;
    }
    std::size_t end = begin;
    while (end < text.size() && is_word(text[end]) && end - begin < 24) {
        ++end;
    }
    return std::string(text.substr(begin, end - begin));
}

bool names_no_number(std::string word) {
    std::transform(word.begin(), word.end(), word.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (!word.empty() && (word.front() == '-' || word.front() == '+')) {
        word.erase(0, 1);
    }
    return word.starts_with("nan") || word.starts_with("inf");
}

}  // namespace

std::string format_number(double value) {
    return fmt::format("{}", value);
}

parsed_json parse_report_json(std::string_view text, const std::string& source) {
    json_path path;
    const parsed_json::parser_callback_t follow = [&path](int, parsed_json::parse_event_t event,
                                                          parsed_json& parsed) {
        path.follow(event, parsed);
        return true;
    };
    try {
        return parsed_json::parse(text, follow);
    } catch (const parsed_json::parse_error& e) {
        const auto where = path.text();
        const auto word = word_at(text, e.byte);
        throw input_error(fmt::format(
            "{} is not an sctp-perf report: it is not JSON (unreadable at byte {}{}{})", source,
            e.byte, where.empty() ? "" : ", in " + where,
            names_no_number(word) ? fmt::format(": '{}'; JSON has no NaN or infinity", word)
                                  : std::string()));
    } catch (const parsed_json::out_of_range& e) {
        // 406: a number beyond a double's range, which the parser cannot
        // hold; its text is quoted in the parser's message.
        const std::string message = e.what();
        const auto open = message.find('\'');
        const auto close = message.rfind('\'');
        const auto number = open != std::string::npos && close > open
                                ? message.substr(open + 1, close - open - 1)
                                : std::string("a number");
        throw input_error(fmt::format(
            "{} has {} = {}, beyond any number a report can hold: the report was altered", source,
            path.text().empty() ? "a value" : path.text(), number));
    } catch (const parsed_json::exception& e) {
        throw input_error(fmt::format("{} cannot be read as JSON: {}", source, e.what()));
    }
}

double checked_number(const parsed_json* value, std::string_view key, const std::string& what,
                      const number_range& range) {
    if (value == nullptr || value->is_null()) {
        throw input_error(fmt::format("{} has no {} (a number)", what, key));
    }
    if (value->is_string()) {
        throw input_error(
            fmt::format("{} has {} = {}, a text where a number belongs", what, key, value->dump()));
    }
    if (!value->is_number()) {
        throw input_error(fmt::format("{} has {} = {}, not a number", what, key, value->dump()));
    }
    const double number = value->get<double>();
    if (number < range.least && range.least > 0.0 && number <= 0.0) {
        throw input_error(
            fmt::format("{} has {} = {}, not a positive {}", what, key, value->dump(), range.noun));
    }
    if (number < range.least) {
        throw input_error(fmt::format(
            "{} has {} = {}, below {}{}, the least {} a report can hold: the report "
            "was altered",
            what, key, value->dump(), format_number(range.least), range.unit, range.noun));
    }
    if (number > range.most) {
        throw input_error(
            fmt::format("{} has {} = {}, above {}{}, the most a report can hold: the report was "
                        "altered",
                        what, key, value->dump(), format_number(range.most), range.unit));
    }
    return number;
}

std::optional<double> optional_number(const parsed_json* value, std::string_view key,
                                      const std::string& what, const number_range& range) {
    if (value == nullptr || value->is_null()) {
        return std::nullopt;
    }
    return checked_number(value, key, what, range);
}

}  // namespace sctp_perf
