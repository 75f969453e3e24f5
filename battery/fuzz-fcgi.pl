#!/usr/bin/perl
# Phase 2 of battery/run: malformed FastCGI records straight to the pool's socket, one connection
# each: random bytes, records cut short, unknown types and roles, name-value lengths that overrun
# their record, bodies shorter than CONTENT_LENGTH, management records, aborts mid-request.
# Core Perl only. Usage: fuzz-fcgi.pl SOCKET COUNT SEED; prints `fuzz-fcgi-result sent=N`.
use strict;
use warnings;
use IO::Socket::UNIX;
use Time::HiRes qw(time);

my ($path, $count, $seed) = @ARGV;
die "usage: fuzz-fcgi.pl SOCKET COUNT SEED\n" unless defined $seed;
$SIG{PIPE} = 'IGNORE';
srand $seed;

sub pick { $_[ int rand @_ ] }
sub randbytes { join '', map { chr int rand 256 } 1 .. $_[0] }

sub record {
    my ($type, $content, %r) = @_;
    my $padding = (8 - length($content) % 8) % 8;
    return pack('CCnnCC', $r{version} // 1, $type, $r{id} // 1, $r{length} // length($content),
        $padding, 0) . $content . ("\0" x $padding);
}

sub nv { my $n = shift; $n < 128 ? pack('C', $n) : pack('N', $n | 0x80000000) }
sub params { join '', map { nv(length $_->[0]) . nv(length $_->[1]) . $_->[0] . $_->[1] } @_ }

my $begin = record(1, pack('nCx5', 1, 1));
my @get = (['REQUEST_METHOD', 'GET'], ['PATH_INFO', '/healthz'], ['SCRIPT_NAME', '']);

my @cases = (
    sub { randbytes(1 + int rand 2000) },
    sub { substr($begin . record(4, params(@get)) . record(4, ''), 0, int rand 60) },
    sub { record(int rand 256, randbytes(int rand 300)) },
    sub { record(pick(1, 4, 5), randbytes(int rand 100), length => int rand 65536) },
    sub { record(1, pack('nCx5', pick(0, 2, 3, 99, 65535), int rand 256)) . record(4, params(@get)) },
    sub { $begin . record(4, nv(200) . nv(5) . 'AB') . record(4, '') },
    sub { $begin . record(4, pack('N', 0x80001000) . pack('N', 0x80000010) . 'x' x 20) },
    sub { $begin . record(4, params(@get, ['CONTENT_LENGTH', pick('100', '-1', '99999999999', 'x')],
        ['REQUEST_METHOD', 'POST'])) . record(4, '') . record(5, '{"a":') . record(5, '') },
    sub { record(9, params(['FCGI_MAX_CONNS', ''], ['FCGI_MPXS_CONNS', '']), id => 0) },
    sub { record(pick(1, 4, 5), randbytes(40), version => int rand 256) },
    sub { $begin . record(4, params(@get)) . record(2, '') . record(4, '') },
    sub { $begin . record(1, pack('nCx5', 1, 1), id => 2) . record(4, params(@get), id => 2) },
    sub { $begin . record(4, params(@get)) . record(4, '') . record(5, '') . randbytes(64) },
    sub { $begin . record(4, params(['PATH_INFO', "/v1/book/\xff\0"], ['REQUEST_METHOD', "G\0T"],
        ['HTTP_CONTENT_LENGTH', '5'])) . record(4, '') },
);

my $sent = 0;
for (1 .. $count) {
    my $sock = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Peer => $path) or next;
    binmode $sock;
    syswrite($sock, pick(@cases)->());
    $sent++;
    # Whatever comes back within 0.2 s is read, then the connection is dropped.
    my ($rin, $start) = ('', time);
    vec($rin, fileno($sock), 1) = 1;
    while (time - $start < 0.2) {
        my $rout = $rin;
        last unless select($rout, undef, undef, 0.2 - (time - $start));
        last unless sysread($sock, my $buf, 65536);
    }
    close $sock;
}
print "fuzz-fcgi-result sent=$sent\n";
