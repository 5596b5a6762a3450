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
		// early.js keeps the moves made before the lab is live; start.js
		// is the page's start, after go-app's app.js (see doc.go).
		Scripts:               []string{"defer /web/early.js", "defer /web/start.js"},
		CacheableResources:    cached,
		Resources:             resources,
		Version:               version,
		ServiceWorkerTemplate: serviceWorker(prefix),
	}
}

// serviceWorker is go-app's worker with two changes for offline use. It
// caches what it can one resource at a time, so one missing page (a server
// without an index.html) cannot cost the whole offline copy, and it caches
// the start page under ROOT + "/" too. And a page opened from a link
// carries a query (the lab's settings), which the server's prerendered
// page shows and the cache's does not: such a navigation goes to the
// server first and, offline, takes the page from the cache ignoring the
// query, or else the cached start page, from which the app renders the
// route itself. root is the site's path prefix.
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

// A link with settings in its query is asked of the server first, which
// prerenders the page for them; the cache holds each page without them,
// which showed the default figures until the app was live.
async function fetchWithCache(request) {
  const navigate = request.mode === "navigate";
  const linked = navigate && new URL(request.url).search !== "";
  if (!linked) {
    const cachedResponse = await caches.match(request);
    if (cachedResponse) {
      return unredirect(cachedResponse);
    }
  }
  try {
    return await fetch(request);
  } catch (err) {
    if (navigate) {
      for (const page of [request, ...startPages]) {
        const cached = await caches.match(page, { ignoreSearch: true });
        if (cached) {
          return unredirect(cached);
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

// AppJS is go-app's app.js as the lab sends it: go-app's own, without the
// two calls that start the page as the script runs. web/start.js, deferred
// after it, starts the WebAssembly after the first paint (compiled in a
// worker), and the service worker once the WebAssembly runs: the worker's
// install fetches app.wasm for the offline copy, and on a first visit,
// which the worker does not yet serve, that was a second 2.4 MB download
// beside the page's own. start.js reads the rest of go-app's script as it
// stands (startNames).
//
// It fails if go-app's script no longer reads as it did: a call not there
// once, or a name start.js reads not declared.
func AppJS(goapp []byte) ([]byte, error) {
	s := string(goapp)
	for _, call := range startCalls {
		if strings.Count(s, call) != 1 {
			return nil, fmt.Errorf("site: go-app's app.js changed: it no longer has one %q; update AppJS and web/start.js", strings.TrimSpace(call))
		}
		s = strings.Replace(s, call, "\n", 1)
	}
	for _, name := range startNames {
		if !declares(s, name) {
			return nil, fmt.Errorf("site: go-app's app.js changed: it no longer declares %s, which web/start.js reads; update web/start.js", name)
		}
	}
	return []byte(s), nil
}

// startCalls are the calls in go-app's app.js that web/start.js makes
// instead, in its own order.
var startCalls = [...]string{"\ngoappInitServiceWorker();\n", "\ngoappInitWebAssembly();\n"}

// startNames are the names of go-app's app.js that web/start.js reads.
var startNames = [...]string{"goappCanLoadWebAssembly", "goappInitServiceWorker", "goappGetenv",
	"goappLoadingLabel", "goappWasmContentLength", "goappWasmContentLengthHeader"}

// declares reports whether the script js declares name at the start of a
// line: a function, async or not, or a const, let or var.
func declares(js, name string) bool {
	for _, kind := range []string{"function ", "async function ", "const ", "let ", "var "} {
		for _, end := range []string{"(", " "} {
			if strings.HasPrefix(js, kind+name+end) || strings.Contains(js, "\n"+kind+name+end) {
				return true
			}
		}
	}
	return false
}
