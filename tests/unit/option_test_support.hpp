// SPDX-License-Identifier: Apache-2.0
#pragma once
// Builds an argv from words, as a shell would hand it to main.

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "options/client_options.hpp"
#include "options/common_options.hpp"
#include "options/server_options.hpp"

namespace sctp_perf::testing {

struct command_line {
    explicit command_line(std::vector<std::string> words) : words_(std::move(words)) {
        pointers_.push_back("prog");
        for (const auto& w : words_) {
            pointers_.push_back(w.c_str());
        }
    }
    int argc() const { return static_cast<int>(pointers_.size()); }
    const char* const* argv() const { return pointers_.data(); }

  private:
    std::vector<std::string> words_;
    std::vector<const char*> pointers_;
};

inline const program_info stream_client{"SOCK_STREAM_clt", "test", socket_service::stream, true};
inline const program_info seqpack_client{"SOCK_SEQPACK_clt", "test", socket_service::seqpack,
                                         false};
inline const program_info stream_server{"SOCK_STREAM_srv", "test", socket_service::stream, true};
inline const program_info seqpack_server{"SOCK_SEQPACK_srv", "test", socket_service::seqpack,
                                         false};

// The usage error a client command line of `words` draws (the test fails
// when it draws none), for SOCK_STREAM_clt unless `program` says otherwise.
inline std::string client_usage_error(std::vector<std::string> words,
                                      const program_info& program = stream_client) {
    const command_line cl(std::move(words));
    std::ostringstream out;
    try {
        parse_client_options(cl.argc(), cl.argv(), program, out);
    } catch (const usage_error& e) {
        return e.what();
    }
    FAIL("no usage error for that command line");
    return {};
}

// The same for a server command line (SOCK_STREAM_srv unless `program`
// says otherwise).
inline std::string server_usage_error(std::vector<std::string> words,
                                      const program_info& program = stream_server) {
    const command_line cl(std::move(words));
    std::ostringstream out;
    try {
        parse_server_options(cl.argc(), cl.argv(), program, out);
    } catch (const usage_error& e) {
        return e.what();
    }
    FAIL("no usage error for that command line");
    return {};
}

// A client command line's options (the test fails when it is not taken),
// for SOCK_STREAM_clt unless `program` says otherwise.
inline client_options parsed_client(std::vector<std::string> words,
                                    const program_info& program = stream_client) {
    const command_line cl(std::move(words));
    std::ostringstream out;
    auto options = parse_client_options(cl.argc(), cl.argv(), program, out);
    REQUIRE(options);
    return *options;
}

// A server command line's options (the test fails when it is not taken),
// for SOCK_STREAM_srv unless `program` says otherwise.
inline server_options parsed_server(std::vector<std::string> words,
                                    const program_info& program = stream_server) {
    const command_line cl(std::move(words));
    std::ostringstream out;
    auto options = parse_server_options(cl.argc(), cl.argv(), program, out);
    REQUIRE(options);
    return *options;
}

// The tests of options other than the size give every client command
// line one (-s 7) first: these two put it there.
inline client_options parsed_sized_client(std::vector<std::string> words) {
    words.insert(words.begin(), {"-s", "7"});
    return parsed_client(std::move(words));
}

inline std::string sized_client_usage_error(std::vector<std::string> words) {
    words.insert(words.begin(), {"-s", "7"});
    return client_usage_error(std::move(words));
}

}  // namespace sctp_perf::testing
