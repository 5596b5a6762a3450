"""selftest.py drives adapters built on the kits (bloomlab_protocol.py here,
../c/bloomlab_protocol.h) through fixed sessions of the audit's program
protocol (audit/program/PROTOCOL.md, version 1) and checks every answer:

    python3 selftest.py [--example CMD] [--toy CMD]

--example is an example filter (python3 -B example.py by default; the C
kit's test passes its example.c): a session answered exactly, ending
without bye, and sessions with no answer, which must end the program with
status 1 and a line on stderr. --toy is the kit test's own adapter, which
declares everything (can seed 20, can remove, can positions, rate ask,
can save, can merge, can count):
this file's toy() by default, the C kit's twin from its test. The Python
kit's declarations are checked in-process besides. Whether a filter finds
its members is the audit's business; here only fixed answers are.
"""

import io
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bloomlab_protocol  # noqa: E402

TIMEOUT = 60  # seconds a session may take: a net for a hang, not a verdict on speed

failures = 0


def check(ok, what, detail=""):
    global failures
    if ok:
        print("ok:   " + what)
    else:
        failures += 1
        print("FAIL: %s%s" % (what, ": " + detail if detail else ""), file=sys.stderr)


def run(cmd, lines):
    """Runs cmd on the session lines (str or bytes, each gets its \\n) and
    returns its exit status, its answer lines and its stderr."""
    data = b"".join((l if isinstance(l, bytes) else l.encode()) + b"\n" for l in lines)
    p = subprocess.run(cmd, input=data, capture_output=True, timeout=TIMEOUT)
    out = p.stdout.decode("latin-1")
    return p.returncode, out.split("\n")[:-1] if out else [], p.stderr.decode("latin-1")


BIG = (bytes(range(256)) * 4097)[: (1 << 20) + 1].hex()  # the audit's longest key, 1 MiB and a byte
ABSENT = ["a5%08x%08x" % (i, 7 * i) for i in range(4096)]


def example(cmd):
    """The example's main session, with what each request must answer;
    None for a line checked apart."""
    session = [
        ("bloomlab-audit 1", None),
        ("new 1 100000 7 10000 1", ["ok"]),
        ("add 1 6", ["ok"]), "", "00", "00ff00ff", "DEADBEEF", "68656c6c6f", BIG,  # upper and lower case
        ("test 1 6", ["111111"]), "", "00\r", "00FF00FF", "deadbeef", "68656C6C6F", BIG,  # "\r\n" ends a line too
        ("test 1 4096", ["0" * 4096]), *ABSENT,  # at 6 keys in 10^5 bits, p is about 1e-23 a key
        ("test 1 0", [""]),
        ("add 1 0", ["ok"]),
        ("positions 1 2", None), "", "00",
        ("positions 1 0", []),
        ("size 1", ["100000"]),
        ("new 2 1 1 1 18446744073709551615", ["ok"]),  # one bit, the largest seed
        ("add 2 1", ["ok"]), "61",
        ("test 2 2", ["11"]), "61", "62",
        ("new 3 0 7 10 1", ["refused"]),
        ("new 4 100 0 10 1", ["refused"]),
        ("new 5 4294967297 7 1 1", ["refused"]),  # m = 2^32 + 1: refused, nothing allocated
        ("new 6 9223372036854775809 7 1 1", ["refused"]),  # m = 2^63 + 1
        ("new 7 100 2147483647 1 1", ["refused"]),  # k = 2^31 - 1
        ("free 3", ["ok"]),  # an ID that was refused
        ("free 99", ["ok"]),  # an ID never named
        ("free 2", ["ok"]),
        ("new 2 1000 3 100 5", ["ok"]),  # an ID again after its free
        ("free 2", ["ok"]),
        ("free 1", ["ok"]),
    ]  # and the input ends without bye
    lines, want = [], []
    for item in session:
        if isinstance(item, tuple):
            lines.append(item[0])
            want.append(item)
        else:
            lines.append(item)
    rc, got, err = run(cmd, lines)
    check(rc == 0 and err == "", "example session ends without bye: exit 0, nothing on stderr", "exit %d, %s" % (rc, err[-500:]))
    hs = got[: got.index("ready") + 1] if "ready" in got else got
    check(hs[:1] and hs[0].startswith("hello ") and "can seed" in hs and "can positions" in hs,
          "handshake: hello, can seed, can positions, ready", repr(hs))
    rest = got[len(hs):]
    for request, answer in want[1:]:
        if request.startswith("positions 1 2"):
            pos, rest = rest[:2], rest[2:]
            ok = len(pos) == 2 and all(len(l.split(" ")) == 7 and all(p.isdigit() and int(p) < 100000 for p in l.split(" ")) for l in pos)
            check(ok, "positions 1 2: two lines of 7 positions below 100000", repr(pos))
            continue
        now, rest = rest[: len(answer)], rest[len(answer):]
        cut = [l.split(" ")[0] if l.startswith("refused ") else l for l in now]
        check(cut == answer, request + ": " + (" | ".join(answer)[:40] or "nothing" if answer else "nothing"),
              "got %r" % ([l[:80] for l in now],))
        if answer == ["refused"]:
            check(len(now[0]) > len("refused "), "  with a reason: " + now[0][8:][:100])
    check(rest == [], "nothing after the last answer", repr(rest[:3]))

    rc, got, err = run(cmd, ["bloomlab-audit 1", "bye", "new 1 100000 7 10000 1"])
    check(rc == 0 and got[-1:] == ["ready"] and err == "", "bye: exit 0, nothing read after it", "exit %d, %r" % (rc, got[-2:]))


def example_system(cmd):
    """The example saved, loaded, merged and counted: a file read back
    answers for its members, a damaged one is refused, a merge of another
    seed or m is refused, and a count is one or two numbers."""
    members = ["", "00", "00ff00ff", "deadbeef", "68656c6c6f", BIG]
    rc, got, err = run(cmd, ["bloomlab-audit 1", "new 1 100000 7 10000 1", "add 1 6", *members, "save 1", "count 1"])
    got = got[got.index("ready") + 1:] if "ready" in got else got
    file = got[2] if len(got) == 4 else ""
    check(rc == 0 and len(got) == 4 and len(file) % 2 == 0 and all(c in "0123456789abcdefABCDEF" for c in file) and file,
          "save 1: one line of hex, %d bytes" % (len(file) // 2), "exit %d, %r, %s" % (rc, [l[:80] for l in got], err[-300:]))
    fields = got[3].split(" ") if len(got) == 4 else []
    numbers = [float(f) for f in fields if f.replace(".", "", 1).replace("e-", "", 1).isdigit()]
    check(len(numbers) == len(fields) in (1, 2) and 5 <= numbers[0] <= 7, "count 1: about 6 keys: " + " ".join(fields), repr(got[3:]))
    data = bytes.fromhex(file)
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x10
    session = [
        ("load 1 %d" % len(data), ["ok"]), file,
        ("test 1 6", ["111111"]), *members,
        ("new 2 100000 7 10000 1", ["ok"]),
        ("add 2 1", ["ok"]), "6162",
        ("merge 2 1", ["ok"]),
        ("test 2 7", ["1111111"]), *members, "6162",
        ("new 3 100000 7 10000 2", ["ok"]),
        ("merge 2 3", ["refused"]),  # another seed
        ("new 4 99999 7 10000 1", ["ok"]),
        ("merge 2 4", ["refused"]),  # another m
        ("load 5 %d" % len(data), ["refused"]), flipped.hex(),
        ("load 6 %d" % (len(data) // 2), ["refused"]), data[: len(data) // 2].hex(),
        ("load 7 0", ["refused"]), "",
        ("load 8 %d" % (len(data) + 1), ["refused"]), (data + b"\0").hex(),
    ]
    lines, want = ["bloomlab-audit 1"], []
    for item in session:
        if isinstance(item, tuple):
            lines.append(item[0])
            want.append(item)
        else:
            lines.append(item)
    rc, got, err = run(cmd, lines + ["bye"])
    got = got[got.index("ready") + 1:] if "ready" in got else got
    check(rc == 0 and len(got) == len(want), "load session: an answer a request", "exit %d, %r, %s" % (rc, got, err[-300:]))
    for (request, answer), line in zip(want, got):
        check(line.split(" ")[0] == answer[0] and (answer[0] != "refused" or len(line) > 8),
              "%s: %s" % (request, line[:100]), repr(line[:100]))


def bad(cmd, name, lines, handshake=True):
    """A session with no answer at its end: exit 1, a line on stderr, and
    no answer to the request at fault."""
    rc, got, err = run(cmd, (["bloomlab-audit 1"] if handshake else []) + lines)
    last = got[-1] if got else ""
    answered = last in ("ready", "ok") or last.startswith("refused ")
    ok = rc == 1 and err.strip() != "" and (answered if handshake else got == [])
    check(ok, "%s: exit 1, %s" % (name, err.strip().split("\n")[-1][:110]), "exit %d, stdout ends %r, stderr %r" % (rc, got[-2:], err[-300:]))


def bad_sessions(cmd):
    new = "new 1 100000 7 10000 1"
    bad(cmd, "handshake of version 2", ["bloomlab-audit 2", "bye"], handshake=False)
    bad(cmd, "a request before the handshake", [new], handshake=False)
    bad(cmd, "unknown request", ["frobnicate 1"])
    bad(cmd, "an empty request line", [""])
    bad(cmd, "two spaces", ["new 1  100000 7 10000 1"])
    bad(cmd, "a request on an unknown ID", ["test nosuch 1", "00"])
    bad(cmd, "a key that is not hex", [new, "add 1 1", "zz"])
    bad(cmd, "a key of odd length", [new, "add 1 1", "abc"])
    bad(cmd, "a key with a space", [new, "add 1 1", "00 ff"])
    bad(cmd, "a key of bytes past ASCII", [new, "add 1 1", b"\xc3\xa9"])
    bad(cmd, "4097 keys in a request", [new, "add 1 4097"])
    bad(cmd, "a count with a sign", [new, "add 1 -1"])
    bad(cmd, "a count with a plus", [new, "add 1 +1", "00"])
    bad(cmd, "a count with an underscore", [new, "add 1 1_0"])
    bad(cmd, "the input ends among the keys", [new, "add 1 2", "00"])
    bad(cmd, "new on an ID in use", [new, new])
    bad(cmd, "m = 2^64", ["new 1 18446744073709551616 7 10000 1"])
    bad(cmd, "seed = 2^64", ["new 1 100000 7 10000 18446744073709551616"])
    bad(cmd, "remove is not declared", [new, "remove 1 1", "00"])
    bad(cmd, "rate is not asked under rate standard", ["rate 100000 7 10000"])


def toy_session(cmd):
    """Every declaration and the answers no filter of its own would fix."""
    lines = [
        "bloomlab-audit 1",
        "new a 300 2 10 1048575",  # seed 2^20 - 1, the largest of can seed 20
        "new b 13 1 1 0",
        "new c 300 0 1 0",
        "add a 2", "41", "",
        "test a 3", "41", "", "42",
        "remove a 3", "41", "41", "42",
        "test a 1", "41",
        "positions a 2", "41", "",
        "size a",
        "rate 1000 7 100",
        "save a",
        "load d 41", TOY_FILE.upper(),  # upper case hex, as any key
        "test d 2", "", "41",
        "new e 300 1 1 0",
        "add e 1", "41",
        "merge e d",
        "test e 2", "41", "",
        "new f 299 1 1 0",
        "merge e f",
        "count e",
        "load g 3", "000102",
        "load h 0", "",
        "free g",
        "free b",
        "bye",
    ]
    want = ["hello kit/toy", "about the kits' scripted test", "can seed 20", "can remove", "can positions",
            "can save", "can merge", "can count", "rate ask", "ready",
            "ok", "refused thirteen is unlucky", "refused no reason given", "ok", "110", "100", "0",
            "65 1048575", "256 1048575", "300", "0.1",
            TOY_FILE, "ok", "10", "ok", "ok", "ok", "11", "ok", "refused m differs: 300 and 299", "2",
            "refused a toy file is 41 bytes, not 3", "refused a toy file is 41 bytes, not 0", "ok", "ok"]
    rc, got, err = run(cmd, lines)
    check(rc == 0 and got == want and err == "",
          "toy session: can seed 20, remove, positions, rate ask, save, load, merge, count, refusals on one line",
          "exit %d, stderr %r, got %r" % (rc, err[-300:], got))
    bad(cmd, "toy: seed 2^20 under can seed 20", ["new a 300 2 10 1048576"])
    bad(cmd, "toy: a request on a refused ID", ["new b 13 1 1 0", "test b 1", "00"])
    bad(cmd, "toy: a file line shorter than BYTES", ["load a 2", "00"])
    bad(cmd, "toy: a file line that is not hex", ["load a 1", "zz"])
    bad(cmd, "toy: a file past 16 MiB", ["load a 16777217"])
    bad(cmd, "toy: the input ends before the file", ["load a 1"])
    bad(cmd, "toy: load on an ID in use", ["new a 300 2 10 1", "load a 0", ""])
    bad(cmd, "toy: merge with an unknown filter", ["new a 300 2 10 1", "merge a nosuch"])
    bad(cmd, "toy: count of an unknown filter", ["count nosuch"])


# TOY_FILE is what the toy saves of filter a after its session's removals:
# m = 300 in 8 bytes, then a bit a slot, 257 of them in 33 bytes, slot 256
# (the empty key) set.
TOY_FILE = "2c01000000000000" + "00" * 32 + "01"


def toy():
    """The toy adapter of the Python kit: a bit a key's first byte (256 for
    the empty key), its positions that slot and the seed."""
    def slot(key):
        return key[0] if key else 256

    def create(m, k, n, seed):
        if m == 13:
            raise bloomlab_protocol.Refused("thirteen\nis   unlucky")
        if k == 0:
            raise bloomlab_protocol.Refused("")
        return {"m": m, "seed": seed, "set": set()}

    def remove(f, key):
        had = slot(key) in f["set"]
        f["set"].discard(slot(key))
        return had

    def save(f):
        bits = sum(1 << s for s in f["set"])
        return f["m"].to_bytes(8, "little") + bits.to_bytes(33, "little")

    def load(data):
        if len(data) != 41:
            raise bloomlab_protocol.Refused("a toy file is 41 bytes, not %d" % len(data))
        bits = int.from_bytes(data[8:], "little")
        return {"m": int.from_bytes(data[:8], "little"), "seed": 0, "set": {s for s in range(257) if bits >> s & 1}}

    def merge(f, other):
        if f["m"] != other["m"]:
            raise bloomlab_protocol.Refused("m differs: %d and %d" % (f["m"], other["m"]))
        f["set"] |= other["set"]

    bloomlab_protocol.serve(
        name="kit/toy", about="the kits' scripted test", seed=20, create=create,
        add=lambda f, key: f["set"].add(slot(key)), test=lambda f, key: slot(key) in f["set"],
        remove=remove, positions=lambda f, key: [slot(key), f["seed"]], size=lambda f: f["m"],
        rate="ask", rate_of=lambda m, k, n: 0.1,
        save=save, load=load, merge=merge, count=lambda f: len(f["set"]))


def declarations():
    """The Python kit refuses a wrong declaration before it serves, and
    writes plain "can seed" for 64 bits."""
    def hello(**kw):
        out = io.BytesIO()
        args = dict(name="t", create=None, add=None, test=None)
        args.update(kw)
        bloomlab_protocol.serve(stdin=io.BytesIO(b"bloomlab-audit 1\n"), stdout=out, **args)
        return out.getvalue().decode().split("\n")[1:-2]

    check(hello(seed=True) == ["can seed", "rate standard"], "seed=True is can seed", repr(hello(seed=True)))
    check(hello(seed=64) == ["can seed", "rate standard"], "seed=64 is can seed")
    check(hello(seed=1) == ["can seed 1", "rate standard"], "seed=1 is can seed 1")
    check(hello(seed=False) == ["rate standard"], "seed=False declares nothing")
    every = dict(save=lambda f: b"", load=lambda data: None, merge=lambda f, g: None, count=lambda f: 0)
    check(hello(**every) == ["can save", "can merge", "can count", "rate standard"], "save with load, merge, count declare can save, can merge, can count")
    for wrong in (dict(seed=65), dict(seed=-1), dict(seed=0.5), dict(name="two words"), dict(name=""),
                  dict(positions=lambda f, k: []), dict(rate="ask"), dict(rate_of=lambda m, k, n: 0),
                  dict(save=lambda f: b""), dict(load=lambda data: None),
                  dict(rate="blocked 64")):
        what = ", ".join("%s=%s" % (k, "a function" if callable(v) else repr(v)) for k, v in wrong.items())
        try:
            hello(**wrong)
            check(False, "refuses " + what)
        except ValueError as err:
            check(True, "refuses %s: %s" % (what, err))


def main(argv):
    if argv == ["--toy"]:
        return toy()
    me = [sys.executable, "-B", os.path.abspath(__file__)]
    opts = {"--example": [sys.executable, "-B", os.path.join(HERE, "example.py")], "--toy": me + ["--toy"]}
    while argv:
        if len(argv) < 2 or argv[0] not in opts:
            sys.exit("usage: python3 selftest.py [--example CMD] [--toy CMD]")
        opts[argv[0]] = shlex.split(argv[1])
        argv = argv[2:]
    print("example: " + " ".join(opts["--example"]))
    example(opts["--example"])
    example_system(opts["--example"])
    bad_sessions(opts["--example"])
    print("toy: " + " ".join(opts["--toy"]))
    toy_session(opts["--toy"])
    declarations()
    if failures:
        print("selftest: %d failed" % failures, file=sys.stderr)
        sys.exit(1)
    print("selftest: all passed")


if __name__ == "__main__":
    main(sys.argv[1:])
