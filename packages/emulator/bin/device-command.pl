#!/usr/bin/perl
# One emulated Android program, as device-command.cjs runs it, for hosts with perl: the same frames over the same
# Unix socket, but a perl start costs a few milliseconds where a Node.js start costs tens, and every program a
# test or a bench runs pays it. Only core perl built-ins (no modules), so perl-base is enough; Linux only: the
# socket constants and the address layout below are Linux's (the emulator chooses this helper only there).
# Frames both ways: [type u8][length u32 BE][data]. To the emulator: 0x52 request (session, cwd, environment,
# argv..., each ended by NUL; the environment is `CLASSPATH=...` where the program was given one, else empty), 0
# stdin, 5 stdin EOF. From it: 1 stdout, 2 stderr, 3 exit (1 byte), 4 "send me stdin".
use strict;

my ($socket_path, $session) = ($ENV{ARC_EMU_SOCKET}, $ENV{ARC_EMU_SESSION});
my $name = @ARGV ? $ARGV[0] : 'command';
if (!$socket_path || !$session) {
  syswrite(STDERR, "$name: not running inside arc emulate\n");
  exit 126;
}
# A caller may close stdin, stdout or stderr (`wm size >&-`). Perl then holds a file it read itself (this script,
# strict.pm, Errno.pm) on that descriptor, so a write there fails, where Node.js opens /dev/null on a standard
# descriptor it finds closed and the program carries on: do as Node.js does.
my %own = map { my @s = stat $_; @s ? ("$s[0] $s[1]" => 1) : () } $0, values %INC;
for my $std ([\*STDIN, '<'], [\*STDOUT, '>'], [\*STDERR, '>']) {
  my ($handle, $mode) = @$std;
  my @s = stat $handle;
  next if @s && !$own{"$s[0] $s[1]"};
  open($handle, $mode, '/dev/null') or exit 255;
}
$SIG{PIPE} = 'IGNORE';
binmode(STDIN);
binmode(STDOUT);
binmode(STDERR);

# AF_UNIX = 1, SOCK_STREAM = 1; struct sockaddr_un = {u16 family, char path[108]}.
socket(my $conn, 1, 1, 0) or exit 255;
connect($conn, pack('S a108', 1, $socket_path)) or exit 255;
binmode($conn);

sub send_frame {
  my ($type, $data) = @_;
  write_all($conn, pack('C N', $type, length $data) . $data) or exit 255;
}

sub write_all {
  my ($fh, $data) = @_;
  my $offset = 0;
  while ($offset < length $data) {
    my $n = syswrite($fh, $data, length($data) - $offset, $offset);
    if (!defined $n) {
      next if $!{EINTR};
      return 0;
    }
    $offset += $n;
  }
  return 1;
}

my $cwd = readlink('/proc/self/cwd');
$cwd = '/' unless defined $cwd;
my $environment = defined $ENV{CLASSPATH} ? "CLASSPATH=$ENV{CLASSPATH}" : '';
send_frame(0x52, join('', map { "$_\0" } $session, $cwd, $environment, @ARGV));

my $buffer = '';
my $stdin_wanted = 0;
my $stdin_open = 1;
for (;;) {
  my $wanted = '';
  vec($wanted, fileno($conn), 1) = 1;
  vec($wanted, fileno(STDIN), 1) = 1 if $stdin_wanted && $stdin_open;
  my $ready = select(my $readable = $wanted, undef, undef, undef);
  if ($ready < 0) {
    next if $!{EINTR};
    exit 255;
  }
  if ($stdin_wanted && $stdin_open && vec($readable, fileno(STDIN), 1)) {
    my $n = sysread(STDIN, my $data, 65536);
    if ($n) {
      send_frame(0, $data);
    } elsif (!defined $n && $!{EINTR}) {
      # interrupted: read again on the next turn
    } else {
      $stdin_open = 0;
      send_frame(5, '');
    }
  }
  next unless vec($readable, fileno($conn), 1);
  my $n = sysread($conn, $buffer, 65536, length $buffer);
  next if !defined $n && $!{EINTR};
  exit 255 unless $n;
  while (length $buffer >= 5) {
    my ($type, $length) = unpack('C N', $buffer);
    last if length $buffer < 5 + $length;
    my $data = substr($buffer, 5, $length);
    substr($buffer, 0, 5 + $length, '');
    if ($type == 1) {
      write_all(\*STDOUT, $data) or exit 141;
    } elsif ($type == 2) {
      write_all(\*STDERR, $data);
    } elsif ($type == 3) {
      exit(length $data ? ord($data) : 0);
    } elsif ($type == 4) {
      $stdin_wanted = 1;
    }
  }
}
