// SPDX-License-Identifier: Apache-2.0
// sctp_garbage_peer: a misbehaving SCTP peer for the VM checks.
//
// It connects to an sctp-perf server over SCTP, does one thing a proper
// client never does, and reports what the server did in return: answer,
// close the association, abort it, or keep it open. The server under test
// must survive all of it and go on serving well-behaved clients.
//
// With `wrong-stream-server` it is the misbehaving server instead: it
// accepts one client, opens its test as a server does, and answers every
// request with the request's own bytes on another stream than the one it
// came on, which the client must refuse.
//
// Plain POSIX sockets on purpose: this program stands outside the code it
// tests, so it shares nothing with the common library (it even spells out
// the test header itself), and it has to build where the host kernel has no
// SCTP at all (it only runs where SCTP is).
//
// Usage: sctp_garbage_peer [--seqpacket] HOST PORT ACTION [ARG...]
//        sctp_garbage_peer --probe
//   --seqpacket  use a one-to-many socket (SOCK_SEQPACKET), as SOCK_SEQPACK_clt
//                does; without it a one-to-one socket (SOCK_STREAM)
//   HOST PORT    numeric IPv4 or IPv6 address and port of the server
//   ACTION, one of:
//     garbage BYTES [SEED]  BYTES pseudo-random bytes (0..16777216) from SEED
//                           (default 1), so runs repeat exactly: one message
//                           with --seqpacket, else messages of 1..9000 bytes
//     bad-magic             a test header that is valid but for its magic number
//     wrong-size BYTES      a valid header announcing 64-byte requests and, once
//                           the server accepted it, one request of BYTES bytes
//     header-only           a valid header; closes once the server accepted it
//                           and its settings are read
//     wrong-stream-server SKIP
//                           listens on HOST PORT (0: any port) over a one-to-one
//                           socket, says "starting server at port N" on stderr
//                           as the sctp-perf servers do, accepts one client and
//                           accepts its test; answers its first SKIP requests on
//                           the stream each came on, every later one with the
//                           request's bytes on the next stream (modulo the
//                           association's streams), until the client leaves
//   --probe      connects nowhere: says whether this kernel opens SCTP sockets
// Exit status: 0 the action went as far as the server let it (what the server
// did is printed), 1 connecting failed or the kernel has no SCTP, 2 usage error.

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/sctp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::uint64_t max_garbage_bytes = 16U * 1024U * 1024U;
constexpr std::uint64_t max_request_bytes = 65536;
// Every blocking call is bounded: a server that neither reads nor closes
// must not hang the check.
constexpr std::chrono::seconds io_timeout{5};

// The test header as the wire protocol defines it (common/protocol): magic,
// version 3, flags 0 (ping-pong), payload size, iterations, reply size 0
// (the mode's own), longest gap 0 (no schedule), all big-endian: 24 bytes.
constexpr std::uint32_t header_magic = 0x53505246;  // "SPRF"
constexpr std::size_t header_bytes = 24;
constexpr std::size_t verdict_bytes = 8;
// After an accepted verdict the server sends its settings as a blob: a u32
// length (at most this), then that much JSON; on a one-to-many socket the
// two are one message each.
constexpr std::uint32_t max_settings_bytes = 65536;
constexpr std::uint32_t announced_request_bytes = 64;
constexpr std::uint32_t announced_iterations = 10;

enum class socket_style { stream, seqpacket };
enum class action { garbage, bad_magic, wrong_size, header_only, wrong_stream_server };

struct peer_options {
    socket_style style = socket_style::stream;
    std::string host;
    std::string port;
    action what = action::garbage;
    std::uint64_t bytes = 0;  // garbage or the wrong request's size; SKIP
    std::uint32_t seed = 1;
};

template <typename T>
std::optional<T> parse_number(std::string_view text) {
    T value{};
    const auto* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc{} || ptr != end) {
        return std::nullopt;
    }
    return value;
}

std::string errno_text(int error) {
    return std::strerror(error);
}

std::vector<unsigned char> test_header(std::uint32_t magic) {
    std::vector<unsigned char> header;
    for (std::uint32_t word : {magic, std::uint32_t{3} << 16, announced_request_bytes,
                               announced_iterations, std::uint32_t{0}, std::uint32_t{0}}) {
        for (int shift = 24; shift >= 0; shift -= 8) {
            header.push_back(static_cast<unsigned char>(word >> shift));
        }
    }
    return header;
}

class socket_fd {
  public:
    explicit socket_fd(int fd) : fd_(fd) {}
    socket_fd(const socket_fd&) = delete;
    socket_fd& operator=(const socket_fd&) = delete;
    ~socket_fd() {
        if (fd_ >= 0) {
            ::close(fd_);
        }
    }
    int get() const { return fd_; }

  private:
    int fd_;
};

void set_timeouts(int fd) {
    timeval tv{};
    tv.tv_sec = static_cast<time_t>(io_timeout.count());
    // On Linux SO_SNDTIMEO also bounds connect().
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

// What one receive brought.
struct received {
    enum kind { data, closed, aborted, timed_out, failed } what = failed;
    std::size_t bytes = 0;  // of data
    int error = 0;          // of failed
};

// An association with the server, over either socket style.
class peer {
  public:
    peer(int fd, socket_style style, const sockaddr* server, socklen_t server_length)
        : fd_(fd), style_(style), server_length_(server_length) {
        std::memcpy(&server_, server, server_length);
    }

    // Sends one message (on a one-to-many socket) or these bytes (on a
    // one-to-one socket). Returns 0 or the errno of the failure.
    int send(const std::vector<unsigned char>& bytes) {
        for (;;) {
            // A one-to-many socket serves any number of associations, so each
            // message names its server; the association is the one connect()
            // set up. MSG_NOSIGNAL: a server that closes on us is an outcome
            // to report, not a reason to die of SIGPIPE.
            const bool name_server = style_ == socket_style::seqpacket;
            ssize_t n =
                ::sendto(fd_.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL,
                         name_server ? reinterpret_cast<const sockaddr*>(&server_) : nullptr,
                         name_server ? server_length_ : 0);
            if (n >= 0 || errno != EINTR) {
                return n < 0 ? errno : 0;
            }
        }
    }

    // Sends garbage in messages of varied sizes on a one-to-one socket (SCTP
    // keeps message boundaries, so this varies how the server's reads are
    // cut), in one message on a one-to-many socket. Returns the number of
    // bytes the kernel accepted before an error, if any.
    std::uint64_t send_garbage(std::uint64_t total_bytes, std::uint32_t seed, int& error) {
        std::mt19937 random(seed);
        std::uniform_int_distribution<int> byte(0, 255);
        std::uniform_int_distribution<std::uint64_t> chunk(1, 9000);
        std::vector<unsigned char> buffer;
        std::uint64_t sent_bytes = 0;
        error = 0;
        while (sent_bytes < total_bytes && error == 0) {
            const std::uint64_t left = total_bytes - sent_bytes;
            buffer.resize(style_ == socket_style::seqpacket ? left : std::min(chunk(random), left));
            std::generate(buffer.begin(), buffer.end(),
                          [&] { return static_cast<unsigned char>(byte(random)); });
            error = send(buffer);
            if (error == 0) {
                sent_bytes += buffer.size();
            }
        }
        return sent_bytes;
    }

    // Stops sending on a one-to-one socket, so the server reads the end of
    // the stream; a one-to-many socket has no such half-close.
    void finish_sending() {
        if (style_ == socket_style::stream) {
            ::shutdown(fd_.get(), SHUT_WR);
        }
    }

    // The server's answer to a header, or a sentence saying why there is none.
    std::string read_verdict(bool& accepted) {
        std::vector<unsigned char> verdict;
        accepted = false;
        // On a byte stream the server's settings may arrive in the same read
        // as the verdict: only its first 8 bytes are the verdict, the rest
        // is kept for read_settings.
        while (verdict.size() < verdict_bytes) {
            const auto r = receive();
            if (r.what != received::data) {
                return "no verdict: " + describe(r);
            }
            verdict.insert(verdict.end(), buffer_.begin(),
                           buffer_.begin() + static_cast<std::ptrdiff_t>(r.bytes));
        }
        pending_.assign(verdict.begin() + verdict_bytes, verdict.end());
        const unsigned status = verdict[4] << 8 | verdict[5];
        accepted = status == 0;
        return "verdict status " + std::to_string(status);
    }

    // Reads the settings the server sends after an accepted verdict, as a
    // proper client does before its first request. Left unread, they would
    // make close() on a one-to-many socket abort the association (the
    // kernel aborts when received data was never read) where the peer means
    // to shut it down.
    std::string read_settings() {
        std::vector<unsigned char> length_field;
        if (auto why = read_exactly(4, length_field); !why.empty()) {
            return "no settings: " + why;
        }
        const std::uint32_t length = std::uint32_t{length_field[0]} << 24 |
                                     std::uint32_t{length_field[1]} << 16 |
                                     std::uint32_t{length_field[2]} << 8 | length_field[3];
        if (length == 0 || length > max_settings_bytes) {
            return "settings of an impossible length " + std::to_string(length);
        }
        std::vector<unsigned char> text;
        if (auto why = read_exactly(length, text); !why.empty()) {
            return "settings cut short: " + why;
        }
        return "read the server's settings (" + std::to_string(length) + " bytes)";
    }

    // Reads until the server closes, aborts or stays silent past io_timeout.
    std::string await_server() {
        std::uint64_t received_bytes = 0;
        for (;;) {
            const auto r = receive();
            if (r.what != received::data) {
                return describe(r) + " (" + std::to_string(received_bytes) + " bytes back)";
            }
            received_bytes += r.bytes;
        }
    }

  private:
    // Reads exactly `count` bytes into `out`: one message of that size on a
    // one-to-many socket, or as many reads as it takes on a one-to-one
    // socket, starting with what read_verdict kept. Returns "" or why not.
    std::string read_exactly(std::size_t count, std::vector<unsigned char>& out) {
        out.clear();
        if (style_ == socket_style::seqpacket) {
            const auto r = receive();
            if (r.what != received::data) {
                return describe(r);
            }
            if (r.bytes != count) {
                return "a message of " + std::to_string(r.bytes) + " bytes where " +
                       std::to_string(count) + " were expected";
            }
            out.assign(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(count));
            return "";
        }
        while (pending_.size() < count) {
            const auto r = receive();
            if (r.what != received::data) {
                return describe(r);
            }
            pending_.insert(pending_.end(), buffer_.begin(),
                            buffer_.begin() + static_cast<std::ptrdiff_t>(r.bytes));
        }
        out.assign(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(count));
        pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(count));
        return "";
    }

    received receive() {
        for (;;) {
            iovec part{buffer_.data(), buffer_.size()};
            msghdr header{};
            header.msg_iov = &part;
            header.msg_iovlen = 1;
            ssize_t n = ::recvmsg(fd_.get(), &header, 0);
            if (n < 0) {
                if (errno == EINTR) {
                    continue;
                }
                if (errno == EAGAIN || errno == EWOULDBLOCK) {
                    return {received::timed_out};
                }
                if (errno == ECONNRESET) {
                    return {received::aborted};
                }
                if (errno == ENOTCONN) {
                    // An association shut down gracefully, here or by the
                    // server, has nothing left to read.
                    return {received::closed};
                }
                return {received::failed, 0, errno};
            }
            if (n == 0) {
                return {received::closed};
            }
            if ((header.msg_flags & MSG_NOTIFICATION) == 0) {
                return {received::data, static_cast<std::size_t>(n)};
            }
            // Only a one-to-many socket subscribes to notifications: without
            // them it cannot tell that an association ended.
            const auto* event = reinterpret_cast<const sctp_notification*>(buffer_.data());
            if (event->sn_header.sn_type == SCTP_SHUTDOWN_EVENT) {
                return {received::closed};
            }
            if (event->sn_header.sn_type == SCTP_ASSOC_CHANGE) {
                const auto state = event->sn_assoc_change.sac_state;
                if (state == SCTP_SHUTDOWN_COMP) {
                    return {received::closed};
                }
                if (state == SCTP_COMM_LOST) {
                    return {received::aborted};
                }
            }
            // The association coming up, and the like: not an answer.
        }
    }

    static std::string describe(const received& r) {
        switch (r.what) {
            case received::data:
                return "server sent data";
            case received::closed:
                return "the association was shut down";
            case received::aborted:
                return "the association was aborted";
            case received::timed_out:
                return "server kept the association open for " +
                       std::to_string(io_timeout.count()) + " s";
            case received::failed:
                break;
        }
        return "receive failed: " + errno_text(r.error);
    }

    socket_fd fd_;
    socket_style style_;
    sockaddr_storage server_{};
    socklen_t server_length_;
    std::vector<unsigned char> buffer_ = std::vector<unsigned char>(65536);
    std::vector<unsigned char> pending_;  // stream bytes read past what was asked for
};

// Asks a one-to-many socket to report associations that end, which it
// otherwise does not: there is no end of stream to read there.
bool subscribe_to_endings(int fd) {
    bool subscribed = true;
    for (const int type : {SCTP_ASSOC_CHANGE, SCTP_SHUTDOWN_EVENT}) {
        sctp_event event{};
        event.se_assoc_id = SCTP_FUTURE_ASSOC;
        event.se_type = static_cast<std::uint16_t>(type);
        event.se_on = 1;
        subscribed =
            subscribed && ::setsockopt(fd, IPPROTO_SCTP, SCTP_EVENT, &event, sizeof event) == 0;
    }
    if (subscribed) {
        return true;
    }
    // Kernels before 5.0 know only the older all-in-one option.
    sctp_event_subscribe events{};
    events.sctp_association_event = 1;
    events.sctp_shutdown_event = 1;
    return ::setsockopt(fd, IPPROTO_SCTP, SCTP_EVENTS, &events, sizeof events) == 0;
}

int kernel_has_sctp() {
    socket_fd fd(::socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP));
    if (fd.get() < 0) {
        std::cout << "socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP): " << errno_text(errno) << '\n';
        return 1;
    }
    std::cout << "this kernel opens SCTP sockets\n";
    return 0;
}

// The streams a wrong-stream server offers each way: enough for any
// --streams a check asks for.
constexpr std::uint16_t server_streams = 16;

// The message a server sends after an accepted verdict: its settings, a
// u32 length and then the JSON, one message each. The client checks only
// that the server has as many outbound streams as it asks for.
std::vector<std::vector<unsigned char>> accepted_test() {
    const std::string settings =
        R"({"sctp":{"outbound_streams":)" + std::to_string(server_streams) + "}}";
    std::vector<unsigned char> verdict;
    for (std::uint32_t word : {header_magic, std::uint32_t{3}}) {  // status 0, version 3
        for (int shift = 24; shift >= 0; shift -= 8) {
            verdict.push_back(static_cast<unsigned char>(word >> shift));
        }
    }
    std::vector<unsigned char> length;
    for (int shift = 24; shift >= 0; shift -= 8) {
        length.push_back(static_cast<unsigned char>(settings.size() >> shift));
    }
    return {verdict, length, std::vector<unsigned char>(settings.begin(), settings.end())};
}

// Sends `bytes` as one SCTP message on `stream`.
bool send_on_stream(int fd, const unsigned char* bytes, std::size_t size, std::uint16_t stream) {
    alignas(cmsghdr) unsigned char control[CMSG_SPACE(sizeof(sctp_sndinfo))]{};
    iovec part{const_cast<unsigned char*>(bytes), size};
    msghdr header{};
    header.msg_iov = &part;
    header.msg_iovlen = 1;
    header.msg_control = control;
    header.msg_controllen = sizeof control;
    cmsghdr* c = CMSG_FIRSTHDR(&header);
    c->cmsg_level = IPPROTO_SCTP;
    c->cmsg_type = SCTP_SNDINFO;
    c->cmsg_len = CMSG_LEN(sizeof(sctp_sndinfo));
    sctp_sndinfo info{};
    info.snd_sid = stream;
    std::memcpy(CMSG_DATA(c), &info, sizeof info);
    return ::sendmsg(fd, &header, MSG_NOSIGNAL) == static_cast<ssize_t>(size);
}

// Reads one SCTP message into `buffer`; its stream in `stream`. Returns
// its size, 0 when the client left or went silent.
std::size_t receive_on_stream(int fd, std::vector<unsigned char>& buffer, std::uint16_t& stream) {
    alignas(cmsghdr) unsigned char control[CMSG_SPACE(sizeof(sctp_rcvinfo))]{};
    iovec part{buffer.data(), buffer.size()};
    msghdr header{};
    header.msg_iov = &part;
    header.msg_iovlen = 1;
    header.msg_control = control;
    header.msg_controllen = sizeof control;
    const ssize_t n = ::recvmsg(fd, &header, 0);
    if (n <= 0) {
        return 0;
    }
    for (cmsghdr* c = CMSG_FIRSTHDR(&header); c != nullptr; c = CMSG_NXTHDR(&header, c)) {
        if (c->cmsg_level == IPPROTO_SCTP && c->cmsg_type == SCTP_RCVINFO) {
            sctp_rcvinfo info{};
            std::memcpy(&info, CMSG_DATA(c), sizeof info);
            stream = info.rcv_sid;
        }
    }
    return static_cast<std::size_t>(n);
}

// A listening one-to-one socket on HOST PORT offering server_streams
// streams each way; -1 after saying why not.
int listen_for_one(const peer_options& options) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_protocol = IPPROTO_SCTP;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
    addrinfo* found = nullptr;
    if (int rc = ::getaddrinfo(options.host.c_str(), options.port.c_str(), &hints, &found);
        rc != 0) {
        std::cerr << "sctp_garbage_peer: bad address " << options.host << ": " << ::gai_strerror(rc)
                  << '\n';
        return -1;
    }
    const int fd = ::socket(found->ai_family, SOCK_STREAM, IPPROTO_SCTP);
    sctp_initmsg init{};
    init.sinit_num_ostreams = server_streams;
    init.sinit_max_instreams = server_streams;
    const int on = 1;
    const bool ok = fd >= 0 &&
                    ::setsockopt(fd, IPPROTO_SCTP, SCTP_INITMSG, &init, sizeof init) == 0 &&
                    ::setsockopt(fd, IPPROTO_SCTP, SCTP_RECVRCVINFO, &on, sizeof on) == 0 &&
                    ::bind(fd, found->ai_addr, found->ai_addrlen) == 0 && ::listen(fd, 1) == 0;
    ::freeaddrinfo(found);
    if (!ok) {
        std::cerr << "sctp_garbage_peer: cannot listen: " << errno_text(errno) << '\n';
        if (fd >= 0) {
            ::close(fd);
        }
        return -1;
    }
    return fd;
}

// The wrong-stream server: see the top of this file.
int serve_on_wrong_streams(const peer_options& options) {
    socket_fd listener(listen_for_one(options));
    if (listener.get() < 0) {
        return 1;
    }
    sockaddr_storage bound{};
    socklen_t bound_length = sizeof bound;
    ::getsockname(listener.get(), reinterpret_cast<sockaddr*>(&bound), &bound_length);
    const auto port = ntohs(reinterpret_cast<const sockaddr_in*>(&bound)->sin_port);
    std::cerr << "starting server at port " << port << std::endl;
    timeval accept_timeout{60, 0};  // a check that never connects does not hang it
    ::setsockopt(listener.get(), SOL_SOCKET, SO_RCVTIMEO, &accept_timeout, sizeof accept_timeout);
    socket_fd client(::accept(listener.get(), nullptr, nullptr));
    if (client.get() < 0) {
        std::cerr << "sctp_garbage_peer: no client came: " << errno_text(errno) << '\n';
        return 1;
    }
    set_timeouts(client.get());
    sctp_status status{};
    socklen_t status_length = sizeof status;
    ::getsockopt(client.get(), IPPROTO_SCTP, SCTP_STATUS, &status, &status_length);
    const std::uint16_t streams = std::max<std::uint16_t>(1, status.sstat_outstrms);
    std::vector<unsigned char> buffer(max_request_bytes + 1);
    std::uint16_t stream = 0;
    if (receive_on_stream(client.get(), buffer, stream) != header_bytes) {
        std::cerr << "sctp_garbage_peer: no test header\n";
        return 1;
    }
    for (const auto& message : accepted_test()) {
        send_on_stream(client.get(), message.data(), message.size(), 0);
    }
    std::uint64_t answered = 0;
    std::uint64_t moved = 0;
    while (const auto n = receive_on_stream(client.get(), buffer, stream)) {
        const bool move = answered >= options.bytes;
        const auto to = move ? static_cast<std::uint16_t>((stream + 1) % streams) : stream;
        if (!send_on_stream(client.get(), buffer.data(), n, to)) {
            break;
        }
        ++answered;
        moved += move ? 1 : 0;
    }
    std::cerr << "answered " << answered << " requests, " << moved << " of them on the next of "
              << streams << " streams\n";
    return 0;
}

int run(const peer_options& options) {
    if (options.what == action::wrong_stream_server) {
        return serve_on_wrong_streams(options);
    }
    const int type = options.style == socket_style::seqpacket ? SOCK_SEQPACKET : SOCK_STREAM;
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = type;
    hints.ai_protocol = IPPROTO_SCTP;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    if (int rc = ::getaddrinfo(options.host.c_str(), options.port.c_str(), &hints, &found);
        rc != 0) {
        std::cerr << "sctp_garbage_peer: bad address " << options.host << " port " << options.port
                  << ": " << ::gai_strerror(rc) << '\n';
        return 2;
    }
    const int fd = ::socket(found->ai_family, type, IPPROTO_SCTP);
    if (fd < 0) {
        int error = errno;
        ::freeaddrinfo(found);
        std::cerr << "sctp_garbage_peer: cannot create an SCTP socket: " << errno_text(error)
                  << " (is the sctp module loaded?)\n";
        return 1;
    }
    peer server(fd, options.style, found->ai_addr, found->ai_addrlen);
    set_timeouts(fd);
    if (options.style == socket_style::seqpacket && !subscribe_to_endings(fd)) {
        std::cerr << "sctp_garbage_peer: cannot subscribe to association events: "
                  << errno_text(errno) << '\n';
        ::freeaddrinfo(found);
        return 1;
    }
    // On a one-to-many socket too, connect() sets up the association and
    // waits for it (bounded by SO_SNDTIMEO), so a failure shows here.
    int rc = ::connect(fd, found->ai_addr, found->ai_addrlen);
    int connect_error = errno;
    ::freeaddrinfo(found);
    if (rc != 0) {
        std::cerr << "sctp_garbage_peer: cannot connect to " << options.host << " port "
                  << options.port << ": " << errno_text(connect_error) << '\n';
        return 1;
    }

    int send_error = 0;
    switch (options.what) {
        case action::garbage: {
            std::uint64_t sent_bytes = server.send_garbage(options.bytes, options.seed, send_error);
            std::cout << "sent " << sent_bytes << " of " << options.bytes << " garbage bytes\n";
            break;
        }
        case action::bad_magic:
            send_error = server.send(test_header(header_magic ^ 0xff));
            std::cout << "sent a test header with magic 0x" << std::hex << (header_magic ^ 0xff)
                      << std::dec << '\n';
            break;
        case action::wrong_stream_server:
            break;  // served above
        case action::wrong_size:
        case action::header_only: {
            send_error = server.send(test_header(header_magic));
            if (send_error != 0) {
                break;
            }
            std::cout << "sent a valid header for " << announced_iterations << " requests of "
                      << announced_request_bytes << " bytes\n";
            bool accepted = false;
            std::cout << server.read_verdict(accepted) << '\n';
            if (!accepted) {
                return 0;  // the server's answer is the outcome
            }
            std::cout << server.read_settings() << '\n';
            if (options.what == action::header_only) {
                std::cout << "closing\n";
                return 0;
            }
            send_error = server.send(std::vector<unsigned char>(options.bytes, 0x5a));
            std::cout << "sent a request of " << options.bytes << " bytes\n";
            break;
        }
    }
    if (send_error != 0) {
        std::cout << "send failed: " << errno_text(send_error) << '\n';
        return 0;
    }
    server.finish_sending();
    std::cout << server.await_server() << '\n';
    return 0;
}

int usage_error(const std::string& what) {
    std::cerr << "sctp_garbage_peer: " << what << '\n'
              << "usage: sctp_garbage_peer [--seqpacket] HOST PORT garbage BYTES [SEED]\n"
              << "       sctp_garbage_peer [--seqpacket] HOST PORT bad-magic|header-only\n"
              << "       sctp_garbage_peer [--seqpacket] HOST PORT wrong-size BYTES\n"
              << "       sctp_garbage_peer HOST PORT wrong-stream-server SKIP\n"
              << "       sctp_garbage_peer --probe\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string_view> args(argv + 1, argv + argc);
    if (args.size() == 1 && args[0] == "--probe") {
        return kernel_has_sctp();
    }
    peer_options options;
    if (!args.empty() && args[0] == "--seqpacket") {
        options.style = socket_style::seqpacket;
        args.erase(args.begin());
    }
    if (args.size() < 3) {
        return usage_error("HOST, PORT and an action are needed");
    }
    const std::string_view name = args[2];
    auto port = parse_number<std::uint16_t>(args[1]);
    if (!port || (*port == 0 && name != "wrong-stream-server")) {
        return usage_error("PORT must be 1..65535, not '" + std::string(args[1]) + "'");
    }
    options.host = args[0];
    options.port = std::to_string(*port);

    const std::vector<std::string_view> rest(args.begin() + 3, args.end());
    if (name == "garbage" && (rest.size() == 1 || rest.size() == 2)) {
        auto bytes = parse_number<std::uint64_t>(rest[0]);
        if (!bytes || *bytes > max_garbage_bytes) {
            return usage_error("BYTES must be 0.." + std::to_string(max_garbage_bytes));
        }
        auto seed = rest.size() == 2 ? parse_number<std::uint32_t>(rest[1])
                                     : std::optional<std::uint32_t>{1};
        if (!seed) {
            return usage_error("SEED must be an unsigned 32-bit number");
        }
        options.bytes = *bytes;
        options.seed = *seed;
    } else if (name == "wrong-size" && rest.size() == 1) {
        auto bytes = parse_number<std::uint64_t>(rest[0]);
        if (!bytes || *bytes < 1 || *bytes > max_request_bytes) {
            return usage_error("wrong-size BYTES must be 1.." + std::to_string(max_request_bytes));
        }
        options.what = action::wrong_size;
        options.bytes = *bytes;
    } else if (name == "bad-magic" && rest.empty()) {
        options.what = action::bad_magic;
    } else if (name == "header-only" && rest.empty()) {
        options.what = action::header_only;
    } else if (name == "wrong-stream-server" && rest.size() == 1 &&
               options.style == socket_style::stream) {
        auto skip = parse_number<std::uint64_t>(rest[0]);
        if (!skip) {
            return usage_error("wrong-stream-server SKIP must be a count of requests");
        }
        options.what = action::wrong_stream_server;
        options.bytes = *skip;
    } else {
        return usage_error("unknown action or wrong arguments: '" + std::string(name) + "'");
    }
    return run(options);
}
