// SPDX-License-Identifier: Apache-2.0
#pragma once
// Unpredictable check values for requests: a peer that answers without
// reading a request, or replays an earlier session, cannot know them.
// xorshift64*, a few cycles per draw; seeded from std::random_device.

#include <cstdint>
#include <random>

namespace sctp_perf {

class random_tokens {
  public:
    random_tokens() {
        std::random_device device;
        state_ = (std::uint64_t{device()} << 32 | device()) | 1;
    }
    std::uint64_t next() noexcept {
        state_ ^= state_ >> 12;
        state_ ^= state_ << 25;
        state_ ^= state_ >> 27;
        return state_ * 0x2545F4914F6CDD1DULL;
    }

  private:
    std::uint64_t state_ = 1;
};

}  // namespace sctp_perf
