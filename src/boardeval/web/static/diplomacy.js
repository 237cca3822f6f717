/* Diplomacy page: fetches all measures of a game once, shows the engine-drawn board at the phase of the
   slider, one SVG line chart per measure (one line per power, hover readout, click to jump), the fear and
   stab tables as heatmaps. A legend shows/hides powers; a click on a power highlights it everywhere.
   The game (shipped ones) and the phase live in the URL (?game=2&phase=F1905M). */
"use strict";
(() => {
  let view = null;
  let infoBeforeUpload = null;  // the info line an upload in flight puts back if it fails
  let source = null;     // the game on screen: {kind: "shipped", id} or {kind: "upload", file, index, name}
  let phaseIdx = 0;
  let highlight = null;  // a power, or null
  const hidden = new Set();
  let loadToken = 0;     // a newer load makes older answers stale
  let mapToken = 0;
  const mapCache = new Map();  // upload: phase -> object URL
  let evalView = null;   // the evaluation answer of the phase on screen (issue 14)
  let evalToken = 0;
  const evalCache = new Map();  // phase -> evaluation answer, for the game on screen
  let hlToken = 0;
  let hlUrl = null;      // object URL of the map with a power highlighted
  const svgText = new Map();  // plain map URL -> its SVG text (for the highlighted copy)
  const $ = id => document.getElementById(id);
  const short = p => BE.esc(p.slice(0, 3));
  const cap = s => s.charAt(0) + s.slice(1).toLowerCase();
  const W = 420, H = 220, L = 46, R = 10, T = 12, B = 24;

  function glossKey(m) {
    if (BE.gloss(m)) return m;  // a term of the page's glossary (its definitions list)
    const base = m.replace(/_\d+$/, "");
    return BE.gloss(base) ? base : null;
  }
  function term(key, text) {
    const k = glossKey(key);
    return k ? BE.term(k, text) : text;
  }

  /* Round tick steps (1, 2, 2.5, 5 x 10^k): the axis of a never-negative measure starts at 0. */
  function niceTicks(lo, hi) {
    if (lo === hi) { hi = lo + 1; if (lo > 0) lo = 0; }
    const raw = (hi - lo) / 5, mag = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 2.5, 5, 10].map(m => m * mag).find(s => s >= raw - 1e-12);
    const a = Math.floor(lo / step + 1e-9) * step, b = Math.ceil(hi / step - 1e-9) * step;
    const ticks = [];
    for (let v = a; v <= b + step / 2; v += step) ticks.push(Math.abs(v) < step / 1e6 ? 0 : v);
    const digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9) + (String(step / mag).includes(".") ? 1 : 0));
    return { lo: a, hi: b, ticks, digits };
  }

  const xOf = i => L + (W - L - R) * (view.phases.length <= 1 ? 0 : i / (view.phases.length - 1));

  function lineChart(measure, data) {
    const keys = Object.keys(data);
    const vals = [];
    for (const k of keys) for (const v of data[k]) if (v !== null) vals.push(v);
    const min = vals.length ? Math.min(...vals) : 0, max = vals.length ? Math.max(...vals) : 1;
    const ax = niceTicks(min >= 0 ? 0 : min, max);
    const y = v => T + (H - T - B) * (1 - (v - ax.lo) / (ax.hi - ax.lo));
    let s = `<svg viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg" data-measure="${BE.esc(measure)}" role="img" aria-label="${BE.esc(view.labels[measure] || measure)}">`;
    for (const v of ax.ticks) {
      const yy = y(v).toFixed(1);
      s += `<line x1="${L}" x2="${W - R}" y1="${yy}" y2="${yy}" stroke="${v === 0 ? "#b9b2a5" : "#ece8e0"}"/>`;
      s += `<text class="ytick" x="${L - 4}" y="${(+yy + 3).toFixed(1)}" font-size="9" text-anchor="end" fill="#5b6470">${v.toFixed(ax.digits)}</text>`;
    }
    if (view.units[measure] === "%" && max > 100) {
      const yy = y(100).toFixed(1);
      const note = measure === "progress" ? "100% = one power on R centres (a win); the index can pass it"
        : "the index is not capped at 100%";
      s += `<line x1="${L}" x2="${W - R}" y1="${yy}" y2="${yy}" stroke="#1f2328" stroke-dasharray="2 3"/>`;
      s += `<text class="note-100" x="${L + 4}" y="${(+yy - 4).toFixed(1)}" font-size="9" fill="#1f2328">${note}</text>`;
    }
    const years = [];
    view.phases.forEach((p, i) => { if (/^S\d{4}M$/.test(p)) years.push([i, BE.esc(p.slice(1, 5))]); });
    const every = Math.max(1, Math.ceil(years.length / 8));
    years.forEach(([i, yr], k) => { if (k % every === 0)
      s += `<text x="${xOf(i).toFixed(1)}" y="${H - 8}" font-size="9" text-anchor="middle" fill="#5b6470">${yr}</text>`; });
    s += `<line class="cursor" x1="0" x2="0" y1="${T}" y2="${H - B}" stroke="#c8553d" stroke-width="1.5" stroke-dasharray="3 2" pointer-events="none"/>`;
    s += `<rect class="hit" x="${L}" y="${T}" width="${W - L - R}" height="${H - T - B}" fill="transparent"/>`;
    s += `<line class="hover" x1="0" x2="0" y1="${T}" y2="${H - B}" stroke="#5b6470" stroke-width="1" visibility="hidden" pointer-events="none"/>`;
    for (const k of keys) {
      const colour = k === "" ? "#c8553d" : view.colours[k];
      let d = "", pen = false;
      data[k].forEach((v, i) => {
        if (v === null) { pen = false; return; }
        d += (pen ? "L" : "M") + xOf(i).toFixed(1) + " " + y(v).toFixed(1) + " "; pen = true;
      });
      const dash = k === "RUSSIA" ? ' stroke-dasharray="5 2"' : "";
      s += `<path class="line" data-power="${BE.esc(k)}" d="${d}" fill="none" stroke="${BE.esc(colour)}" stroke-width="2"${dash}><title>${BE.esc(k ? cap(k) : measure)}</title></path>`;
    }
    s += `</svg>`;
    return s;
  }

  function readout(measure, i) {
    const data = view.series[measure], unit = view.units[measure] === "%" ? "%" : "";
    const parts = Object.keys(data).filter(k => !hidden.has(k)).map(k => {
      const v = data[k][i];
      const txt = v === null ? "–" : BE.fmt(v, Math.abs(v) >= 10 ? 1 : 2) + unit;
      return k ? `<span style="--c:${BE.esc(view.colours[k])}" class="ro-power">${BE.esc(cap(k.slice(0, 3)))} <b>${txt}</b></span>` : `<b>${txt}</b>`;
    });
    const basis = PROGRESS.includes(measure) ? ` <span class="muted">= ${progressBasis(measure, i)}</span>` : "";
    return `<span class="mono">${BE.esc(view.phases[i])}</span> ` + parts.join(" ") + basis;
  }

  function heat(table, name) {
    const P = view.powers;
    let max = 0;
    for (const row of table) for (const v of row) if (v !== null) max = Math.max(max, Math.abs(v));
    let h = `<table class="heat" data-table="${name}"><tr><th><span class="sr-only">row \\ column</span></th>${P.map(p => `<th data-power="${BE.esc(p)}" title="${BE.esc(cap(p))}">${short(p)}</th>`).join("")}</tr>`;
    table.forEach((row, i) => {
      h += `<tr><th data-power="${BE.esc(P[i])}" title="${BE.esc(cap(P[i]))}">${short(P[i])}</th>`;
      row.forEach((v, j) => {
        const attrs = `data-row="${BE.esc(P[i])}" data-col="${BE.esc(P[j])}"`;
        if (v === null) { h += `<td ${attrs} style="background:#f3f0ea">${i === j ? "" : "–"}</td>`; return; }
        const a = max ? Math.abs(v) / max : 0;
        /* issue 23: white on the mid shades failed WCAG contrast (2.2 : 1); the shades now stop where dark
           text keeps at least 4.5 : 1 (alpha <= 0.78 over white: 4.8 : 1 on the blue, 5.3 : 1 on the red). */
        const bg = v >= 0 ? `rgba(200,85,61,${(0.08 + 0.7 * a).toFixed(3)})` : `rgba(60,110,180,${(0.08 + 0.7 * a).toFixed(3)})`;
        h += `<td ${attrs} style="background:${bg};color:#1f2328">${BE.fmt(v, Number.isInteger(v) ? 0 : 1)}</td>`;
      });
      h += `</tr>`;
    });
    return h + `</table>`;
  }

  /* The spec (docs/diplomacy.md): a rise in mutual fear between two powers is a signal of their relation. */
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
    return `<ul class="signal-list">` + items.slice(0, 5).map(([v, a, b]) =>
      `<li class="${v > 0 ? "rise" : "fall"}"><b>${BE.esc(cap(a))}–${BE.esc(cap(b))}</b>: mutual fear ${v > 0 ? "rose" : "fell"} by ` +
      `${BE.fmt(Math.abs(v), 0)}</li>`).join("") + `</ul>`;
  }

  /* The library's matplotlib chart as SVG: a link for shipped games, a POST of the file for uploads. */
  function chartLink(measure, phase) {
    if (!source) return "";
    const q = `measure=${encodeURIComponent(measure)}` + (phase ? `&phase=${encodeURIComponent(phase)}` : "");
    const href = source.kind === "shipped" ? `/api/diplomacy/games/${encodeURIComponent(source.id)}/chart.svg?${q}` : "#";
    return `<a class="chart-link" href="${href}" download data-measure="${BE.esc(measure)}" data-phase="${BE.esc(phase || "")}" ` +
      `title="the library's matplotlib chart (SVG)">SVG</a>`;
  }

  async function uploadedSvg(url, extra, filename) {
    const fd = new FormData();
    fd.append("file", source.file); fd.append("game_index", source.index);
    for (const [k, v] of Object.entries(extra)) if (v) fd.append(k, v);
    const resp = await fetch(url, { method: "POST", body: fd });
    if (!resp.ok) {
      let msg = resp.statusText;
      try { msg = (await resp.json()).detail || msg; } catch (e) { /* not JSON */ }
      throw new Error(msg);
    }
    return resp.blob();
  }

  function showMap(t) {
    const phase = view.phases[t], img = $("board-map"), link = $("map-link"), token = ++mapToken;
    $("map-phase").textContent = phase;
    delete img.dataset.phase;  // set again with the picture of this phase
    if (source.kind === "shipped") {
      const url = `/api/diplomacy/games/${encodeURIComponent(source.id)}/map.svg?phase=${encodeURIComponent(phase)}`;
      img.dataset.phase = phase; img.dataset.base = url; link.href = url;
      link.setAttribute("download", `diplomacy-${source.id}-map-${phase}.svg`);
      if (highlight) mapHighlight(); else img.src = url;
      return;
    }
    const key = `${source.index}:${phase}`;
    const use = url => {
      if (token !== mapToken) return;
      img.dataset.phase = phase; img.dataset.base = url; link.href = url;
      link.setAttribute("download", `${source.stem}-map-${phase}.svg`);
      if (highlight) mapHighlight(); else img.src = url;
    };
    if (mapCache.has(key)) { use(mapCache.get(key)); return; }
    const src = source;
    setTimeout(async () => {
      if (token !== mapToken || src !== source) return;  // the slider moved on
      try {
        const blob = await uploadedSvg("/api/diplomacy/upload/map.svg", { phase }, "");
        if (src !== source) return;
        const url = URL.createObjectURL(blob);
        mapCache.set(key, url);
        use(url);
      } catch (e) { if (token === mapToken) BE.toast("map: " + e.message); }
    }, 120);
  }

  function showPhase(t, opts) {
    if (!view) return;
    phaseIdx = t;
    $("phase").value = String(t);
    $("phase-name").textContent = view.phases[t];
    const ph = view.phases[t];
    $("heat-fear").innerHTML = heat(view.tables.fear_dynamic[t], "fear_dynamic") + chartLink("fear_dynamic", ph);
    $("heat-stab").innerHTML = heat(view.tables.stab_potential[t], "stab_potential") + chartLink("stab_potential", ph);
    $("heat-mutual").innerHTML = view.tables.fear_mutual_change ? heat(view.tables.fear_mutual_change[t], "fear_mutual_change") : "";
    $("fear-signals").innerHTML = signals(t);
    document.querySelectorAll(".at-phase").forEach(el => { el.textContent = `at ${ph}`; });
    document.querySelectorAll(".at-phase-name").forEach(el => { el.textContent = ph; });
    $("mutual-phases").textContent = t > 0 ? `from ${view.phases[t - 1]} to ${ph}` : `(none at ${ph}, the first phase)`;
    if ($("progress-note")) $("progress-note").innerHTML = progressNote(t);
    let sc = `<table class="data dip-sc"><thead><tr><th>power</th><th>SCs</th><th>tempi</th><th>battle-tied</th></tr></thead><tbody>`;
    view.powers.forEach((p, i) => {
      sc += `<tr data-power="${BE.esc(p)}"><td><button type="button" class="power-name" data-power="${BE.esc(p)}" style="--c:${BE.esc(view.colours[p])}">${BE.esc(p.toLowerCase())}</button></td>` +
        `<td class="num">${view.sc_counts[t][i]}</td>` +
        `<td class="num">${BE.fmt(view.series.tempi[p][t], 0)}</td><td class="num">${BE.fmt(view.series.battle_tiedness[p][t], 2)}</td></tr>`;
    });
    $("sc-table").innerHTML = sc + `</tbody></table>`;
    const xx = xOf(t);
    document.querySelectorAll("#charts svg .cursor, #eval-chart svg .cursor").forEach(c => { c.setAttribute("x1", xx); c.setAttribute("x2", xx); });
    document.querySelectorAll("#charts .readout, #eval-chart .readout").forEach(el => {
      if (view.series[el.dataset.measure]) el.innerHTML = readout(el.dataset.measure, t);
    });
    showMap(t);
    loadEvaluation(t);
    applyHighlight();
    if (!opts || !opts.noUrl) saveUrl();
  }

  function saveUrl() {
    const q = new URLSearchParams(location.search);
    if (source && source.kind === "shipped") q.set("game", source.id); else q.delete("game");
    q.set("phase", view.phases[phaseIdx]);
    history.replaceState(null, "", location.pathname + "?" + q.toString());
  }

  function applyHighlight() {
    const root = document.querySelector("main");
    root.classList.toggle("dip-highlighting", !!highlight);
    root.querySelectorAll("[data-power]").forEach(el => {
      el.classList.toggle("hl", el.dataset.power === highlight);
    });
    root.querySelectorAll(".heat td").forEach(td => {
      td.classList.toggle("hl", !!highlight && (td.dataset.row === highlight || td.dataset.col === highlight));
    });
    root.querySelectorAll("#legend button[data-power]").forEach(b => b.setAttribute("aria-pressed", String(b.dataset.power === highlight)));
    root.querySelectorAll("#charts path.line, #eval-chart path.line").forEach(p => {
      p.style.display = hidden.has(p.dataset.power) ? "none" : "";
    });
  }

  function setHighlight(p) {
    highlight = highlight === p ? null : p;
    if (evalView) renderEvaluation(evalView);
    applyHighlight();
    mapHighlight();
  }

  /* Issue 15: the map dims every power but the highlighted one. The engine's SVG styles territories by
     the power's class (.austria) and units by unit<power>: a copy of the phase's SVG gets one more style
     rule and is shown from an object URL; without a highlight the plain map comes back. */
  async function mapHighlight() {
    const img = $("board-map"), base = img.dataset.base, token = ++hlToken;
    if (!base || !view) return;
    if (!highlight) {
      delete img.dataset.hl;
      if (img.getAttribute("src") !== base) img.src = base;
      return;
    }
    try {
      let text = svgText.get(base);
      if (text === undefined) {
        const resp = await fetch(base);
        if (!resp.ok) throw new Error(resp.statusText);
        text = await resp.text();
        if (svgText.size > 24) svgText.clear();
        svgText.set(base, text);
      }
      if (token !== hlToken || img.dataset.base !== base || !highlight) return;
      const me = highlight.toLowerCase();
      const others = view.powers.map(p => p.toLowerCase()).filter(p => p !== me && /^[a-z]+$/.test(p));
      const lands = others.map(p => `.${p}`).join(", "), units = others.map(p => `.unit${p}`).join(", ");
      const style = `<style type="text/css">${lands} { fill: #ebe7df; } ${units} { opacity: .25; } ` +
        `.unit${me} { stroke: #1f2328; stroke-width: 3; }</style>`;
      const out = text.replace(/<\/svg>\s*$/, style + "</svg>");
      const url = URL.createObjectURL(new Blob([out], { type: "image/svg+xml" }));
      if (hlUrl) URL.revokeObjectURL(hlUrl);
      hlUrl = url;
      img.dataset.hl = highlight;
      img.src = url;
    } catch (e) { if (token === hlToken) BE.toast("map highlight: " + e.message); }
  }

  /* ---- The fitted evaluation (issue 14): a chart over the phases, the breakdown at the phase, alliances ---- */

  function fetchEvaluation(src, phase) {
    if (src.kind === "shipped") {
      return BE.api("GET", `/api/diplomacy/games/${encodeURIComponent(src.id)}/evaluation?phase=${encodeURIComponent(phase)}`);
    }
    const fd = new FormData();
    fd.append("file", src.file); fd.append("game_index", src.index); fd.append("phase", phase);
    return BE.api("POST", "/api/diplomacy/upload/evaluation", fd, { quiet: true });
  }

  function loadEvaluation(t) {
    const phase = view.phases[t], token = ++evalToken, src = source;
    if (evalCache.has(phase)) { renderEvaluation(evalCache.get(phase)); return; }
    setTimeout(async () => {
      if (token !== evalToken || src !== source) return;  // the slider moved on
      try {
        const ev = await fetchEvaluation(src, phase);
        if (src !== source) return;
        evalCache.set(phase, ev);
        if (token === evalToken) renderEvaluation(ev);
      } catch (e) { if (token === evalToken) $("eval-breakdown").innerHTML = `<p class="dip-error">evaluation: ${BE.esc(e.message)}</p>`; }
    }, 120);
  }

  const signed = BE.signed;

  function renderEvaluation(ev) {
    const first = !evalView || evalView.game !== ev.game || !view.series.evaluation;
    evalView = ev;
    if (first) {
      view.series.evaluation = ev.scores;
      view.units.evaluation = "";
      view.labels.evaluation = "Evaluation (predicted SC change over the next year)";
      $("eval-chart").innerHTML = `<h3 class="chart-title">${term("evaluation", "Evaluation per power")}: predicted change of supply centres over the next game year</h3>` +
        lineChart("evaluation", ev.scores) + `<div class="readout hint" data-measure="evaluation"></div>`;
      const svg = $("eval-chart").querySelector("svg");
      svg.addEventListener("mouseleave", () => {
        svg.querySelector(".hover").setAttribute("visibility", "hidden");
        const ro = $("eval-chart").querySelector(".readout");
        ro.innerHTML = readout("evaluation", phaseIdx);
      });
      const xx = xOf(phaseIdx);
      svg.querySelectorAll(".cursor").forEach(c => { c.setAttribute("x1", xx); c.setAttribute("x2", xx); });
      $("eval-chart").querySelector(".readout").innerHTML = readout("evaluation", phaseIdx);
    }
    const rows = ev.breakdown;
    const alive = rows.filter(r => !r.eliminated);
    const best = alive.length ? alive.reduce((a, b) => (b.total > a.total ? b : a)) : null;
    const shown = rows.find(r => r.power === highlight) || best;
    let h = `<p class="hint">At <b class="mono" id="eval-phase">${BE.esc(ev.phase)}</b>, from that phase's measures only; click a power for its breakdown (it is highlighted everywhere).</p>`;
    h += `<div class="eval-powers">` + rows.map(r =>
      `<button type="button" class="power-name" data-power="${BE.esc(r.power)}" style="--c:${BE.esc(ev.colours[r.power])}" aria-pressed="${shown && r.power === shown.power}">` +
      `${BE.esc(cap(r.power))} <b class="num">${r.eliminated ? "out" : signed(r.total, 2)}</b></button>`).join("") + `</div>`;
    if (shown && !shown.eliminated) {
      h += `<div class="table-scroll"><table class="data dip-eval" data-power="${BE.esc(shown.power)}"><thead><tr><th>measure</th>` +
        `<th class="num">${term("value", "value")}</th><th class="num">${term("weight", "weight")}</th>` +
        `<th class="num">${term("contribution", "contribution")}</th><th class="num vs">${term("vs_average", "vs average")}</th></tr></thead><tbody>`;
      for (const t of shown.terms) {
        const digits = Math.abs(t.value) >= 100 ? 0 : Math.abs(t.value) >= 10 ? 1 : 3;
        h += `<tr data-term="${BE.esc(t.name)}"><td>${term(t.name, BE.esc(t.name.replace(/_/g, " ")))}</td>` +
          `<td class="num">${BE.fmt(t.value, digits)}</td><td class="num" title="standardised coefficient ${BE.fmt(t.standardised, 3)}">${BE.fmt(t.weight, 3)}</td>` +
          `<td class="num">${signed(t.contribution, 3)}</td><td class="num vs">${signed(t.vs_average, 3)}</td></tr>`;
      }
      h += `</tbody><tfoot><tr><th>${BE.esc(cap(shown.power))}: total</th><td></td><td></td><td class="num"><b>${signed(shown.total, 3)}</b></td><td class="vs"></td></tr></tfoot></table></div>`;
    } else if (shown) {
      h += `<p class="muted">${BE.esc(cap(shown.power))} is eliminated at ${BE.esc(ev.phase)}.</p>`;
    }
    $("eval-breakdown").innerHTML = h;
    const year = Number(ev.phase.slice(1, 5));
    const entry = ev.alliances.find(a => a.year === year);
    let a = `<h3>${term("alliance", "Detected alliances")} in <span class="mono" id="alliance-year">${year}</span></h3>`;
    if (!entry) a += `<p class="muted">No movement phase of ${year} in the record.</p>`;
    else if (entry.last_phase === ev.phases[0]) a += `<p class="muted" id="alliance-none">None yet: at ${BE.esc(ev.phase)} no move has been resolved, so nobody has shown whom they spare.</p>`;
    else if (!entry.pairs.length) a += `<p class="muted" id="alliance-none">None detected in ${year} so far.</p>`;
    else a += `<ul class="alliance-list">` + entry.pairs.map(([x, y]) =>
      `<li data-pair="${BE.esc(x)}-${BE.esc(y)}"><span class="ro-power" style="--c:${BE.esc(ev.colours[x])}">${BE.esc(cap(x))}</span> – ` +
      `<span class="ro-power" style="--c:${BE.esc(ev.colours[y])}">${BE.esc(cap(y))}</span></li>`).join("") + `</ul>`;
    if (entry) a += `<p class="hint" id="alliance-phases">Uses the phases <span class="mono">${BE.esc(entry.first_phase)} … ${BE.esc(entry.last_phase)}</span> only ` +
      `(mutual fear at <span class="mono">${BE.esc(entry.fear_phase)}</span>, no attack between the two since <span class="mono">${BE.esc(entry.first_phase)}</span>); ` +
      `nothing after <span class="mono">${BE.esc(ev.phase)}</span> is looked at.</p>`;
    $("alliances").innerHTML = a + `<p class="hint">Each pair: powers within reach of each other (mutual fear &gt; 0) that have never attacked each other so far, each the other's closest such partner; see the glossary.</p>`;
    applyHighlight();
  }

  /* Issue 23: the three progress charts are one number, Σ SC², on three scales; say so with the numbers of
     the phase on screen, so that 77.8 %, 71.7 % and 43.6 % visibly agree. */
  const PROGRESS = ["progress", "progress_from_zero", "progress_as_written"];
  function squares(t) { return view.sc_counts[t].reduce((a, n) => a + n * n, 0); }
  function progressBasis(measure, t) {
    const sum = squares(t), R = view.victory_centres, S = view.supply_centres, zero = squares(0);
    if (measure === "progress") return `${sum} / ${R * R}`;
    if (measure === "progress_from_zero") return `(${sum} − ${zero}) / (${R * R} − ${zero})`;
    if (measure === "progress_as_written") return `${sum} / ${S * S / 2}`;
    return "";
  }
  function progressNote(t) {
    const ph = BE.esc(view.phases[t]), R = view.victory_centres, S = view.supply_centres;
    const sum = squares(t), zero = squares(0);
    const pc = m => BE.fmt(view.series[m][""][t], 1) + "%";
    return `<b>One number on three scales.</b> At <span class="mono">${ph}</span> the powers' supply centres squared ` +
      `add up to Σ SC² = <b>${sum}</b>. ${term("progress", "Game progress")}: ${sum} / ${R}² = <b>${pc("progress")}</b> ` +
      `(100% = one power on the ${R} centres that win). ${term("progress_from_zero", "Counted from the start")}: ` +
      `(${sum} − ${zero}) / (${R * R} − ${zero}) = <b>${pc("progress_from_zero")}</b> (0% at the start, where Σ SC² = ${zero}). ` +
      `${term("progress_as_written", "Two-way-split scale")}: ${sum} / (${S}² / 2) = <b>${pc("progress_as_written")}</b> ` +
      `(100% = two powers with ${S / 2} centres each). The three differ only in what counts as 0% and 100%.`;
  }

  function render(v) {
    view = v;
    highlight = null; hidden.clear();
    evalView = null; evalCache.clear(); ++evalToken;
    $("eval-chart").innerHTML = ""; $("eval-breakdown").innerHTML = ""; $("alliances").innerHTML = "";
    $("game-info").textContent = v.info;  // the server's info_line(), as the page rendered it
    $("legend").innerHTML = v.powers.map(p =>
      `<span class="item" style="--c:${BE.esc(v.colours[p])}"><input type="checkbox" checked data-show="${BE.esc(p)}" aria-label="show ${BE.esc(p.toLowerCase())}">` +
      `<button type="button" data-power="${BE.esc(p)}" aria-pressed="false">${BE.esc(p.toLowerCase())}</button></span>`).join("");
    $("heat-static").innerHTML = heat(v.static_fear, "fear_static");
    let html = `<div class="card chart-note" id="progress-note" style="grid-column:1/-1"></div>`;
    const order = [...PROGRESS.filter(m => v.series[m]), ...Object.keys(v.series).filter(m => !PROGRESS.includes(m))];
    for (const m of order) {
      html += `<div class="card chart"><h3 class="chart-title">${term(m, BE.esc(v.labels[m] || m))}</h3>${chartLink(m, null)}` +
        `${lineChart(m, v.series[m])}<div class="readout hint" data-measure="${BE.esc(m)}"></div></div>`;
    }
    $("charts").innerHTML = html;
    document.querySelectorAll("#charts svg").forEach(svg => svg.addEventListener("mouseleave", () => {
      svg.querySelector(".hover").setAttribute("visibility", "hidden");
      const ro = svg.parentElement.querySelector(".readout");
      ro.innerHTML = readout(ro.dataset.measure, phaseIdx);
    }));
    const slider = $("phase");
    slider.max = String(v.phases.length - 1);
  }

  function startIndex(v, phaseName) {
    const i = phaseName ? v.phases.indexOf(phaseName) : -1;
    return i >= 0 ? i : 0;
  }

  /* A game is drawn together with its first phase's evaluation: the evaluation card sits above the legend
     and the charts, and drawn later it pushed them down by 720-760 px (1,160-1,240 px on a phone) under the
     reader's eyes and pointer: a click on the legend then could land elsewhere (issue 22). Only what comes
     back after that is drawn late (another phase's card: about the same height). An evaluation that fails
     is not in the way: the game is drawn, and the card says what went wrong when the phase is shown. */
  async function firstEvaluation(src, v, t) {
    try { return await fetchEvaluation(src, v.phases[t]); } catch (e) { return null; }
  }

  function show(src, v, t, ev) {
    source = src;
    render(v);
    if (ev) evalCache.set(v.phases[t], ev);
    syncSelect();
    showPhase(t);
  }

  function showError(msg) {
    const el = $("game-error");
    if (!msg) { el.hidden = true; el.textContent = ""; return; }
    el.hidden = false;
    el.textContent = msg + (view ? ` — still showing ${view.game}.` : "");
  }

  function syncSelect() {
    const opt = $("upload-option"), sel = $("game");
    if (source && source.kind === "upload") {
      opt.hidden = false; opt.disabled = false;
      opt.textContent = `uploaded: ${source.name}`;
      sel.value = "upload";
    } else {
      opt.hidden = true; opt.disabled = true;
      if (source) sel.value = source.id;
    }
  }

  async function loadShipped(id, phaseName, keepError) {
    const token = ++loadToken;
    try {
      const v = await BE.api("GET", "/api/diplomacy/games/" + encodeURIComponent(id));
      if (token !== loadToken) return;  // a newer choice won
      const src = { kind: "shipped", id }, t = startIndex(v, phaseName || (view && view.phases[phaseIdx]));
      const ev = await firstEvaluation(src, v, t);
      if (token !== loadToken) return;
      if (!keepError) showError(null);
      show(src, v, t, ev);
    } catch (e) { if (token === loadToken) { showError(e.message); syncSelect(); } }
  }

  async function upload(evt) {
    evt.preventDefault();
    const f = $("upload").files[0];
    if (!f) { BE.toast("choose a saved-game file first", "info"); return; }
    const index = $("game-index").value || "0";
    const fd = new FormData();
    fd.append("file", f); fd.append("game_index", index);
    const token = ++loadToken;
    // the info line to put back if the upload fails: the game's, or (when the page's first load is still
    // running, which this upload cuts short) the line the page was served with, not a "measuring" line
    const before = infoBeforeUpload ?? $("game-info").textContent;
    infoBeforeUpload = before;
    showError(null);
    $("game-info").textContent = `measuring ${f.name}…` + (view ? ` (still showing ${view.game})` : "");
    try {
      const v = await BE.api("POST", "/api/diplomacy/upload", fd, { quiet: true });
      if (token !== loadToken) return;
      const src = { kind: "upload", file: f, index, name: f.name, stem: f.name.replace(/\.jsonl?$/i, "") || "game" };
      const ev = await firstEvaluation(src, v, 0);
      if (token !== loadToken) return;
      infoBeforeUpload = null;
      for (const url of mapCache.values()) URL.revokeObjectURL(url);
      mapCache.clear();
      show(src, v, 0, ev);
    } catch (e) {
      if (token !== loadToken) return;
      infoBeforeUpload = null;
      $("game-info").textContent = view ? view.info : before;  // kept after a failed upload
      showError(`Upload of ${f.name} failed: ${e.message}`);
      BE.toast(e.message);
      syncSelect();
      // an upload during the page's first load cut that load short: finish it (keeping the error)
      if (!view && $("game").value && $("game").value !== "upload") loadShipped($("game").value, null, true);
    }
  }

  async function downloadCsv() {
    if (!source) return;
    if (source.kind === "shipped") {
      location.href = `/api/diplomacy/games/${encodeURIComponent(source.id)}/measures.csv`;
      return;
    }
    try {
      const blob = await uploadedSvg("/api/diplomacy/upload.csv", {}, "");
      BE.download(source.stem + "-measures.csv", await blob.text(), "text/csv");
    } catch (e) { BE.toast("CSV failed: " + e.message); }
  }

  async function chartDownload(a, evt) {
    if (!source || source.kind === "shipped") return;  // a plain link
    evt.preventDefault();
    try {
      const blob = await uploadedSvg("/api/diplomacy/upload/chart.svg", { measure: a.dataset.measure, phase: a.dataset.phase }, "");
      BE.download(`${source.stem}-${a.dataset.measure}${a.dataset.phase ? "-" + a.dataset.phase : ""}.svg`, await blob.text(), "image/svg+xml");
    } catch (e) { BE.toast("chart failed: " + e.message); }
  }

  function chartIndex(svg, evt) {
    const box = svg.getBoundingClientRect();
    const x = (evt.clientX - box.left) * W / box.width;
    const n = view.phases.length;
    return Math.max(0, Math.min(n - 1, Math.round((x - L) / (W - L - R) * (n - 1))));
  }

  /* Issue 23 §4: on a phone the map was 340 x 252 px. It zooms (100% … 400%) inside its own scroll box,
     keeping the point at the centre of the box where it was; the page itself never scrolls sideways. */
  const ZOOMS = [1, 1.5, 2, 3, 4];
  let zoom = 0;
  function setZoom(k) {
    const box = $("map-scroll"), img = $("board-map");
    k = Math.max(0, Math.min(ZOOMS.length - 1, k));
    const cx = (box.scrollLeft + box.clientWidth / 2) / Math.max(1, box.scrollWidth);
    const cy = (box.scrollTop + box.clientHeight / 2) / Math.max(1, box.scrollHeight);
    zoom = k;
    img.style.width = `${ZOOMS[k] * 100}%`;
    box.classList.toggle("zoomed", k > 0);
    $("map-zoom-level").textContent = `${ZOOMS[k] * 100}%`;
    $("map-zoom-out").disabled = k === 0; $("map-zoom-in").disabled = k === ZOOMS.length - 1;
    box.scrollLeft = cx * box.scrollWidth - box.clientWidth / 2;
    box.scrollTop = cy * box.scrollHeight - box.clientHeight / 2;
  }

  document.addEventListener("DOMContentLoaded", () => {
    setZoom(0);
    $("map-zoom-in").addEventListener("click", () => setZoom(zoom + 1));
    $("map-zoom-out").addEventListener("click", () => setZoom(zoom - 1));
    $("phase").addEventListener("input", () => showPhase(Number($("phase").value)));
    $("phase-prev").addEventListener("click", () => { if (view && phaseIdx > 0) showPhase(phaseIdx - 1); });
    $("phase-next").addEventListener("click", () => { if (view && phaseIdx < view.phases.length - 1) showPhase(phaseIdx + 1); });
    $("game").addEventListener("change", () => { if ($("game").value !== "upload") loadShipped($("game").value); });
    $("upload-form").addEventListener("submit", upload);
    $("download-csv").addEventListener("click", downloadCsv);
    $("board-map").addEventListener("error", () => { if ($("board-map").getAttribute("src")) BE.toast("the map could not be drawn"); });
    const main = document.querySelector("main");
    main.addEventListener("click", evt => {
      const link = evt.target.closest("a.chart-link[data-measure]");
      if (link) { chartDownload(link, evt); return; }
      const btn = evt.target.closest("button[data-power], path.line[data-power], th[data-power]");
      if (btn && btn.dataset.power) { setHighlight(btn.dataset.power); return; }
      const svg = evt.target.closest("#charts svg, #eval-chart svg");
      if (svg && view) showPhase(chartIndex(svg, evt));
    });
    main.addEventListener("change", evt => {
      const box = evt.target.closest("input[data-show]");
      if (!box) return;
      if (box.checked) hidden.delete(box.dataset.show); else hidden.add(box.dataset.show);
      applyHighlight();
      document.querySelectorAll("#charts .readout, #eval-chart .readout").forEach(el => {
        if (view.series[el.dataset.measure]) el.innerHTML = readout(el.dataset.measure, phaseIdx);
      });
    });
    const hover = evt => {
      const svg = evt.target.closest("svg");
      if (!svg || !view) return;
      const i = chartIndex(svg, evt), xx = xOf(i);
      const line = svg.querySelector(".hover");
      line.setAttribute("x1", xx); line.setAttribute("x2", xx); line.setAttribute("visibility", "visible");
      const ro = svg.parentElement.querySelector(".readout");
      ro.innerHTML = readout(svg.dataset.measure, i);
    };
    $("charts").addEventListener("mousemove", hover);
    $("eval-chart").addEventListener("mousemove", hover);
    /* The server checked ?game= and ?phase= (issue 23: an unknown game is said, never silently game 1). */
    const start = typeof DIP_START === "object" && DIP_START ? DIP_START : {};
    if (start.game) loadShipped(start.game, start.phase, !!start.error);
  });
})();
