// SPDX-License-Identifier: Apache-2.0
// The two JSON blobs a server sends, byte for byte: its settings after the
// verdict, its account after a load test's end reply. The expected texts
// were captured from the encoders as they were before the blobs had their
// own definition in protocol/, so that the wire stays as it was.

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "protocol/blob_member.hpp"
#include "protocol/server_account_blob.hpp"
#include "protocol/server_settings_blob.hpp"

namespace protocol = sctp_perf::protocol;

namespace {

protocol::server_settings_blob tcp_settings() {
    protocol::server_settings_blob s;
    s.protocol_version = 3;
    s.version = "1.0.0";
    s.program = "SOCK_STREAM_srv";
    s.host = "serverhost";
    s.kernel = "Linux 6.1.0 x86_64";
    s.cpu_count = 2;
    s.cpu_affinity = "1";
    s.spin = true;
    s.poll_before_sleep_us = 0;
    s.threads = 2;
    s.data_path = "one-to-one";
    s.transport = "tcp";
    s.nagle = true;
    s.io_timeout_ms = 1500;
    s.sndbuf_bytes = 16384;
    s.rcvbuf_bytes = 131072;
    return s;
}

const char* const tcp_settings_text =
    R"({"protocol_version":3,"version":"1.0.0","program":"SOCK_STREAM_srv","host":"serverhost",)"
    R"("kernel":"Linux 6.1.0 x86_64","cpu_count":2,"cpu_affinity":"1","spin":true,)"
    R"("poll_before_sleep_us":0,"threads":2,)"
    R"("data_path":"one-to-one","transport":"tcp","nagle":true,"io_timeout_ms":1500,)"
    R"("sndbuf_bytes":16384,"rcvbuf_bytes":131072,"sctp_rto":null,"sctp":null})";

protocol::sctp_features_blob four_streams() {
    protocol::sctp_features_blob f;
    f.streams_used = 4;
    f.outbound_streams = 4;
    f.inbound_streams = 10;
    f.unordered = true;
    f.pr_sctp = "none";
    f.pr_supported = true;
    f.sack_delay_ms = 200;
    f.sack_freq = 2;
    f.scheduler = "fcfs";
    f.interleaving = false;
    return f;
}

const char* const four_streams_text =
    R"({"streams_used":4,"outbound_streams":4,"inbound_streams":10,"unordered":true,)"
    R"("pr_sctp":"none","pr_supported":true,"sack_delay_ms":200,"sack_freq":2,)"
    R"("scheduler":"fcfs","interleaving":false})";

protocol::server_account plain_account() {
    protocol::server_account a;
    a.messages_received = 1001;
    a.bytes_received = 16016;
    a.replies_sent = 1000;
    a.bytes_sent = 16000;
    a.payload_bytes = 16;
    a.reply_bytes = 16;
    a.duration_s = 1.25;
    a.cpu_percent = 12.5;
    a.rss_kib = 5120;
    a.transport =
        sctp_perf::transport_counters{"TCP_INFO", {{"retransmitted_segments", 3}, {"rtt_us", 31}}};
    return a;
}

const char* const plain_account_text =
    R"({"messages_received":1001,"bytes_received":16016,"replies_sent":1000,)"
    R"("bytes_sent":16000,"payload_bytes":16,"reply_bytes":16,"duration_s":1.25,)"
    R"("cpu_percent":12.5,"rss_kib":5120,)"
    R"("transport":{"source":"TCP_INFO","retransmitted_segments":3,"rtt_us":31}})";

bool same_account(const protocol::server_account& a, const protocol::server_account& b) {
    return a.messages_received == b.messages_received && a.bytes_received == b.bytes_received &&
           a.replies_sent == b.replies_sent && a.bytes_sent == b.bytes_sent &&
           a.payload_bytes == b.payload_bytes && a.reply_bytes == b.reply_bytes &&
           a.duration_s == b.duration_s && a.cpu_percent == b.cpu_percent &&
           a.rss_kib == b.rss_kib && a.pr_abandoned == b.pr_abandoned &&
           a.partially_reliable == b.partially_reliable &&
           a.transport.has_value() == b.transport.has_value() &&
           (!a.transport || (a.transport->source == b.transport->source &&
                             a.transport->counters == b.transport->counters));
}

}  // namespace

TEST_CASE("settings blob: a TCP server's exact bytes, and back") {
    CHECK(protocol::encode_server_settings(tcp_settings()) == tcp_settings_text);
    CHECK(protocol::decode_server_settings(nlohmann::json::parse(tcp_settings_text)) ==
          tcp_settings());
}

TEST_CASE("settings blob: an SCTP server's exact bytes, and back") {
    auto s = tcp_settings();
    s.transport = "sctp";
    s.sctp_rto = protocol::sctp_rto_blob{1000, 200, 3000};
    s.sctp = four_streams();
    CHECK(protocol::encode_server_settings(s) ==
          std::string(R"({"protocol_version":3,"version":"1.0.0","program":"SOCK_STREAM_srv",)"
                      R"("host":"serverhost","kernel":"Linux 6.1.0 x86_64","cpu_count":2,)"
                      R"("cpu_affinity":"1","spin":true,"poll_before_sleep_us":0,"threads":2,)"
                      R"("data_path":"one-to-one",)"
                      R"("transport":"sctp","nagle":true,"io_timeout_ms":1500,)"
                      R"("sndbuf_bytes":16384,"rcvbuf_bytes":131072,)"
                      R"("sctp_rto":{"initial_ms":1000,"min_ms":200,"max_ms":3000},"sctp":)") +
              four_streams_text + "}");
    CHECK(protocol::encode_sctp_features(four_streams()).dump() == four_streams_text);
    CHECK(protocol::decode_server_settings(
              nlohmann::json::parse(protocol::encode_server_settings(s))) == s);
}

TEST_CASE("settings blob: the boot id and the clocks' gap, last, and back") {
    auto s = tcp_settings();
    s.boot_id = "6a1f0e2d-1111-4222-8333-444455556666";
    s.realtime_minus_monotonic_ns = 1'764'000'000'123'456'789;
    const auto text = protocol::encode_server_settings(s);
    const std::string tail = R"("sctp":null,"boot_id":"6a1f0e2d-1111-4222-8333-444455556666",)"
                             R"("realtime_minus_monotonic_ns":1764000000123456789})";
    CHECK(text.ends_with(tail));
    CHECK(protocol::decode_server_settings(nlohmann::json::parse(text)) == s);
    // An older server's settings have neither: the client then takes the
    // hosts as two.
    const auto old = protocol::decode_server_settings(nlohmann::json::parse(tcp_settings_text));
    CHECK_FALSE(old.boot_id.has_value());
    CHECK_FALSE(old.realtime_minus_monotonic_ns.has_value());
}

TEST_CASE("settings blob: a server's held replies (its test hook), before the boot id") {
    auto s = tcp_settings();
    s.test_reply_delay_us = 20000;
    s.test_wake_delay_us = 5000;
    s.boot_id = "6a1f0e2d-1111-4222-8333-444455556666";
    const auto text = protocol::encode_server_settings(s);
    CHECK(text.ends_with(R"("sctp":null,"test_reply_delay_us":20000,"test_wake_delay_us":5000,)"
                         R"("boot_id":"6a1f0e2d-1111-4222-8333-444455556666"})"));
    CHECK(protocol::decode_server_settings(nlohmann::json::parse(text)) == s);
    // Every other server leaves it out, and a client reads none.
    const auto plain = protocol::decode_server_settings(nlohmann::json::parse(tcp_settings_text));
    CHECK_FALSE(plain.test_reply_delay_us.has_value());
    CHECK_FALSE(plain.test_wake_delay_us.has_value());
}

TEST_CASE("settings blob: workers pinned one each give their CPUs after the thread count") {
    auto s = tcp_settings();
    s.worker_cpus = std::vector<unsigned>{0, 1};
    const auto text = protocol::encode_server_settings(s);
    CHECK(text.find(R"("threads":2,"worker_cpus":[0,1],"data_path")") != std::string::npos);
    CHECK(protocol::decode_server_settings(nlohmann::json::parse(text)) == s);
    // Not pinned one each: no member, as from a server older than it.
    CHECK(protocol::encode_server_settings(tcp_settings()).find("worker_cpus") ==
          std::string::npos);
}

TEST_CASE("settings blob: worker CPUs read as missing unless every one is a CPU number") {
    for (const char* wrong :
         {R"({"worker_cpus":"0,1"})", R"({"worker_cpus":[0,-1]})", R"({"worker_cpus":[0,"1"]})",
          R"({"worker_cpus":[65536]})", R"({"worker_cpus":[1.5]})", R"({"worker_cpus":{"0":0}})"}) {
        INFO(wrong);
        CHECK_FALSE(protocol::decode_server_settings(nlohmann::json::parse(wrong)).worker_cpus);
    }
    CHECK(protocol::decode_server_settings(nlohmann::json::parse(R"({"worker_cpus":[3,65535]})"))
              .worker_cpus == std::vector<unsigned>{3, 65535});
}

TEST_CASE("settings blob: an older server's missing members read as missing") {
    const auto s = protocol::decode_server_settings(
        nlohmann::json::parse(R"({"program":"SOCK_STREAM_srv","nagle":false})"));
    CHECK(s.program == "SOCK_STREAM_srv");
    CHECK(s.nagle == false);
    CHECK_FALSE(s.threads);
    CHECK_FALSE(s.worker_cpus);
    CHECK_FALSE(s.io_timeout_ms);
    CHECK_FALSE(s.poll_before_sleep_us);  // older than --poll-before-sleep: unstated, not 0
    CHECK_FALSE(s.sctp);
    CHECK(protocol::decode_server_settings(nlohmann::json(nullptr)) ==
          protocol::server_settings_blob{});
    CHECK(protocol::decode_server_settings(nlohmann::json::parse("[1,2]")) ==
          protocol::server_settings_blob{});
}

TEST_CASE("settings blob: members of the wrong type or range read as missing") {
    // The fuzzers' cases: a string where a number belongs (json::value()
    // threw), numbers beyond the field's type (a conversion to int of 1e300
    // is undefined), negative counts, and an "sctp" that is not an object.
    const auto s = protocol::decode_server_settings(nlohmann::json::parse(
        R"({"cpu_count":"two","cpu_affinity":7,"nagle":"yes","threads":-1,)"
        R"("sndbuf_bytes":1e300,"rcvbuf_bytes":18446744073709551616,"io_timeout_ms":2.5,)"
        R"("poll_before_sleep_us":-50,"sctp_rto":[1],"sctp":"none"})"));
    CHECK(s == protocol::server_settings_blob{});
    // cpu_count is an unsigned: 2^32 does not fit.
    CHECK_FALSE(
        protocol::decode_server_settings(nlohmann::json::parse(R"({"cpu_count":4294967296})"))
            .cpu_count);
    // Inside "sctp", a member gone wrong reads as the line's default.
    const auto f = protocol::decode_server_settings(
                       nlohmann::json::parse(R"({"sctp":{"outbound_streams":1e300,)"
                                             R"("inbound_streams":4294967296,"scheduler":3,)"
                                             R"("pr_sctp":null,"unordered":1,"sack_freq":7}})"))
                       .sctp;
    REQUIRE(f);
    protocol::sctp_features_blob expected;
    expected.sack_freq = 7;
    CHECK(*f == expected);
}

TEST_CASE("account blob: its exact bytes, with and without PR-SCTP, and back") {
    CHECK(protocol::encode_server_account(plain_account()) == plain_account_text);
    auto pr = plain_account();
    pr.messages_received = 3;
    pr.bytes_received = 48;
    pr.replies_sent = 2;
    pr.bytes_sent = 64;
    pr.reply_bytes = 32;
    pr.duration_s = 0.5;
    pr.cpu_percent = 0.0;
    pr.rss_kib = 4096;
    pr.partially_reliable = true;
    pr.pr_abandoned = 7;
    CHECK(protocol::encode_server_account(pr) ==
          R"({"messages_received":3,"bytes_received":48,"replies_sent":2,"bytes_sent":64,)"
          R"("payload_bytes":16,"reply_bytes":32,"duration_s":0.5,"cpu_percent":0.0,)"
          R"("rss_kib":4096,"pr_abandoned":7,)"
          R"("transport":{"source":"TCP_INFO","retransmitted_segments":3,"rtt_us":31}})");
    for (const auto& account : {plain_account(), pr}) {
        const auto back = protocol::decode_server_account(protocol::encode_server_account(account));
        REQUIRE(back);
        CHECK(same_account(*back, account));
    }
}

TEST_CASE("account blob: what is not a count reads as 0, what is not an object as nothing") {
    CHECK_FALSE(protocol::decode_server_account("[]"));
    CHECK_FALSE(protocol::decode_server_account("{\"messages_received\":"));
    CHECK_FALSE(protocol::decode_server_account(""));
    const auto a = protocol::decode_server_account(
        R"({"messages_received":-3,"bytes_received":1e300,"replies_sent":"7","rss_kib":true,)"
        R"("duration_s":"1","cpu_percent":-2.5,"payload_bytes":4294967296,"pr_abandoned":null,)"
        R"("transport":{"source":5,"rtt_us":31,"lost":-1,"name":"x"}})");
    REQUIRE(a);
    CHECK(a->messages_received == 0);
    CHECK(a->bytes_received == 0);
    CHECK(a->replies_sent == 0);
    CHECK(a->rss_kib == 0);
    CHECK(a->duration_s == 0.0);
    CHECK(a->cpu_percent == -2.5);  // a number, as the client always read it
    CHECK(a->payload_bytes == 0);
    CHECK_FALSE(a->partially_reliable);
    REQUIRE(a->transport);
    CHECK(a->transport->source.empty());
    // "source" was a number: read as a counter, as it always was.
    CHECK(a->transport->counters ==
          std::vector<sctp_perf::transport_counter>{{"source", 5}, {"rtt_us", 31}});
    const auto no_transport = protocol::decode_server_account(R"({"transport":[1]})");
    REQUIRE(no_transport);
    CHECK_FALSE(no_transport->transport);
}

TEST_CASE("blob member: one reader for every type, and every way a peer gets it wrong") {
    const auto doc = nlohmann::json::parse(
        R"({"n":7,"neg":-7,"big":18446744073709551615,"real":2.5,"s":"x","b":true})");
    CHECK(protocol::blob_member<std::uint64_t>(doc, "n") == 7u);
    CHECK(protocol::blob_member<std::uint64_t>(doc, "big") == 18446744073709551615u);
    CHECK_FALSE(protocol::blob_member<int>(doc, "big"));  // beyond int
    CHECK_FALSE(protocol::blob_member<std::uint64_t>(doc, "neg"));
    CHECK_FALSE(protocol::blob_member<std::uint64_t>(doc, "real"));
    CHECK_FALSE(protocol::blob_member<std::uint64_t>(doc, "s"));
    CHECK_FALSE(protocol::blob_member<std::uint64_t>(doc, "missing"));
    CHECK(protocol::blob_member<double>(doc, "real") == 2.5);
    CHECK(protocol::blob_member<double>(doc, "neg") == -7.0);
    CHECK_FALSE(protocol::blob_member<double>(doc, "s"));
    CHECK(protocol::blob_member<std::string>(doc, "s") == "x");
    CHECK_FALSE(protocol::blob_member<std::string>(doc, "n"));
    CHECK(protocol::blob_member<bool>(doc, "b") == true);
    CHECK_FALSE(protocol::blob_member<bool>(doc, "n"));
    // A document built in code holds signed numbers; one >= 0 is a count.
    const nlohmann::json built = {{"n", 5}, {"neg", -5}};
    CHECK(protocol::blob_member<unsigned>(built, "n") == 5u);
    CHECK_FALSE(protocol::blob_member<unsigned>(built, "neg"));
    CHECK_FALSE(protocol::blob_member<unsigned>(nlohmann::json("text"), "n"));
}

TEST_CASE("account blob: a server's path events, and an account without them") {
    auto a = plain_account();
    protocol::path_events_blob paths;
    paths.events = {{1'000'000'000, 1'700'000'000'000'000'000, "unreachable", "10.77.1.1:40000", 0},
                    {2'500'000'000, 1'700'000'001'500'000'000, "available", "10.77.1.1:40000", 0}};
    paths.events_dropped = 3;
    paths.sends_failed = 2;
    a.paths = paths;
    const auto text = protocol::encode_server_account(a);
    CHECK_THAT(text,
               Catch::EndsWith(
                   R"("paths":{"events":[{"monotonic_ns":1000000000,"realtime_ns":)"
                   R"(1700000000000000000,"event":"unreachable","address":"10.77.1.1:40000",)"
                   R"("error":0},{"monotonic_ns":2500000000,"realtime_ns":1700000001500000000,)"
                   R"("event":"available","address":"10.77.1.1:40000","error":0}],)"
                   R"("events_dropped":3,"sends_failed":2}})"));
    const auto back = protocol::decode_server_account(text);
    REQUIRE(back);
    REQUIRE(back->paths);
    CHECK(*back->paths == paths);
    // An account of a server that sends none (TCP, or an older one) decodes
    // as it always did: the counts, and no paths.
    const auto without = protocol::decode_server_account(plain_account_text);
    REQUIRE(without);
    CHECK(same_account(*without, plain_account()));
    CHECK_FALSE(without->paths);
}

TEST_CASE("account blob: path events from a peer not trusted") {
    const auto a = protocol::decode_server_account(
        R"({"paths":{"events":[7,{"monotonic_ns":-1,"event":3,"error":-5},{}],)"
        R"("events_dropped":"many"}})");
    REQUIRE(a);
    REQUIRE(a->paths);
    // The number is skipped; the rest read as their defaults.
    REQUIRE(a->paths->events.size() == 2);
    CHECK(a->paths->events[0].monotonic_ns == 0);
    CHECK(a->paths->events[0].event == "unknown");
    CHECK(a->paths->events[0].error == -5);
    CHECK(a->paths->events_dropped == 0);
    // At most max_path_events kept; the others counted.
    nlohmann::json many = {{"events", nlohmann::json::array()}};
    for (std::size_t i = 0; i < protocol::max_path_events + 5; ++i) {
        many["events"].push_back({{"event", "available"}});
    }
    const auto bounded = protocol::decode_path_events(many);
    CHECK(bounded.events.size() == protocol::max_path_events);
    CHECK(bounded.events_dropped == 5);
    CHECK_FALSE(protocol::decode_server_account(R"({"paths":[1]})")->paths);
}

TEST_CASE("settings blob: an SCTP server's path settings, and an older server's none") {
    protocol::sctp_paths_blob paths;
    paths.hb_interval_ms = 100;
    paths.hb_enabled = true;
    paths.path_max_retrans = 1;
    paths.assoc_max_retrans = 10;
    paths.pf_threshold = 0;
    paths.pf_exposed = true;
    paths.primary = "10.77.1.1:40000";
    paths.pf_enable = 0;
    paths.pf_expose = 0;
    protocol::server_settings_blob s;
    s.transport = "sctp";
    s.sctp_paths = paths;
    const auto text = protocol::encode_server_settings(s);
    CHECK(text ==
          R"({"transport":"sctp","sctp_rto":null,"sctp":null,"sctp_paths":{"hb_interval_ms":100,)"
          R"("hb_enabled":true,"path_max_retrans":1,"assoc_max_retrans":10,"pf_threshold":0,)"
          R"("pf_exposed":true,"primary":"10.77.1.1:40000","pf_enable":0,"pf_expose":0}})");
    const auto back = protocol::decode_server_settings(nlohmann::json::parse(text));
    CHECK(back == s);
    CHECK_FALSE(
        protocol::decode_server_settings(nlohmann::json::parse(tcp_settings_text)).sctp_paths);
}
