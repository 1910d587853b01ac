# SPDX-License-Identifier: Apache-2.0
# The config file of the original script: the first double-quoted string on a line
# that is not commented out holds client options.
use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use FindBin ();
use lib "$FindBin::Bin/lib";
use File::Temp ();
use Test::More;
use SctpPerf::TestSweep qw(load_script);

load_script();

sub words($text) { return SctpPerf::RunSpectrum::Options::parse_config_text($text, 'test.config') }

is_deeply words(qq{"-c 1000"\n}), [qw(-c 1000)], 'one quoted string';
is_deeply words(qq{  "-c   1000  -n"  }), [qw(-c 1000 -n)], 'split at any white space';
is_deeply words(qq{# "-c 5"\n"-c 7"\n}), [qw(-c 7)], 'a commented-out line is skipped';
is_deeply words(qq{   # indented comment "-c 5"\n"-c 7"}), [qw(-c 7)], 'an indented comment too';
is_deeply words(qq{options: "-c 9" "-n"\n"-c 8"\n}), [qw(-c 9)], 'only the first string of the first line that has one';
is_deeply words(qq{"-c 9" # trailing comment "-n"}), [qw(-c 9)], 'a comment after the string is ignored';
is_deeply words(qq{no quotes here\n\n"-M 500"\n}), [qw(-M 500)], 'lines without a string are skipped';
is_deeply words(qq{""\n"-c 3"}), [], 'an empty string means no options';
is_deeply words(qq{"-i /Some/Path"}), ['-i', '/Some/Path'], 'case kept';
is_deeply words(qq{"-c 1000"\r\n}), [qw(-c 1000)], 'CRLF line ends';

for my $text ("", "# \"-c 5\"\n", "just words\n", qq{-c "1000}) {
    my $error = eval { words($text); undef } // $@;
    ok ref $error && $error->{status} == 2, 'no string: usage error' or diag explain $error;
    like $error->{message}, qr/config file 'test\.config' holds no double-quoted string/, 'says so';
}

subtest 'read from a file' => sub {
    my $dir = File::Temp->newdir;
    my $path = "$dir/My.Config";
    open my $fh, '>', $path or die;
    print {$fh} qq{# run_spectrum.config\n#"-c 1"\n"-c 1000 -m 5"\n};
    close $fh;
    is_deeply SctpPerf::RunSpectrum::Options::read_config_file($path), [qw(-c 1000 -m 5)], 'words from the file';

    my $s = SctpPerf::RunSpectrum::Options::validate_options(
        SctpPerf::RunSpectrum::Options::parse_arguments('--config_file', $path, '--', '-n'));
    is $s->{config_file}, $path, '--config_file (original spelling) is taken, path case kept';
    is_deeply $s->{config_args}, [qw(-c 1000 -m 5)], 'config options';
    is_deeply [ SctpPerf::RunSpectrum::Commands::client_command($s, '/bin/clt', SctpPerf::RunSpectrum::Options::power_size(3), '/tmp/x.json') ],
              [qw(/bin/clt -s 3 --json-file /tmp/x.json -t sctp -c 1000 -m 5 -n)],
              'client gets config options, then options after --';

    my $error = eval {
        SctpPerf::RunSpectrum::Options::validate_options(
            SctpPerf::RunSpectrum::Options::parse_arguments('--config-file', $path, '--iterations', '10'));
        undef;
    } // $@;
    like $error->{message}, qr/client option '-c' in --config-file cannot be used: .*--iterations/,
        '-c in the file clashes with --iterations';

    $error = eval { SctpPerf::RunSpectrum::Options::read_config_file($dir); undef } // $@;
    is $error->{status}, 2, 'a directory: usage error';
    like $error->{message}, qr/config file '\Q$dir\E' is a directory, not a file/, 'said plainly';

    $error = eval { SctpPerf::RunSpectrum::Options::read_config_file("$dir/missing.config"); undef } // $@;
    is $error->{status}, 2, 'missing file: usage error';
    like $error->{message}, qr/cannot read config file '\Q$dir\E\/missing\.config': No such file/, 'missing file named';
};

subtest 'the load options are the script\'s, not the config file\'s' => sub {
    my $dir = File::Temp->newdir;
    my $with = sub ($options, @args) {
        open my $fh, '>', "$dir/load.config" or die;
        print {$fh} qq{"$options"\n};
        close $fh;
        return eval {
            SctpPerf::RunSpectrum::Options::validate_options(
                SctpPerf::RunSpectrum::Options::parse_arguments('--config-file', "$dir/load.config", @args));
        } // $@;
    };
    for my $case ([ '--rate 2000', '--rate' ], [ '--throughput', '--throughput' ],
                  [ '--duration 1.5', '--duration' ], [ '--flows 8', '--flows' ]) {
        my ($options, $name) = @$case;
        my $error = $with->($options);
        is ref $error && $error->{status}, 2, "$options in the file: usage error";
        like $error->{message}, qr/client option '\Q$name\E' in --config-file cannot be used: .*run_spectrum\.pl's own \Q$name\E option/,
            "$options in the file: names the script's option";
    }
    my $error = $with->('-c 1000 -n', qw(--rate 10 --duration 2));
    like $error->{message}, qr/client option '-c' in --config-file cannot be used: the script runs each size for --duration/,
        'a -c in the file clashes with --duration';
    is_deeply $with->('-c 1000 --echo-every 5', qw(--rate 10))->{config_args}, [qw(-c 1000 --echo-every 5)],
        'without --duration, -c and the client\'s other load options are the file\'s';
};

done_testing;
