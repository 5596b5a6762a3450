#!/usr/bin/env bash
# selftest.sh: builds the libbloom adapter into a temporary directory and
# drives it through scripted sessions of the audit's program protocol
# (audit/program/PROTOCOL.md, version 1), checking every answer.
#
#   compare/adapters/c/selftest.sh        needs gcc, libbloom-dev, coreutils, awk
#                                         (and runs the main session under valgrind
#                                         when valgrind is installed)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/libbloom-adapter
fails=0

fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
pass() { echo "ok:   $*"; }

# The build: warning-free as documented, and as strict C11.
gcc -O2 -Wall -Wextra -o "$bin" "$here/libbloom.c" -lbloom 2>"$tmp/warnings"
if [ -s "$tmp/warnings" ]; then fail "gcc warnings:"; cat "$tmp/warnings" >&2; else pass "builds without warnings"; fi
gcc -std=c11 -pedantic -O2 -Wall -Wextra -o "$tmp/c11" "$here/libbloom.c" -lbloom 2>"$tmp/warnings11"
if [ -s "$tmp/warnings11" ]; then fail "gcc -std=c11 -pedantic warnings:"; cat "$tmp/warnings11" >&2; else pass "builds as C11 -pedantic"; fi

# Keys, one hex line each.
hex() { od -An -v -tx1 | tr -d ' \n'; }
head -c 1048577 /dev/urandom | hex >"$tmp/bigkey"          # the audit's longest key, 1 MiB and a byte
head -c 16777217 /dev/zero | hex >"$tmp/toobig"            # a byte above the adapter's bound, 16 MiB
absent() { seq 0 $(($1 - 1)) | awk '{ printf "a5%08x%08x\n", $1, 7 * $1 }'; }

# The main session.
{
	echo "bloomlab-audit 1"
	echo "new 1 100000 7 10000 1"
	echo "add 1 6"
	echo ""                      # the empty key
	echo "00"                    # one NUL byte
	echo "00ff00ff"              # NUL and 0xff bytes
	echo "DEADBEEF"              # upper case
	echo "68656c6c6f"            # "hello"
	cat "$tmp/bigkey"; echo
	echo "test 1 6"
	echo ""
	printf '00\r\n'              # a \r before the \n is ignored
	echo "00FF00FF"
	echo "deadbeef"              # the same key in lower case
	echo "68656C6C6F"
	cat "$tmp/bigkey"; echo
	echo "test 1 4096"; absent 4096
	echo "test 1 0"
	echo "add 1 0"
	echo "new 2 1 3 50 1"                                    # audit's tiny-m: refused
	echo "new 3 5 12 20 1"                                   # k above m: refused
	echo "new 4 32000 64 500 1"                              # k = 64 at 64 bits a key: refused
	echo "new 5 9223372036854775809 7 1000000 18446744073709551615"   # m = 2^63 + 1: refused
	echo "new 6 10000000 2147483647 1 0"                     # k = 2^31 - 1: refused
	echo "new 7 0 1 1 1"                                     # m = 0: refused
	echo "new 8 1 1 1 1"                                     # one bit, one hash: libbloom builds it
	echo "test 8 2"; echo "00"; echo "01"
	echo "add 8 1"; echo ""
	echo "test 8 3"; echo "00"; echo "01"; echo "ffffffff"
	echo "new 9 40000 1 4000 0"                              # k = 1
	echo "add 9 1"; echo "61"
	echo "test 9 2"; echo "61"; echo "62"
	echo "free 9"
	echo "free 8"
	echo "new 8 20000 7 2000 2"                              # an ID again after its free
	echo "free 8"
	echo "free 1"
	echo "bye"
	echo "new 10 100000 7 10000 1"                           # after bye: never read
} >"$tmp/session"

{
	echo "hello libbloom"
	echo "about"                 # checked apart: the version comes from the library
	echo "rate standard"
	echo "ready"
	echo "ok"
	echo "ok"
	echo "111111"
	printf '0%.0s' $(seq 4096); echo
	echo ""
	echo "ok"
	echo "refused"
	echo "refused"
	echo "refused"
	echo "refused"
	echo "refused"
	echo "refused"
	echo "ok"
	echo "00"
	echo "ok"
	echo "111"
	echo "ok"
	echo "ok"
	echo "10"
	echo "ok"
	echo "ok"
	echo "ok"
	echo "ok"
	echo "ok"
} >"$tmp/want"

if "$bin" <"$tmp/session" >"$tmp/got" 2>"$tmp/stderr"; then pass "main session exits 0"; else fail "main session exit status $?"; cat "$tmp/stderr" >&2; fi
[ -s "$tmp/stderr" ] && { fail "main session wrote on stderr:"; cat "$tmp/stderr" >&2; }
# Compare with the about line's text and the refusals' reasons cut off.
sed -E 's/^(about|refused) .*/\1/' "$tmp/got" >"$tmp/got.cut"
if diff "$tmp/want" "$tmp/got.cut" >"$tmp/diff"; then pass "main session answers"; else fail "main session answers (want < > got):"; cat "$tmp/diff" >&2; fi
grep -q '^about libbloom 1\.6 ' "$tmp/got" && pass "about names libbloom 1.6" || fail "about line: $(grep '^about' "$tmp/got")"
grep -Eq '^can ' "$tmp/got" && fail "declares a can line: $(grep '^can' "$tmp/got")" || pass "declares no seed, remove or positions"
if grep '^refused' "$tmp/got" | grep -Eqv '^refused [^ ].*'; then fail "a refusal without a reason"; else pass "every refusal gives a reason"; fi
grep '^refused' "$tmp/got" | sed 's/^/      /'

# The same session under valgrind: no invalid reads or writes, no leaks.
if command -v valgrind >/dev/null; then
	if valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=all \
		"$bin" <"$tmp/session" >"$tmp/got.vg" 2>"$tmp/vg"; then
		cmp -s "$tmp/got" "$tmp/got.vg" && pass "valgrind: clean, same answers" || fail "valgrind: other answers"
	else
		fail "valgrind:"; cat "$tmp/vg" >&2
	fi
else
	echo "skip: valgrind is not installed"
fi

# Sessions the adapter must end with status 1 and a message on stderr,
# after the handshake and the answers before the fault.
bad() { # name, then the lines after the handshake
	local name=$1; shift
	{ echo "bloomlab-audit 1"; printf '%s\n' "$@"; } >"$tmp/bad"
	set +e
	"$bin" <"$tmp/bad" >"$tmp/bad.out" 2>"$tmp/bad.err"
	local rc=$?
	set -e
	if [ $rc -eq 1 ] && [ -s "$tmp/bad.err" ]; then
		pass "$name: exit 1, $(head -c 120 "$tmp/bad.err")"
	else
		fail "$name: exit $rc, stderr: $(cat "$tmp/bad.err")"
	fi
}
bad "unknown request" "frobnicate 1"
bad "remove is not declared" "new 1 100000 7 10000 1" "remove 1 1" "00"
bad "positions is not declared" "new 1 100000 7 10000 1" "positions 1 1" "00"
bad "size is not declared" "new 1 100000 7 10000 1" "size 1"
bad "rate is not asked under rate standard" "rate 100000 7 10000"
bad "an empty request line" ""
bad "two spaces" "new 1  100000 7 10000 1"
bad "a request on an unknown ID" "test 1 1" "00"
bad "a key that is not hex" "new 1 100000 7 10000 1" "add 1 1" "zz"
bad "a key of odd length" "new 1 100000 7 10000 1" "add 1 1" "abc"
bad "4097 keys in a request" "new 1 100000 7 10000 1" "add 1 4097"
bad "a count that is not a number" "new 1 100000 7 10000 1" "add 1 -1"
bad "the input ends among the keys" "new 1 100000 7 10000 1" "add 1 2" "00"
bad "new on an ID in use" "new 1 100000 7 10000 1" "new 1 100000 7 10000 1"
bad "free of an unknown ID" "free 3"
bad "a key above 16 MiB" "new 1 100000 7 10000 1" "add 1 1" "$(cat "$tmp/toobig")"
{ echo "bloomlab-audit 2"; echo "bye"; } >"$tmp/bad"
if "$bin" <"$tmp/bad" >"$tmp/bad.out" 2>/dev/null; then fail "handshake of version 2 taken"; else
	[ -s "$tmp/bad.out" ] && fail "answered a version 2 handshake" || pass "refuses handshake version 2, silently on stdout"
fi

# The mapping: at a sweep of shapes, --plan builds exactly m bits and k
# hashes or refuses (new checks the same on the filter it keeps).
sweep=0
for shape in "100000 7 10000" "10000000 7 1000000" "9585000 7 1000000" "2000000 1 1000000" \
	"4793000 3 1000000" "9585000 7 2000000" "40000 1 4000" "1000000 64 100" "20000 7 2000" \
	"1000 1 100" "2147483647 7 1000000" "2147483647 1 1" "64000000 64 1000000" "8700 7 1"; do
	set -- $shape
	out=$("$bin" --plan "$@")
	case $out in
	"bloom_init("*"): bits $1 hashes $2") sweep=$((sweep + 1)) ;;
	*) fail "plan $shape: $out" ;;
	esac
done
pass "plan: $sweep shapes built exactly"

if [ $fails -gt 0 ]; then echo "selftest: $fails failed" >&2; exit 1; fi
echo "selftest: all passed"
