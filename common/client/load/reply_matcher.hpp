// SPDX-License-Identifier: Apache-2.0
#pragma once
// Matches replies to the timed requests of one flow, when several are in
// flight at once.
//
// Every timed request is expected in sequence order. A reply is matched by its
// sequence number and must carry the token its request carried: a peer that
// answers without reading the request cannot know it. Replies may come out of
// order (an unordered SCTP delivery); one that comes twice is a duplicate;
// requests still unanswered when the test ends are counted lost, never
// dropped silently.
//
// Pure: times are carried, never read. Memory grows only with the requests
// in flight, which the socket buffers bound.

#include <chrono>
#include <cstdint>
#include <deque>

namespace sctp_perf {

struct timed_request {
    std::uint64_t sequence = 0;
    std::uint32_t token = 0;
    std::chrono::steady_clock::time_point due;
    std::chrono::steady_clock::time_point sent;
};

class reply_matcher {
  public:
    enum class verdict {
        matched,      // `request` is the one this reply answers
        duplicate,    // its request was answered before
        unknown,      // no timed request has this sequence number
        wrong_token,  // the sequence is known but the token is not its request's
    };
    struct result {
        verdict what = verdict::unknown;
        timed_request request;
    };

    // Sequences must increase from one call to the next.
    void expect(const timed_request& request);
    result match(std::uint64_t sequence, std::uint32_t token);

    std::uint64_t outstanding() const noexcept { return outstanding_; }
    // Gives up on every outstanding request and returns how many there were.
    std::uint64_t abandon_outstanding() noexcept;

  private:
    struct entry {
        timed_request request;
        bool answered = false;
    };
    std::deque<entry> entries_;  // in sequence order; answered ones leave from the front
    std::uint64_t outstanding_ = 0;
    std::uint64_t forgotten_below_ = 0;  // every sequence below this was expected and settled
};

}  // namespace sctp_perf
