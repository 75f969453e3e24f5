#!/usr/bin/perl
# Phase 5 of battery/run: COUNT slow connections to nginx, of three kinds in turn, each kind from
# a loopback address of its own (FROM_ADDRESS and the two after it, so that nginx's limit_conn per
# address acts on one kind only): a request header sent a line at a time (never finished), a POST
# whose body comes a byte at a time (never finished), and a GET /healthz sent whole whose
# connection then stays idle. The slow ones send their next piece every INTERVAL seconds, for SECONDS in all. Creates
# the file READY once every connection is open and every idle one has its answer. Watches each
# connection for an answer and for nginx closing it, and prints, one line a connection,
#
#   slowloris-conn KIND FATE SECONDS STATUS
#
# KIND header, body or idle; FATE open or closed (at the end); SECONDS from the connect (header,
# body) or from the answer (idle) to the close, or to the end when still open; STATUS that of the
# first answer, `-` for none. Core Perl only. Usage:
#
#   slowloris.pl HOST:PORT FROM_ADDRESS COUNT SECONDS INTERVAL READY
use strict;
use warnings;
use IO::Socket::INET;
use Time::HiRes qw(time sleep);

my ($peer, $from, $count, $seconds, $interval, $ready) = @ARGV;
die "usage: slowloris.pl HOST:PORT FROM COUNT SECONDS INTERVAL READY\n" unless defined $ready;
$SIG{PIPE} = 'IGNORE';

my @kinds = qw(header body idle);
my ($net, $last) = $from =~ /^(\d+\.\d+\.\d+)\.(\d+)$/ or die "slowloris: FROM must be IPv4\n";
my @c;
for my $i (0 .. $count - 1) {
    my $local = "$net." . ($last + $i % 3);
    my $s = IO::Socket::INET->new(PeerAddr => $peer, LocalAddr => $local, Proto => 'tcp',
        Timeout => 2) or die "slowloris: cannot connect to $peer from $local: $!\n";
    my $kind = $kinds[ $i % 3 ];
    my $head = "Host: $peer\r\nUser-Agent: slowloris\r\n";
    my @pieces = $kind eq 'header'
        ? ("GET /v1/book HTTP/1.1\r\n", map { "X-Slow-$_: $_\r\n" } 1 .. 1000)
        : $kind eq 'body'
        ? ("POST /v1/book HTTP/1.1\r\n${head}Content-Type: application/json\r\n"
            . "Content-Length: 1000\r\n\r\n", ('x') x 1000)
        : ("GET /healthz HTTP/1.1\r\n$head\r\n");
    push @c, { sock => $s, kind => $kind, pieces => \@pieces, since => time, status => '-',
        got => '' };
}

# Sends each connection its next piece (an idle one has only the one).
sub send_pieces {
    for my $c (@c) {
        next if $c->{closed};
        my $piece = shift @{ $c->{pieces} } // next;
        close_it($c) unless defined syswrite($c->{sock}, $piece);
    }
}

sub close_it {
    my ($c) = @_;
    $c->{closed} = time;
    close $c->{sock};
}

# Reads what nginx sent: an answer's status line, or the close (EOF or a reset).
sub watch {
    my ($wait) = @_;
    my $rin = '';
    vec($rin, fileno($_->{sock}), 1) = 1 for grep { !$_->{closed} } @c;
    return sleep $wait unless $rin =~ /[^\0]/;
    my $n = select(my $rout = $rin, undef, undef, $wait);
    return if $n <= 0;
    for my $c (grep { !$_->{closed} && vec($rout, fileno($_->{sock}), 1) } @c) {
        my $got = sysread($c->{sock}, my $buf, 65536);
        if (!$got) {
            close_it($c);
            next;
        }
        $c->{got} .= $buf if length $c->{got} < 64;
        if ($c->{status} eq '-' && $c->{got} =~ m{^HTTP/\d\.\d (\d{3})}) {
            $c->{status} = $1;
            $c->{since} = time if $c->{kind} eq 'idle';
        }
    }
}

my $start = time;
send_pieces();
# The idle ones are ready once answered.
while (time - $start < 10 && grep { $_->{kind} eq 'idle' && $_->{status} eq '-' && !$_->{closed} } @c) {
    watch(0.1);
}
open my $mark, '>', $ready or die "slowloris: $ready: $!\n";
close $mark;

my $next = time + $interval;
while (time - $start < $seconds) {
    if (time >= $next) {
        send_pieces();
        $next += $interval;
    }
    watch(0.1);
}
my $end = time;
for my $c (@c) {
    printf "slowloris-conn %s %s %.1f %s\n", $c->{kind}, $c->{closed} ? 'closed' : 'open',
        ($c->{closed} // $end) - $c->{since}, $c->{status};
}
