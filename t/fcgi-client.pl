#!/usr/bin/perl
# A FastCGI peer for tests that talk to the pool's socket directly, the way nginx does or the way
# a broken or hostile peer would. Core Perl only. Usage:
#
#   fcgi-client.pl SOCKET request [--param NAME=VALUE]... [--body FILE] [--pause-at N --pause-dir D]
#       one request; prints the FCGI_STDOUT bytes (the CGI response) and exits 0 on END_REQUEST.
#       With --pause-at, creates D/paused after N body bytes and goes on once D/go exists.
#   fcgi-client.pl SOCKET huge-params
#       a PARAMS record announcing a name and a value of 0x40000000 bytes each.
#   fcgi-client.pl SOCKET idle SECONDS [READY] | partial SECONDS [READY]
#       connects and sends nothing (idle) or half a record header (partial), creates the file
#       READY if given, then waits at most SECONDS for the pool to close the connection; prints
#       "closed after S" or "still open".
#
# SOCKET is a unix socket path or HOST:PORT. Exits 2 on a usage or connection error.
use strict;
use warnings;
use IO::Socket::INET;
use IO::Socket::UNIX;
use Time::HiRes qw(time sleep);

my ($address, $mode, @args) = @ARGV;
die "usage: fcgi-client.pl SOCKET request|huge-params|idle|partial ...\n" unless $mode;

my $sock = $address =~ m{^/}
    ? IO::Socket::UNIX->new(Type => SOCK_STREAM(), Peer => $address)
    : IO::Socket::INET->new(PeerAddr => $address, Proto => 'tcp');
unless ($sock) {
    print STDERR "fcgi-client: cannot connect to $address: $!\n";
    exit 2;
}
binmode $sock;

sub record {
    my ($type, $content) = @_;
    my $padding = (8 - length($content) % 8) % 8;
    return pack('CCnnCC', 1, $type, 1, length($content), $padding, 0) . $content . ("\0" x $padding);
}

sub nv_length {
    my ($n) = @_;
    return $n < 128 ? pack('C', $n) : pack('N', $n | 0x80000000);
}

sub params {
    my $out = '';
    for my $pair (@_) {
        my ($name, $value) = split /=/, $pair, 2;
        $out .= nv_length(length $name) . nv_length(length $value) . $name . $value;
    }
    return $out;
}

my $begin = record(1, pack('nCx5', 1, 0));

# Seconds until the peer closes, at most $limit; undef when it is still open.
sub wait_closed {
    my ($limit) = @_;
    my $start = time;
    my $rin = '';
    vec($rin, fileno($sock), 1) = 1;
    while (time - $start < $limit) {
        my $rout = $rin;
        my $ready = select($rout, undef, undef, $limit - (time - $start));
        next unless $ready && $ready > 0;
        my $got = sysread($sock, my $buf, 65536);
        return time - $start if !$got;
    }
    return undef;
}

if ($mode eq 'idle' || $mode eq 'partial') {
    my ($limit, $ready) = ($args[0] // 5, $args[1]);
    syswrite($sock, substr($begin, 0, 4)) if $mode eq 'partial';
    if (defined $ready) {
        open my $mark, '>', $ready or die "fcgi-client: $ready: $!\n";
        close $mark;
    }
    my $closed = wait_closed($limit);
    print defined $closed ? sprintf("closed after %.1f\n", $closed) : "still open\n";
    exit 0;
}

if ($mode eq 'huge-params') {
    syswrite($sock, $begin . record(4, nv_length(0x40000000) . nv_length(0x40000000) . 'x'));
    wait_closed(5);
    exit 0;
}

die "fcgi-client: unknown mode $mode\n" unless $mode eq 'request';
my (@params, $body_file, $pause_at, $pause_dir);
while (@args) {
    my $opt = shift @args;
    if ($opt eq '--param') { push @params, shift @args }
    elsif ($opt eq '--body') { $body_file = shift @args }
    elsif ($opt eq '--pause-at') { $pause_at = shift @args }
    elsif ($opt eq '--pause-dir') { $pause_dir = shift @args }
    else { die "fcgi-client: unknown option $opt\n" }
}
my $body = '';
if (defined $body_file) {
    open my $in, '<:raw', $body_file or die "fcgi-client: $body_file: $!\n";
    local $/;
    $body = <$in>;
}
push @params, 'CONTENT_LENGTH=' . length($body) if length $body;
syswrite($sock, $begin . record(4, params(@params)) . record(4, ''));
my $sent = 0;
while ($sent < length $body) {
    my $n = length($body) - $sent;
    $n = 65535 if $n > 65535;
    if (defined $pause_at && $sent < $pause_at && $sent + $n >= $pause_at) {
        $n = $pause_at - $sent if $pause_at > $sent;
    }
    syswrite($sock, record(5, substr($body, $sent, $n))) or die "fcgi-client: write: $!\n";
    $sent += $n;
    if (defined $pause_at && $sent == $pause_at) {
        open my $mark, '>', "$pause_dir/paused" or die;
        close $mark;
        my $start = time;
        sleep 0.05 until -e "$pause_dir/go" || time - $start > 10;
        undef $pause_at;
    }
}
syswrite($sock, record(5, ''));

my $stdout = '';
my $buf = '';
while (1) {
    while (length($buf) >= 8) {
        my ($version, $type, $id, $len, $pad) = unpack('CCnnC', $buf);
        last if length($buf) < 8 + $len + $pad;
        my $content = substr($buf, 8, $len);
        $buf = substr($buf, 8 + $len + $pad);
        $stdout .= $content if $type == 6;
        if ($type == 3) {
            print $stdout;
            exit 0;
        }
    }
    my $got = sysread($sock, my $chunk, 65536);
    last unless $got;
    $buf .= $chunk;
}
print $stdout;
print STDERR "fcgi-client: the connection ended before FCGI_END_REQUEST\n";
exit 1;
