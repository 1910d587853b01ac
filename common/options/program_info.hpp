// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a program is: its name and summary for --help, and the socket type it
// is built on, which decides the options it offers.

#include <string>
#include <string_view>

namespace sctp_perf {

// The socket type a program is built on: SOCK_STREAM (TCP or one-to-one
// SCTP) or SOCK_SEQPACKET (SCTP one-to-many). It decides which options a
// program offers and how its server takes in associations.
enum class socket_service { stream, seqpack };

// "stream" or "seqpack": the one spelling reports and their readers use
// (the JSON report's config.service).
inline std::string_view name_of(socket_service s) noexcept {
    return s == socket_service::seqpack ? "seqpack" : "stream";
}

// What a program is, for its help text and for the options it offers.
struct program_info {
    std::string name;     // e.g. "SOCK_STREAM_clt"
    std::string summary;  // one line for --help
    socket_service service = socket_service::stream;
    bool offers_transport_choice = true;  // -t sctp|tcp; SOCK_SEQPACK is SCTP only
};

// The server program a client program talks to, for the sentences that say
// what to start.
inline std::string_view server_program_name(const program_info& client) noexcept {
    return client.service == socket_service::seqpack ? "SOCK_SEQPACK_srv" : "SOCK_STREAM_srv";
}

}  // namespace sctp_perf
