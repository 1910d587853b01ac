// SPDX-License-Identifier: Apache-2.0
// sctp_notification_capture: prints, byte for byte, the SCTP notifications
// a real kernel gives one end of a multi-homed association, so that the
// decoder's unit tests and the fuzzer's seed corpus hold bytes a kernel
// wrote rather than bytes made from the header's structs
// (tests/vm/guest/checks/59-path_notifications.sh runs it).
//
// Plain POSIX sockets on purpose, as sctp_garbage_peer: it stands outside
// the code whose decoder it feeds.
//
// Usage: sctp_notification_capture server ADDRS PORT SECONDS
//        sctp_notification_capture client ADDRS PORT LOCAL_ADDRS SECONDS
//   ADDRS, LOCAL_ADDRS  comma-separated numeric IPv4 addresses
// Both ends use a one-to-many socket with RTOs of 50..200 ms, heartbeats
// every 100 ms and path-max-retrans 2 (so that, with the kernel's
// net.sctp.pf_retrans 0, a path is potentially failed before it is
// unreachable), subscribed to association, peer
// address and send-failure events with potentially-failed paths told. The
// server binds ADDRS and listens; the client binds LOCAL_ADDRS, connects
// to ADDRS and sends a 16-byte message every 10 ms. Each prints every
// notification it reads for SECONDS as one line on stdout:
//   NOTIFICATION TYPE STATE LENGTH HEX
// (TYPE the sn_type in hex, STATE the spc_state or sac_state, -1 for
// others), and exits 0; 1 when a socket call fails, 2 for a usage error.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/sctp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

[[noreturn]] void die(const char* what) {
    std::perror(what);
    std::exit(1);
}

std::vector<sockaddr_in> addresses_of(const std::string& list, std::uint16_t port) {
    std::vector<sockaddr_in> addresses;
    std::size_t start = 0;
    while (start <= list.size()) {
        const auto comma = std::min(list.find(',', start), list.size());
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(port);
        if (::inet_pton(AF_INET, list.substr(start, comma - start).c_str(), &a.sin_addr) != 1) {
            std::fprintf(stderr, "not an IPv4 address in '%s'\n", list.c_str());
            std::exit(2);
        }
        addresses.push_back(a);
        start = comma + 1;
    }
    return addresses;
}

void set(int fd, int name, const void* value, socklen_t length, const char* what) {
    if (::setsockopt(fd, IPPROTO_SCTP, name, value, length) != 0) {
        die(what);
    }
}

int open_end(const std::vector<sockaddr_in>& bind_to) {
    const int fd = ::socket(AF_INET, SOCK_SEQPACKET, IPPROTO_SCTP);
    if (fd < 0) {
        die("socket");
    }
    sctp_rtoinfo rto{};
    rto.srto_initial = 100;
    rto.srto_min = 50;
    rto.srto_max = 200;
    set(fd, SCTP_RTOINFO, &rto, sizeof rto, "SCTP_RTOINFO");
    sctp_paddrparams params{};
    params.spp_flags = SPP_HB_ENABLE;
    params.spp_hbinterval = 100;
    params.spp_pathmaxrxt = 2;
    set(fd, SCTP_PEER_ADDR_PARAMS, &params, sizeof params, "SCTP_PEER_ADDR_PARAMS");
    for (const int type : {SCTP_ASSOC_CHANGE, SCTP_PEER_ADDR_CHANGE, SCTP_SEND_FAILED_EVENT}) {
        sctp_event event{};
        event.se_type = static_cast<std::uint16_t>(type);
        event.se_on = 1;
        set(fd, SCTP_EVENT, &event, sizeof event, "SCTP_EVENT");
    }
    sctp_assoc_value expose{};
    expose.assoc_value = 2;  // SCTP_PF_EXPOSE_ENABLE
    ::setsockopt(fd, IPPROTO_SCTP, SCTP_EXPOSE_POTENTIALLY_FAILED_STATE, &expose, sizeof expose);
    for (auto a : bind_to) {
        if (::sctp_bindx(fd, reinterpret_cast<sockaddr*>(&a), 1, SCTP_BINDX_ADD_ADDR) != 0) {
            die("sctp_bindx");
        }
    }
    return fd;
}

void print_notification(const unsigned char* bytes, std::size_t length) {
    std::uint16_t type = 0;
    std::memcpy(&type, bytes, sizeof type);
    std::int32_t state = -1;
    if (type == SCTP_PEER_ADDR_CHANGE && length >= offsetof(sctp_paddr_change, spc_error)) {
        std::memcpy(&state, bytes + offsetof(sctp_paddr_change, spc_state), sizeof state);
    } else if (type == SCTP_ASSOC_CHANGE && length >= offsetof(sctp_assoc_change, sac_error)) {
        std::uint16_t assoc_state = 0;
        std::memcpy(&assoc_state, bytes + offsetof(sctp_assoc_change, sac_state),
                    sizeof assoc_state);
        state = assoc_state;
    }
    std::printf("NOTIFICATION %04x %d %zu ", type, state, length);
    for (std::size_t i = 0; i < length; ++i) {
        std::printf("%02x", bytes[i]);
    }
    std::printf("\n");
    std::fflush(stdout);
}

// Reads for `seconds`, printing notifications; the client also sends a
// message every 10 ms to `peers` once connected.
void capture(int fd, double seconds, const std::vector<sockaddr_in>* peers) {
    using clock = std::chrono::steady_clock;
    const auto until = clock::now() + std::chrono::duration<double>(seconds);
    auto next_send = clock::now();
    sctp_assoc_t assoc = 0;
    unsigned char buffer[65536];
    while (clock::now() < until) {
        if (peers != nullptr && assoc != 0 && clock::now() >= next_send) {
            const char message[16] = "capture";
            sctp_sndinfo info{};
            info.snd_assoc_id = assoc;
            iovec part{const_cast<char*>(message), sizeof message};
            msghdr header{};
            header.msg_iov = &part;
            header.msg_iovlen = 1;
            alignas(cmsghdr) char control[CMSG_SPACE(sizeof(sctp_sndinfo))] = {};
            header.msg_control = control;
            header.msg_controllen = sizeof control;
            cmsghdr* c = CMSG_FIRSTHDR(&header);
            c->cmsg_level = IPPROTO_SCTP;
            c->cmsg_type = SCTP_SNDINFO;
            c->cmsg_len = CMSG_LEN(sizeof info);
            std::memcpy(CMSG_DATA(c), &info, sizeof info);
            ::sendmsg(fd, &header, MSG_DONTWAIT | MSG_NOSIGNAL);
            next_send += std::chrono::milliseconds(10);
        }
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 5) <= 0) {
            continue;
        }
        iovec part{buffer, sizeof buffer};
        msghdr header{};
        header.msg_iov = &part;
        header.msg_iovlen = 1;
        const ssize_t n = ::recvmsg(fd, &header, MSG_DONTWAIT);
        if (n <= 0) {
            continue;
        }
        if ((header.msg_flags & MSG_NOTIFICATION) == 0) {
            continue;
        }
        print_notification(buffer, static_cast<std::size_t>(n));
        std::uint16_t type = 0;
        std::memcpy(&type, buffer, sizeof type);
        if (type == SCTP_ASSOC_CHANGE && static_cast<std::size_t>(n) >= sizeof(sctp_assoc_change)) {
            sctp_assoc_change change{};
            std::memcpy(&change, buffer, sizeof change);
            if (change.sac_state == SCTP_COMM_UP) {
                assoc = change.sac_assoc_id;
                next_send = clock::now();
            }
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    const std::string role = argc > 1 ? argv[1] : "";
    if (!((role == "server" && argc == 5) || (role == "client" && argc == 6))) {
        std::fprintf(
            stderr, "usage: %s server ADDRS PORT SECONDS | client ADDRS PORT LOCAL_ADDRS SECONDS\n",
            argv[0]);
        return 2;
    }
    const auto port = static_cast<std::uint16_t>(std::stoi(argv[3]));
    auto peers = addresses_of(argv[2], port);
    if (role == "server") {
        const int fd = open_end(peers);
        if (::listen(fd, 16) != 0) {
            die("listen");
        }
        capture(fd, std::stod(argv[4]), nullptr);
        return 0;
    }
    const int fd = open_end(addresses_of(argv[4], 0));
    sctp_assoc_t id = 0;
    if (::sctp_connectx(fd, reinterpret_cast<sockaddr*>(peers.data()),
                        static_cast<int>(peers.size()), &id) != 0) {
        die("sctp_connectx");
    }
    capture(fd, std::stod(argv[5]), &peers);
    return 0;
}
