// Bloom Lab before its WebAssembly is live. The prerendered lab (or
// calculator) is the page from the first paint, so a reader may move a
// control, or click a button such as a figure's download, before the page
// can answer: each such move is kept, the control says the lab is
// starting, and the live page makes the move again
// (window.bloomlabLive, which the lab and the calculator call once their
// page is mounted). If the lab cannot start (window.bloomlabFailed, which
// the lab's app.js calls), the notes say the moves were not applied.
(() => {
  "use strict";
  const moves = [];
  let live = false;
  let failed = false;
  const waiting = "The lab is starting: this applies as soon as it is live.";
  const lost = "Not applied: the lab could not load (see the notice at the top of the page).";

  const say = (el) => {
    const box = el.closest(".control, .presets, .seed-row") || el.parentElement;
    if (!box || box.querySelector(".early-note")) return;
    const note = document.createElement("small");
    note.className = failed ? "early-note not-applied" : "early-note";
    note.setAttribute("role", "status");
    note.textContent = failed ? lost : waiting;
    box.appendChild(note);
  };

  const keep = (e) => {
    const el = e.target;
    if (live || !(el instanceof Element) || !el.id || !el.closest("#lab, #calculator")) return;
    if (e.type === "click" && el.tagName !== "BUTTON") return;
    if (e.type !== "click" && !/^(INPUT|SELECT)$/.test(el.tagName)) return;
    if (failed) {
      say(el);
      return;
    }
    const move = { id: el.id, type: e.type, value: el.value, checked: el.checked };
    const last = moves[moves.length - 1];
    if (last && last.id === move.id && last.type === move.type && e.type !== "click") {
      moves[moves.length - 1] = move;
    } else {
      moves.push(move);
    }
    say(el);
  };
  for (const type of ["input", "change", "click"]) {
    document.addEventListener(type, keep, true);
  }

  // bloomlabFailed returns how many controls carry a note.
  window.bloomlabFailed = () => {
    failed = true;
    moves.length = 0;
    const notes = document.querySelectorAll(".early-note");
    for (const note of notes) {
      note.classList.add("not-applied");
      note.textContent = lost;
    }
    return notes.length;
  };

  // bloomlabLive ends the keeping and makes the moves again, or, given
  // hold, returns the function that makes them: a page whose parts mount
  // after it is live calls it once they are in, as a move may be on one.
  // A figure's download waits for the lab to be ready: on a link whose
  // run is too large for the first view, the page is mounted before its
  // run has drawn the figures.
  window.bloomlabLive = (hold) => {
    if (live) return undefined;
    live = true;
    const replay = () => setTimeout(async () => {
      for (const m of moves) {
        let el = document.getElementById(m.id);
        if (!el) continue;
        if (m.type === "click") {
          if (el.matches(".figure-download")) {
            await labReady();
            el = document.getElementById(m.id);
          }
          el?.click();
          continue;
        }
        if (el.type === "checkbox") el.checked = m.checked;
        else el.value = m.value;
        el.dispatchEvent(new Event(m.type, { bubbles: true }));
      }
      moves.length = 0;
    });
    if (hold) return replay;
    replay();
    return undefined;
  };

  // labReady resolves once the lab (if the page has one) has a result,
  // or says it failed.
  const labReady = () => new Promise((ready) => {
    const check = () => {
      const lab = document.getElementById("lab");
      if (!lab || lab.dataset.state === "ready" || document.getElementById("lab-error")) ready();
      else setTimeout(check, 50);
    };
    check();
  });
})();

// The shell's skip link moves the focus to the page's content. It is
// handled here, before and after the lab is live: go-app takes every click
// on a link for a navigation (its window.onclick), which would re-read the
// page's link and leave the focus on the skip link. A listener that
// captures at the document runs first and stops the click there.
document.addEventListener("click", (e) => {
  const a = e.target instanceof Element && e.target.closest("a.skip-link");
  const main = a && document.getElementById(a.getAttribute("href").slice(1));
  if (!main) return;
  e.preventDefault();
  e.stopPropagation();
  main.focus();
  main.scrollIntoView();
}, true);
