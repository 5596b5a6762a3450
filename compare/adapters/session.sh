#!/usr/bin/env bash
# session.sh: drives an adapter through its scripted session of the audit's
# program protocol (audit/program/PROTOCOL.md, version 1) and checks every
# answer, then checks that requests with no answer end it with status 1 and
# a message on stderr.
#
#   compare/adapters/session.sh ADAPTER SESSION
#
# ADAPTER is a .java adapter (built with javac against Debian's Guava into a
# temporary directory) or a .pl one (run with perl). SESSION holds the
# lines: "> LINE" is sent (">" alone an empty line; printf %b escapes, so
# "\r" is a carriage return), "< PATTERN" is the next answer, a bash
# extended glob ("about *", "+([0-9])", "<" alone an empty line), "#" a
# comment. The whole input is
# sent at once, as the audit's pipelining allows.
set -euo pipefail
shopt -s extglob

[ $# -eq 2 ] || { echo "usage: $0 ADAPTER SESSION" >&2; exit 2; }
adapter=$1 session=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
pass() { echo "ok:   $*"; }

case $adapter in
*.java)
	jar=/usr/share/java/guava.jar
	javac -cp "$jar" -d "$tmp" "$adapter" 2>"$tmp/warnings" || { cat "$tmp/warnings" >&2; exit 1; }
	if [ -s "$tmp/warnings" ]; then fail "javac warnings:"; cat "$tmp/warnings" >&2; else pass "javac builds $(basename "$adapter")"; fi
	run=(java -cp "$tmp:$jar" "$(basename "$adapter" .java)")
	;;
*.pl)
	perl -c "$adapter" 2>"$tmp/warnings" >/dev/null || { cat "$tmp/warnings" >&2; exit 1; }
	run=(perl "$adapter")
	;;
*) echo "session.sh: no way to run $adapter" >&2; exit 2 ;;
esac
name=$(basename "$adapter")

# The session: what is sent, what is wanted.
: >"$tmp/in"
: >"$tmp/want"
while IFS= read -r line; do
	case $line in
	">"*) x=${line#>}; printf '%b\n' "${x# }" >>"$tmp/in" ;;
	"<"*) x=${line#<}; printf '%s\n' "${x# }" >>"$tmp/want" ;;
	"#"* | "") ;;
	*) echo "session.sh: $session: a line neither >, < nor #: $line" >&2; exit 2 ;;
	esac
done <"$session"

if "${run[@]}" <"$tmp/in" >"$tmp/got" 2>"$tmp/stderr"; then pass "$name: the session exits 0"; else fail "$name: the session's exit status $?"; cat "$tmp/stderr" >&2; fi
mapfile -t want <"$tmp/want"
mapfile -t got <"$tmp/got"
for i in "${!want[@]}"; do
	# shellcheck disable=SC2053 # the wanted line is a pattern
	if [ $i -ge ${#got[@]} ]; then fail "$name: answer $((i + 1)): none, want \"${want[i]}\""; break; fi
	[[ ${got[i]} == ${want[i]} ]] || fail "$name: answer $((i + 1)): \"${got[i]:0:200}\", want \"${want[i]}\""
done
[ ${#got[@]} -gt ${#want[@]} ] && fail "$name: ${#got[@]} answers, want ${#want[@]}: then \"${got[${#want[@]}]:0:200}\""
[ $fails -eq 0 ] && pass "$name: all ${#want[@]} answers as wanted"
if [ -s "$tmp/stderr" ]; then echo "      its stderr: $(head -c 300 "$tmp/stderr")"; fi
grep '^refused' "$tmp/got" | sed 's/^/      /' || true

# Requests with no answer: status 1 and a word on stderr, after the handshake.
bad() { # a name, then the lines after the handshake
	local what=$1 rc=0; shift
	{ echo "bloomlab-audit 1"; printf '%s\n' "$@"; } | "${run[@]}" >/dev/null 2>"$tmp/bad.err" || rc=$?
	if [ $rc -eq 1 ] && [ -s "$tmp/bad.err" ]; then pass "$name: $what: exit 1, $(head -c 100 "$tmp/bad.err")"; else
		fail "$name: $what: exit $rc, stderr: $(head -c 300 "$tmp/bad.err")"; fi
}
bad "unknown request" "frobnicate 1"
bad "a request on an unknown ID" "test 1 1" "00"
bad "a key that is not hex" "new 1 100000 7 10000 1" "add 1 1" "zz"
bad "a key of odd length" "new 1 100000 7 10000 1" "add 1 1" "abc"
bad "4097 keys in a request" "new 1 100000 7 10000 1" "add 1 4097"
bad "two spaces" "new 1  100000 7 10000 1"
bad "the input ends among the keys" "new 1 100000 7 10000 1" "add 1 2" "00"
bad "new on an ID in use" "new 1 100000 7 10000 1" "new 1 100000 7 10000 1"

if [ $fails -gt 0 ]; then echo "session.sh: $name: $fails failed" >&2; exit 1; fi
echo "session.sh: $name: all passed"
