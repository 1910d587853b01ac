// SPDX-License-Identifier: Apache-2.0
#include "client/seqpack_flow_setup.hpp"

#include <sys/epoll.h>

#include "client/flow_setup_loop.hpp"
#include "client/seqpack_client.hpp"
#include "transport/seqpacket_channel.hpp"
#include "transport/seqpacket_connector.hpp"

namespace sctp_perf {
namespace {

// Every association binds the same -i addresses and reaches the same -H
// addresses, so the routes are resolved once for all.
class seqpack_dialer final : public flow_dialer {
  public:
    explicit seqpack_dialer(const client_options& options)
        : options_(options),
          request_(seqpack_connect_request(options)),
          routes_(resolve_seqpacket_routes(request_)) {}

    std::size_t routes(unsigned) const override { return routes_.size(); }

    connect_start start(unsigned, std::size_t route) override {
        const auto& chosen = routes_[route];
        connect_start started;
        if (!chosen.unusable.empty()) {
            started.unusable = chosen.unusable;
            return started;
        }
        started.socket = start_seqpacket_connect(request_, chosen, started.failure);
        return started;
    }

    // A one-to-many socket is writable before its association is up; the
    // notification of its coming up (or failing) makes it readable.
    std::uint32_t connect_events() const override { return EPOLLIN; }

    int advance(unique_fd& socket, std::unique_ptr<message_channel>& channel) override {
        const auto progress = seqpacket_connect_progress(socket.get());
        if (progress.up) {
            // The one-to-many socket stays in `socket`, for the loop to close.
            seqpacket_association association{peel_off_association(socket.get(), progress.id),
                                              progress.id};
            channel = seqpack_connection(std::move(association), options_).channel;
        }
        return progress.failure;
    }

    connect_error failure(unsigned, const std::string& last_reason, bool refused) const override {
        return seqpacket_connect_failure(request_, last_reason, refused);
    }

  private:
    const client_options& options_;
    seqpacket_connect_request request_;
    std::vector<seqpacket_route> routes_;
};

}  // namespace

void connect_seqpack_flows(const client_options& options, const protocol::test_header& header,
                           std::vector<std::unique_ptr<message_channel>>& channels) {
    seqpack_dialer dialer(options);
    connect_flows_at_once(dialer, options, header, channels);
}

std::unique_ptr<flow_dialer> seqpack_flow_dialer(const client_options& options) {
    return std::make_unique<seqpack_dialer>(options);
}

}  // namespace sctp_perf
