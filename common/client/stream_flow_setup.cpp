// SPDX-License-Identifier: Apache-2.0
#include "client/stream_flow_setup.hpp"

#include <sys/epoll.h>

#include <algorithm>

#include "client/flow_setup_loop.hpp"
#include "client/stream_client.hpp"
#include "transport/stream_connector.hpp"

namespace sctp_perf {
namespace {

// With several -i addresses, flow k binds address k modulo their number,
// and with several servers connects to server k modulo theirs, so the
// routes are resolved once per pair of local address and server: flows k
// and k + A * S go the same way.
class stream_dialer final : public flow_dialer {
  public:
    explicit stream_dialer(const client_options& options)
        : options_(options),
          pairs_(std::max<std::size_t>(1, options.client_addresses.size()) *
                 std::max<std::size_t>(1, options.servers.size())) {
        for (unsigned pair = 0; pair < pairs_; ++pair) {
            routes_.push_back(resolve_routes(stream_connect_request(options, pair)));
        }
    }

    std::size_t routes(unsigned flow) const override { return routes_of(flow).size(); }

    connect_start start(unsigned flow, std::size_t route) override {
        const auto& chosen = routes_of(flow)[route];
        connect_start started;
        if (!chosen.unusable.empty()) {
            started.unusable = chosen.unusable;
            return started;
        }
        started.socket =
            start_connect(stream_connect_request(options_, flow), chosen, started.failure);
        return started;
    }

    std::uint32_t connect_events() const override { return EPOLLOUT; }

    int advance(unique_fd& socket, std::unique_ptr<message_channel>& channel) override {
        const int failure = connect_outcome(socket.get());
        if (failure == 0) {
            channel = stream_connection(std::move(socket), options_).channel;
        }
        return failure;
    }

    connect_error failure(unsigned flow, const std::string& last_reason,
                          bool refused) const override {
        return connect_failure(stream_connect_request(options_, flow), last_reason, refused);
    }

  private:
    const std::vector<connect_route>& routes_of(unsigned flow) const {
        return routes_[flow % pairs_];
    }

    const client_options& options_;
    std::size_t pairs_;                               // local addresses times servers
    std::vector<std::vector<connect_route>> routes_;  // per pair, as flow k % pairs_ uses it
};

}  // namespace

void connect_stream_flows(const client_options& options, const protocol::test_header& header,
                          std::vector<std::unique_ptr<message_channel>>& channels) {
    stream_dialer dialer(options);
    connect_flows_at_once(dialer, options, header, channels);
}

std::unique_ptr<flow_dialer> stream_flow_dialer(const client_options& options) {
    return std::make_unique<stream_dialer>(options);
}

}  // namespace sctp_perf
