package site

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// NewHandler returns the go-app handler that serves (or, for the static
// site, prerenders) the lab. prefix is the path the site lives under ("" at
// the root, "/bloomlab" for a project site); version names the build, so
// browsers holding an older copy offline fetch the new one.
func NewHandler(prefix, version string) *app.Handler {
	prefix = "/" + strings.Trim(prefix, "/")
	if prefix == "/" {
		prefix = ""
	}
	cached := append([]string{"/index.html", "/web/engine.js"}, PageRoutes()[1:]...)
	var resources app.ResourceResolver = app.LocalDir("")
	if prefix != "" {
		resources = app.PrefixedLocation(prefix)
	}
	return &app.Handler{
		Name:            "Bloom Lab",
		ShortName:       "Bloom Lab",
		Title:           "Bloom Lab",
		Description:     "A Bloom filter lab: watch the bit array fill, measure the false-positive rate against theory, audit the filter's contract.",
		Lang:            "en",
		BackgroundColor: "#f7f8fb",
		ThemeColor:      "#1d3f8a",
		LoadingLabel:    "Starting the lab: {progress}%",
		Icon: app.Icon{
			Default: "/web/icon-192.png",
			Large:   "/web/icon-512.png",
			SVG:     "/web/icon.svg",
		},
		Styles: styles(),
		// Keeps the moves made before the lab is live (see the file).
		Scripts:               []string{"defer /web/early.js"},
		CacheableResources:    cached,
		Resources:             resources,
		Version:               version,
		ServiceWorkerTemplate: serviceWorker(prefix),
	}
}

// serviceWorker is go-app's worker with two changes for offline use. It
// caches what it can one resource at a time, so one missing page (a server
// without an index.html) cannot cost the whole offline copy, and it caches
// the start page under ROOT + "/" too. And since a
// page opened from a link carries a query (the lab's settings) and may be a
// route the cache holds under another name, navigations match the cache
// ignoring the query and, offline, fall back to the cached start page, from
// which the app renders the route itself. root is the site's path prefix.
func serviceWorker(root string) string {
	swaps := []struct{ old, new string }{
		{`async function installWorker() {
  const cache = await caches.open(cacheName);
  await cache.addAll(resourcesToCache);
}`, `async function installWorker() {
  const cache = await caches.open(cacheName);
  await Promise.all(
    resourcesToCache.concat([ROOT + "/"]).map(async (resource) => {
      try {
        await cache.add(resource);
      } catch (err) {
        console.warn("not cached for offline use:", resource, err);
      }
    })
  );
}`},
		{`async function fetchWithCache(request) {
  const cachedResponse = await caches.match(request);
  if (cachedResponse) {
    return cachedResponse;
  }
  return await fetch(request);
}`, `const startPages = [ROOT + "/", ROOT + "/index.html"];

// unredirect copies a response a server gave after a redirect (say
// /index.html to ./): a browser refuses a redirected response to a
// navigation.
function unredirect(response) {
  if (!response || !response.redirected) {
    return response;
  }
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

async function fetchWithCache(request) {
  const navigate = request.mode === "navigate";
  const cachedResponse = await caches.match(request, { ignoreSearch: navigate });
  if (cachedResponse) {
    return unredirect(cachedResponse);
  }
  try {
    return await fetch(request);
  } catch (err) {
    if (navigate) {
      for (const page of startPages) {
        const start = await caches.match(page);
        if (start) {
          return unredirect(start);
        }
      }
    }
    throw err;
  }
}`},
	}
	s := app.DefaultAppWorkerJS
	for _, sw := range swaps {
		if !strings.Contains(s, sw.old) {
			panic(fmt.Sprintf("site: go-app's service worker changed; update serviceWorker (looked for %q)", sw.old[:40]))
		}
		s = strings.Replace(s, sw.old, sw.new, 1)
	}
	return "const ROOT = " + strconv.Quote(strings.TrimRight(root, "/")) + ";\n" + s
}

// afterFirstPaint is what the lab's app.js adds to go-app's: the
// WebAssembly starts once the browser has painted the prerendered page.
// Downloading and compiling it keeps every core busy for a moment, and in
// Chromium the page's first frame waited for that (first paint at 1.2 s
// instead of 0.2 s on loopback, in half of Lighthouse's runs). A page
// opened in the background paints only when shown, so there the
// WebAssembly starts at once; a browser that reports no paint gets it on
// its next frame, and one that says nothing within startLimit ms gets it
// then.
const afterFirstPaint = `
// goappAfterFirstPaint calls start once the page has been painted.
function goappAfterFirstPaint(start) {
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
`

// startLimit is how long, in ms, the WebAssembly waits for news of the
// first paint.
const startLimit = 3000

// AppJS is go-app's app.js as the lab sends it, changed in four places:
//   - the WebAssembly starts after the first paint (see afterFirstPaint);
//   - the service worker is registered once the WebAssembly runs, not as
//     the page opens: its install fetches app.wasm for the offline copy,
//     and on a first visit, which the worker does not yet serve, that was a
//     second 2.4 MB download beside the page's own;
//   - the compiled module is kept as bloomlabWasmModule, so the page's
//     workers (app/engine) start from it instead of fetching and compiling
//     app.wasm again;
//   - the starting status tells a stalled or failed start in words, with
//     a Retry, instead of a figure that stays or an exception's text (see
//     startStatus).
//
// It fails if go-app's script no longer reads as it did.
func AppJS(goapp []byte) ([]byte, error) {
	swaps := []struct{ old, new string }{
		{"\ngoappInitServiceWorker();\n", "\n"},
		{"\ngoappInitWebAssembly();\n", `
goappAfterFirstPaint(async () => {
  await goappInitWebAssembly();
  goappInitServiceWorker();
});
`},
		{`  try {
    const showProgress = (progress) => {
      loaderLabel.innerText = goappLoadingLabel.replace("{progress}", progress);
    };
`, `  const status = bloomlabStatus(loader, loaderIcon, loaderLabel);
  try {
    const showProgress = status.progress;
`},
		// Go's own start (its runtime, its packages' set-up) runs in a task
		// of its own, after the one that made the WebAssembly's instance.
		{"\n    go.run(wasm.instance);\n", "\n    status.started();\n    bloomlabWasmModule = wasm.module;\n    await new Promise((resume) => setTimeout(resume, 0));\n    go.run(wasm.instance);\n"},
		{`    loaderIcon.className = "goapp-logo";
    loaderLabel.innerText = err;
    console.error("loading wasm failed: ", err);
`, `    console.error("loading wasm failed: ", err);
    status.failed(err);
`},
		{"\n  const response = await fetch(url);\n", "\n  const response = await bloomlabFetch(url);\n"},
	}
	s := string(goapp)
	for _, sw := range swaps {
		if strings.Count(s, sw.old) != 1 {
			return nil, fmt.Errorf("site: go-app's app.js changed: it no longer has one %q; update AppJS", strings.TrimSpace(sw.old))
		}
		s = strings.Replace(s, sw.old, sw.new, 1)
	}
	s += "\n// bloomlabWasmModule is the lab's compiled WebAssembly, for its workers.\nvar bloomlabWasmModule;\n"
	s += strings.ReplaceAll(afterFirstPaint, "startLimit", strconv.Itoa(startLimit))
	return []byte(s + strings.ReplaceAll(startStatus, "stallLimit", strconv.Itoa(stallLimit))), nil
}

// startStatus is what the lab's app.js adds to go-app's for its starting
// status. go-app showed a figure that stayed at 100% when app.wasm was
// missing, and an exception's text ("TypeError: Failed to fetch") when the
// network failed. Here a download that makes no progress for stallLimit
// ms says it is slow, still going, and offers a Retry; a start that fails
// (the server's answer, the network, a file that does not compile) says
// so in plain words, with a Retry that loads the page again, and moves
// into the page above its content, where it has the room its words need;
// web/early.js's notes on the moves made meanwhile then say they were not
// applied (window.bloomlabFailed, which counts them), and so does the
// status if there were any. A Retry asks for app.wasm past the
// browser's cache, which may hold the failed answer.
const startStatus = `
// bloomlabStatus drives the starting status, go-app's loader.
function bloomlabStatus(loader, icon, label) {
  loader.setAttribute("role", "status");
  icon.alt = "";
  const retry = document.createElement("button");
  retry.type = "button";
  retry.className = "goapp-retry";
  retry.textContent = "Retry";
  retry.hidden = true;
  retry.addEventListener("click", () => {
    try {
      sessionStorage.setItem("bloomlabRetry", "1");
    } catch {}
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
    failed(err) {
      over = true;
      clearTimeout(timer);
      loader.setAttribute("role", "alert");
      const moved = window.bloomlabFailed ? window.bloomlabFailed() : 0;
      show("failed", "The lab could not load: " + bloomlabWhy(err, percent >= 100) + "." + (moved ? " The moves made on this page were not applied." : ""));
      const main = document.getElementById("main");
      if (main) main.before(loader);
      else document.body.prepend(loader);
    },
  };
}

// bloomlabFetch asks for app.wasm, and fails in words when the network or
// the server does.
async function bloomlabFetch(url) {
  let again = false;
  try {
    again = sessionStorage.getItem("bloomlabRetry") === "1";
    sessionStorage.removeItem("bloomlabRetry");
  } catch {}
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
`

// stallLimit is how long, in ms, a download may make no progress before
// the status says it is slow.
const stallLimit = 20000
