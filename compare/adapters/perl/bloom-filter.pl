#!/usr/bin/perl
# bloom-filter.pl: the bloomlab audit's program protocol
# (audit/program/PROTOCOL.md, version 1) over the CPAN module Bloom::Filter
# 1.2, as Debian ships it (libbloom-filter-perl 1.2-4,
# /usr/share/perl5/Bloom/Filter.pm).
#
#   bloomlab audit --exec -- perl bloom-filter.pl
#
# What Bloom::Filter 1.2 does (its Filter.pm, read whole):
#
#   new(capacity => n, error_rate => p) calls init, which sizes the filter
#   with _calculate_shortest_filter_length(n, p): for each k in 1 .. 100,
#   m(k) = -k n / ln(1 - p^(1/k)), and it keeps the k of the least m(k) and
#   int(m(k)) + 1 bits. It then makes k salts, distinct values of Perl's
#   rand() (never seeded by the module: Perl seeds it at random on first
#   use), and a vector of length bits, pack("b*", '0' x length).
#   _get_cells(key) gives, for each salt, SHA-1 of the key's bytes followed
#   by the salt's decimal text, the five 32-bit big-endian words of the
#   digest XORed into one, mod length: k cells, each below 2^32. add(@keys)
#   sets each key's cells with vec(); check(@keys) reads them, stopping at
#   the first clear one. add refuses to record past capacity: once
#   key_count (which counts every add, a duplicate too) reaches capacity it
#   carps "Exceeded filter capacity" (on standard error) and returns,
#   dropping that key and the rest of the call's keys.
#
# The mapping: exact m and k, capacity n. The module chooses m and k
# together from n and p (about m/n ln 2 hashes for m bits, and never more
# than 100), so no capacity and error rate build most of the audit's shapes
# with n as capacity. The adapter subclasses Bloom::Filter and overrides
# only _calculate_shortest_filter_length, which the module's POD documents
# among its internal methods, to return the audit's M and K; everything
# else is the module's own init: its random salts, its vector of M bits,
# capacity N (so the module's stop at capacity is audited as it is), and
# as error_rate, which only the sizing reads, the standard formula's rate
# at the shape (clamped into (0, 1), which init checks). `rate standard`:
# the filter is M bits and K salts. Refused, with the reason:
#   - M < 1, K < 1, N < 1 (init croaks on a zero capacity);
#   - K > 100: the module's sizing never chooses more than 100 hashes;
#   - M > 2^32: a cell is a 32-bit value mod length, so bits past 2^32
#     would never be set;
#   - M > 2^30: init first builds a string of one character a bit, M
#     bytes, then packs it; past 2^30 bits (1 GiB for a moment) the adapter
#     refuses rather than take the machine's memory.
#
# Declared: `can positions`, by the module's own _get_cells, the cells add
# and check use; `size` is the module's length. Not declared: `can seed`
# (the module has no seed: its salts come from rand(), and SEED is read and
# ignored), `can remove`. Keys reach the module as byte strings (pack "H*"
# of the hex line, never decoded as text), so NUL and invalid UTF-8 are
# bytes like any other.
#
# A line longer than 32 MiB, a key that is not hex, a count above 4096, a
# request on an unknown ID, or any other request writes a message on
# standard error and exits with status 1. `free` answers ok for any ID, a
# refused one too.
use strict;
use warnings;

use Bloom::Filter;
use POSIX qw(expm1 log1p);

package BloomLab::Shaped {
    our @ISA = ('Bloom::Filter');

    # _calculate_shortest_filter_length returns the shape the audit asked
    # for, set in new's parameters, in place of the module's sizing.
    sub _calculate_shortest_filter_length {
        my ($self) = @_;
        return ($self->{bloomlab_m}, $self->{bloomlab_k});
    }
}

package main;

use constant {
    MAX_KEYS   => 4096,
    MAX_LINE   => 2 * (16 << 20) + 1,    # a 16 MiB key's hex, and a \r
    MAX_K      => 100,                   # the module's sizing tries k = 1 .. 100
    MAX_CELL   => 2**32,                 # a cell is a 32-bit value mod length
    MAX_MEMORY => 2**30,                 # init's '0' x length: a byte a bit
};

binmode STDIN,  ':raw';
binmode STDOUT, ':raw';
$| = 1;

my %filters;
my $request = '';    # the request being served, for a message

sub fail {
    my ($why) = @_;
    print STDERR "bloom-filter-perl: $why, serving \"" . substr($request, 0, 96) . "\"\n";
    exit 1;
}

# read_line returns the next line without its \n and one \r before it, or
# undef at the end of input.
sub read_line {
    my $line = <STDIN>;
    return undef unless defined $line;
    fail('a line longer than ' . MAX_LINE . ' bytes') if length($line) > MAX_LINE + 1;
    $line =~ s/\n\z//;
    $line =~ s/\r\z//;
    return $line;
}

# number parses a decimal number below 2^64.
sub number {
    my ($s) = @_;
    fail("\"$s\" is not a decimal number") unless $s =~ /\A[0-9]+\z/;
    (my $digits = $s) =~ s/\A0+(?=.)//;
    fail("$s is past 2^64 - 1")
        if length($digits) > 20 || (length($digits) == 20 && $digits gt '18446744073709551615');
    return 0 + $digits;
}

sub read_key {
    my $line = read_line();
    fail('the input ended in the keys') unless defined $line;
    fail('a key line that is not hex') unless $line =~ /\A(?:[0-9A-Fa-f]{2})*\z/;
    return pack('H*', $line);    # a byte string: the key's bytes as they are
}

sub read_keys {
    my ($count) = @_;
    fail("$count keys in one request, above " . MAX_KEYS) if $count > MAX_KEYS;
    return map { read_key() } 1 .. $count;
}

# standard is (1 - (1 - 1/m)^(kn))^k, 1 at m = 1.
sub standard {
    my ($m, $k, $n) = @_;
    return $m == 1 ? 1 : (-expm1($k * $n * log1p(-1 / $m)))**$k;
}

# refusal says why the module cannot build the shape, or undef.
sub refusal {
    my ($m, $k, $n) = @_;
    return 'Bloom::Filter needs at least one bit, one hash and a capacity of one key (init croaks '
        . '"Capacity must be greater than zero")' if $m < 1 || $k < 1 || $n < 1;
    return "k = $k: Bloom::Filter's sizing (_calculate_shortest_filter_length) chooses k among 1 .. 100"
        if $k > MAX_K;
    return "m = $m: Bloom::Filter's cell is a 32-bit value (five SHA-1 words XORed) mod its length, "
        . 'so bits past 2^32 are never set' if $m > MAX_CELL;
    return "m = $m: Bloom::Filter's init builds its vector from a string of one character a bit; "
        . 'the adapter takes at most 2^30 bits' if $m > MAX_MEMORY;
    return undef;
}

sub new_filter {
    my ($id, $m, $k, $n) = @_;
    fail("filter $id exists already") if exists $filters{$id};
    if (defined(my $why = refusal($m, $k, $n))) {
        print "refused $why\n";
        return;
    }
    my $p = standard($m, $k, $n);
    $p = 1e-300 if $p < 1e-300;
    $p = 1 - 2**-52 if $p > 1 - 2**-52;
    my $f = eval {
        BloomLab::Shaped->new(capacity => $n, error_rate => $p, bloomlab_m => $m, bloomlab_k => $k);
    };
    if (!$f) {
        (my $why = $@ || 'new failed') =~ s/ at \S+ line \d+\.?\s*\z//;
        $why =~ s/\s+/ /g;
        print "refused Bloom::Filter: $why\n";
        return;
    }
    fail("the module built $f->{filter_length} bits and $f->{num_hash_funcs} salts, not $m and $k")
        if $f->length != $m || $f->salts != $k;
    $filters{$id} = $f;
    print "ok\n";
}

sub filter {
    my ($id) = @_;
    return $filters{$id} // fail("no filter $id");
}

sub handshake {
    my $line = read_line();
    fail('no handshake') unless defined $line;
    $request = $line;
    fail('unknown handshake (this adapter speaks "bloomlab-audit 1")') unless $line eq 'bloomlab-audit 1';
    print "hello bloom-filter-perl\n",
        "about Perl Bloom::Filter $Bloom::Filter::VERSION (Debian libbloom-filter-perl): k random salts, "
        . "SHA-1 of key and salt folded to 32 bits mod m, stops recording at capacity n; m and k exact "
        . "through its sizing method\n",
        "can positions\n",
        "rate standard\n",
        "ready\n";
}

handshake();
while (defined(my $line = read_line())) {
    $request = $line;
    my ($op, @f) = split / /, $line, -1;
    $op //= '';
    if ($op eq 'new' && @f == 5) {
        new_filter($f[0], map { number($_) } @f[1 .. 4]);    # SEED is read and ignored
    } elsif ($op eq 'add' && @f == 2) {
        my $f = filter($f[0]);
        my @keys = read_keys(number($f[1]));
        $f->add(@keys);
        print "ok\n";
    } elsif ($op eq 'test' && @f == 2) {
        my $f    = filter($f[0]);
        my @keys = read_keys(number($f[1]));
        print join('', map { $_ ? '1' : '0' } $f->check(@keys)), "\n";
    } elsif ($op eq 'positions' && @f == 2) {
        my $f = filter($f[0]);
        print map { join(' ', @{ $f->_get_cells($_) }) . "\n" } read_keys(number($f[1]));
    } elsif ($op eq 'size' && @f == 1) {
        print filter($f[0])->length, "\n";
    } elsif ($op eq 'free' && @f == 1) {
        delete $filters{ $f[0] };    # a refused ID too: the audit may free all it named
        print "ok\n";
    } elsif ($op eq 'bye' && @f == 0) {
        exit 0;
    } else {
        fail('unknown request');
    }
}
