"""bloomlab_protocol serves the bloomlab audit's program protocol, version 1
(audit/program/PROTOCOL.md), so that an adapter in Python is its filter's
functions and one call:

    from bloomlab_protocol import Refused, serve

    serve(name="myfilter", about="MyFilter 1.0", seed=True,
          create=lambda m, k, n, seed: MyFilter(m, k, seed),
          add=lambda f, key: f.add(key),
          test=lambda f, key: f.has(key))

What the adapter passes is what the handshake declares:

    name, about     hello NAME (no spaces) and the about line (optional)
    seed            False: no seed; True or 64: "can seed"; BITS from 1 to
                    63: "can seed BITS", and the audit sends SEED < 2^BITS
    remove          remove(f, key) -> bool: "can remove"
    positions, size positions(f, key) -> the key's positions in probe order,
                    size(f) -> the filter's positions: "can positions"
    rate            "standard" (the default), "blocked 512", or "ask" with
                    rate_of(m, k, n) -> the filter's theory, a float
    save, load      save(f) -> the filter's file, bytes in its own format;
                    load(data) -> a filter read from those bytes, or raise
                    Refused(reason) for a file it does not take: "can save"
    merge           merge(f, other) takes other's keys into f, in place, or
                    raises Refused(reason) (another m, k or seed): "can merge"
    count           count(f) -> the keys f estimates it holds, a number, or
                    (n, sd) with the estimate's standard deviation: "can count"

create(m, k, n, seed) gets exact ints (m reaches 2^63 + 1, seed 2^64 - 1) and
returns the filter, any object; it raises Refused(reason) for a shape it
does not take, and the kit answers "refused REASON". MemoryError refuses
too; any other exception is a bug, and ends the program with its traceback
on stderr, so the audit fails the check and shows why rather than skip it.
A key is bytes. Whatever has no answer in the protocol (an unknown request,
a key that is not hex, a filter never built) ends the program with status 1
and one line on stderr; the end of the input outside a request is as bye.

Only the standard library: an outside engineer copies this one file.
"""

import binascii
import sys

__all__ = ["Refused", "serve"]

VERSION = 1
MAX_KEYS = 4096  # keys in one request (PROTOCOL.md)
MAX_NUMBER = 1 << 64  # every number of the protocol is below
MAX_FILE = 16 << 20  # bytes of a saved filter (PROTOCOL.md)

# Each request's fields, by its first word.
USAGE = {
    b"new": "new ID M K N SEED",
    b"add": "add ID COUNT",
    b"test": "test ID COUNT",
    b"remove": "remove ID COUNT",
    b"positions": "positions ID COUNT",
    b"size": "size ID",
    b"rate": "rate M K N",
    b"save": "save ID",
    b"load": "load ID BYTES",
    b"merge": "merge ID OTHER",
    b"count": "count ID",
    b"free": "free ID",
    b"bye": "bye",
}


class Refused(Exception):
    """Raised by create for a shape the filter does not take; its argument is
    the reason the audit shows beside the skipped check."""


class ProtocolError(Exception):
    """A request the protocol has no answer for: the program ends, saying why."""


def _fail(why):
    raise ProtocolError(why)


def _number(field):
    """An exact int below 2^64 from a field of decimal digits, nothing else
    (no sign, no spaces, no underscores, which int() would take)."""
    if not field.isdigit():  # bytes.isdigit is ASCII only
        _fail('"%s" is not a decimal number' % field.decode("latin-1"))
    v = int(field)
    if v >= MAX_NUMBER:
        _fail("%d is past 2^64 - 1" % v)
    return v


def _hello(name, about, seed, remove, positions, rate, save=False, merge=False, count=False):
    """The handshake's lines, checked: a wrong declaration is the adapter's
    bug, found before the audit sees it."""
    if not name or any(c.isspace() for c in name):
        raise ValueError("bloomlab_protocol: name must be one word, got %r" % (name,))
    lines = ["hello " + name]
    if about:
        lines.append("about " + " ".join(str(about).split()))
    if seed is True or seed == 64:
        lines.append("can seed")
    elif seed is not False and seed is not None:
        if not isinstance(seed, int) or not 1 <= seed <= 64:
            raise ValueError("bloomlab_protocol: seed must be False, True or bits from 1 to 64, got %r" % (seed,))
        lines.append("can seed %d" % seed)
    if remove:
        lines.append("can remove")
    if positions:
        lines.append("can positions")
    lines += ["can " + c for c, on in (("save", save), ("merge", merge), ("count", count)) if on]
    if rate not in ("standard", "blocked 512", "ask"):
        raise ValueError('bloomlab_protocol: rate must be "standard", "blocked 512" or "ask", got %r' % (rate,))
    lines.append("rate " + rate)
    lines.append("ready")
    return lines


def _seed_bits(seed):
    """The seed bits a seed declaration promises: 0 without a seed."""
    if seed is True:
        return 64
    if not seed:
        return 0
    return seed


def serve(*, name, create, add, test, about="", seed=False, remove=None,
          positions=None, size=None, rate="standard", rate_of=None,
          save=None, load=None, merge=None, count=None,
          stdin=None, stdout=None, stderr=None):
    """Serves the protocol on stdin and stdout (binary streams; the process's
    by default) until bye or the end of the input, then returns; a request
    with no answer exits with status 1, after one line on stderr."""
    if (positions is None) != (size is None):
        raise ValueError("bloomlab_protocol: positions and size come together")
    if (rate == "ask") != (rate_of is not None):
        raise ValueError('bloomlab_protocol: rate_of comes with rate="ask", and only then')
    if (save is None) != (load is None):
        raise ValueError("bloomlab_protocol: save and load come together")
    hello = _hello(name, about, seed, remove is not None, positions is not None, rate,
                   save is not None, merge is not None, count is not None)
    bits = _seed_bits(seed)
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    stderr = stderr or sys.stderr
    readline, write, flush = stdin.readline, stdout.write, stdout.flush
    filters = {}
    request = b""  # the request being served, for an error's context

    def strip(line):
        if line.endswith(b"\n"):
            line = line[:-1]
        if line.endswith(b"\r"):  # "\r\n" ends a line too
            line = line[:-1]
        return line

    def keys(count):
        """Yields the request's count keys, each decoded as it is read.
        binascii, not bytes.fromhex: fromhex skips spaces, and "00 ff" is
        not a key line."""
        for _ in range(count):
            line = readline()
            if not line:
                _fail("the input ended inside a request")
            try:
                yield binascii.a2b_hex(strip(line))
            except (binascii.Error, ValueError):
                _fail('bad key line "%s"' % clip(strip(line)))

    def filter_of(id_):
        f = filters.get(id_, filters)
        if f is filters:
            _fail("no filter %s" % id_.decode("latin-1"))
        return f

    def refusable(work):
        """ok when work() is done, refused REASON when it raises Refused
        (or MemoryError)."""
        try:
            work()
            return b"ok\n"
        except Refused as err:
            reason = " ".join(str(err).split()) or "no reason given"
        except MemoryError as err:
            reason = " ".join(("out of memory " + str(err)).split())
        return ("refused " + reason + "\n").encode()

    def named(id_, make):
        """Answers a request that names a new filter, made by make()."""
        if id_ in filters:
            _fail("filter %s exists already" % id_.decode("latin-1"))
        return refusable(lambda: filters.__setitem__(id_, make()))

    def new(id_, m, k, n, s):
        m, k, n, s = _number(m), _number(k), _number(n), _number(s)
        if bits and s >> bits:
            _fail("seed %d is not below 2^%d" % (s, bits))
        return named(id_, lambda: create(m, k, n, s))

    def loaded(id_, size):
        size = _number(size)
        if size > MAX_FILE:
            _fail("a file of %d bytes, past %d" % (size, MAX_FILE))
        line = readline()
        if not line:
            _fail("the input ended inside a request")
        try:
            data = binascii.a2b_hex(strip(line))
        except (binascii.Error, ValueError):
            _fail('a file line that is not hex, "%s"' % clip(strip(line)))
        if len(data) != size:
            _fail("a file line of %d bytes, not %d" % (len(data), size))
        return named(id_, lambda: load(data))

    def number(x):
        x = float(x) + 0.0  # -0.0 is 0
        if not 0 <= x < float("inf"):  # nan is neither
            raise ValueError("bloomlab_protocol: count must be a finite number from 0 up, got %r" % (x,))
        text = repr(x)
        return text[:-2] if text.endswith(".0") else text  # 2, not 2.0

    def counted(f):
        c = count(f)
        return (" ".join(map(number, c if isinstance(c, tuple) else (c,))) + "\n").encode()

    def keyed(op, id_, count):
        f = filter_of(id_)
        count = _number(count)
        if count > MAX_KEYS:
            _fail("more than %d keys" % MAX_KEYS)
        if op == b"add":
            for key in keys(count):
                add(f, key)
            return b"ok\n"
        if op == b"test":
            return b"".join(b"1" if test(f, key) else b"0" for key in keys(count)) + b"\n"
        if op == b"remove":
            return b"".join(b"1" if remove(f, key) else b"0" for key in keys(count)) + b"\n"
        return b"".join((" ".join(map(str, positions(f, key))) + "\n").encode() for key in keys(count))

    declared = {b"remove": remove, b"positions": positions, b"size": size, b"rate": rate_of,
                b"save": save, b"load": load, b"merge": merge, b"count": count}
    need = {b"remove": "can remove", b"positions": "can positions", b"size": "can positions", b"rate": "rate ask",
            b"save": "can save", b"load": "can save", b"merge": "can merge", b"count": "can count"}

    def answer(fields):
        op = fields[0]
        usage = USAGE.get(op)
        if usage is None:
            _fail("unknown request")
        if len(fields) != len(usage.split(" ")):
            _fail("want " + usage)
        if op in declared and declared[op] is None:
            _fail('%s needs "%s", not declared' % (op.decode(), need[op]))
        if op == b"new":
            return new(*fields[1:])
        if op in (b"add", b"test", b"remove", b"positions"):
            return keyed(op, fields[1], fields[2])
        if op == b"size":
            return b"%d\n" % size(filter_of(fields[1]))
        if op == b"rate":
            return (repr(float(rate_of(*map(_number, fields[1:])))) + "\n").encode()
        if op == b"save":
            data = bytes(save(filter_of(fields[1])))
            if len(data) > MAX_FILE:
                _fail("save wrote %d bytes, past the protocol's %d" % (len(data), MAX_FILE))
            return binascii.b2a_hex(data) + b"\n"
        if op == b"load":
            return loaded(fields[1], fields[2])
        if op == b"merge":
            f, other = filter_of(fields[1]), filter_of(fields[2])
            return refusable(lambda: merge(f, other))
        if op == b"count":
            return counted(filter_of(fields[1]))
        if op == b"free":  # any ID: the audit may free one it named and was refused
            filters.pop(fields[1], None)
            return b"ok\n"
        return None  # bye

    def clip(line):
        text = line.decode("latin-1")
        return text if len(text) <= 80 else text[:80] + "..."

    try:
        request = strip(readline())
        if request != b"bloomlab-audit %d" % VERSION:
            _fail("want bloomlab-audit %d first, this adapter speaks version %d only" % (VERSION, VERSION))
        write(("\n".join(hello) + "\n").encode())
        flush()
        while True:
            line = readline()
            if not line:
                return  # the audit closed the pipe: as good as bye
            request = strip(line)
            out = answer(request.split(b" "))
            if out is None:
                return
            write(out)
            flush()
    except ProtocolError as err:
        stderr.write('%s: %s, serving "%s"\n' % (name, err, clip(request)))
        stderr.flush()
        sys.exit(1)
    except Exception:  # the adapter's bug: where, then the traceback, whose end the audit shows
        stderr.write('%s: an exception serving "%s"\n' % (name, clip(request)))
        raise
