// sctp_garbage_peer: a misbehaving SCTP client for the VM checks.
//
// It connects to a stream server over SCTP (one-to-one style socket), sends
// BYTES bytes that are not a valid request, shuts down its sending side and
// reports what the server did: close the connection, reset it, or keep it
// open. The server under test must survive all of it and go on serving
// well-behaved clients.
//
// Plain POSIX sockets on purpose: this program stands outside the code it
// tests, so it shares nothing with the common library, and it has to build
// where the host kernel has no SCTP at all (it only runs in the VM).
//
// Usage: sctp_garbage_peer HOST PORT BYTES [SEED]
//   HOST   numeric IPv4 or IPv6 address of the server
//   PORT   server port
//   BYTES  how many garbage bytes to send (0..16777216)
//   SEED   seed of the pseudo-random bytes (default 1), so runs repeat exactly
// Exit status: 0 the bytes were offered (whatever the server did next),
// 1 connecting failed, 2 usage error.

#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
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

constexpr std::uint64_t max_bytes = 16U * 1024U * 1024U;
// Every blocking call is bounded: a server that neither reads nor closes
// must not hang the check.
constexpr std::chrono::seconds io_timeout{5};

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

// Sends the garbage in messages of varied sizes (SCTP keeps message
// boundaries, so this also varies how the server's reads are cut). Returns
// the number of bytes the kernel accepted before an error, if any.
std::uint64_t send_garbage(int fd, std::uint64_t total_bytes, std::uint32_t seed, int& error) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_int_distribution<std::uint64_t> chunk(1, 9000);
    std::vector<unsigned char> buffer;
    std::uint64_t sent_bytes = 0;
    error = 0;
    while (sent_bytes < total_bytes) {
        buffer.resize(std::min(chunk(random), total_bytes - sent_bytes));
        std::generate(buffer.begin(), buffer.end(),
                      [&] { return static_cast<unsigned char>(byte(random)); });
        // MSG_NOSIGNAL: a server that closes on us is an outcome to report,
        // not a reason to die of SIGPIPE.
        ssize_t n = ::send(fd, buffer.data(), buffer.size(), MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            error = errno;
            break;
        }
        sent_bytes += static_cast<std::uint64_t>(n);
    }
    return sent_bytes;
}

// Reads until the server closes, resets or stays silent past io_timeout.
std::string await_server(int fd) {
    std::vector<char> buffer(65536);
    std::uint64_t received_bytes = 0;
    for (;;) {
        ssize_t n = ::recv(fd, buffer.data(), buffer.size(), 0);
        if (n > 0) {
            received_bytes += static_cast<std::uint64_t>(n);
            continue;
        }
        std::string received = std::to_string(received_bytes) + " bytes back";
        if (n == 0) {
            return "server closed the connection (" + received + ")";
        }
        if (errno == EINTR) {
            continue;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            return "server kept the connection open for " + std::to_string(io_timeout.count()) +
                   " s (" + received + ")";
        }
        return "server ended the connection: " + errno_text(errno) + " (" + received + ")";
    }
}

int run(const std::string& host, const std::string& port, std::uint64_t total_bytes,
        std::uint32_t seed) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_protocol = IPPROTO_SCTP;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    if (int rc = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0) {
        std::cerr << "sctp_garbage_peer: bad address " << host << " port " << port << ": "
                  << ::gai_strerror(rc) << '\n';
        return 2;
    }
    socket_fd fd(::socket(found->ai_family, SOCK_STREAM, IPPROTO_SCTP));
    if (fd.get() < 0) {
        int error = errno;
        ::freeaddrinfo(found);
        std::cerr << "sctp_garbage_peer: cannot create an SCTP socket: " << errno_text(error)
                  << " (is the sctp module loaded?)\n";
        return 1;
    }
    set_timeouts(fd.get());
    int rc = ::connect(fd.get(), found->ai_addr, found->ai_addrlen);
    int connect_error = errno;
    ::freeaddrinfo(found);
    if (rc != 0) {
        std::cerr << "sctp_garbage_peer: cannot connect to " << host << " port " << port << ": "
                  << errno_text(connect_error) << '\n';
        return 1;
    }

    int send_error = 0;
    std::uint64_t sent_bytes = send_garbage(fd.get(), total_bytes, seed, send_error);
    std::cout << "sent " << sent_bytes << " of " << total_bytes << " garbage bytes";
    if (send_error != 0) {
        std::cout << " (send failed: " << errno_text(send_error) << ")";
    }
    std::cout << '\n';
    if (send_error == 0) {
        ::shutdown(fd.get(), SHUT_WR);
        std::cout << await_server(fd.get()) << '\n';
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4 || argc > 5) {
        std::cerr << "usage: sctp_garbage_peer HOST PORT BYTES [SEED]\n";
        return 2;
    }
    auto port = parse_number<std::uint16_t>(argv[2]);
    auto total_bytes = parse_number<std::uint64_t>(argv[3]);
    auto seed = argc == 5 ? parse_number<std::uint32_t>(argv[4]) : std::optional<std::uint32_t>{1};
    if (!port || *port == 0) {
        std::cerr << "sctp_garbage_peer: PORT must be 1..65535, not '" << argv[2] << "'\n";
        return 2;
    }
    if (!total_bytes || *total_bytes > max_bytes) {
        std::cerr << "sctp_garbage_peer: BYTES must be 0.." << max_bytes << ", not '" << argv[3]
                  << "'\n";
        return 2;
    }
    if (!seed) {
        std::cerr << "sctp_garbage_peer: SEED must be an unsigned 32-bit number\n";
        return 2;
    }
    return run(argv[1], std::to_string(*port), *total_bytes, *seed);
}
