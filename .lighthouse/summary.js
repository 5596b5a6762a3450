// Prints, for each page, the median of its Lighthouse runs: the two scores,
// total blocking time, the longest main-thread task, layout shift, and the
// largest contentful paint.
const fs = require("fs");
const path = require("path");

const dir = process.argv[2];
const pages = new Map();
for (const f of fs.readdirSync(dir).sort()) {
  const r = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
  const page = new URL(r.requestedUrl || r.finalDisplayedUrl).pathname;
  // A run Lighthouse could not finish (the page did not load, say) has
  // no scores: it is named and left out of the medians.
  if (r.runtimeError || r.categories.performance.score === null) {
    console.error(`${f}: no scores: ${r.runtimeError ? r.runtimeError.code : "performance not scored"}`);
    continue;
  }
  if (!pages.has(page)) pages.set(page, []);
  pages.get(page).push({
    performance: r.categories.performance.score,
    accessibility: r.categories.accessibility.score,
    tbt: r.audits["total-blocking-time"].numericValue,
    // Lighthouse's long-tasks audit lists the main thread's tasks over 50 ms
    // (none: 0).
    longest: Math.max(0, ...((r.audits["long-tasks"]?.details?.items ?? []).map((t) => t.duration))),
    cls: r.audits["cumulative-layout-shift"].numericValue,
    lcp: r.audits["largest-contentful-paint"].numericValue,
    failed: Object.values(r.audits)
      .filter((a) => a.scoreDisplayMode === "binary" && a.score === 0 && r.categories.accessibility.auditRefs.some((x) => x.id === a.id))
      .map((a) => a.id),
  });
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
console.log("page          runs  performance  accessibility  blocking ms  longest task ms  layout shift  LCP ms  accessibility audits failed");
for (const [page, rs] of pages) {
  const m = (k) => median(rs.map((r) => r[k]));
  const failed = [...new Set(rs.flatMap((r) => r.failed))].join(", ") || "-";
  console.log(
    page.padEnd(14) + String(rs.length).padEnd(6) + m("performance").toFixed(2).padEnd(13) +
      m("accessibility").toFixed(2).padEnd(15) + m("tbt").toFixed(0).padEnd(13) + m("longest").toFixed(0).padEnd(17) + m("cls").toFixed(3).padEnd(14) +
      m("lcp").toFixed(0).padEnd(8) + failed,
  );
}
