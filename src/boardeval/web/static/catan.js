/* Catan page: shows a board view (SVG + spot breakdowns + energy) from the API, generates boards as
   background jobs with a progress bar, swaps hexes or numbers by clicking, and keeps the URL shareable. */
"use strict";
(() => {
  let view = null;
  let picked = null;       // first hex picked in swap mode
  let currentJob = null;
  let selectedSpot = null;
  const $ = id => document.getElementById(id);

  function editMode() { return document.querySelector('input[name="edit"]:checked').value; }

  function show(v, pushUrl) {
    view = v; picked = null;
    $("board").innerHTML = v.svg;
    $("energy").innerHTML = BE.breakdownTable(v.energy, { totalLabel: "energy" });
    $("energy-total").textContent = BE.fmt(v.energy.total, 1);
    $("code").textContent = v.code;
    $("share-link").href = v.share_url;
    $("download-svg").href = "/api/catan/board.svg?board=" + encodeURIComponent(v.code);
    $("download-json").href = "/api/catan/board.json?board=" + encodeURIComponent(v.code);
    if (pushUrl !== false) history.replaceState(null, "", v.share_url);
    const top = v.spots.slice().sort((a, b) => a.rank - b.rank).slice(0, 6);
    const res = s => ((s.breakdown.extras || {}).hexes || []).join(", ");
    $("top-spots").innerHTML = `<table class="data top-spots"><thead><tr><th>rank</th><th>spot</th><th>hexes</th>` +
      `<th>raw production</th><th>score</th></tr></thead><tbody>` + top.map(s =>
        `<tr data-spot-row="${s.spot}" style="cursor:pointer"><td>${s.rank}</td><td>${s.spot}</td><td>${res(s)}</td>` +
        `<td class="num">${BE.fmt(s.breakdown.terms[0].raw)}</td><td class="num">${BE.fmt(s.score, 2)}</td></tr>`).join("") +
      `</tbody></table>`;
    const best = v.spots.find(s => s.rank === 1);
    showSpot(selectedSpot !== null ? selectedSpot : (best ? best.spot : 0));
    updateEditHint();
  }

  function showSpot(n) {
    if (!view) return;
    const s = view.spots[n];
    if (!s) return;
    $("spot-id").textContent = n;
    $("spot-rank").textContent = `rank ${s.rank} of ${view.spots.length}`;
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
  }

  async function swap(a, b, kind) {
    try {
      show(await BE.api("POST", "/api/catan/swap", { board: view.code, kind, a, b }));
    } catch (e) { picked = null; updateEditHint(); }
  }

  function onBoardOver(evt) {
    const s = evt.target.closest ? evt.target.closest("[data-spot]") : null;
    if (s) { selectedSpot = Number(s.getAttribute("data-spot")); showSpot(selectedSpot); }
  }

  function onBoardClick(evt) {
    const s = evt.target.closest ? evt.target.closest("[data-spot]") : null;
    const mode = editMode();
    if (s && mode === "none") { selectedSpot = Number(s.getAttribute("data-spot")); showSpot(selectedSpot); return; }
    const h = evt.target.closest ? evt.target.closest("[data-hex]") : null;
    if (!h || mode === "none") return;
    const id = Number(h.getAttribute("data-hex"));
    if (picked === null) { picked = id; updateEditHint(); return; }
    if (picked === id) { picked = null; updateEditHint(); return; }
    const a = picked; picked = null;
    swap(a, id, mode);
  }

  async function generate(evt) {
    evt.preventDefault();
    const rules = $("rules").value.split(",").map(s => s.trim()).filter(Boolean);
    const body = { method: $("method").value, seed: Number($("seed").value || 0), rules,
      fairness: $("use-fairness").checked ? Number($("fairness").value) : null };
    const bar = $("progress"), fill = bar.firstElementChild;
    $("generate").disabled = true; $("cancel").hidden = false; bar.hidden = false; fill.style.width = "0";
    $("gen-info").textContent = "generating…";
    try {
      const job = await BE.api("POST", "/api/jobs/catan/generate", body);
      currentJob = job.id;
      const done = await BE.waitJob(job.id, j => {
        fill.style.width = j.total ? `${Math.round(100 * j.done / j.total)}%` : "30%";
        if (j.message) $("gen-info").textContent = j.message;
      });
      if (done.result) {
        show(done.result);
        const g = done.result.generation;
        const rulesTxt = Object.entries(g.rules).map(([k, v]) => `${k} ${v ? "✓" : "✗"}`).join(", ");
        $("gen-info").textContent = `${g.method}, seed ${g.seed}` + (g.fairness !== null ? `, fairness ${g.fairness}` : "") +
          ` · ${BE.fmt(g.seconds * 1000, 0)} ms` + (g.optimal ? " · proven optimal" : "") +
          (g.swaps !== null && g.swaps !== undefined ? ` · ${g.swaps} swaps` +
            (g.swap_list && g.swap_list.length ? ` (${g.swap_list.map(w => `${w.kind} ${w.hexes.join("↔")}`).join(", ")})` : "") : "") + (rulesTxt ? ` · ${rulesTxt}` : "") +
          (done.state === "cancelled" || g.interrupted ? " · stopped early: best so far" : "");
      } else {
        $("gen-info").textContent = "cancelled";
      }
    } catch (e) {
      $("gen-info").textContent = e.message;
    } finally {
      currentJob = null; $("generate").disabled = false; $("cancel").hidden = true; bar.hidden = true;
    }
  }

  async function paste(evt) {
    evt.preventDefault();
    const text = $("paste").value.trim();
    if (!text) return;
    try { show(await BE.api("POST", "/api/catan/parse", { text })); $("paste").value = ""; } catch (e) { /* toast */ }
  }

  document.addEventListener("DOMContentLoaded", async () => {
    $("board").addEventListener("mouseover", onBoardOver);
    $("board").addEventListener("click", onBoardClick);
    $("generate-form").addEventListener("submit", generate);
    $("top-spots").addEventListener("click", evt => {
      const row = evt.target.closest("[data-spot-row]");
      if (row) { selectedSpot = Number(row.getAttribute("data-spot-row")); showSpot(selectedSpot); }
    });
    $("paste-form").addEventListener("submit", paste);
    $("cancel").addEventListener("click", () => { if (currentJob) BE.api("DELETE", "/api/jobs/" + currentJob); });
    $("fairness").addEventListener("input", () => {
      $("fairness-value").textContent = Number($("fairness").value).toFixed(2); $("use-fairness").checked = true; });
    $("copy-link").addEventListener("click", async () => {
      const url = location.origin + view.share_url;
      try { await navigator.clipboard.writeText(url); BE.toast("link copied", "info"); }
      catch (e) { BE.toast(url, "info"); }
    });
    document.querySelectorAll('input[name="edit"]').forEach(r => r.addEventListener("change", () => { picked = null; updateEditHint(); }));
    if (CATAN_INITIAL) show(CATAN_INITIAL, false);
    else {
      const seed = Math.floor(Math.random() * 1e6);
      try {
        show(await BE.api("GET", "/api/catan/random?seed=" + seed), false);
        $("gen-info").textContent = `a uniformly random board (seed ${seed})`;
      } catch (e) { }
    }
  });
})();
