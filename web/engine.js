// engine.js starts one of the lab's workers: the page's own wasm, run
// without a page, which shares an experiment's work with the other workers
// (see app/engine.go). The page's first message says where wasm_exec.js
// and app.wasm are; messages that come before the wasm is running wait in
// self.pending, where it reads them.
self.bloomlabEngine = true;
self.pending = [];
self.onmessage = (e) => {
  if (e.data.type !== "boot") {
    self.pending.push(e.data);
    return;
  }
  try {
    importScripts(e.data.exec);
    const go = new Go();
    // The page sends its compiled module when it has one; otherwise the
    // worker fetches and compiles app.wasm itself.
    const started = e.data.module
      ? WebAssembly.instantiate(e.data.module, go.importObject)
      : WebAssembly.instantiateStreaming(fetch(e.data.wasm), go.importObject).then((r) => r.instance);
    started
      .then((instance) => go.run(instance))
      .catch((err) => postMessage({ type: "failed", error: "the worker could not start the lab's wasm: " + err }));
  } catch (err) {
    postMessage({ type: "failed", error: "the worker could not load wasm_exec.js: " + err });
  }
};
