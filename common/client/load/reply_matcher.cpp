// SPDX-License-Identifier: Apache-2.0
#include "client/load/reply_matcher.hpp"

#include <algorithm>

namespace sctp_perf {

void reply_matcher::expect(const timed_request& request) {
    entries_.push_back({request, false});
    ++outstanding_;
}

reply_matcher::result reply_matcher::match(std::uint64_t sequence, std::uint32_t token) {
    // In-order replies hit the front; a later one is found by binary search.
    auto it = entries_.begin();
    if (it == entries_.end() || it->request.sequence != sequence) {
        it = std::lower_bound(
            entries_.begin(), entries_.end(), sequence,
            [](const entry& e, std::uint64_t s) { return e.request.sequence < s; });
    }
    if (it == entries_.end() || it->request.sequence != sequence) {
        return {sequence < forgotten_below_ ? verdict::duplicate : verdict::unknown, {}};
    }
    if (it->request.token != token) {
        return {verdict::wrong_token, it->request};
    }
    if (it->answered) {
        return {verdict::duplicate, it->request};
    }
    it->answered = true;
    --outstanding_;
    const result found{verdict::matched, it->request};
    while (!entries_.empty() && entries_.front().answered) {
        forgotten_below_ = entries_.front().request.sequence + 1;
        entries_.pop_front();
    }
    return found;
}

std::uint64_t reply_matcher::abandon_outstanding() noexcept {
    const auto lost = outstanding_;
    if (!entries_.empty()) {
        forgotten_below_ = entries_.back().request.sequence + 1;
    }
    entries_.clear();
    outstanding_ = 0;
    return lost;
}

}  // namespace sctp_perf
