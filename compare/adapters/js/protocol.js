// protocol.js serves the bloomlab audit's program protocol, version 1
// (audit/program/PROTOCOL.md), for the library an adapter passes as target:
// { hello, about, can: ["seed", "remove", "positions"], rate: "standard" |
// "blocked 512" | "ask", create(m, k, n, seed), add(f, key), test(f, key) ->
// bool, and where declared remove(f, key) -> bool, positions(f, key) -> an
// array of positions, size(f), rateOf(m, k, n) }. create gets m and seed as
// BigInts (m reaches 2^63 + 1, seed 2^64 - 1), k and n as numbers; it returns
// the filter or { refused: REASON }, and a throw refuses with its message.
// rateOf gets numbers. A key is a Buffer the core reuses: valid for the call.
// Optional, each declared when given: save(f) -> the filter's file, a Buffer
// or Uint8Array in its own format, with load(data) -> a filter read from
// those bytes or { refused: REASON } ("can save"); merge(f, other), which
// takes other's keys into f, returning nothing or { refused: REASON }
// ("can merge"); count(f) -> the keys f estimates it holds, a number or
// [n, sd] ("can count"). A throw in load or merge refuses with its message.
const MAX_KEYS = 4096;
const MAX_FILE = 16 << 20; // bytes of a saved filter (PROTOCOL.md)
class ProtocolError extends Error {} // a request the protocol does not have: no stack to show
const USAGE = { "bloomlab-audit": "bloomlab-audit 1", new: "new ID M K N SEED", add: "add ID COUNT",
  test: "test ID COUNT", remove: "remove ID COUNT", positions: "positions ID COUNT", size: "size ID",
  rate: "rate M K N", free: "free ID", save: "save ID", load: "load ID BYTES", merge: "merge ID OTHER",
  count: "count ID", bye: "bye" };
const END = { add: "ok\n", test: "\n", remove: "\n", positions: "", load: "" }; // closes each keyed answer
const HEX = new Int8Array(256).fill(-1); // a hex digit's value, -1 for any other byte
for (const [i, c] of [..."0123456789abcdef"].entries()) HEX[c.charCodeAt(0)] = HEX[c.toUpperCase().charCodeAt(0)] = i;

export function serve(target) {
  if (!target.save !== !target.load) throw new Error("protocol.js: save and load come together");
  const system = ["save", "merge", "count"].filter((c) => target[c]).map((c) => `can ${c}`);
  const hello = [`hello ${target.hello}`, `about ${target.about}`, ...target.can.map((c) => `can ${c}`), ...system, `rate ${target.rate}`, "ready"];
  const needs = { remove: "can remove", positions: "can positions", size: "can positions", rate: "rate ask",
    save: "can save", load: "can save", merge: "can merge", count: "can count" };
  const each = { // a keyed request's answer for one key
    add: (f, key) => (target.add(f, key), ""),
    test: (f, key) => (target.test(f, key) ? "1" : "0"),
    remove: (f, key) => (target.remove(f, key) ? "1" : "0"),
    positions: (f, key) => target.positions(f, key).join(" ") + "\n",
  };
  const filters = new Map();
  let carry = []; // the chunks of the input's unfinished last line
  let scratch = Buffer.alloc(0); // the key being served: no allocation a key
  let req = null; // the keyed request whose key lines are still coming
  let out = ""; // answers not yet written: one write per input chunk
  let line = ""; // the request being served, for an error's context

  const fail = (why) => { throw new ProtocolError(why); };
  const num = (s) => (/^[0-9]+$/.test(s) ? BigInt(s) : fail(`"${s}" is not a decimal number`));
  const filter = (id) => filters.get(id) ?? fail(`no filter ${id}`);
  const flush = () => { if (out) process.stdout.write(out), (out = ""); };
  const finish = () => { if (req.left === 0) (out += req.answer + END[req.op]), (req = null); };
  const refused = (why) => `refused ${String(why).replace(/\s+/g, " ").trim() || "no reason given"}\n`;
  // refusable answers ok when work returns, refused REASON when it throws or returns { refused }.
  function refusable(work) {
    let made;
    try { made = work(); } catch (err) { made = { refused: err.message || err.name }; }
    return made?.refused === undefined ? ["ok\n", made] : [refused(made.refused)];
  }
  function named(id, make) { // a request that names a new filter: new, load
    const [answer, made] = refusable(make);
    if (made !== undefined) filters.set(id, made);
    return answer;
  }
  function number(x) { // a count, as the protocol has it
    if (typeof x !== "number" || !(x >= 0) || x === Infinity) fail(`count gave ${x}, want a finite number from 0 up`);
    return String(x + 0);
  }
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
        out += named(id, () => target.create(m, Number(k), Number(n), seed));
        break;
      }
      case "load": {
        const bytes = num(args[0]);
        if (bytes > BigInt(MAX_FILE)) fail(`a file of ${bytes} bytes, past ${MAX_FILE}`);
        if (filters.has(id)) fail(`filter ${id} exists already`);
        req = { op, left: 1, answer: "", each: (_, data) => {
          if (BigInt(data.length) !== bytes) fail(`a file line of ${data.length} bytes, not ${bytes}`);
          return named(id, () => target.load(Buffer.from(data))); // a copy: the filter may keep it
        } };
        break;
      }
      case "save": {
        const data = Buffer.from(target.save(filter(id)));
        if (data.length > MAX_FILE) fail(`save gave ${data.length} bytes, past the protocol's ${MAX_FILE}`);
        out += data.toString("hex") + "\n";
        break;
      }
      case "merge": {
        const f = filter(id), other = filter(args[0]);
        out += refusable(() => target.merge(f, other))[0];
        break;
      }
      case "count": {
        const c = target.count(filter(id));
        out += (Array.isArray(c) ? c : [c]).map(number).join(" ") + "\n";
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
    if (chunk.indexOf(10) < 0) return void carry.push(chunk); // a long line (a file) is joined once, at its end
    const buf = carry.length ? Buffer.concat([...carry, chunk]) : chunk;
    let start = 0;
    for (let nl; (nl = buf.indexOf(10, start)) >= 0; start = nl + 1) serveLine(buf, start, nl);
    carry = start < buf.length ? [buf.subarray(start)] : [];
    flush();
  }));
  process.stdin.on("end", () => guard(() => (carry.length || req) && fail("the input ended inside a request")));
}
