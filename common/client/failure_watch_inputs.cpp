// SPDX-License-Identifier: Apache-2.0
#include "client/failure_watch_inputs.hpp"

namespace sctp_perf {

std::vector<message_channel*> channels_of(
    const std::vector<std::unique_ptr<message_channel>>& channels) {
    std::vector<message_channel*> raw;
    raw.reserve(channels.size());
    for (const auto& channel : channels) {
        raw.push_back(channel.get());
    }
    return raw;
}

std::vector<std::optional<protocol::path_events_blob>> server_paths_of(const load_result& result) {
    std::vector<std::optional<protocol::path_events_blob>> paths(result.per_flow.size());
    for (const auto& flow : result.per_flow) {
        if (flow.flow < paths.size()) {
            paths[flow.flow] = flow.server.paths;
        }
    }
    return paths;
}

std::vector<nlohmann::json> server_settings_of(const run_report& described) {
    if (described.servers.size() <= 1) {
        return {described.server_settings};
    }
    std::vector<nlohmann::json> settings;
    for (const auto& server : described.servers) {
        settings.push_back(server.settings);
    }
    return settings;
}

}  // namespace sctp_perf
