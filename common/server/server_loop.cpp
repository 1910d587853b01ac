// SPDX-License-Identifier: Apache-2.0
#include "server/server_loop.hpp"

#include <netinet/in.h>

#include <boost/asio/post.hpp>

#include "server/busy_refusal.hpp"
#include "server/server_log.hpp"
#include "transport/sctp_delivery.hpp"
#include "transport/sctp_features.hpp"
#include "transport/sctp_path_settings.hpp"
#include "transport/sctp_tuning.hpp"
#include "transport/socket_device.hpp"
#include "transport/socket_setup.hpp"

namespace sctp_perf {

server_loop::server_loop(const server_options& options, const program_info& program)
    : signals_(io_, SIGINT, SIGTERM),
      idle_timer_(io_),
      retry_timer_(io_),
      idle_report_(options.idle_report),
      // After io_.stop() the posted handler never runs: stop_all() ends
      // the workers instead.
      sessions_(options.threads, options.max_clients, read_server_identity(options, program),
                [this] { boost::asio::post(io_, [this] { session_ended(); }); }),
      header_timeout_(options.header_timeout) {}

void server_loop::run(const std::function<void()>& stop_listening) {
    signals_.async_wait([this, &stop_listening](const boost::system::error_code& ec, int signal) {
        if (ec) {
            return;
        }
        log_info("stopping on signal {}", signal);
        stop_listening();
        io_.stop();
    });
    arm_idle_timer();
    io_.run();
    sessions_.stop_all();
}

void server_loop::client_arrived(const std::string& peer) {
    if (running_sessions_ == 0) {
        arm_idle_timer();
    }
    const auto colon = peer.rfind(':');
    log_line(log_level::info, "spawning server");
    log_info("client {} connected from {}", peer.substr(0, colon),
             colon == std::string::npos ? "?" : peer.substr(colon + 1));
}

void server_loop::serve(std::unique_ptr<message_channel> channel, std::string peer) {
    if (auto refused = sessions_.start(std::move(channel), peer)) {
        refuse_as_busy(io_, std::move(refused), std::move(peer), header_timeout_);
        return;
    }
    session_started();
}

void server_loop::session_started() {
    ++running_sessions_;
    park_idle_timer();
}

void server_loop::session_ended() {
    --running_sessions_;
    if (running_sessions_ == 0) {
        arm_idle_timer();  // a full period from the end of the last test
    }
}

void server_loop::retry_after_failure(const std::string& failure, std::function<void()> retry) {
    if (failure != listener_failure_) {
        log_error("{}; retrying until it works again, at most every second", failure);
        listener_failure_ = failure;
        listener_retry_delay_ = std::chrono::milliseconds(10);
    } else {
        listener_retry_delay_ =
            std::min(2 * listener_retry_delay_, std::chrono::milliseconds(1000));
    }
    ++listener_failures_;
    retry_timer_.expires_after(listener_retry_delay_);
    retry_timer_.async_wait([retry = std::move(retry)](const boost::system::error_code& ec) {
        if (!ec) {
            retry();
        }
    });
}

void server_loop::listener_recovered() {
    if (listener_failure_.empty()) {
        return;
    }
    // An error line too: with --quiet it closes the episode the log showed.
    log_error("the listener works again, after {} failed attempts ({})", listener_failures_,
              listener_failure_);
    listener_failure_.clear();
    listener_failures_ = 0;
}

void server_loop::arm_idle_timer() {
    const auto arming = ++idle_arming_;
    idle_timer_.expires_after(idle_report_);
    idle_timer_.async_wait([this, arming](const boost::system::error_code& ec) {
        // Re-armed by a new client, parked by a session, or stopping. A
        // wait whose expiry was already queued when that happened (an event
        // loop held up past it) completes without an error all the same;
        // were it to log and re-arm, idle lines would come during the test.
        if (ec || arming != idle_arming_) {
            return;
        }
        log_line(log_level::info, "select timed out");
        arm_idle_timer();
    });
}

void server_loop::park_idle_timer() {
    ++idle_arming_;
    // Not cancel(): Asio's epoll reactor leaves its timerfd set for a
    // cancelled timer and would wake once, mid-test, at the old expiry. A
    // wait that never ends, in its place, makes the reactor set the timerfd
    // anew, for its next real timer (or its own 5-minute clock check).
    idle_timer_.expires_at(boost::asio::steady_timer::time_point::max());
    idle_timer_.async_wait([](const boost::system::error_code&) {});
}

unique_fd open_listening_socket(int family, int type, bool dual_stack,
                                const common_options& options) {
    unique_fd fd = open_socket(family, type, options.transport);
    set_int_option(fd.get(), SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR");
    // Both inherited by every connection accepted or association peeled off.
    if (!options.bind_device.empty()) {
        bind_to_device(fd.get(), options.bind_device);
    }
    if (options.max_seg_bytes) {  // before listening: the SYN-ACK or INIT-ACK carries it
        apply_max_segment(fd.get(), options.transport, *options.max_seg_bytes);
    }
    if (family == AF_INET6 && dual_stack) {
        set_int_option(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, 0, "IPV6_V6ONLY off");
    }
    if (options.transport == transport_protocol::sctp) {
        apply_sctp_rto(fd.get(), options.sctp_rto);
        apply_sctp_features(fd.get(), options.sctp);
        apply_sctp_path_settings(fd.get(), options.sctp_paths);
    }
    set_nagle(fd.get(), options.transport, options.nagle);
    // TCP also chooses its window scale to fit the receive buffer here.
    apply_socket_buffers(fd.get(), options.buffers);
    return fd;
}

void log_device_and_segment(int fd, const common_options& options) {
    if (!options.bind_device.empty()) {
        log_info("bound to device {} (SO_BINDTODEVICE, read back)", bound_device_of(fd));
    }
    if (options.max_seg_bytes) {
        log_info(
            "segment size: {} bytes asked, {} read back from the listening socket; each "
            "client's report gives its connection's",
            *options.max_seg_bytes, read_max_segment(fd, options.transport));
    }
}

void prepare_session_socket(int fd, const common_options& options) {
    set_blocking(fd);
    set_nagle(fd, options.transport, options.nagle);
    set_io_timeout(fd, options.io_timeout);
    apply_socket_buffers(fd, options.buffers);
    if (options.transport == transport_protocol::sctp) {
        apply_sctp_rto(fd, options.sctp_rto);
        // Each reply goes back on its request's stream, with its ordering.
        enable_receive_info(fd);
    }
}

}  // namespace sctp_perf
