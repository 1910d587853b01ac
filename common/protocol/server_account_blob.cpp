// SPDX-License-Identifier: Apache-2.0
#include "protocol/server_account_blob.hpp"

#include <nlohmann/json.hpp>

#include "protocol/blob_member.hpp"

namespace sctp_perf::protocol {

std::string encode_server_account(const server_account& a) {
    nlohmann::ordered_json doc = {
        {"messages_received", a.messages_received},
        {"bytes_received", a.bytes_received},
        {"replies_sent", a.replies_sent},
        {"bytes_sent", a.bytes_sent},
        {"payload_bytes", a.payload_bytes},
        {"reply_bytes", a.reply_bytes},
        {"duration_s", a.duration_s},
        {"cpu_percent", a.cpu_percent},
        {"rss_kib", a.rss_kib},
    };
    if (a.partially_reliable) {
        doc["pr_abandoned"] = a.pr_abandoned;
    }
    if (a.transport) {
        doc["transport"] = encode_transport_counters(*a.transport);
    }
    if (a.paths) {
        doc["paths"] = encode_path_events(*a.paths);
    }
    return doc.dump();
}

std::optional<server_account> decode_server_account(std::string_view text) {
    const auto doc = nlohmann::ordered_json::parse(text.begin(), text.end(), nullptr,
                                                   /*allow_exceptions=*/false);
    if (!doc.is_object()) {
        return std::nullopt;
    }
    const auto count = [&doc](const char* key) {
        return blob_member<std::uint64_t>(doc, key).value_or(0);
    };
    server_account a;
    a.messages_received = count("messages_received");
    a.bytes_received = count("bytes_received");
    a.replies_sent = count("replies_sent");
    a.bytes_sent = count("bytes_sent");
    a.payload_bytes = blob_member<std::uint32_t>(doc, "payload_bytes").value_or(0);
    a.reply_bytes = blob_member<std::uint32_t>(doc, "reply_bytes").value_or(0);
    a.duration_s = blob_member<double>(doc, "duration_s").value_or(0.0);
    a.cpu_percent = blob_member<double>(doc, "cpu_percent").value_or(0.0);
    a.rss_kib = count("rss_kib");
    const auto abandoned = blob_member<std::uint64_t>(doc, "pr_abandoned");
    a.pr_abandoned = abandoned.value_or(0);
    a.partially_reliable = abandoned.has_value();
    if (const auto it = doc.find("transport"); it != doc.end() && it->is_object()) {
        a.transport = decode_transport_counters(*it);
    }
    if (const auto it = doc.find("paths"); it != doc.end() && it->is_object()) {
        a.paths = decode_path_events(*it);
    }
    return a;
}

}  // namespace sctp_perf::protocol
