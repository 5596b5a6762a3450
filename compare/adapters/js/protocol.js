// protocol.js serves the bloomlab audit's program protocol, version 1
// (audit/program/PROTOCOL.md), for the library an adapter passes as target:
// { hello, about, can: ["seed", "remove", "positions"], rate: "standard" |
// "blocked 512" | "ask", create(m, k, n, seed), add(f, key), test(f, key) ->
// bool, and where declared remove(f, key) -> bool, positions(f, key) -> an
// array of positions, size(f), rateOf(m, k, n) }. create gets m and seed as
// BigInts (m reaches 2^63 + 1, seed 2^64 - 1), k and n as numbers; it returns
// the filter or { refused: REASON }, and a throw refuses with its message.
// rateOf gets numbers. A key is a Buffer the core reuses: valid for the call.
const MAX_KEYS = 4096;
class ProtocolError extends Error {} // a request the protocol does not have: no stack to show
const USAGE = { "bloomlab-audit": "bloomlab-audit 1", new: "new ID M K N SEED", add: "add ID COUNT",
  test: "test ID COUNT", remove: "remove ID COUNT", positions: "positions ID COUNT", size: "size ID",
  rate: "rate M K N", free: "free ID", bye: "bye" };
const END = { add: "ok\n", test: "\n", remove: "\n", positions: "" }; // closes each keyed answer
const HEX = new Int8Array(256).fill(-1); // a hex digit's value, -1 for any other byte
for (const [i, c] of [..."0123456789abcdef"].entries()) HEX[c.charCodeAt(0)] = HEX[c.toUpperCase().charCodeAt(0)] = i;

export function serve(target) {
  const hello = [`hello ${target.hello}`, `about ${target.about}`, ...target.can.map((c) => `can ${c}`), `rate ${target.rate}`, "ready"];
  const needs = { remove: "can remove", positions: "can positions", size: "can positions", rate: "rate ask" };
  const each = { // a keyed request's answer for one key
    add: (f, key) => (target.add(f, key), ""),
    test: (f, key) => (target.test(f, key) ? "1" : "0"),
    remove: (f, key) => (target.remove(f, key) ? "1" : "0"),
    positions: (f, key) => target.positions(f, key).join(" ") + "\n",
  };
  const filters = new Map();
  let carry = null; // the input's unfinished last line
  let scratch = Buffer.alloc(0); // the key being served: no allocation a key
  let req = null; // the keyed request whose key lines are still coming
  let out = ""; // answers not yet written: one write per input chunk
  let line = ""; // the request being served, for an error's context

  const fail = (why) => { throw new ProtocolError(why); };
  const num = (s) => (/^[0-9]+$/.test(s) ? BigInt(s) : fail(`"${s}" is not a decimal number`));
  const filter = (id) => filters.get(id) ?? fail(`no filter ${id}`);
  const flush = () => { if (out) process.stdout.write(out), (out = ""); };
  const finish = () => { if (req.left === 0) (out += req.answer + END[req.op]), (req = null); };
  function key(buf, start, end) { // decodes the hex digits buf[start:end] into scratch
    const len = (end - start) >> 1;
    if (scratch.length !== len) scratch = Buffer.allocUnsafe(len);
    let bad = -((end - start) & 1); // negative once an odd length or a non-digit is seen
    for (let i = 0, j = start; i < len; i++, j += 2) {
      const v = (HEX[buf[j]] << 4) | HEX[buf[j + 1]];
      bad |= v;
      scratch[i] = v;
    }
    return bad >= 0 ? scratch : fail(`bad key line "${buf.toString("latin1", start, end)}"`);
  }

  function serveLine(buf, start, end) {
    if (end > start && buf[end - 1] === 13) end--; // "\r\n" ends a line too
    if (req) {
      req.answer += req.each(req.f, key(buf, start, end));
      req.left--;
      return finish();
    }
    const text = (line = buf.toString("latin1", start, end));
    const fields = text.split(" ");
    const [op, id, ...args] = fields;
    if (!Object.hasOwn(USAGE, op)) fail("unknown request");
    if (USAGE[op].split(" ").length !== fields.length) fail(`want ${USAGE[op]}`);
    if (needs[op] && !hello.includes(needs[op])) fail(`${op} needs "${needs[op]}", not declared`);
    switch (op) {
      case "bloomlab-audit":
        if (id !== "1") fail("this adapter speaks version 1 only");
        out += hello.join("\n") + "\n";
        break;
      case "new": {
        const [m, k, n, seed] = args.map(num);
        let made;
        try { made = target.create(m, Number(k), Number(n), seed); } catch (err) { made = { refused: err.message || err.name }; }
        if (made.refused === undefined) filters.set(id, made), (out += "ok\n");
        else out += `refused ${String(made.refused).replace(/\s+/g, " ")}\n`;
        break;
      }
      case "add": case "test": case "remove": case "positions":
        req = { op, each: each[op], f: filter(id), left: Number(num(args[0])), answer: "" };
        if (req.left > MAX_KEYS) fail(`more than ${MAX_KEYS} keys`);
        finish();
        break;
      case "size": out += `${target.size(filter(id))}\n`; break;
      case "rate": out += `${target.rateOf(...fields.slice(1).map((a) => Number(num(a))))}\n`; break;
      case "free": filters.delete(id), (out += "ok\n"); break; // a refused ID too: the audit may free all it named
      case "bye": flush(), process.exit(0);
    }
  }

  // guard ends the process on what has no answer, saying why in one line on
  // stderr, the stack last: the audit shows the start of the last lines.
  function guard(work) {
    try { work(); } catch (err) {
      flush();
      const where = err instanceof ProtocolError ? "" : ` (${err.stack.split("\n").slice(1, 4).map((s) => s.trim()).join(", ")})`;
      process.stderr.write(`${target.hello}: ${err.message}, serving "${line}"${where}\n`);
      process.exit(1);
    }
  }
  process.stdin.on("data", (chunk) => guard(() => { // raw bytes: a key line never becomes a string
    const buf = carry ? Buffer.concat([carry, chunk]) : chunk;
    let start = 0;
    for (let nl; (nl = buf.indexOf(10, start)) >= 0; start = nl + 1) serveLine(buf, start, nl);
    carry = start < buf.length ? buf.subarray(start) : null;
    flush();
  }));
  process.stdin.on("end", () => guard(() => (carry || req) && fail("the input ended inside a request")));
}
