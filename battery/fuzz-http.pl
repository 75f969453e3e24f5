#!/usr/bin/perl
# Phase 1 of battery/run: mutated HTTP requests to nginx over raw sockets, from valid seed
# requests (login, refresh, book CRUD, admin routes, an upload). Counts what came back and tells
# the app's answers from nginx's own by the app's log. Core Perl only. Usage:
#
#   BATTERY_TOKEN=T BATTERY_REFRESH=R fuzz-http.pl --port P --count N --procs K --seed S
#       --out DIR --book ID --victim ID --group ID --permission ID --log FILE --log-from BYTES
#
# T and R are root's access and refresh tokens (in the environment: never in argv, which ps shows).
# Forks K senders that share the N requests; each mutation is drawn from srand(S + sender), so a
# run is repeatable. Prints a `fuzz-result key=value ...` line and a `fuzz-status STATUS=COUNT ...`
# line; the first app 5xx responses (request and response) are kept in DIR/app-5xx.N.
#
# Both nginx and the app answer errors with the same JSON envelope, so the body cannot tell whose
# a 5xx is. Each request comes from a loopback address of its own, 127.(64 + sender).(n / 256).
# (n % 256), which nginx passes on as REMOTE_ADDR and the app writes in its access line
# (remote=...), before it answers. A 5xx is the app's when the app's log (FILE, from byte BYTES
# on: what it logged during this run) has an access line with that address and status; nginx
# cannot write there. (A sender's addresses repeat after 65,536 requests: an nginx 5xx could then
# be taken for the app's, never the other way round.)
use strict;
use warnings;
use Getopt::Long;
use IO::Socket::INET;
use Socket qw(SHUT_WR);
use Time::HiRes qw(time);

my %o = (procs => 4, seed => 1);
GetOptions(\%o, 'port=i', 'count=i', 'procs=i', 'seed=i', 'out=s', 'book=i', 'victim=i',
    'group=i', 'permission=i', 'log=s', 'log-from=i') or exit 2;
@o{qw(token refresh)} = @ENV{qw(BATTERY_TOKEN BATTERY_REFRESH)};
for (qw(port count out token refresh book victim group permission log log-from)) {
    die "fuzz-http: --$_ (or BATTERY_TOKEN, BATTERY_REFRESH) is required\n" unless defined $o{$_};
}
$SIG{PIPE} = 'IGNORE';

# ---- seeds --------------------------------------------------------------------------------------

my $host = "127.0.0.1:$o{port}";

sub request {
    my ($method, $path, %r) = @_;
    my @h = ("Host: $host", 'User-Agent: cms-battery', 'Accept: */*', 'Connection: close');
    push @h, "Authorization: Bearer $r{token}" if $r{token};
    if (defined $r{body}) {
        push @h, 'Content-Type: ' . ($r{type} // 'application/json');
        push @h, 'Content-Length: ' . length $r{body};
    }
    push @h, @{ $r{headers} // [] };
    return "$method $path HTTP/1.1\r\n" . join('', map { "$_\r\n" } @h) . "\r\n" . ($r{body} // '');
}

my ($t, $b, $g, $p) = @o{qw(token book group permission)};
my $three_body = "\xe4\xb8\x89\xe4\xbd\x93";    # 三体, as UTF-8 bytes
my $png = "\x89PNG\r\n\x1a\n" . ("\0" x 24) . 'battery';
my $boundary = 'cmsbattery7d2f';
my $multipart = "--$boundary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n"
    . "Content-Type: image/png\r\n\r\n$png\r\n--$boundary--\r\n";

my @seeds = (
    request('POST', '/cms/user/login', body => '{"username":"root","password":"wrong_Pass1"}'),
    request('GET', '/cms/user/refresh', token => $o{refresh}),
    request('GET', '/cms/user/information', token => $t),
    request('GET', '/cms/user/permissions', token => $t),
    request('PUT', '/cms/user', token => $t, body => '{"nickname":"rooty","email":"r@example.org"}'),
    request('GET', "/v1/book/$b"),
    request('GET', '/v1/book?page=0&count=10'),
    request('GET', '/v1/book/search?q=Dune'),
    request('POST', '/v1/book', token => $t,
        body => qq({"title":"$three_body","author":"Liu","summary":"sci-fi","image":"https://img.example.org/1.png"})),
    request('PUT', "/v1/book/$b", token => $t,
        body => '{"title":"Dune","author":"Herbert","summary":"a desert planet"}'),
    request('DELETE', "/v1/book/$o{victim}", token => $t),
    request('GET', '/cms/admin/users?group_id=' . $g . '&page=0&count=10', token => $t),
    request('GET', "/cms/admin/group/$g", token => $t),
    request('POST', '/cms/admin/group', token => $t,
        body => qq({"name":"fuzz","info":"made by the battery","permission_ids":[$p]})),
    request('PUT', "/cms/admin/group/$g", token => $t, body => '{"name":"editors","info":"book editors"}'),
    request('POST', '/cms/admin/permission/dispatch', token => $t,
        body => qq({"group_id":$g,"permission_id":$p})),
    request('POST', '/cms/admin/permission/dispatch/batch', token => $t,
        body => qq({"group_id":$g,"permission_ids":[$p]})),
    request('POST', '/cms/admin/permission/remove', token => $t,
        body => qq({"group_id":$g,"permission_ids":[$p]})),
    request('POST', '/cms/user/register', token => $t,
        body => qq({"username":"fuzzer","password":"fuzz_Pass1","confirm_password":"fuzz_Pass1","group_ids":[$g]})),
    request('GET', '/cms/log?page=0&count=5', token => $t),
    request('POST', '/cms/file', token => $t, type => "multipart/form-data; boundary=$boundary",
        body => $multipart),
    request('OPTIONS', '/v1/book', headers => ['Origin: https://admin.example.org',
        'Access-Control-Request-Method: POST', 'Access-Control-Request-Headers: authorization']),
);

# ---- mutations ----------------------------------------------------------------------------------
# Each takes the request bytes and returns them changed, and whether the request may now be
# shorter than it announces (then the sender half-closes at once instead of waiting on nginx).

sub pick { $_[ int rand @_ ] }
sub randbytes { join '', map { chr int rand 256 } 1 .. $_[0] }

sub split_request {
    my ($r) = @_;
    my $i = index $r, "\r\n\r\n";
    return $i < 0 ? ($r, '') : (substr($r, 0, $i), substr($r, $i + 4));
}

sub join_request { "$_[0]\r\n\r\n$_[1]" }

my @bad_utf8 = ("\xc0\x80", "\xff", "\xfe\xff", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe4\xb8",
    "\xc3", "\x80\x80", "\xf8\x88\x80\x80\x80", "\0");
my @bad_json = ('{', '}', '[', ']', '"', ',', ':', '\\', 'null', '1e999999', '-0', '9' x 40,
    '"\ud800"', '"\u0000"', '\u12', 'true', '{"title":{}}', '[[[]]]', "'", "\t", "\x{7f}");
my @bad_lengths = ('-1', 'abc', '99999999999999999999', '1e3', '0x10', '', ' 5', '+7', '2097153',
    '18446744073709551616', '0, 0');

my %mutators = (
    flip => sub {
        my $r = shift;
        substr($r, int rand length $r, 1) = chr int rand 256 for 1 .. 1 + int rand 4;
        return ($r, 0);
    },
    truncate => sub {
        my $r = shift;
        return (substr($r, 0, int rand length $r), 1);
    },
    dup_header => sub {
        my ($head, $body) = split_request(shift);
        my @l = split /\r\n/, $head;
        return (join_request($head, $body), 0) if @l < 2;
        my $i = 1 + int rand(@l - 1);
        my $copy = $l[$i];
        $copy =~ s/(\d+)/$1 + 1 + int rand 100/e if rand() < 0.5;
        splice @l, $i, 0, $copy;
        return (join_request(join("\r\n", @l), $body), 1);
    },
    big_header => sub {
        my ($head, $body) = split_request(shift);
        my $n = pick(1000, 4000, 8200, 17000, 70000);
        my $h = rand() < 0.3 ? 'Cookie: ' . ('a=b; ' x ($n / 5)) : 'X-Battery: ' . ('x' x $n);
        $head =~ s{^(\S+ \S+)}{$1 . '?q=' . ('y' x $n)}e if rand() < 0.2;
        return (join_request("$head\r\n$h", $body), 0);
    },
    many_headers => sub {
        my ($head, $body) = split_request(shift);
        $head .= join '', map { "\r\nX-H$_: $_" } 1 .. pick(50, 200, 1000);
        return (join_request($head, $body), 0);
    },
    content_length => sub {
        my ($head, $body) = split_request(shift);
        my $v = rand() < 0.5 ? pick(@bad_lengths) : length($body) + pick(-5, -1, 1, 10, 1000);
        $head =~ s/Content-Length: [^\r]*/Content-Length: $v/ or $head .= "\r\nContent-Length: $v";
        return (join_request($head, $body), 1);
    },
    chunked => sub {
        my ($head, $body) = split_request(shift);
        $head =~ s/\r\nContent-Length: [^\r]*//;
        my $size = pick(sprintf('%x', length $body), 'zz', 'ffffffffffffffff', '-1', '1;ext=x', '');
        my $end = pick("\r\n0\r\n\r\n", "\r\n", "\r\n0\r\n", "\r\n0\r\nX-Trailer: 1\r\n\r\n");
        return (join_request("$head\r\nTransfer-Encoding: " . pick('chunked', 'gzip, chunked',
            'chunked, chunked', 'identity'), "$size\r\n$body$end"), 1);
    },
    json => sub {
        my ($head, $body) = split_request(shift);
        return (join_request($head, $body), 0) unless length $body;
        my $new = $body;
        if (rand() < 0.15) {
            my $d = pick(100, 1000, 5000, 100000);
            $new = ('[' x $d) . (']' x $d);
            $new = ('{"a":' x $d) . '1' . ('}' x $d) if rand() < 0.5;
        } elsif (rand() < 0.2) {
            $new =~ s/"(\w+)":/"$1":null,"$1":/;
        } else {
            substr($new, int rand length $new, rand() < 0.5 ? 1 : 0) = pick(@bad_json)
                for 1 .. 1 + int rand 3;
        }
        $head =~ s/Content-Length: \d+/'Content-Length: ' . length $new/e;
        return (join_request($head, $new), 0);
    },
    utf8 => sub {
        my ($head, $body) = split_request(shift);
        if (length $body && rand() < 0.6) {
            substr($body, int rand length $body, 0) = pick(@bad_utf8);
            $head =~ s/Content-Length: \d+/'Content-Length: ' . length $body/e;
        } else {
            $head =~ s{^(\S+ /\S*)}{$1 . pick(@bad_utf8, '%c0%80', '%ff', '%00', '%e4%b8')}e;
        }
        return (join_request($head, $body), 0);
    },
    request_line => sub {
        my ($head, $body) = split_request(shift);
        my ($line, $rest) = split /\r\n/, $head, 2;
        my ($m, $path, $v) = split / /, $line // '';
        ($rest, $path) = ($rest // '', $path // '/');
        $m = pick('GET', 'PUT', 'PATCH', 'TRACE', 'get', 'G ET', 'X' x 300, 'CONNECT', '') if rand() < 0.4;
        $path = pick("$path/..", "/..$path", "$path%2F..", "//$path", "$path?" . ('&a=1' x 500),
            "/v1/book/-1", '/v1/book/99999999999999999999999', '/v1/book/0x10', '/v1/book/1.5',
            "$path#frag", 'http://evil.example/v1/book', '*', "$path;x=1") if rand() < 0.7;
        $v = pick('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1', 'HTTP/9', 'HTTPS/1.1', '') if rand() < 0.3;
        return (join_request(join(' ', grep { defined } $m, $path, $v) . "\r\n$rest", $body), 0);
    },
    line_ends => sub {
        my $r = shift;
        my $e = pick("\n", "\r", "\r\r\n", "\n\r", "\r\n ", "\0\r\n");
        my @parts = split /\r\n/, $r, -1;
        return ($r, 1) if @parts < 2;
        my $i = int rand(@parts - 1);
        $r = join("\r\n", @parts[0 .. $i]) . $e . join("\r\n", @parts[$i + 1 .. $#parts]);
        return ($r, 1);
    },
    headers => sub {
        my ($head, $body) = split_request(shift);
        $head .= "\r\n" . pick('Host: ', 'Content-Type: application/json; charset=latin1',
            'Content-Type: text/plain', 'Content-Type: multipart/form-data', 'Expect: 100-continue',
            'Authorization: Bearer ' . randbytes(40), 'Authorization: Basic Zm9vOmJhcg==',
            'Authorization: Bearer', 'Origin: null', 'X-Forwarded-For: 127.0.0.1',
            'Content-Encoding: gzip', 'Range: bytes=0-1', "X-Bad: \x01\x7f", 'NoColon',
            ' Folded: line', 'Authorization: Bearer ' . $t . 'x');
        return (join_request($head, $body), 0);
    },
    splice => sub {
        my $r = shift;
        my $other = pick(@seeds);
        return (substr($r, 0, int rand length $r) . substr($other, int rand length $other), 1);
    },
);
my @mutator_names = sort keys %mutators;

sub mutate {
    my ($r) = @_;
    my ($maybe_short, $names) = (0, '');
    for (1 .. (rand() < 0.7 ? 1 : 2 + int rand 2)) {
        my $name = pick(@mutator_names);
        (my $new, my $short) = $mutators{$name}->($r);
        $r = $new;
        $maybe_short ||= $short;
        $names .= "$name ";
    }
    return ($r, $maybe_short, $names);
}

# ---- the sender ---------------------------------------------------------------------------------

# Reads from $sock until EOF, a complete response, or $limit seconds; returns the bytes.
sub read_response {
    my ($sock, $limit, $half_close_after) = @_;
    my ($buf, $start, $closed_wr) = ('', time, 0);
    my $rin = '';
    vec($rin, fileno($sock), 1) = 1;
    while (time - $start < $limit) {
        if (!$closed_wr && !length $buf && time - $start >= $half_close_after) {
            shutdown($sock, SHUT_WR);
            $closed_wr = 1;
        }
        my $wait = $closed_wr ? $limit - (time - $start) : $half_close_after - (time - $start);
        my $rout = $rin;
        next unless select($rout, undef, undef, $wait > 0 ? $wait : 0.01);
        my $got = sysread($sock, my $chunk, 65536);
        return ($buf, 0) unless $got;
        $buf .= $chunk;
        my $i = index $buf, "\r\n\r\n";
        next if $i < 0;
        my $head = substr($buf, 0, $i);
        return ($buf, 0) if $head =~ /^Content-Length:\s*(\d+)/mi && length($buf) >= $i + 4 + $1;
        return ($buf, 0) if $head =~ /^Transfer-Encoding:\s*chunked/mi && $buf =~ /\r\n0\r\n\r\n\z/;
    }
    return ($buf, 1);
}

my %escape = ("\t" => '\t', "\r" => '\r', "\n" => '\n');
my %unescape = (t => "\t", r => "\r", n => "\n");

sub sender {
    my ($index, $count) = @_;
    srand($o{seed} + $index);
    my %tally;
    unlink "$o{out}/5xx.$index";
    for my $n (1 .. $count) {
        my ($req, $maybe_short, $names) = mutate(pick(@seeds));
        my $from = sprintf '127.%d.%d.%d', 64 + $index, ($n >> 8) & 255, $n & 255;
        my $sock = IO::Socket::INET->new(PeerAddr => $host, LocalAddr => $from, Proto => 'tcp',
            Timeout => 2);
        unless ($sock) {
            $tally{connect_error}++;
            next;
        }
        binmode $sock;
        syswrite($sock, $req);
        shutdown($sock, SHUT_WR) if $maybe_short;
        my ($res, $timed_out) = read_response($sock, 3, $maybe_short ? 0 : 1);
        close $sock;
        $tally{requests}++;
        if ($res !~ m{^HTTP/\d\.\d (\d{3})}) {
            $tally{$timed_out ? 'timeouts' : 'no_response'}++;
            next;
        }
        my $status = $1;
        $tally{"s$status"}++;
        next if $status < 500;
        # Whose it is is decided once every sender is done (seen_5xx).
        if (open my $f, '>>', "$o{out}/5xx.$index") {
            # The tokens stay out of files, as out of logs.
            my $shown = $req;
            $shown =~ s/\Q$_\E/<token>/g for @o{qw(token refresh)};
            # One line each: the line ends and tabs of the bytes as \n, \r and \t.
            (my $answer = $res) =~ s/([\t\r\n])/$escape{$1}/g;
            $shown =~ s/([\t\r\n])/$escape{$1}/g;
            print $f "$from $status $names\t$shown\t$answer\n";
            close $f;
        }
    }
    open my $f, '>', "$o{out}/tally.$index" or die "fuzz-http: $o{out}/tally.$index: $!\n";
    print $f "$_ $tally{$_}\n" for sort keys %tally;
    close $f;
}

# The addresses and statuses of the app's access lines logged since --log-from: "ADDR STATUS".
sub app_answers {
    my %seen;
    open my $log, '<', $o{log} or die "fuzz-http: $o{log}: $!\n";
    seek $log, $o{'log-from'}, 0;
    while (<$log>) {
        $seen{"$2 $1"} = 1 if /access: .* status=(\d+) .* remote=(\S+)/;
    }
    return \%seen;
}

# Sorts the 5xx answers of sender $index into the app's and nginx's; keeps the first app ones
# other than 503, request and answer, in app-5xx.$index.
sub seen_5xx {
    my ($index, $app, $sum) = @_;
    open my $in, '<', "$o{out}/5xx.$index" or return;
    my $kept = 0;
    while (<$in>) {
        chomp;
        my ($key, $shown, $res) = split /\t/;
        my ($from, $status, $names) = split / /, $key, 3;
        if (!$app->{"$from $status"}) {
            $sum->{nginx_5xx}++;
        } elsif ($status == 503) {
            $sum->{app_503}++;
        } else {
            $sum->{app_5xx}++;
            next unless $kept++ < 5 && open my $f, '>>', "$o{out}/app-5xx.$index";
            s/\\([trn])/$unescape{$1}/g for $shown, $res;
            print $f "=== from $from, mutations: $names\n--- request:\n$shown\n--- response:\n$res\n";
            close $f;
        }
    }
}

my @kids;
# Stopped by battery/run (TERM or a Ctrl-C): the senders stop too.
$SIG{$_} = sub { kill 'TERM', @kids; exit 1 } for qw(TERM INT);
for my $i (0 .. $o{procs} - 1) {
    my $share = int($o{count} / $o{procs}) + ($i < $o{count} % $o{procs} ? 1 : 0);
    my $pid = fork // die "fuzz-http: fork: $!\n";
    if (!$pid) {
        $SIG{$_} = 'DEFAULT' for qw(TERM INT);
        sender($i, $share);
        exit 0;
    }
    push @kids, $pid;
}
my $failed = 0;
for (@kids) {
    waitpid($_, 0);
    $failed++ if $?;
}

my %sum;
my $app = app_answers();
for my $i (0 .. $o{procs} - 1) {
    seen_5xx($i, $app, \%sum);
    open my $f, '<', "$o{out}/tally.$i" or next;
    while (<$f>) {
        my ($k, $v) = split;
        $sum{$k} += $v;
    }
}
print join(' ', 'fuzz-result', map { "$_=" . ($sum{$_} // 0) }
    qw(requests no_response timeouts connect_error app_5xx app_503 nginx_5xx)), "\n";
print join(' ', 'fuzz-status', map { substr($_, 1) . "=$sum{$_}" } sort grep { /^s\d/ } keys %sum), "\n";
exit($failed ? 1 : 0);
