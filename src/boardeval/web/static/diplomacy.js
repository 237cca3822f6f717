/* Diplomacy page: fetches all measures of a game once, draws one SVG line chart per measure (one line per
   power) and the fear/stab tables as heatmaps for the phase chosen with the slider. */
"use strict";
(() => {
  let view = null;
  let source = null;   // {kind: "shipped", id} or {kind: "upload", file, index}
  const $ = id => document.getElementById(id);
  const short = p => BE.esc(p.slice(0, 3));

  function lineChart(measure, data) {
    const W = 420, H = 210, L = 44, R = 10, T = 26, B = 24;
    const n = view.phases.length;
    const keys = Object.keys(data);
    const vals = [];
    for (const k of keys) for (const v of data[k]) if (v !== null) vals.push(v);
    let lo = vals.length ? Math.min(...vals) : 0, hi = vals.length ? Math.max(...vals) : 1;
    if (lo === hi) { lo -= 1; hi += 1; }
    const pad = (hi - lo) * 0.06; lo -= pad; hi += pad;
    const x = i => L + (W - L - R) * (n <= 1 ? 0 : i / (n - 1));
    const y = v => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
    let s = `<svg viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg" data-measure="${measure}">`;
    s += `<text x="${L}" y="15" font-size="12" font-weight="600" fill="#1f2328">${BE.esc(view.labels[measure] || measure)}</text>`;
    for (let k = 0; k <= 4; k++) {
      const v = lo + (hi - lo) * k / 4, yy = y(v);
      s += `<line x1="${L}" x2="${W - R}" y1="${yy}" y2="${yy}" stroke="#ece8e0"/>`;
      s += `<text x="${L - 4}" y="${yy + 3}" font-size="9" text-anchor="end" fill="#5b6470">${BE.fmt(v, Math.abs(hi - lo) < 5 ? 2 : 0)}</text>`;
    }
    const years = [];
    view.phases.forEach((p, i) => { if (/^S\d{4}M$/.test(p)) years.push([i, BE.esc(p.slice(1, 5))]); });
    const every = Math.max(1, Math.ceil(years.length / 8));
    years.forEach(([i, yr], k) => { if (k % every === 0)
      s += `<text x="${x(i)}" y="${H - 8}" font-size="9" text-anchor="middle" fill="#5b6470">${yr}</text>`; });
    s += `<line class="cursor" x1="0" x2="0" y1="${T}" y2="${H - B}" stroke="#c8553d" stroke-width="1.5" stroke-dasharray="3 2"/>`;
    for (const k of keys) {
      const colour = k === "" ? "#c8553d" : view.colours[k];
      let d = "", pen = false;
      data[k].forEach((v, i) => {
        if (v === null) { pen = false; return; }
        d += (pen ? "L" : "M") + x(i).toFixed(1) + " " + y(v).toFixed(1) + " "; pen = true;
      });
      const stroke = k === "RUSSIA" ? ' stroke-dasharray="5 2"' : "";
      s += `<path d="${d}" fill="none" stroke="${colour}" stroke-width="2"${stroke}><title>${BE.esc(k || measure)}</title></path>`;
    }
    s += `</svg>`;
    return s;
  }

  function heat(table, opts) {
    opts = opts || {};
    const P = view.powers;
    let max = 0;
    for (const row of table) for (const v of row) if (v !== null) max = Math.max(max, Math.abs(v));
    let h = `<table class="heat"><tr><th></th>${P.map(p => `<th title="${BE.esc(p)}">${short(p)}</th>`).join("")}</tr>`;
    table.forEach((row, i) => {
      h += `<tr><th title="${BE.esc(P[i])}">${short(P[i])}</th>`;
      row.forEach((v, j) => {
        if (v === null) { h += `<td style="background:#f3f0ea">${i === j ? "" : "–"}</td>`; return; }
        const a = max ? Math.abs(v) / max : 0;
        const bg = v >= 0 ? `rgba(200,85,61,${(0.08 + 0.85 * a).toFixed(3)})` : `rgba(60,110,180,${(0.08 + 0.85 * a).toFixed(3)})`;
        const fg = a > 0.55 ? "#fff" : "#1f2328";
        h += `<td style="background:${bg};color:${fg}" data-row="${BE.esc(P[i])}" data-col="${BE.esc(P[j])}">${BE.fmt(v, Number.isInteger(v) ? 0 : 1)}</td>`;
      });
      h += `</tr>`;
    });
    return h + `</table>`;
  }

  /* Seed 003: a rise in mutual fear between two powers is a signal of their relation. List the largest
     rises (and falls) at this phase, each pair once. */
  function signals(t) {
    const ch = view.tables.fear_mutual_change ? view.tables.fear_mutual_change[t] : null;
    if (!ch) return "";
    const P = view.powers, items = [];
    for (let i = 0; i < P.length; i++) for (let j = i + 1; j < P.length; j++) {
      const v = ch[i][j];
      if (v !== null && v !== 0) items.push([v, P[i], P[j]]);
    }
    if (!items.length) return `<p class="muted">No change in mutual fear at ${BE.esc(view.phases[t])}.</p>`;
    items.sort((a, b) => Math.abs(b[0]) - Math.abs(a[0]));
    const cap = s => BE.esc(s.charAt(0) + s.slice(1).toLowerCase());
    return `<ul class="signal-list">` + items.slice(0, 5).map(([v, a, b]) =>
      `<li class="${v > 0 ? "rise" : "fall"}"><b>${cap(a)}–${cap(b)}</b>: mutual fear ${v > 0 ? "rose" : "fell"} by ` +
      `${BE.fmt(Math.abs(v), 0)}</li>`).join("") + `</ul>`;
  }

  function showPhase(t) {
    if (!view) return;
    $("phase-name").textContent = view.phases[t];
    $("heat-fear").innerHTML = heat(view.tables.fear_dynamic[t]) + chartLink("fear_dynamic", view.phases[t]);
    $("heat-stab").innerHTML = heat(view.tables.stab_potential[t]) + chartLink("stab_potential", view.phases[t]);
    $("heat-mutual").innerHTML = view.tables.fear_mutual_change ? heat(view.tables.fear_mutual_change[t]) : "";
    $("fear-signals").innerHTML = signals(t);
    let sc = `<table class="data"><thead><tr><th>power</th><th>SCs</th><th>tempi</th><th>battle-tied</th></tr></thead><tbody>`;
    view.powers.forEach((p, i) => {
      sc += `<tr><td><span style="color:${BE.esc(view.colours[p])}">■</span> ${BE.esc(p.toLowerCase())}</td><td class="num">${view.sc_counts[t][i]}</td>` +
        `<td class="num">${BE.fmt(view.series.tempi[p][t], 0)}</td><td class="num">${BE.fmt(view.series.battle_tiedness[p][t], 2)}</td></tr>`;
    });
    $("sc-table").innerHTML = sc + `</tbody></table>`;
    const n = view.phases.length;
    document.querySelectorAll("#charts svg").forEach(svg => {
      const c = svg.querySelector(".cursor");
      const W = 420, L = 44, R = 10;
      const xx = L + (W - L - R) * (n <= 1 ? 0 : t / (n - 1));
      c.setAttribute("x1", xx); c.setAttribute("x2", xx);
    });
  }

  /* A download link to the library's matplotlib chart of a measure (shipped games only). */
  function chartLink(measure, phase) {
    if (!source || source.kind !== "shipped") return "";
    const q = `measure=${encodeURIComponent(measure)}` + (phase ? `&phase=${encodeURIComponent(phase)}` : "");
    return `<a class="chart-link" href="/api/diplomacy/games/${encodeURIComponent(source.id)}/chart.svg?${q}" ` +
      `download title="the library's matplotlib chart (SVG)">SVG</a>`;
  }

  function render(v) {
    view = v;
    $("game-info").textContent = `${v.game} · map ${v.map} · ${v.phases.length} phases (${v.phases[0]} … ${v.phases[v.phases.length - 1]})`;
    $("legend").innerHTML = v.powers.map(p => `<span style="--c:${BE.esc(v.colours[p])}">${BE.esc(p.toLowerCase())}</span>`).join("");
    $("heat-static").innerHTML = heat(v.static_fear);
    let html = "";
    for (const m of Object.keys(v.series)) html += `<div class="card chart">${chartLink(m, null)}${lineChart(m, v.series[m])}</div>`;
    $("charts").innerHTML = html;
    const slider = $("phase");
    slider.max = String(v.phases.length - 1);
    slider.value = "0";
    showPhase(0);
  }

  async function loadShipped(id) {
    source = { kind: "shipped", id };
    try { render(await BE.api("GET", "/api/diplomacy/games/" + encodeURIComponent(id))); } catch (e) { }
  }

  async function upload(evt) {
    evt.preventDefault();
    const f = $("upload").files[0];
    if (!f) { BE.toast("choose a saved-game file first", "info"); return; }
    const fd = new FormData();
    fd.append("file", f); fd.append("game_index", $("game-index").value || "0");
    $("game-info").textContent = "measuring " + f.name + "…";
    try {
      const v = await BE.api("POST", "/api/diplomacy/upload", fd);
      source = { kind: "upload", file: f, index: $("game-index").value || "0" };
      render(v);
    } catch (e) { $("game-info").textContent = e.message; }
  }

  async function downloadCsv() {
    if (!source) return;
    if (source.kind === "shipped") {
      location.href = `/api/diplomacy/games/${encodeURIComponent(source.id)}/measures.csv`;
      return;
    }
    const fd = new FormData();
    fd.append("file", source.file); fd.append("game_index", source.index);
    const resp = await fetch("/api/diplomacy/upload.csv", { method: "POST", body: fd });
    if (!resp.ok) { BE.toast("CSV failed: " + resp.statusText); return; }
    BE.download(source.file.name.replace(/\.jsonl?$/i, "") + "-measures.csv", await resp.text(), "text/csv");
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("phase").addEventListener("input", () => showPhase(Number($("phase").value)));
    $("game").addEventListener("change", () => loadShipped($("game").value));
    $("upload-form").addEventListener("submit", upload);
    $("download-csv").addEventListener("click", downloadCsv);
    if ($("game").value) loadShipped($("game").value);
  });
})();
