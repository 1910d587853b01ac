// SPDX-License-Identifier: Apache-2.0
#include "stats/round_trip_split.hpp"

namespace sctp_perf {

void round_trip_split::record(const client_round_trip_stamps& stamps) noexcept {
    if (stamps.arrived_ns == 0 || (transmit_stamped_ && stamps.handed_to_device_ns == 0)) {
        ++missing_stamps_;
        return;
    }
    const auto take = [this](log_linear_histogram& part, std::int64_t ns) {
        negative_parts_ += ns < 0 ? 1 : 0;
        part.record(static_cast<std::uint64_t>(ns < 0 ? 0 : ns));
    };
    if (transmit_stamped_) {
        take(send_stack_, stamps.handed_to_device_ns - stamps.app_send_ns);
        take(beyond_client_, stamps.arrived_ns - stamps.handed_to_device_ns);
    } else {
        take(send_stack_and_beyond_, stamps.arrived_ns - stamps.app_send_ns);
    }
    take(receive_stack_, stamps.app_received_ns - stamps.arrived_ns);
}

void round_trip_split::merge(const round_trip_split& other) noexcept {
    send_stack_.merge(other.send_stack_);
    beyond_client_.merge(other.beyond_client_);
    send_stack_and_beyond_.merge(other.send_stack_and_beyond_);
    receive_stack_.merge(other.receive_stack_);
    missing_stamps_ += other.missing_stamps_;
    negative_parts_ += other.negative_parts_;
    stray_transmit_stamps += other.stray_transmit_stamps;
}

}  // namespace sctp_perf
