#!/usr/bin/perl
# Phase 5 of battery/run: COUNT slow connections to nginx from another loopback address. Half
# send a request header a line at a time, half a POST whose body comes a byte at a time; each
# connection sends its next piece every INTERVAL seconds, for SECONDS in all. Creates the file
# READY once every connection is open, then prints `slowloris-result open=N closed=N`: how many
# were still open at the end, and how many nginx closed meanwhile. Core Perl only. Usage:
#
#   slowloris.pl HOST:PORT FROM_ADDRESS COUNT SECONDS INTERVAL READY
use strict;
use warnings;
use IO::Socket::INET;
use Time::HiRes qw(time sleep);

my ($peer, $from, $count, $seconds, $interval, $ready) = @ARGV;
die "usage: slowloris.pl HOST:PORT FROM COUNT SECONDS INTERVAL READY\n" unless defined $ready;
$SIG{PIPE} = 'IGNORE';

my (@socks, @queue);
for my $i (1 .. $count) {
    my $s = IO::Socket::INET->new(PeerAddr => $peer, LocalAddr => $from, Proto => 'tcp',
        Timeout => 2) or die "slowloris: cannot connect to $peer from $from: $!\n";
    my $head = "Host: $peer\r\nUser-Agent: slowloris\r\n";
    my @pieces = $i % 2
        ? ("GET /v1/book HTTP/1.1\r\n", map { "X-Slow-$_: $_\r\n" } 1 .. 1000)
        : ("POST /v1/book HTTP/1.1\r\n${head}Content-Type: application/json\r\n"
            . "Content-Length: 1000\r\n\r\n", ('x') x 1000);
    push @socks, $s;
    push @queue, \@pieces;
}
open my $mark, '>', $ready or die "slowloris: $ready: $!\n";
close $mark;

my $start = time;
my %closed;
while (time - $start < $seconds) {
    for my $i (0 .. $#socks) {
        next if $closed{$i};
        my $piece = shift @{ $queue[$i] } // next;
        $closed{$i} = 1 unless defined syswrite($socks[$i], $piece);
    }
    sleep $interval;
}
printf "slowloris-result open=%d closed=%d\n", @socks - keys %closed, scalar keys %closed;
