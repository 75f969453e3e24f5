#!/usr/bin/perl
# bench/run's CGI row: runs APP as a CGI program RUNS times in a row, each a GET of PATH_INFO with
# the CGI variables a web server would set (config CONF), and prints the line of report.lua,
# `bench-result RPS P50_MS P99_MS ERRORS REQUESTS`, then `cgi-cpu SECONDS`: the CPU time the runs
# used (user and system, from times()). An error is an exit status other than 0 or an
# answer whose Status is not 200.
use strict;
use warnings;
use Time::HiRes qw(time);

my ($app, $conf, $path, $runs) = @ARGV;
die "usage: cgi.pl APP CONF PATH_INFO RUNS\n" unless defined $runs && $runs > 0;
%ENV = (PATH => $ENV{PATH}, GATEWAY_INTERFACE => 'CGI/1.1', SERVER_PROTOCOL => 'HTTP/1.1',
	REMOTE_ADDR => '127.0.0.1', REQUEST_METHOD => 'GET', PATH_INFO => $path, SCRIPT_NAME => '',
	QUERY_STRING => '');
my ($errors, @ms) = (0);
my $started = time;
for (1 .. $runs) {
	my $t0 = time;
	open(my $out, '-|', $app, '-c', $conf) or die "cannot run $app: $!\n";
	my $status = <$out> // '';
	1 while <$out>;
	close $out;
	push @ms, (time - $t0) * 1000;
	$errors++ if $? != 0 || $status !~ /^Status: 200\b/;
}
my $elapsed = time - $started;
@ms = sort { $a <=> $b } @ms;
my $pick = sub { $ms[int($_[0] * (@ms - 1) + 0.5)] };
printf "bench-result %.1f %.3f %.3f %d %d\n", $runs / $elapsed, $pick->(0.5), $pick->(0.99),
	$errors, $runs;
my (undef, undef, $child_user, $child_system) = times;
printf "cgi-cpu %.3f\n", $child_user + $child_system;
