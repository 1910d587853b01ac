// SPDX-License-Identifier: Apache-2.0
#include "protocol/server_settings_blob.hpp"

#include "protocol/blob_member.hpp"

namespace sctp_perf::protocol {
namespace {

using ordered_json = nlohmann::ordered_json;

template <typename T>
void put(ordered_json& doc, const char* key, const std::optional<T>& value) {
    if (value) {
        doc[key] = *value;
    }
}

}  // namespace

ordered_json encode_sctp_features(const sctp_features_blob& f) {
    return {
        {"streams_used", f.streams_used},
        {"outbound_streams", f.outbound_streams},
        {"inbound_streams", f.inbound_streams},
        {"unordered", f.unordered},
        {"pr_sctp", f.pr_sctp},
        {"pr_supported", f.pr_supported},
        {"sack_delay_ms", f.sack_delay_ms},
        {"sack_freq", f.sack_freq},
        {"scheduler", f.scheduler},
        {"interleaving", f.interleaving},
    };
}

sctp_features_blob decode_sctp_features(const nlohmann::json& doc) {
    sctp_features_blob f;
    f.streams_used = blob_member<std::uint32_t>(doc, "streams_used").value_or(f.streams_used);
    f.outbound_streams =
        blob_member<std::uint32_t>(doc, "outbound_streams").value_or(f.outbound_streams);
    f.inbound_streams =
        blob_member<std::uint32_t>(doc, "inbound_streams").value_or(f.inbound_streams);
    f.unordered = blob_member<bool>(doc, "unordered").value_or(f.unordered);
    f.pr_sctp = blob_member<std::string>(doc, "pr_sctp").value_or(f.pr_sctp);
    f.pr_supported = blob_member<bool>(doc, "pr_supported").value_or(f.pr_supported);
    f.sack_delay_ms = blob_member<std::uint32_t>(doc, "sack_delay_ms").value_or(f.sack_delay_ms);
    f.sack_freq = blob_member<std::uint32_t>(doc, "sack_freq").value_or(f.sack_freq);
    f.scheduler = blob_member<std::string>(doc, "scheduler").value_or(f.scheduler);
    f.interleaving = blob_member<bool>(doc, "interleaving").value_or(f.interleaving);
    return f;
}

namespace {

// An array of CPU numbers (each below 65536, the bound cpu_affinity.hpp
// puts on a CPU list); nothing when any element is not one. Each element is
// read as blob_member reads a count (a document built in code may hold a
// signed one).
std::optional<std::vector<unsigned>> cpu_numbers(const nlohmann::json& doc, const char* key) {
    if (!doc.is_object()) {
        return std::nullopt;
    }
    const auto it = doc.find(key);
    if (it == doc.end() || !it->is_array()) {
        return std::nullopt;
    }
    std::vector<unsigned> cpus;
    for (const auto& element : *it) {
        const auto cpu = blob_member<std::uint16_t>(nlohmann::json{{"cpu", element}}, "cpu");
        if (!cpu) {
            return std::nullopt;
        }
        cpus.push_back(*cpu);
    }
    return cpus;
}

}  // namespace

std::string encode_server_settings(const server_settings_blob& s) {
    ordered_json doc = ordered_json::object();
    put(doc, "protocol_version", s.protocol_version);
    put(doc, "version", s.version);
    put(doc, "program", s.program);
    put(doc, "host", s.host);
    put(doc, "kernel", s.kernel);
    put(doc, "cpu_count", s.cpu_count);
    put(doc, "cpu_affinity", s.cpu_affinity);
    put(doc, "spin", s.spin);
    put(doc, "poll_before_sleep_us", s.poll_before_sleep_us);
    put(doc, "threads", s.threads);
    put(doc, "worker_cpus", s.worker_cpus);
    put(doc, "data_path", s.data_path);
    put(doc, "transport", s.transport);
    put(doc, "nagle", s.nagle);
    put(doc, "io_timeout_ms", s.io_timeout_ms);
    put(doc, "sndbuf_bytes", s.sndbuf_bytes);
    put(doc, "rcvbuf_bytes", s.rcvbuf_bytes);
    put(doc, "bind_device", s.bind_device);
    put(doc, "max_seg_requested_bytes", s.max_seg_requested_bytes);
    put(doc, "max_seg_bytes", s.max_seg_bytes);
    doc["sctp_rto"] = nullptr;
    if (s.sctp_rto) {
        doc["sctp_rto"] = {{"initial_ms", s.sctp_rto->initial_ms},
                           {"min_ms", s.sctp_rto->min_ms},
                           {"max_ms", s.sctp_rto->max_ms}};
    }
    doc["sctp"] = s.sctp ? encode_sctp_features(*s.sctp) : ordered_json(nullptr);
    if (s.sctp_paths) {
        doc["sctp_paths"] = encode_sctp_paths(*s.sctp_paths);
    }
    put(doc, "test_reply_delay_us", s.test_reply_delay_us);
    put(doc, "test_wake_delay_us", s.test_wake_delay_us);
    put(doc, "boot_id", s.boot_id);
    put(doc, "realtime_minus_monotonic_ns", s.realtime_minus_monotonic_ns);
    return doc.dump();
}

server_settings_blob decode_server_settings(const nlohmann::json& doc) {
    server_settings_blob s;
    s.protocol_version = blob_member<std::uint64_t>(doc, "protocol_version");
    s.version = blob_member<std::string>(doc, "version");
    s.program = blob_member<std::string>(doc, "program");
    s.host = blob_member<std::string>(doc, "host");
    s.kernel = blob_member<std::string>(doc, "kernel");
    s.cpu_count = blob_member<unsigned>(doc, "cpu_count");
    s.cpu_affinity = blob_member<std::string>(doc, "cpu_affinity");
    s.spin = blob_member<bool>(doc, "spin");
    s.poll_before_sleep_us = blob_member<std::uint64_t>(doc, "poll_before_sleep_us");
    s.threads = blob_member<std::uint64_t>(doc, "threads");
    s.worker_cpus = cpu_numbers(doc, "worker_cpus");
    s.data_path = blob_member<std::string>(doc, "data_path");
    s.transport = blob_member<std::string>(doc, "transport");
    s.nagle = blob_member<bool>(doc, "nagle");
    s.io_timeout_ms = blob_member<std::uint64_t>(doc, "io_timeout_ms");
    s.sndbuf_bytes = blob_member<std::uint64_t>(doc, "sndbuf_bytes");
    s.rcvbuf_bytes = blob_member<std::uint64_t>(doc, "rcvbuf_bytes");
    s.bind_device = blob_member<std::string>(doc, "bind_device");
    s.max_seg_requested_bytes = blob_member<std::uint64_t>(doc, "max_seg_requested_bytes");
    s.max_seg_bytes = blob_member<std::uint64_t>(doc, "max_seg_bytes");
    s.test_reply_delay_us = blob_member<std::uint64_t>(doc, "test_reply_delay_us");
    s.test_wake_delay_us = blob_member<std::uint64_t>(doc, "test_wake_delay_us");
    s.boot_id = blob_member<std::string>(doc, "boot_id");
    s.realtime_minus_monotonic_ns = blob_member<std::int64_t>(doc, "realtime_minus_monotonic_ns");
    if (doc.is_object()) {
        if (const auto rto = doc.find("sctp_rto"); rto != doc.end() && rto->is_object()) {
            s.sctp_rto = sctp_rto_blob{blob_member<std::uint64_t>(*rto, "initial_ms").value_or(0),
                                       blob_member<std::uint64_t>(*rto, "min_ms").value_or(0),
                                       blob_member<std::uint64_t>(*rto, "max_ms").value_or(0)};
        }
        if (const auto sctp = doc.find("sctp"); sctp != doc.end() && sctp->is_object()) {
            s.sctp = decode_sctp_features(*sctp);
        }
        if (const auto paths = doc.find("sctp_paths"); paths != doc.end() && paths->is_object()) {
            s.sctp_paths = decode_sctp_paths(*paths);
        }
    }
    return s;
}

}  // namespace sctp_perf::protocol
