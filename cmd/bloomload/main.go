// Command bloomload measures a running `bloomlab serve` on loopback: for
// each number of concurrent clients it sends a bounded number of GET
// requests over the site's pages, a share of them fresh lab links (a seed
// no request used before, so the server has never prerendered it), and
// prints the throughput, the 50th and 95th percentile latencies, and how
// many of the fresh links came with their first view (the rest came with
// their controls alone, the server's prerender budget being full).
//
//	bloomlab serve --port 8080 &
//	go run ./cmd/bloomload -url http://localhost:8080
//
// It is a measuring tool, not a test: no verdict of `make test` reads it.
// Each level stops at -requests requests or -time, whichever comes first.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// routes are the site's pages as a reader opens them: the lab's default
// link, then the other pages (app/site/pages.go).
var routes = []string{"/", "/lessons", "/experiments", "/calculator", "/audit", "/about", "/embed"}

// firstView marks a lab page that carries its first view (app/lab/bits.go).
var firstView = []byte(`id="bit-array-first"`)

func main() {
	base := flag.String("url", "http://localhost:8080", "the served lab's address, with its prefix if any")
	levels := flag.String("clients", "16,64,256", "numbers of concurrent clients, comma-separated")
	requests := flag.Int("requests", 2000, "requests per level, at most")
	limit := flag.Duration("time", 30*time.Second, "time per level, at most")
	fresh := flag.Int("fresh", 20, "one request in this many is a fresh lab link (0: none)")
	seed := flag.Uint64("seed", 1_000_000, "the first fresh link's seed; each later one adds 1")
	flag.Parse()
	var clients []int
	for _, f := range strings.Split(*levels, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || c < 1 {
			fmt.Fprintf(os.Stderr, "bloomload: -clients takes positive whole numbers, got %q\n", f)
			os.Exit(2)
		}
		clients = append(clients, c)
	}
	next := *seed
	fmt.Printf("%-8s %8s %8s %8s %8s %10s %9s %9s\n", "clients", "requests", "fresh", "w/ view", "non-200", "req/s", "p50", "p95")
	for _, c := range clients {
		r := run(strings.TrimRight(*base, "/"), c, *requests, *limit, *fresh, &next)
		fmt.Printf("%-8d %8d %8d %8d %8d %10.1f %9s %9s\n", c, r.n, r.fresh, r.views, r.bad, r.rate, r.p50.Round(100*time.Microsecond), r.p95.Round(100*time.Microsecond))
	}
}

type result struct {
	n, fresh, views, bad int
	rate                 float64
	p50, p95             time.Duration
}

// run sends up to total requests from clients goroutines, for at most
// limit. Request i is a fresh link when fresh divides i+1, otherwise the
// route i names in turn.
func run(base string, clients, total int, limit time.Duration, fresh int, seed *uint64) result {
	tr := &http.Transport{MaxIdleConns: clients, MaxIdleConnsPerHost: clients}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: time.Minute}
	var (
		issued, freshN, views, bad atomic.Int64
		mu                         sync.Mutex
		took                       []time.Duration
		wg                         sync.WaitGroup
	)
	start := time.Now()
	deadline := start.Add(limit)
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(issued.Add(1)) - 1
				if i >= total || time.Now().After(deadline) {
					return
				}
				path, isFresh := routes[i%len(routes)], fresh > 0 && (i+1)%fresh == 0
				if isFresh {
					path = "/?seed=" + strconv.FormatUint(atomic.AddUint64(seed, 1), 10)
					freshN.Add(1)
				}
				t0 := time.Now()
				resp, err := client.Get(base + path)
				var body []byte
				if err == nil {
					body, err = io.ReadAll(resp.Body)
					resp.Body.Close()
				}
				d := time.Since(t0)
				if err != nil || resp.StatusCode != http.StatusOK {
					bad.Add(1)
				}
				if isFresh && bytes.Contains(body, firstView) {
					views.Add(1)
				}
				mu.Lock()
				took = append(took, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	r := result{n: len(took), fresh: int(freshN.Load()), views: int(views.Load()), bad: int(bad.Load())}
	if r.n > 0 {
		r.rate = float64(r.n) / elapsed.Seconds()
		r.p50, r.p95 = took[r.n*50/100], took[min(r.n-1, r.n*95/100)]
	}
	return r
}
