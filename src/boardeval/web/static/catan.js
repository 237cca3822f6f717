/* Catan page: shows a board view (SVG + spot breakdowns + energy) from the API, generates boards as
   background jobs with a progress bar, swaps hexes or numbers by clicking, and keeps the URL shareable.
   The URL carries the board and, for a generated board, the method, seed, rules and fairness that made it
   (an edited or pasted board has no seed, and the seed box then says so). A clicked spot stays selected
   (hover only previews while none is); spots (and hexes in edit mode) are focusable, Enter acts.
   Every term carries its glossary definition (CATAN_GLOSSARY, from boardeval.web.glossary) as a tooltip. */
"use strict";
(() => {
  let view = null;
  let picked = null;       // first hex picked in swap mode
  let currentJob = null;
  let selectedSpot = null;  // the spot shown in the panel
  let pinnedSpot = null;    // the spot the user clicked (hover does not move the panel away from it)
  let made = null;          // {method, seed, rules, fairness} that made the board shown, or null
  const GLOSS = (typeof CATAN_GLOSSARY !== "undefined" && CATAN_GLOSSARY) || {};
  const $ = id => document.getElementById(id);

  function editMode() { return document.querySelector('input[name="edit"]:checked').value; }

  /** Tooltips from the glossary on the term cells of a breakdown table inside ``root``. */
  function glossTerms(root) {
    root.querySelectorAll("tr[data-term]").forEach(tr => {
      const def = GLOSS[tr.dataset.term];
      const cell = tr.firstElementChild;
      if (def && cell) { cell.title = def; cell.classList.add("term"); cell.tabIndex = 0; }
    });
    const total = root.querySelector("tr.total td");
    if (total && GLOSS[total.textContent.trim()]) total.title = GLOSS[total.textContent.trim()];
  }

  /** The share link of the board shown: the board, plus what made it when it was generated. */
  function shareUrl(v) {
    if (!made) return v.share_url;
    const q = new URLSearchParams();
    q.set("method", made.method); q.set("seed", String(made.seed));
    if (made.layout && made.layout !== "base") q.set("layout", made.layout);
    if (made.rules && made.rules.length) q.set("rules", made.rules.join(","));
    if (made.fairness !== null && made.fairness !== undefined) q.set("fairness", String(made.fairness));
    return v.share_url + "&" + q.toString();
  }

  /** Show what made the board in the form: the seed box always names the board's own seed. */
  function showMade() {
    $("seed").value = made ? String(made.seed) : "";
    $("seed").placeholder = made ? "" : "none";
    $("seed-note").textContent = made ? "" : "(this board has no seed: edited or pasted; Generate draws a new one)";
  }

  function show(v, pushUrl) {
    view = v; picked = null;
    $("board").innerHTML = v.svg;
    $("board").querySelectorAll("[data-spot]").forEach(el => {
      if (el.tagName.toLowerCase() === "text") return;
      const s = v.spots[Number(el.getAttribute("data-spot"))];
      el.setAttribute("tabindex", "0"); el.setAttribute("role", "button");
      if (s) el.setAttribute("aria-label", `spot ranked ${s.rank}, score ${BE.fmt(s.score, 2)}`);
    });
    $("energy").innerHTML = BE.breakdownTable(v.energy, { totalLabel: "energy" });
    glossTerms($("energy"));
    $("energy-total").textContent = BE.fmt(v.energy.total, 1);
    $("code").textContent = v.code;
    const url = shareUrl(v);
    $("share-link").href = url;
    $("download-svg").href = "/api/catan/board.svg?board=" + encodeURIComponent(v.code);
    $("download-json").href = "/api/catan/board.json?board=" + encodeURIComponent(v.code);
    if (pushUrl !== false) history.replaceState(null, "", url);
    showMade();
    const top = v.spots.slice().sort((a, b) => a.rank - b.rank).slice(0, 6);
    const res = s => ((s.breakdown.extras || {}).hexes || []).join(", ");
    $("top-spots").innerHTML = `<table class="data top-spots"><thead><tr><th title="the number on the board">rank</th><th>hexes</th>` +
      `<th title="${BE.esc(GLOSS.raw_production || "")}">raw production</th><th title="${BE.esc(GLOSS["spot score"] || "")}">score</th></tr></thead><tbody>` + top.map(s =>
        `<tr data-spot-row="${s.spot}" tabindex="0" style="cursor:pointer"><td>${s.rank}</td><td>${res(s)}</td>` +
        `<td class="num">${BE.fmt(s.breakdown.terms[0].raw)}</td><td class="num">${BE.fmt(s.score, 2)}</td></tr>`).join("") +
      `</tbody></table>`;
    const best = v.spots.find(s => s.rank === 1);
    if (pinnedSpot !== null && !v.spots[pinnedSpot]) pinnedSpot = null;
    showSpot(pinnedSpot !== null ? pinnedSpot : (selectedSpot !== null ? selectedSpot : (best ? best.spot : 0)));
    updateEditHint();
  }

  function showSpot(n) {
    if (!view) return;
    const s = view.spots[n];
    if (!s) return;
    selectedSpot = n;
    $("spot-id").textContent = n;
    $("spot-rank").textContent = `rank ${s.rank} of ${view.spots.length}` + (pinnedSpot === n ? " · selected" : "");
    const ex = s.breakdown.extras || {};
    let html = `<p class="muted" style="margin:.2rem 0 .5rem">score <b class="num">${BE.fmt(s.score, 3)}</b>`;
    if (ex.hexes) html += ` · hexes ${ex.hexes.join(", ")}`;
    if (ex.port !== undefined) html += ` · port ${ex.port === null ? "none" : BE.esc(ex.port === "3" ? "3:1" : ex.port + " 2:1")}`;
    html += `</p>` + BE.breakdownTable(s.breakdown, { totalLabel: "score" });
    const prod = ex.production || ex.prod;
    if (prod && typeof prod === "object") {
      html += `<h3>Production (pips) per resource</h3><p class="mono">` +
        Object.entries(prod).map(([k, v]) => `${BE.esc(k)} ${BE.fmt(v)}`).join(" · ") + `</p>`;
    }
    $("spot").innerHTML = html;
    glossTerms($("spot"));
    document.querySelectorAll("#board .spot.selected").forEach(e => e.classList.remove("selected"));
    const el = document.querySelector(`#board [data-spot="${n}"]`);
    if (el) el.classList.add("selected");
  }

  function updateEditHint() {
    const m = editMode();
    $("edit-hint").textContent = m === "none" ? "" :
      (picked === null ? `click the first hex` : `hex ${picked} picked: click the hex to swap it with`);
    document.querySelectorAll("#board [data-hex].picked").forEach(e => e.classList.remove("picked"));
    if (picked !== null) document.querySelectorAll(`#board [data-hex="${picked}"]`).forEach(e => e.classList.add("picked"));
    document.querySelectorAll("#board polygon[data-hex], #board [data-hex]:not(text)").forEach(e => {
      if (m === "none") { e.removeAttribute("tabindex"); e.removeAttribute("role"); }
      else { e.setAttribute("tabindex", "0"); e.setAttribute("role", "button"); e.setAttribute("aria-label", `hex ${e.getAttribute("data-hex")}`); }
    });
  }

  async function swap(a, b, kind) {
    try {
      const v = await BE.api("POST", "/api/catan/swap", { board: view.code, kind, a, b });
      made = null;  // an edited board no longer comes from a seed
      show(v);
    } catch (e) { picked = null; updateEditHint(); }
  }

  /** Hover or focus previews a spot, unless one was clicked (then the panel keeps the clicked one). */
  function onBoardOver(evt) {
    const s = evt.target.closest ? evt.target.closest("[data-spot]") : null;
    if (s && pinnedSpot === null) showSpot(Number(s.getAttribute("data-spot")));
  }

  /** Click (or Enter) on a spot selects it and keeps it; again on the same spot releases it. */
  function pin(n) {
    pinnedSpot = pinnedSpot === n ? null : n;
    showSpot(n);
  }

  function onBoardClick(evt) {
    const s = evt.target.closest ? evt.target.closest("[data-spot]") : null;
    const mode = editMode();
    if (s && mode === "none") { pin(Number(s.getAttribute("data-spot"))); return; }
    const h = evt.target.closest ? evt.target.closest("[data-hex]") : null;
    if (!h || mode === "none") return;
    const id = Number(h.getAttribute("data-hex"));
    if (picked === null) { picked = id; updateEditHint(); return; }
    if (picked === id) { picked = null; updateEditHint(); return; }
    const a = picked; picked = null;
    swap(a, id, mode);
  }

  const freshSeed = () => Math.floor(Math.random() * 1e6);

  /** Generate with the seed in the box (a fresh one when it is empty); "New board" draws a fresh seed. */
  async function generate(evt, fresh) {
    if (evt) evt.preventDefault();
    if (currentJob) return;
    const rules = $("rules").value.split(",").map(s => s.trim()).filter(Boolean);
    if (fresh || $("seed").value.trim() === "") $("seed").value = String(freshSeed());
    const body = { method: $("method").value, seed: Number($("seed").value), rules,
      fairness: $("use-fairness").checked ? Number($("fairness").value) : null, layout: $("layout").value };
    const bar = $("progress"), fill = bar.firstElementChild;
    $("generate").disabled = true; $("new-board").disabled = true; $("cancel").hidden = false; bar.hidden = false; fill.style.width = "0";
    $("gen-info").textContent = "generating…";
    try {
      const job = await BE.api("POST", "/api/jobs/catan/generate", body);
      currentJob = job.id;
      const done = await BE.waitJob(job.id, j => {
        fill.style.width = j.total ? `${Math.round(100 * j.done / j.total)}%` : "30%";
        if (j.message) $("gen-info").textContent = j.message;
      });
      if (done.result) {
        const g = done.result.generation;
        made = { method: g.method, seed: g.seed, rules: body.rules, fairness: g.fairness, layout: g.layout };
        show(done.result);
        const rulesTxt = Object.entries(g.rules).map(([k, v]) => `${k} ${v ? "✓" : "✗"}`).join(", ");
        $("gen-info").textContent = `${g.method}, seed ${g.seed}` + (g.layout === "extended" ? ", 5-6 players" : "") + (g.fairness !== null ? `, fairness ${g.fairness}` : "") +
          ` · ${BE.fmt(Math.max(g.seconds, done.seconds || 0) * 1000, 0)} ms` + (g.optimal ? " · proven optimal" : "") +
          (g.swaps !== null && g.swaps !== undefined ? ` · ${g.swaps} swaps` +
            (g.swap_list && g.swap_list.length ? ` (${g.swap_list.map(w => `${w.kind} ${w.hexes.join("↔")}`).join(", ")})` : "") : "") + (rulesTxt ? ` · ${rulesTxt}` : "") +
          (done.state === "cancelled" || g.interrupted ? " · stopped early: best so far" : "");
      } else {
        $("gen-info").textContent = "cancelled before a board was made: the board shown is unchanged";
        showMade();
      }
    } catch (e) {
      $("gen-info").textContent = e.message;
    } finally {
      currentJob = null; $("generate").disabled = false; $("new-board").disabled = false; $("cancel").hidden = true; bar.hidden = true;
    }
  }

  async function paste(evt) {
    evt.preventDefault();
    const text = $("paste").value.trim();
    if (!text) return;
    try {
      const v = await BE.api("POST", "/api/catan/parse", { text });
      made = null; show(v); $("paste").value = "";
    } catch (e) { /* toast */ }
  }

  function showFairness() {
    const on = $("use-fairness").checked;
    $("fairness-value").textContent = on ? Number($("fairness").value).toFixed(2) : "off";
    $("fairness").classList.toggle("off", !on);
  }

  /** Method, seed, rules and fairness from the URL (a shared link), into the form and ``made``. */
  function readUrl() {
    const q = new URLSearchParams(location.search);
    const method = q.get("method"), seed = q.get("seed");
    if (q.get("layout") === "extended" || (CATAN_INITIAL && CATAN_INITIAL.layout === "extended")) $("layout").value = "extended";
    if (method && [...$("method").options].some(o => o.value === method)) $("method").value = method;
    if (q.get("rules")) $("rules").value = q.get("rules").split(",").join(", ");
    const f = q.get("fairness");
    if (f !== null && f !== "" && Number.isFinite(Number(f)) && Number(f) >= 0 && Number(f) <= 1) {
      $("fairness").value = f; $("use-fairness").checked = true;
    }
    showFairness();
    if (method && seed !== null && /^[0-9]+$/.test(seed)) {
      made = { method, seed: Number(seed), rules: q.get("rules") ? q.get("rules").split(",") : [],
        fairness: $("use-fairness").checked ? Number($("fairness").value) : null, layout: $("layout").value };
    }
  }

  document.addEventListener("DOMContentLoaded", async () => {
    $("board").addEventListener("mouseover", onBoardOver);
    $("board").addEventListener("focusin", onBoardOver);
    $("board").addEventListener("mouseleave", () => { if (pinnedSpot !== null) showSpot(pinnedSpot); });
    $("board").addEventListener("click", onBoardClick);
    $("board").addEventListener("keydown", evt => {
      if (evt.key !== "Enter" && evt.key !== " ") return;
      if (!evt.target.closest || !evt.target.closest("[data-spot], [data-hex]")) return;
      evt.preventDefault();
      onBoardClick(evt);
    });
    $("generate-form").addEventListener("submit", evt => generate(evt, false));
    $("new-board").addEventListener("click", evt => generate(evt, true));
    const pickRow = evt => {
      const row = evt.target.closest("[data-spot-row]");
      if (row) { pinnedSpot = null; pin(Number(row.getAttribute("data-spot-row"))); }
    };
    $("top-spots").addEventListener("click", pickRow);
    $("top-spots").addEventListener("keydown", evt => { if (evt.key === "Enter") pickRow(evt); });
    $("paste-form").addEventListener("submit", paste);
    $("cancel").addEventListener("click", () => { if (currentJob) BE.api("DELETE", "/api/jobs/" + currentJob); });
    $("fairness").addEventListener("input", () => { $("use-fairness").checked = true; showFairness(); });
    $("use-fairness").addEventListener("change", showFairness);
    $("copy-link").addEventListener("click", async () => {
      const url = location.origin + shareUrl(view);
      try { await navigator.clipboard.writeText(url); BE.toast("link copied", "info"); }
      catch (e) { BE.toast(url, "info"); }
    });
    document.querySelectorAll('input[name="edit"]').forEach(r => r.addEventListener("change", () => { picked = null; updateEditHint(); }));
    readUrl();
    if (CATAN_INITIAL) {
      show(CATAN_INITIAL, false);
      if (made) $("gen-info").textContent = `${made.method}, seed ${made.seed} (from the link)`;
    } else {
      const seed = freshSeed();
      try {
        const layout = $("layout").value;
        const v = await BE.api("GET", "/api/catan/random?seed=" + seed + "&layout=" + layout);
        made = { method: "random", seed, rules: [], fairness: null, layout };
        show(v, false);
        $("gen-info").textContent = `a uniformly random board (seed ${seed}); "New board" draws another`;
      } catch (e) { }
    }
  });
})();
