// check.js drives each adapter through a short session, one request at a
// time as the audit sends them, and checks the form of every answer against
// audit/program/PROTOCOL.md (version 1), then checks that a request with no
// answer (an unknown filter) ends the adapter non-zero with a word on stderr:
//   node check.js [ADAPTER.js ...]      (default: the five adapters here)
// Whether members are found is the audit's business; check.js only counts.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";

const adapters = process.argv.length > 2 ? process.argv.slice(2) : ["null.js", "signed-index.js", "bloom-filters.js", "bloomfilter.js", "example.js"];
const TIMEOUT = 5000;

// start runs an adapter; ask sends lines and resolves with the next count answer lines.
function start(adapter) {
  const child = spawn(process.execPath, [adapter], { cwd: import.meta.dirname, stdio: ["pipe", "pipe", "pipe"] });
  const lines = [];
  let stderr = "", rest = "", waiting = null;
  const exited = new Promise((resolve) => child.on("exit", (code) => { resolve(code); waiting?.(); }));
  child.stderr.on("data", (d) => (stderr += d));
  child.stdout.on("data", (d) => {
    const parts = (rest + d).split("\n");
    rest = parts.pop();
    lines.push(...parts);
    waiting?.();
  });
  async function ask(send, count) {
    child.stdin.write(send.map((l) => l + "\n").join(""));
    const deadline = Date.now() + TIMEOUT;
    while (lines.length < count) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${count} answer lines to ${send[0]}, got ${JSON.stringify(lines)}; stderr: ${stderr}`);
      await new Promise((resolve) => { waiting = resolve; setTimeout(resolve, 50); });
    }
    return lines.splice(0, count);
  }
  return { child, ask, exited, lines, stderr: () => stderr };
}

function want(ok, what) { if (!ok) throw new Error(what); }
const bits = (line, n, what) => want(line.length === n && /^[01]*$/.test(line), `${what}: want ${n} characters 0 or 1, got "${line}"`);
const ok = (line, what) => want(line === "ok", `${what}: want ok, got "${line}"`);

async function session(adapter) {
  const { ask, exited, child, lines } = start(adapter);
  const hs = await ask(["bloomlab-audit 1"], 1);
  while (hs.at(-1) !== "ready" && hs.length < 16) hs.push(...(await ask([], 1)));
  want(/^hello [^ ]+$/.test(hs[0]) && hs.at(-1) === "ready", `handshake: want hello NAME ... ready, got ${JSON.stringify(hs)}`);
  for (const l of hs.slice(1, -1)) want(/^(about .+|can (seed|seed ([1-9]|[1-5][0-9]|6[0-4])|remove|positions|save|merge|count)|rate (standard|blocked [0-9]+|ask))$/.test(l), `handshake: unknown line "${l}"`);
  const can = (c) => hs.includes(`can ${c}`);

  const members = ["", "00", "00ff", "ff00FF", Buffer.from("apple").toString("hex"), randomBytes(16).toString("hex")];
  const absent = ["01", "ff", "0000", randomBytes(16).toString("hex")];
  const many = Array.from({ length: 4096 }, () => randomBytes(16).toString("hex"));
  ok((await ask(["new a 100000 7 4102 1"], 1))[0], "new a");
  ok((await ask(["add a 6", ...members.slice(0, 5), members[5] + "\r"], 1))[0], "add a 6 (one line ending \\r\\n)");
  ok((await ask(["add a 0"], 1))[0], "add a 0");
  ok((await ask(["add a 4096", ...many], 1))[0], "add a 4096");
  const found = (await ask(["test a 6", ...members], 1))[0];
  bits(found, 6, "test members");
  bits((await ask(["test a 4", ...absent], 1))[0], 4, "test absent keys");
  bits((await ask(["test a 0"], 1))[0], 0, "test a 0");
  const foundMany = (await ask(["test a 4096", ...many], 1))[0];
  bits(foundMany, 4096, "test a 4096");
  if (can("positions")) {
    const size = (await ask(["size a"], 1))[0];
    want(/^[0-9]+$/.test(size) && BigInt(size) >= 100000n, `size a: want a number at least 100000, got "${size}"`);
    for (const l of await ask(["positions a 3", ...members.slice(0, 3)], 3)) {
      const ps = l.split(" ");
      want(ps.length === 7 && ps.every((p) => /^[0-9]+$/.test(p) && BigInt(p) < BigInt(size)), `positions a: want 7 positions below ${size}, got "${l}"`);
    }
  }
  let system = "";
  if (can("save")) {
    const file = (await ask(["save a"], 1))[0];
    want(file.length % 2 === 0 && /^[0-9a-fA-F]*$/.test(file) && file.length <= 2 * 16 * 2 ** 20, `save a: want one line of hex, got "${file.slice(0, 80)}"`);
    ok((await ask([`load c ${file.length / 2}`, file.toUpperCase()], 1))[0], "load c, the file of a");
    want((await ask(["test c 6", ...members], 1))[0] === found, "test c: want the answers of a");
    want((await ask(["test c 4096", ...many], 1))[0] === foundMany, "test c 4096: want the answers of a");
    const half = file.slice(0, (file.length / 4) * 2);
    const cut = (await ask([`load d ${half.length / 2}`, half], 1))[0];
    want(cut === "ok" || /^refused [^ ].*$/.test(cut), `load d, half a file: want ok or refused REASON, got "${cut}"`);
    const none = (await ask(["load e 0", ""], 1))[0];
    want(/^refused [^ ].*$/.test(none), `load e, an empty file: want refused REASON, got "${none}"`);
    system += `; saved ${file.length / 2} bytes, half a file: ${cut.slice(0, 60)}`;
  }
  if (can("merge")) {
    ok((await ask(["new f 100000 7 4102 1"], 1))[0], "new f");
    const merged = (await ask(["merge f a"], 1))[0];
    want(merged === "ok", `merge f a, one shape and seed: want ok, got "${merged}"`);
    want((await ask(["test f 6", ...members], 1))[0] === found, "test f after merge f a: want the answers of a");
  }
  if (can("count")) {
    const c = (await ask(["count a"], 1))[0];
    want(/^[0-9.e+-]+( [0-9.e+-]+)?$/.test(c) && c.split(" ").every((x) => Number(x) >= 0 && Number.isFinite(Number(x))), `count a: want N or N SD, got "${c}"`);
    system += `; count ${c}`;
  }
  // The largest seed the program takes: 2^64 - 1, or 2^BITS - 1 after "can seed BITS".
  const seedBits = can("seed") ? 64n : BigInt((hs.find((l) => l.startsWith("can seed ")) || "can seed 0").slice(9));
  if (seedBits > 0n) ok((await ask([`new b 1000 7 100 ${(1n << seedBits) - 1n}`], 1))[0], `new b, seed 2^${seedBits}-1`);
  if (hs.includes("rate ask")) {
    const r = (await ask(["rate 1000 7 100"], 1))[0];
    want(Number(r) >= 0 && Number(r) <= 1 && r.trim() === r && r !== "", `rate: want a number in [0, 1], got "${r}"`);
  }
  const big = (await ask(["new big 9223372036854775809 7 100 1"], 1))[0];
  want(big === "ok" || /^refused [^ ].*$/.test(big), `new big: want ok or refused REASON, got "${big}"`);
  // free answers ok for any ID, one never built or refused too (b without can seed, big if refused).
  for (const id of ["a", "b", "big", "c", "d", "e", "f"]) ok((await ask([`free ${id}`], 1))[0], `free ${id}`);
  child.stdin.write("bye\n");
  const code = await exited;
  want(code === 0 && lines.length === 0, `bye: want exit 0 and no answer, got exit ${code} and ${JSON.stringify(lines)}`);
  return `${hs[0]}; members found ${[...found].filter((c) => c === "1").length}/6 and ${[...foundMany].filter((c) => c === "1").length}/4096; new big: ${big}${system}`;
}

// broken sends a request the protocol has no answer for: the adapter must exit non-zero and say why.
async function broken(adapter) {
  const { child, exited, lines, stderr } = start(adapter);
  child.stdin.write("bloomlab-audit 1\ntest nosuch 1\n00\n");
  const code = await exited;
  want(code !== 0 && stderr().includes("nosuch") && lines.at(-1) === "ready", `test nosuch: want a non-zero exit and stderr, got exit ${code}, ${JSON.stringify(lines)}`);
}

let failed = 0;
for (const adapter of adapters) {
  try {
    const summary = await session(adapter);
    await broken(adapter);
    console.log(`ok   ${adapter}: ${summary}`);
  } catch (err) {
    failed++;
    console.log(`FAIL ${adapter}: ${err.message}`);
  }
}
process.exit(failed ? 1 : 0);
