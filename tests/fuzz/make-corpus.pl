#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# Writes the seed corpus of each fuzz target into tests/fuzz/corpus/TARGET/:
# a handful of valid inputs and a handful of broken ones, each named for what
# it is. The files are committed; run this again after changing it.
#
# Usage: tests/fuzz/make-corpus.pl
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Path qw(make_path);
use Compress::Zlib qw(compress);
use MIME::Base64 qw(encode_base64);

my $corpus = dirname(__FILE__) . '/corpus';
my $magic = 0x53505246;    # "SPRF"

sub seed {
    my ($target, $name, $bytes) = @_;
    make_path("$corpus/$target");
    open my $f, '>:raw', "$corpus/$target/$name" or die "$corpus/$target/$name: $!";
    print {$f} $bytes;
    close $f or die "$corpus/$target/$name: $!";
}

# Test header, version 3: magic u32, version u16, flags u16 (mode in bits
# 0-1, bit 2 server timestamps, bit 3 its receive stamps, bit 4 its transmit
# stamps), payload_bytes u32, iterations u32,
# reply_bytes u32, max_gap_ms u32. Versions 1 and 2 sent the first 16 bytes alone.
sub header { pack 'N n n N N N N', @_ }
sub old_header { pack 'N n n N N', @_ }
# The seeds written here are made again; the files named by a SHA-1 (40 hex
# digits) were captured from a real kernel (sctp_notification) and are kept.
unlink grep { !m{/[0-9a-f]{40}\z} } glob "$corpus/*/*";
seed('test_header', 'ping-pong-128', header($magic, 3, 0, 128, 1100, 0, 0));
seed('test_header', 'rate-16-until-end', header($magic, 3, 1, 16, 0, 0, 2000));
seed('test_header', 'rate-longest-gap', header($magic, 3, 1, 16, 0, 0, 0xffffffff));
seed('test_header', 'throughput-65536', header($magic, 3, 2, 65536, 0, 0, 0));
seed('test_header', 'framed-ping-pong-16', header($magic, 3, 3, 16, 200, 0, 0));
seed('test_header', 'max-iterations', header($magic, 3, 0, 1, 1_000_000_100, 0, 0));
seed('test_header', 'bad-magic', header(0x48545450, 3, 0, 128, 1100, 0, 0));
seed('test_header', 'version-1', old_header($magic, 1, 0, 128, 1100));
seed('test_header', 'version-2', old_header($magic, 2, 0, 128, 1100));
seed('test_header', 'version-2-padded', header($magic, 2, 0, 128, 1100, 0, 0));
seed('test_header', 'version-3-start', old_header($magic, 3, 0, 128, 1100));
seed('test_header', 'unknown-flag', header($magic, 3, 8, 128, 1100, 0, 0));
seed('test_header', 'server-timestamps', header($magic, 3, 4 | 1, 128, 0, 0, 1000));
seed('test_header', 'receive-stamps', header($magic, 3, 4 | 8, 128, 1101, 0, 0));
seed('test_header', 'transmit-stamps', header($magic, 3, 4 | 8 | 16, 128, 1101, 34, 0));
seed('test_header', 'transmit-stamps-framed', header($magic, 3, 4 | 8 | 16 | 3, 128, 200, 0, 0));
seed('test_header', 'transmit-without-receive', header($magic, 3, 4 | 16, 128, 1101, 0, 0));
seed('test_header', 'reply-bytes-valid', header($magic, 3, 1, 128, 0, 4096, 1000));
seed('test_header', 'reply-bytes-too-small', header($magic, 3, 1, 128, 0, 15, 1000));
seed('test_header', 'reply-bytes-too-large', header($magic, 3, 0, 128, 1100, 65537, 0));
seed('test_header', 'payload-0', header($magic, 3, 0, 0, 1100, 0, 0));
seed('test_header', 'payload-65537', header($magic, 3, 0, 65537, 1100, 0, 0));
seed('test_header', 'rate-payload-8', header($magic, 3, 1, 8, 0, 0, 0));
seed('test_header', 'iterations-over-max', header($magic, 3, 0, 1, 1_000_000_101, 0, 0));

# Verdict: magic u32, status u16, version u16; then a blob: length u32, text.
sub verdict { pack 'N n n', @_ }
sub blob { my ($text) = @_; pack('N', length $text) . $text }
my $settings = '{"protocol_version":3,"version":"1.0.0","program":"SOCK_STREAM_srv",'
    . '"host":"h","kernel":"Linux","cpu_count":2,"cpu_affinity":"0-1","transport":"tcp",'
    . '"nagle":false,"spin":false,"sndbuf_bytes":16384,"rcvbuf_bytes":131072,"sctp_rto":null,"sctp":null}';
seed('verdict', 'accepted', verdict($magic, 0, 3) . blob($settings));
seed('verdict', 'accepted-minimal', verdict($magic, 0, 3) . blob('{}'));
seed('verdict', 'server-busy', verdict($magic, 5, 3));
seed('verdict', 'unsupported-feature', verdict($magic, 9, 3));
seed('verdict', 'unknown-status', verdict($magic, 99, 3));
seed('verdict', 'version-1-server', verdict($magic, 2, 0));
seed('verdict', 'version-2-server', verdict($magic, 2, 2));
seed('verdict', 'not-sctp-perf', 'HTTP/1.1 400 Bad');
seed('verdict', 'short', verdict($magic, 0, 3) . 'x');
seed('verdict', 'blob-length-0', verdict($magic, 0, 3) . pack('N', 0));
seed('verdict', 'blob-length-over-max', verdict($magic, 0, 3) . pack('N', 65537));
seed('verdict', 'blob-cut-short', verdict($magic, 0, 3) . pack('N', 100) . '{"a":1}');
seed('verdict', 'settings-not-object', verdict($magic, 0, 3) . blob('[1,2]'));

# Ping-pong: payload selector, iteration selector, then one control byte per
# round trip (0x00 correct, 0x80 + 2 bytes: that reply, 0xff: close).
seed('pingpong_reply', 'all-correct', pack('C C', 7, 5));
seed('pingpong_reply', 'one-byte-payload', pack('C C', 0, 3) . "\x00" x 20);
seed('pingpong_reply', 'raw-reply-in-primer', pack('C C', 7, 5) . "\x00\x00\x80\x00\x7f");
seed('pingpong_reply', 'close-in-primer', pack('C C', 63, 15) . "\x00" x 50 . "\xff");
seed('pingpong_reply', 'close-inside-reply', pack('C C', 7, 1) . "\x80\x00");
seed('pingpong_reply', 'wrong-after-primer', pack('C C', 15, 3) . "\x00" x 101 . "\x80\x01\x02");

# Message headers: sequence u64, token u32, flags u16, reserved u16. The
# fuzz target's flow expects sequences 0..7 with token 0x9e3779b9 * (s + 1).
sub token { (0x9e3779b9 * ($_[0] + 1)) % 2**32 }
sub message { my ($seq, $token, $flags, $reserved) = @_; pack 'Q> N n n', $seq, $token, $flags, $reserved // 0 }
seed('message_header', 'in-order', join '', map { message($_, token($_), 1) } 0 .. 7);
seed('message_header', 'out-of-order', join '', map { message($_, token($_), 1) } 3, 0, 7, 1, 2);
seed('message_header', 'duplicate', message(0, token(0), 1) x 2);
seed('message_header', 'end-of-test', message(7, token(7), 3));
seed('message_header', 'wrong-token', message(2, 12345, 1));
seed('message_header', 'unknown-sequence', message(2**64 - 1, 0, 1));
seed('message_header', 'primer', message(0, token(0), 5));
seed('message_header', 'unknown-flags', message(0, token(0), 8));
seed('message_header', 'reserved-set', message(0, token(0), 1, 1));
seed('message_header', 'short', substr(message(0, token(0), 1), 0, 10));

# Blobs: byte 0 is how many bytes the reader already holds, then the blob.
seed('blob_length', 'all-on-channel', "\x00" . blob('{"a":1}'));
seed('blob_length', 'length-split', "\x03" . blob('{"a":1}'));
seed('blob_length', 'text-split', "\x07" . blob('{"a":1}'));
seed('blob_length', 'all-held', "\xff" . blob('{"a":1}'));
seed('blob_length', 'length-0', "\x00" . pack('N', 0));
seed('blob_length', 'length-over-max', "\x00" . pack('N', 65537) . 'x');
seed('blob_length', 'length-all-ones', "\x02" . pack('N', 0xffffffff));
seed('blob_length', 'cut-short', "\x00" . pack('N', 50) . '{"a":');
seed('blob_length', 'empty', "\x00");

# JSON as the server sends it (settings, a load test's account), then not.
my $sctp = '{"streams_used":4,"outbound_streams":10,"inbound_streams":10,"unordered":false,'
    . '"pr_sctp":"ttl:100","pr_supported":true,"sack_delay_ms":200,"sack_freq":2,'
    . '"scheduler":"fcfs","interleaving":false}';
(my $sctp_settings = $settings) =~ s/"sctp":null/"sctp":$sctp/;
seed('blob_json', 'settings-tcp', $settings);
seed('blob_json', 'settings-sctp', $sctp_settings);
seed('blob_json', 'account',
    '{"messages_received":1100,"bytes_received":140800,"replies_sent":1100,"duration_s":1.5,'
        . '"cpu_percent":12.5,"rss_kib":4096,"pr_abandoned":0,'
        . '"transport":{"source":"TCP_INFO","retransmitted_segments":0,"rtt_us":31}}');
seed('blob_json', 'empty-object', '{}');
seed('blob_json', 'array', '[1,2,3]');
seed('blob_json', 'cut-short', '{"messages_received":');
seed('blob_json', 'wrong-types', '{"messages_received":"many","duration_s":true,"transport":[1]}');
seed('blob_json', 'negative-and-huge', '{"messages_received":-1,"rss_kib":1e300,"cpu_percent":-1e300}');
seed('blob_json', 'sctp-wrong-types', '{"sctp":{"streams_used":"4","unordered":1,"pr_sctp":7}}');
seed('blob_json', 'sctp-huge-numbers', '{"sctp":{"streams_used":1e300,"outbound_streams":-5,'
    . '"sack_freq":18446744073709551615,"pr_sctp":"ttl:99999999999999999999"}}');
seed('blob_json', 'bad-utf8', "{\"host\":\"\xff\xfe\"}");
seed('blob_json', 'deep', '[' x 200 . ']' x 200);

# SCTP notifications, in the host's byte order as the kernel writes them:
# SCTP_ASSOC_CHANGE (type 0x8001) type u16, flags u16, length u32, state u16,
# error u16, outbound u16, inbound u16, assoc id s32; SCTP_SHUTDOWN_EVENT
# (0x8005) type, flags, length, assoc id. States: 0 COMM_UP, 1 COMM_LOST,
# 2 RESTART, 3 SHUTDOWN_COMP, 4 CANT_STR_ASSOC.
sub assoc_change { my ($state, $id) = @_; pack 'S S L S S S S l', 0x8001, 0, 20, $state, 0, 10, 10, $id }
seed('sctp_notification', 'comm-up', assoc_change(0, 7));
seed('sctp_notification', 'comm-lost', assoc_change(1, 7));
seed('sctp_notification', 'shutdown-comp', assoc_change(3, 9));
seed('sctp_notification', 'assoc-change-cut', substr(assoc_change(0, 7), 0, 17));
seed('sctp_notification', 'shutdown-event', pack('S S L l', 0x8005, 0, 12, 7));
seed('sctp_notification', 'peer-addr-change', pack('S S L', 0x8002, 0, 148) . ("\0" x 140));
# SCTP_PEER_ADDR_CHANGE as Linux 6.1 wrote them, captured in the VM check
# path_notifications (tests/vm/sctp_notification_capture.cpp): type,
# flags, length 148, the peer's sockaddr_storage (AF_INET, its port and
# address in network order), state, error, assoc id. States: 0 AVAILABLE,
# 1 UNREACHABLE, 5 CONFIRMED, 6 POTENTIALLY_FAILED.
sub paddr_change {
    my ($port, $address, $state, $id) = @_;
    pack('S S L', 0x8002, 0, 148) . pack('S n C4', 2, $port, split /\./, $address) . ("\0" x 120)
        . pack('l l l', $state, 0, $id);
}
seed('sctp_notification', 'captured-unreachable', paddr_change(45999, '10.77.1.2', 1, 13));
seed('sctp_notification', 'captured-available', paddr_change(45999, '10.77.1.2', 0, 13));
seed('sctp_notification', 'captured-confirmed', paddr_change(60419, '10.77.2.1', 5, 14));
seed('sctp_notification', 'captured-potentially-failed', paddr_change(45999, '10.77.1.2', 6, 15));
seed('sctp_notification', 'paddr-change-cut', substr(paddr_change(45999, '10.77.1.2', 1, 13), 0, 147));
# SCTP_SEND_FAILED_EVENT (0x800d): type, flags (2: SCTP_DATA_SENT), length,
# error, the 16-byte sctp_sndinfo, assoc id, then the data not delivered.
seed('sctp_notification', 'send-failed-event',
    pack('S S L L S S L L l l', 0x800d, 2, 48, 0, 0, 0, 0, 0, 0, 7) . 'undelivered data');
seed('sctp_notification', 'one-byte', "\x01");

# HdrHistogram's V2 encoding of our layout: cookie, payload length, offset 0,
# 3 digits, lowest 1, highest 2^44 - 1, ratio 1.0; then ZigZag LEB128
# counts. Compressed: cookie, deflated length, zlib; in base64 as reports and
# logs hold it. Counts 9 4 0 2: 5 empty buckets, 2 x 5 ns, 0 x 6 ns, 1 x 7 ns.
sub v2 { my ($counts) = @_; pack('N N N N Q> Q> d>', 0x1c849313, length $counts, 0, 3, 1, 2**44 - 1, 1.0) . $counts }
sub v2_compressed { my $z = compress($_[0], 9); encode_base64(pack('N N', 0x1c849314, length $z) . $z, '') }
my $small = v2("\x09\x04\x00\x02");
my $log = "#[Histogram log format version 1.3]\n"
    . "#[StartTime: 1700000000.123 (seconds since epoch), Tue Nov 14 22:13:20 UTC 2023]\n"
    . "#[BaseTime: 1700000000.123 (seconds since epoch)]\n"
    . "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n"
    . '0.000,1.000,0.000,' . v2_compressed($small) . "\n"
    . 'Tag=uncorrected,0.000,1.000,0.000,' . v2_compressed(v2("\x02")) . "\n";
seed('histogram_log', 'v2-small', $small);
seed('histogram_log', 'v2-two-byte-count', v2("\xd8\x04"));
seed('histogram_log', 'v2-run-past-end', v2("\xff\xf0\x04"));
seed('histogram_log', 'v2-bad-digits', pack('N N N N Q> Q> d>', 0x1c849313, 1, 0, 2, 1, 2**44 - 1, 1.0) . "\x02");
seed('histogram_log', 'compressed-small', v2_compressed($small));
seed('histogram_log', 'compressed-cut', substr(v2_compressed($small), 0, 24));
seed('histogram_log', 'compressed-bomb', v2_compressed("\0" x 400_000));
seed('histogram_log', 'log-two-series', $log);
seed('histogram_log', 'log-no-start-time', join("\n", grep { !/Time:/ } split /\n/, $log));
