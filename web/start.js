// Bloom Lab's start: how the page gets its WebAssembly running, and what
// it says when that fails. The order, the threads and the pauses are told
// in app/site's package doc (app/site/doc.go); this file is that order.
//
// It runs twice. On the page it is deferred after go-app's app.js (whose
// own start app/site's AppJS takes out), reads go-app's names from there
// (goappLoadingLabel, goappWasmContentLength, goappCanLoadWebAssembly,
// goappInitServiceWorker, its loader's elements), and starts. As a worker
// (the same URL, started by the page) it downloads and compiles app.wasm
// off the page's thread and posts the compiled module to the page.
"use strict";

// startLimit is how long, in ms, the WebAssembly waits for news of the
// first paint.
const startLimit = 3000;

// stallLimit is how long, in ms, a download may make no progress before
// the status says it is slow.
const stallLimit = 20000;

// bloomlabWasmModule is the page's compiled WebAssembly, kept for its
// workers (app/engine), which start from it rather than fetching and
// compiling app.wasm again.
var bloomlabWasmModule;

if (typeof document === "undefined") {
  bloomlabCompileWorker();
} else {
  bloomlabStartPage(document.currentScript.src);
}

// bloomlabStartPage starts the page's WebAssembly once the page is painted,
// then the service worker.
function bloomlabStartPage(script) {
  bloomlabKeepDrops();
  const loader = document.getElementById("app-wasm-loader");
  if (!loader) return;
  if (!goappCanLoadWebAssembly()) {
    loader.remove();
    return;
  }
  bloomlabAfterFirstPaint(async () => {
    const status = bloomlabStatus(loader, document.getElementById("app-wasm-loader-icon"), document.getElementById("app-wasm-loader-label"));
    status.progress(0);
    if (await bloomlabRun(script, status)) goappInitServiceWorker();
  });
}

// bloomlabAfterFirstPaint calls start once the page has been painted.
// Downloading and compiling the WebAssembly keeps every core busy for a
// moment, and in Chromium the page's first frame waited for that (first
// paint at 1.2 s instead of 0.2 s on loopback, in half of Lighthouse's
// runs). A page opened in the background paints only when shown, so there
// the WebAssembly starts at once; a browser that reports no paint gets it
// on its next frame, and one that says nothing within startLimit ms gets
// it then.
function bloomlabAfterFirstPaint(start) {
  let started = false;
  const once = () => {
    if (!started) {
      started = true;
      start();
    }
  };
  const paints = (typeof PerformanceObserver !== "undefined" && PerformanceObserver.supportedEntryTypes) || [];
  if (document.visibilityState === "hidden" || !paints.includes("paint")) {
    requestAnimationFrame(() => setTimeout(once, 0));
    setTimeout(once, 100);
    return;
  }
  setTimeout(once, startLimit);
  new PerformanceObserver((list, observer) => {
    if (list.getEntries().some((e) => e.name === "first-contentful-paint")) {
      observer.disconnect();
      setTimeout(once, 0);
    }
  }).observe({ type: "paint", buffered: true });
}

// bloomlabRun compiles app.wasm (in a worker when it can), makes its
// instance on the page, and runs it; it returns whether the program runs.
// Go's own start (its runtime, its packages' set-up) runs in a task of its
// own, after the one that made the instance.
async function bloomlabRun(script, status) {
  const go = new Go();
  try {
    performance.mark("bloomlab:compile");
    const module = await bloomlabCompiled(script, status);
    const instance = await WebAssembly.instantiate(module, go.importObject);
    performance.mark("bloomlab:instance");
    status.started();
    bloomlabWasmModule = module;
    await new Promise((resume) => setTimeout(resume, 0));
    bloomlabWatch(go, status);
    bloomlabKeepLinks(go);
    go.run(instance);
    status.remove();
    return true;
  } catch (err) {
    console.error("loading wasm failed: ", err);
    status.failed(err);
    return false;
  }
}

// bloomlabWatch keeps what the Go program writes to its standard error and
// tells the status when the program ends: a Go program that ends (a panic,
// most often) leaves the page without its answers, so the page says so.
// What the program wrote last, the panic's message, goes to the console.
function bloomlabWatch(go, status) {
  let said = "";
  const fs = globalThis.fs;
  const write = fs.writeSync;
  fs.writeSync = function (fd, buf) {
    if (fd === 2) said = (said + new TextDecoder().decode(buf)).slice(-8192);
    return write.call(this, fd, buf);
  };
  const exit = go.exit;
  go.exit = (code) => {
    exit(code);
    const panic = said.lastIndexOf("panic: ");
    console.error("the lab stopped (exit code " + code + "): " + (panic >= 0 ? said.slice(panic) : said || "it wrote nothing"));
    status.stopped();
  };
}

// bloomlabKeepLinks keeps a click on a link inside the app while its
// program is mid-task. go-app's handler (window.onclick) puts the click in
// its program's queue and returns; it turns the browser's default off only
// when the queue gets to it, at once when the program is idle, but only
// after the pause when a page is mounting (a Yield). Meanwhile the browser
// followed the link and loaded the page afresh. This turns the default off
// at the click, by go-app's own rule: a link, without Meta or Ctrl held,
// not a download, not for a new tab; and only once go-app's handler is in
// place, as until then nothing would follow the link.
function bloomlabKeepLinks(go) {
  window.addEventListener("click", (e) => {
    if (go.exited || typeof window.onclick !== "function" || e.metaKey || e.ctrlKey) return;
    for (let el = e.target; el && el.tagName !== "BODY"; el = el.parentElement) {
      if (el.tagName !== "A") continue;
      if (!el.hasAttribute("download") && el.target !== "_blank") e.preventDefault();
      return;
    }
  });
}

// bloomlabKeepDrops keeps the page when a file is dropped on it. The
// browser's default opens the file in the tab, in place of the page, and
// the lab and its moves were lost: so it was before the page is live (the
// prerendered page has none of the app's handlers), in a pause of a
// page's mount (go-app's handlers wait in its queue, and turn the default
// off too late), and anywhere beside the drop zones. The drop zones' own
// handlers still read the files.
function bloomlabKeepDrops() {
  for (const type of ["dragover", "drop"]) {
    window.addEventListener(type, (e) => {
      if (e.dataTransfer && Array.from(e.dataTransfer.types).includes("Files")) e.preventDefault();
    });
  }
}

// bloomlabCompiled is app.wasm compiled: by a worker (this script, started
// as one), which reports the download's progress; on the page, as go-app
// did, where there is no worker or the worker does not start.
async function bloomlabCompiled(script, status) {
  const job = { type: "compile", url: goappGetenv("GOAPP_STATIC_RESOURCES_URL") + "/app.wasm", again: bloomlabAgain(), length: goappWasmContentLength, lengthHeader: goappWasmContentLengthHeader };
  const onPage = () => bloomlabCompile(job, status.progress);
  if (typeof Worker === "undefined") return onPage();
  let worker;
  try {
    worker = new Worker(script);
  } catch {
    return onPage();
  }
  return new Promise((resolve, reject) => {
    let heard = false;
    worker.onmessage = (e) => {
      heard = true;
      const m = e.data;
      if (m.type === "progress") {
        status.progress(m.percent);
        return;
      }
      worker.terminate();
      if (m.type === "module") resolve(m.module);
      else reject(bloomlabRebuilt(m.error));
    };
    worker.onerror = (e) => {
      e.preventDefault();
      worker.terminate();
      if (heard) reject(bloomlabError("the browser stopped the worker that compiles the lab's program (" + e.message + ")"));
      else resolve(onPage());
    };
    worker.postMessage(job);
  });
}

// bloomlabCompileWorker is the worker's side: it compiles the page's
// job and posts the module, its progress on the way, or its failure.
function bloomlabCompileWorker() {
  self.onmessage = async (e) => {
    if (e.data.type !== "compile") return;
    postMessage({ type: "progress", percent: 0 });
    try {
      const module = await bloomlabCompile(e.data, (percent) => postMessage({ type: "progress", percent }));
      postMessage({ type: "module", module });
    } catch (err) {
      postMessage({ type: "failed", error: { name: err && err.name, message: String(err && err.message), why: err && err.bloomlabWhy } });
    }
  };
}

// bloomlabRebuilt is a worker's failure as the error it was, so that
// bloomlabWhy reads it as it reads one on the page.
function bloomlabRebuilt(e) {
  if (e.why) return bloomlabError(e.why);
  const kind = { CompileError: WebAssembly.CompileError, TypeError: TypeError }[e.name] || Error;
  return new kind(e.message);
}

// bloomlabCompile downloads job.url and compiles it as it comes, telling
// progress the share downloaded, in percent. It reads the download once
// and gives it to the compiler and to a count of its bytes. job.length,
// when above 0, is app.wasm's size before any compression (go-app's
// WasmContentLength), else the header job.lengthHeader or Content-Length
// tells it.
async function bloomlabCompile(job, progress) {
  const response = await bloomlabFetch(job.url, job.again);
  let length = job.length;
  if (!(length > 0)) length = (job.lengthHeader && response.headers.get(job.lengthHeader)) || response.headers.get("Content-Length");
  const total = parseInt(length, 10);
  const [counted, compiled] = response.body.tee();
  const counting = (async () => {
    const reader = counted.getReader();
    let loaded = 0;
    let said = -1;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      loaded += value.byteLength;
      const percent = Math.min(100, Math.round((loaded * 100) / total));
      if (percent !== said) progress((said = percent));
    }
    if (said !== 100) progress(100);
  })();
  const type = response.headers.get("Content-Type");
  const module = WebAssembly.compileStreaming(new Response(compiled, { headers: type ? { "Content-Type": type } : {} }));
  await Promise.all([counting, module]);
  return module;
}

// bloomlabAgain is whether this page is a Retry's: then app.wasm is asked
// for past the browser's cache, which may hold the failed answer.
function bloomlabAgain() {
  try {
    const again = sessionStorage.getItem("bloomlabRetry") === "1";
    sessionStorage.removeItem("bloomlabRetry");
    return again;
  } catch {
    return false;
  }
}

// bloomlabFetch asks for app.wasm, and fails in words when the network or
// the server does.
async function bloomlabFetch(url, again) {
  let response;
  try {
    response = await fetch(url, again ? { cache: "reload" } : {});
  } catch (err) {
    throw bloomlabError("the network connection failed (this computer may be offline, or the server down)", err);
  }
  if (!response.ok) {
    const words = { 401: "not allowed", 403: "not allowed", 404: "not found", 410: "gone", 500: "a server error", 502: "the server is unavailable", 503: "the server is unavailable", 504: "the server is unavailable" }[response.status];
    throw bloomlabError("the server answered " + response.status + (words ? " (" + words + ")" : ""));
  }
  return response;
}

function bloomlabError(why, cause) {
  const err = new Error(why, { cause });
  err.bloomlabWhy = why;
  return err;
}

// bloomlabWhy is why the start failed, in words; complete tells whether
// all of app.wasm had come.
function bloomlabWhy(err, complete) {
  if (err && err.bloomlabWhy) return err.bloomlabWhy;
  if (err instanceof WebAssembly.CompileError) return "the file the server sent is not a program this browser can run (it may be damaged, or a page in its place)";
  if (err instanceof TypeError && /MIME/i.test(err.message)) return "the server sent the lab's program as the wrong type of file";
  if (err instanceof TypeError && !complete) return "the connection was lost before the download finished";
  return "the lab's program stopped as it started";
}

// bloomlabStatus drives the starting status, go-app's loader. go-app
// showed a figure that stayed at 100% when app.wasm was missing, and an
// exception's text ("TypeError: Failed to fetch") when the network failed.
// Here a download that makes no progress for stallLimit ms says it is
// slow, still going, and offers a Retry; a start that fails (the server's
// answer, the network, a file that does not compile) says so in plain
// words, with a Retry that loads the page again; a program that stops
// once running says so too, with a Reload. A notice of either moves into
// the page above its content, where it has the room its words need;
// web/early.js's notes on the moves made meanwhile then say they were not
// applied (window.bloomlabFailed, which counts them), and so does the
// status if there were any.
function bloomlabStatus(loader, icon, label) {
  loader.setAttribute("role", "status");
  icon.alt = "";
  const retry = document.createElement("button");
  retry.type = "button";
  retry.className = "goapp-retry";
  retry.textContent = "Retry";
  retry.hidden = true;
  let again = true;
  retry.addEventListener("click", () => {
    if (again) {
      try {
        sessionStorage.setItem("bloomlabRetry", "1");
      } catch {}
    }
    location.reload();
  });
  loader.append(retry);
  let percent = 0;
  let over = false;
  let timer = 0;
  const show = (state, text) => {
    loader.dataset.state = state;
    label.textContent = text;
    retry.hidden = state === "starting";
  };
  const notice = (state, text) => {
    over = true;
    clearTimeout(timer);
    loader.setAttribute("role", "alert");
    const moved = window.bloomlabFailed ? window.bloomlabFailed() : 0;
    show(state, text + (moved ? " The moves made on this page were not applied." : ""));
    const main = document.getElementById("main");
    if (main) main.before(loader);
    else document.body.prepend(loader);
  };
  return {
    progress(p) {
      if (over) return;
      percent = Number.isFinite(p) ? Math.max(0, Math.min(100, p)) : 0;
      show("starting", goappLoadingLabel.replace("{progress}", percent));
      clearTimeout(timer);
      if (percent < 100) {
        timer = setTimeout(() => show("slow", "Slow download: " + percent + "%"), stallLimit);
      }
    },
    started() {
      over = true;
      clearTimeout(timer);
    },
    remove() {
      loader.remove();
    },
    failed(err) {
      notice("failed", "The lab could not load: " + bloomlabWhy(err, percent >= 100) + ".");
    },
    // stopped: the program ended after it started. What the page shows
    // stays, but nothing on it answers any more; the Reload starts the lab
    // again from the browser's copy of app.wasm, which was sound.
    stopped() {
      again = false;
      retry.textContent = "Reload";
      notice("stopped", "The lab stopped working: its program ended with an error, and the page no longer answers. Reload the page to start the lab again.");
    },
  };
}
