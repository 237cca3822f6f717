/* Catan page: board views from the API, generation as jobs, swaps, share links. Its design (one board
   language, the board's own provenance, one fairness dial, one precision per quantity, window.CATAN_VIEW
   and the "catan:board" event for other panels) is in docs/web.md, "The Catan page". */
"use strict";
(() => {
  let view = null;
  let currentJob = null;
  let selectedSpot = null;  // the spot shown in the panel
  let pinnedSpot = null;    // the spot the user clicked (hover does not move the panel away from it)
  let made = null;          // the board's provenance (see provenance())
  let legacyDial = false;   // an old link without fairness: anneal's own default until the dial moves
  let portsTouched = false; // the player chose the harbours: a method change keeps them
  let again = false;        // the Board select changed during a run: draw a new board when it ends
  const DIGITS = (typeof CATAN_DIGITS !== "undefined" && CATAN_DIGITS) || {};
  const DEFAULT_RULES = (typeof CATAN_TOURNAMENT_RULES !== "undefined" && CATAN_TOURNAMENT_RULES) || [];
  const PORT_RULES = ["no-port-own-resource", "port-min-pips"];
  const $ = id => document.getElementById(id);
  const num = (x, quantity) => BE.fmt(x, DIGITS[quantity]);
  const idText = text => `<span class="catan-id"> (${BE.esc(text)})</span>`;

  function editMode() { return document.querySelector('input[name="edit"]:checked').value; }
  function formRules() { return $("rules").value.split(",").map(s => s.trim()).filter(Boolean); }

  /** The term cells of a breakdown table become glossary terms (the popover of common.js reads the
      definitions from the page's glossary, boardeval.web.glossary). */
  function glossTerms(root) {
    root.querySelectorAll("tr[data-term]").forEach(tr => {
      const cell = tr.firstElementChild;
      if (cell) { cell.dataset.gloss = tr.dataset.term; cell.classList.add("term"); }
    });
  }

  /** A breakdown table with this page's precision: ``kind`` "energy" or "spot". */
  function breakdown(bd, kind) {
    const total = kind === "energy" ? "energy" : "spot_score";
    const raw = t => kind === "energy" ? (t.name === "pip_variance" ? num(t.raw, "pip_variance") : BE.fmt(t.raw, 0))
      : num(t.raw, "metric");
    return BE.breakdownTable(bd, { totalLabel: kind === "energy" ? "energy" : "score", raw, value: x => num(x, total) });
  }

  // ---- the fairness dial: one meaning for every method ----

  const seatsTarget = () => $("objective").value === "seat-equity";

  /** Why the form cannot make a board fair to the seats as it stands ("" when it can; the server says
      the same, web/catan_gen.py). */
  function seatsProblem() {
    if (!seatsTarget()) return "";
    const m = $("method").value;
    if ($("layout").value !== "base") return "Seat equity needs the base board: catanatron has no 5-6 player map";
    if (m === "random") return "Fair to the seats needs anneal or tournament: a uniform shuffle optimises nothing";
    if (m === "cp") return "Fair to the seats needs anneal or tournament: CP-SAT cannot encode the draft";
    if (m === "anneal" && formRules().length) return "Fair to the seats with anneal takes no rules: pick tournament to keep them";
    return "";
  }

  /** Seat equity is a base-board target (no play-fitted model on the 5-6 player board). */
  function syncObjective() {
    const seatsOption = $("objective").querySelector('option[value="seat-equity"]');
    seatsOption.disabled = $("layout").value !== "base";
    if (seatsOption.disabled && seatsTarget()) $("objective").value = "energy";
  }

  /** What the dial does for the method chosen, and whether it can move. */
  function dialRules(method) {
    if (seatsTarget()) return { fixed: null, says: method === "tournament" ?
      "tournament repairs the rules, then makes up to 3 swaps that narrow the spread of the seats' win rates (the dial is the energy's)" :
      "anneal minimises the spread of the seats' win rates if everyone opens well, plus a tenth of the energy (the dial is the energy's)" };
    if (method === "random") return { fixed: 0, says: "random boards are never balanced: fairness 0 (pick anneal or cp to balance)" };
    if (method === "tournament") return { fixed: 0, says: "tournament repairs only what the rules forbid, with the fewest swaps: fairness 0" };
    if (method === "cp") return { step: 1, says: "cp: 0 = any board meeting the rules, 1 = the fairest board meeting them (proven)" };
    return { step: 0.05, says: "anneal: how much of the random board's excess energy to shed (0 = none, 1 = all: the fairest board)" };
  }

  function dialMeaning(f) {
    if (f === null) return "anneal's default: the fairest board";
    if (f === 0) return "no balancing beyond the rules";
    if (f === 1) return "the fairest board the rules allow";
    return `sheds ${Math.round(100 * f)} % of the random board's excess energy`;
  }

  /** The value the form sends: fixed by the method, or the dial's (null: an old link's anneal default). */
  function dialValue() {
    const r = dialRules($("method").value);
    if (r.fixed !== undefined) return r.fixed;
    if (legacyDial) return null;
    return Number($("fairness").value);
  }

  let dialKept = "1";  // the dial's value while a method holds it at 0 (random, tournament)

  function showDial() {
    const method = $("method").value, r = dialRules(method), dial = $("fairness");
    if (r.fixed !== undefined && !dial.disabled) dialKept = dial.value;
    if (r.fixed === undefined && dial.disabled) dial.value = dialKept;
    dial.step = String(r.step || 1);
    if (r.fixed !== undefined) dial.value = String(r.fixed === null ? 1 : r.fixed);
    else if (method === "cp") dial.value = Number(dial.value) >= 0.5 ? "1" : "0";
    dial.disabled = r.fixed !== undefined;
    const f = dialValue();
    const word = seatsTarget() ? "seats" : "default";
    $("fairness-value").textContent = f === null ? word : BE.fmt(f, 2);
    const problem = seatsProblem();
    $("fairness-says").textContent = problem ? problem + "." : seatsTarget() ? `Fair to the seats: ${r.says}.` :
      `Fairness ${f === null ? `(${word})` : BE.fmt(f, 2)}: ${dialMeaning(f)}. ${r.says}.`;
    $("fairness-says").classList.toggle("catan-warn", Boolean(problem));
    $("ports").disabled = seatsTarget();  // the seat search moves the harbours itself
    if (seatsTarget()) $("ports").value = "balanced";
    if (!currentJob) { $("generate").disabled = Boolean(problem); $("new-board").disabled = Boolean(problem); }
  }

  // ---- harbours, rule presets, tournament defaults ----

  function methodDefaultPorts(method) { return method === "random" ? "fixed" : "balanced"; }

  function syncPreset() {
    const text = formRules().join(", ");
    const match = [...$("preset").options].find(o => o.value !== "custom" && o.dataset.rules === text);
    $("preset").value = match ? match.value : "custom";
  }

  function showRulesNote() {
    const empty = formRules().length === 0;
    $("rules-note").textContent = $("method").value === "tournament" && empty ?
      `No rules given: tournament repairs its defaults, ${DEFAULT_RULES.join(" and ")}.` : "";
  }

  function onMethodChange() {
    if (!portsTouched) $("ports").value = methodDefaultPorts($("method").value);
    showDial(); showRulesNote();
  }

  // ---- provenance: the info line and the form ----

  /** The info line: the board's own story, never the form's. */
  function provenance() {
    if (!made) return "";
    const edited = made.edits > 0 ? ` · edited by hand (${made.edits} swap${made.edits === 1 ? "" : "s"})` : "";
    if (made.source === "pasted") return "a pasted board (no seed)" + edited;
    if (made.source === "shared") return "a shared board (no seed)" + edited;
    const parts = [`${made.method}, seed ${made.seed}`];
    if (made.layout === "extended") parts.push("5-6 players");
    if (made.objective === "seat-equity") parts.push("fair to the seats");
    else if (made.fairness !== undefined) parts.push(`fairness ${made.fairness === null ? "default" : BE.fmt(made.fairness, 2)}`);
    if (made.ports) parts.push(`harbours ${made.ports}`);
    const fresh = made.edits === 0;
    const status = made.rulesStatus || {};
    const names = Object.keys(status);
    if (names.length) {
      const defaults = made.rules.length === 0 && made.method === "tournament" ? "tournament defaults: " : "rules: ";
      parts.push(defaults + names.map(k => fresh ? `${k} ${status[k] ? "✓" : "✗"}` : k).join(", ") +
        (fresh ? "" : " (not re-checked after the edits)"));
    } else if (made.rules.length) {
      parts.push("rules: " + made.rules.join(", "));
    }
    if (made.swapsSaid && made.swapsSaid.length) parts.push(`${made.swapsSaid.length} swap${made.swapsSaid.length === 1 ? "" : "s"} (${made.swapsSaid.join(", ")})`);
    else if (made.swapsSaid) parts.push("0 swaps");
    if (made.ms !== undefined) parts.push(`${BE.fmt(made.ms, 0)} ms`);
    if (made.optimal && fresh) parts.push("proven optimal");
    if (made.stopped) parts.push("stopped early: best so far");
    if (made.source === "link") parts.push("from the link");
    return parts.join(" · ") + edited;
  }

  function showProvenance() { $("gen-info").textContent = provenance(); }

  /** The seed box names the seed that made the board shown; empty after an edit or for a pasted board. */
  function showMade() {
    const seeded = made && made.seed !== undefined && made.edits === 0;
    $("seed").value = seeded ? String(made.seed) : "";
    $("seed").placeholder = seeded ? "" : "none";
    $("seed-note").textContent = seeded ? "" :
      (made && made.edits > 0 ? "(edited by hand: no seed makes this board; Generate draws a fresh one)" :
        "(this board has no seed: pasted or shared; Generate draws a fresh one)");
  }

  /** The share link of the board shown: the board, plus what made it while it is unedited. */
  function shareUrl(v) {
    if (!made || made.seed === undefined || made.edits > 0) return v.share_url;
    const q = new URLSearchParams();
    q.set("method", made.method); q.set("seed", String(made.seed));
    if (made.layout && made.layout !== "base") q.set("layout", made.layout);
    if (made.rules && made.rules.length) q.set("rules", made.rules.join(","));
    if (made.fairness !== null && made.fairness !== undefined) q.set("fairness", String(made.fairness));
    if (made.objective === "seat-equity") q.set("objective", "seat-equity");
    if (made.ports) q.set("ports", made.ports);
    return v.share_url + "&" + q.toString();
  }

  // ---- ids on demand ----

  function portIdsNamed() {
    if (editMode() === "ports") return true;
    if (made && (made.edited || []).includes("ports")) return true;
    if (made && (made.swapsSaid || []).some(s => s.startsWith("harbours"))) return true;
    const rules = made ? made.rules : [];
    return rules.concat(formRules()).some(r => PORT_RULES.some(p => r.startsWith(p)));
  }

  // ---- the board is one Tab stop; the arrow keys move between its spots (its hexes or harbours while editing) ----

  function boardItems() {
    const m = editMode();
    return [...$("board").querySelectorAll(m === "none" ? "g.spot" : (m === "ports" ? "g.port" : "g.hex"))];
  }
  const boardItem = evt => { const e = evt.target.closest && evt.target.closest("#board g[role=button]"); return boardItems().includes(e) ? e : null; };
  const itemId = e => `${e.dataset.spot}/${e.dataset.hex}/${e.dataset.port}`;
  let boardStop = null;  // itemId of the item holding the board's Tab stop (the last one focused)
  let refocus = false;   // the board had focus when it was drawn again (a swap): give it back to the stop

  /** A roving tabindex: the item last focused (else the picked hex or harbour, the selected spot, the
      first) is the Tab stop, every other -1. */
  function rove() {
    const items = boardItems();
    const stop = items.find(e => itemId(e) === boardStop) || items.find(e => /picked|selected/.test(e.getAttribute("class"))) || items[0];
    if (!stop) return;
    boardStop = itemId(stop);
    $("board").querySelectorAll("[tabindex]").forEach(e => { e.tabIndex = e === stop ? 0 : -1; });
    if (refocus && stop.hasAttribute("tabindex")) { refocus = false; stop.focus({ preventScroll: true }); }
  }

  /** Arrows, Home, End: the move is catan_edit.js's (loaded on first use), from the item focused when it
      runs, so no key pressed while it loads is lost; the focus moves the stop (focusin). */
  function onBoardKey(evt) {
    const item = boardItem(evt);
    if (!item || !/^(Arrow(Up|Down|Left|Right)|Home|End)$/.test(evt.key)) return;
    evt.preventDefault();
    tools(true).then(() => {
      const items = boardItems(), next = window.CatanEdit.nextItem(items.includes(document.activeElement) ? document.activeElement : item, evt.key, items);
      if (next) next.focus();
    });
  }

  // ---- the board view ----

  function show(v, pushUrl) {
    view = v;
    refocus = $("board").contains(document.activeElement);
    $("board").innerHTML = v.svg;
    $("board").querySelectorAll("g.spot[data-spot]").forEach(el => {
      const s = v.spots[Number(el.getAttribute("data-spot"))];
      el.setAttribute("tabindex", "-1"); el.setAttribute("role", "button");
      if (s) el.setAttribute("aria-label", `${s.name}: rank ${s.rank}, score ${num(s.score, "spot_score")} (spot ${s.spot})`);
    });
    $("energy").innerHTML = breakdown(v.energy, "energy");
    glossTerms($("energy"));
    $("energy-total").textContent = num(v.energy.total, "energy");
    $("code").textContent = v.code;
    const url = shareUrl(v);
    $("share-link").href = url;
    $("download-svg").href = "/api/catan/board.svg?board=" + encodeURIComponent(v.code);
    $("download-json").href = "/api/catan/board.json?board=" + encodeURIComponent(v.code);
    if (pushUrl !== false) history.replaceState(null, "", url);
    showMade(); showProvenance();
    const top = v.spots.slice().sort((a, b) => a.rank - b.rank).slice(0, 6);
    $("top-spots").innerHTML = `<table class="data top-spots"><thead><tr><th title="the number on the board">rank</th><th>spot</th>` +
      `<th>${BE.term("raw_production", "raw production")}</th><th>${BE.term("spot score", "score")}</th></tr></thead><tbody>` + top.map((s, k) =>
        `<tr data-spot-row="${s.spot}" tabindex="${k === 0 ? 0 : -1}" style="cursor:pointer"><td>${s.rank}</td><td>${BE.esc(s.name)}${idText("spot " + s.spot)}</td>` +
        `<td class="num">${BE.fmt(s.breakdown.terms[0].raw, 0)}</td><td class="num">${num(s.score, "spot_score")}</td></tr>`).join("") +
      `</tbody></table>`;
    const best = v.spots.find(s => s.rank === 1);
    if (pinnedSpot !== null && !v.spots[pinnedSpot]) pinnedSpot = null;
    if (selectedSpot !== null && !v.spots[selectedSpot]) selectedSpot = null;
    showSpot(pinnedSpot !== null ? pinnedSpot : (selectedSpot !== null ? selectedSpot : (best ? best.spot : 0)));
    window.CATAN_VIEW = v;
    showEquity(v);
    rove();
    tools();
    showCount();
    document.dispatchEvent(new CustomEvent("catan:board", { detail: v }));
  }

  // ---- seats if everyone opens well (issue 26): the line here; the draft and the why in catan_equity.js ----

  const ORD = ["1st", "2nd", "3rd", "4th", "5th", "6th"];

  function showEquity(v) {
    const e = v.seat_equity, p = e.win_probabilities;
    $("equity-line").textContent = p ?
      p.map((x, i) => `${ORD[i]} ${BE.fmt(100 * x, 0)} %`).join(", ") :
      "Opening values: " + e.opening_values.map((x, i) => `${ORD[i]} ${num(x, "spot_score")}`).join(", ");
    $("equity-note").textContent = p ?
      `Spread ${BE.fmt(100 * e.spread, 0)} points (best minus worst seat; seat 1 places first).` :
      `No win rates: ${e.note}.`;
  }

  /** "Show the draft" and "Why": the part that draws and explains them loads on first use. */
  function equityPart(what) {
    const btn = $(what === "draft" ? "equity-draft" : "equity-why");
    const attr = what === "draft" ? "aria-pressed" : "aria-expanded";
    const on = btn.getAttribute(attr) !== "true";
    btn.setAttribute(attr, String(on));
    if (what === "draft") btn.textContent = on ? "Hide the draft" : "Show the draft";
    load("catan_equity").then(() => window.CatanEquity.set(what, on),
      () => BE.toast("the seat-equity part did not load (is the server still running?)"));
  }

  // ---- parts loaded on first use: the editor and ids (catan_edit.js), the play-test (catan_play.js) ----

  const load = BE.loadScript;

  /** The editor, the ids and the board's arrow keys, refreshed after every change (loaded once an edit mode,
      the ids, a harbour name or an arrow key on the board asks for them). */
  function tools(keys) {
    document.body.classList.toggle("catan-show-ids", $("show-ids").checked);
    if (!window.CatanEdit && !keys && editMode() === "none" && !$("show-ids").checked && !portIdsNamed()) return Promise.resolve();
    return load("catan_edit").then(() => {
      window.CatanEdit.init({ editMode, portIdsNamed, swap, rove });
      window.CatanEdit.refresh();
    });
  }

  const MAX_GAMES = 2000;  // the server's per-job limit (web/catan_play.py MAX_GAMES)
  const loadPlay = () => load("catan_play");

  /** How many games the form asks for, said before the run; why the button is off when it is. */
  function showCount() {
    const games = Number($("pt-games").value), seatings = $("pt-rotate").checked ? 4 : 1;
    $("pt-games-label").textContent = seatings > 1 ? "Games per seating" : "Games";
    let why = "";
    if (view && view.layout !== "base") why = "Play-tests need the base board: catanatron has no 5-6 player map.";
    else if (!Number.isInteger(games) || games < 1) why = "Give a whole number of games, at least 1.";
    else if (games * seatings > MAX_GAMES) why = `${games} × ${seatings} = ${games * seatings} games: at most ${MAX_GAMES} per play-test here (the CLI plays more).`;
    $("pt-count").textContent = why || (seatings > 1 ?
      `Plays ${games * seatings} games: ${games} games × ${seatings} seatings (every listed player in every seat).` :
      `Plays ${games} games, each player in the seat it is listed in.`);
    $("pt-count").classList.toggle("catan-warn", Boolean(why));
    $("pt-run").disabled = Boolean(why) || Boolean(window.CatanPlay && window.CatanPlay.busy());
  }

  function showSpot(n) {
    if (!view) return;
    const s = view.spots[n];
    if (!s) return;
    selectedSpot = n;
    $("spot-card").dataset.spot = String(n);
    $("spot-name").textContent = s.name;
    $("spot-id").textContent = `spot ${n}`;
    $("spot-rank").textContent = `rank ${s.rank} of ${view.spots.length}` + (pinnedSpot === n ? " · selected" : "");
    const ex = s.breakdown.extras || {};
    let html = `<p class="muted" style="margin:.2rem 0 .5rem">score <b class="num">${num(s.score, "spot_score")}</b></p>` +
      breakdown(s.breakdown, "spot");
    const prod = ex.production || ex.prod;
    if (prod && typeof prod === "object") {
      html += `<h3>Production (pips) per resource</h3><p class="mono">` +
        Object.entries(prod).map(([k, v]) => `${BE.esc(k)} ${BE.fmt(v, 0)}`).join(" · ") + `</p>`;
    }
    $("spot").innerHTML = html;
    glossTerms($("spot"));
    document.querySelectorAll("#board .spot.selected").forEach(e => e.classList.remove("selected"));
    const el = document.querySelector(`#board g.spot[data-spot="${n}"]`);
    if (el) el.classList.add("selected");
  }

  async function swap(a, b, kind) {
    try {
      const v = await BE.api("POST", "/api/catan/swap", { board: view.code, kind, a, b });
      if (made) {
        made.edits = made.code === v.code ? 0 : made.edits + 1;
        made.edited = (made.edited || []).concat([kind]);
      } else {
        made = { source: "shared", edits: 1, edited: [kind], rules: [] };
      }
      show(v);
    } catch (e) { if (window.CatanEdit) window.CatanEdit.reset(); }
  }

  /** Hover or focus previews a spot, unless one was clicked (then the panel keeps the clicked one). */
  function onBoardOver(evt) {
    const s = evt.target.closest ? evt.target.closest("g.spot[data-spot]") : null;
    if (s && pinnedSpot === null) showSpot(Number(s.getAttribute("data-spot")));
  }

  /** Click (or Enter) on a spot selects it and keeps it; again on the same spot releases it. */
  function pin(n) {
    pinnedSpot = pinnedSpot === n ? null : n;
    showSpot(n);
  }

  function onBoardClick(evt) {
    const mode = editMode();
    const s = evt.target.closest ? evt.target.closest("g.spot[data-spot]") : null;
    if (s && mode === "none") { pin(Number(s.getAttribute("data-spot"))); return; }
    if (mode !== "none") tools().then(() => window.CatanEdit.pick(evt.target));
  }

  const freshSeed = () => Math.floor(Math.random() * 1e6);

  function clearErrors() {
    const err = $("page-error");
    if (err) err.hidden = true;
    const toast = $("toast");
    if (toast) toast.hidden = true;
    if (!currentJob) showProvenance();
  }

  /** Generate with the seed in the box (a fresh one when it is empty); "New board" draws a fresh seed. */
  async function generate(evt, fresh) {
    if (evt) evt.preventDefault();
    if (currentJob) return;
    if (fresh || $("seed").value.trim() === "") $("seed").value = String(freshSeed());
    const problem = seatsProblem();
    if (problem) { $("gen-info").textContent = problem + "."; return; }
    const seats = seatsTarget();
    const body = { method: $("method").value, seed: Number($("seed").value), rules: formRules(),
      fairness: dialValue(), layout: $("layout").value, ports: seats ? null : $("ports").value,
      objective: $("objective").value };
    const bar = $("progress"), fill = bar.firstElementChild;
    $("generate").disabled = true; $("new-board").disabled = true; $("cancel").hidden = false; bar.hidden = false; fill.style.width = "0";
    $("gen-info").textContent = "generating…";
    const seedAsked = $("seed").value;
    try {
      const job = await BE.api("POST", "/api/jobs/catan/generate", body);
      currentJob = job.id;
      const done = await BE.waitJob(job.id, j => {
        fill.style.width = j.total ? `${Math.round(100 * j.done / j.total)}%` : "30%";
        if (j.message) $("gen-info").textContent = j.message;
      });
      // a seed typed while this job ran is the next Generate's: show() and showMade() below write the seed
      // box, so it is read first and put back (switching the layout starts a job; a user who then types
      // seed 4 and presses Generate gets seed 4)
      const typed = $("seed").value;
      if (done.result) {
        const g = done.result.generation;
        made = { source: "generated", method: g.method, seed: g.seed, fairness: g.fairness, ports: g.ports, objective: g.objective,
          rules: body.rules, rulesStatus: g.rules, layout: g.layout, optimal: g.optimal === true,
          swapsSaid: g.swaps_said && g.method === "tournament" ? g.swaps_said : null,
          ms: Math.max(g.seconds, done.seconds || 0) * 1000, stopped: done.state === "cancelled" || g.interrupted,
          code: done.result.code, edits: 0, edited: [] };
        show(done.result);
      } else {
        $("gen-info").textContent = "cancelled before a board was made: the board shown is unchanged";
        showMade();
      }
      if (typed !== seedAsked) { $("seed").value = typed; $("seed").placeholder = ""; $("seed-note").textContent = ""; }
    } catch (e) {
      $("gen-info").textContent = e.message;
    } finally {
      currentJob = null; $("cancel").hidden = true; bar.hidden = true; showDial();
      if (again) { again = false; generate(null, true); }
    }
  }

  /** The first board: a random one at once (no job), with the form set to what made it, so that the info
      line, the form and "Generate with this seed" agree; pick a method and press New board for more. */
  async function firstBoard() {
    const seed = freshSeed(), layout = $("layout").value;
    try {
      const v = await BE.api("GET", `/api/catan/random?seed=${seed}&layout=${layout}`);
      $("method").value = "random"; onMethodChange();
      made = { source: "generated", method: "random", seed, fairness: 0, ports: "fixed", rules: formRules(),
        rulesStatus: {}, layout, code: v.code, edits: 0, edited: [] };
      show(v, false);
    } catch (e) { /* toast */ }
  }

  async function paste(evt) {
    evt.preventDefault();
    const text = $("paste").value.trim();
    if (!text) return;
    try {
      const v = await BE.api("POST", "/api/catan/parse", { text });
      made = { source: "pasted", edits: 0, edited: [], rules: [] };
      show(v); $("paste").value = "";
    } catch (e) { /* toast */ }
  }

  /** Method, seed, rules, fairness and harbours from the URL (a shared link), into the form and ``made``. */
  function readUrl() {
    const q = new URLSearchParams(location.search);
    const method = q.get("method"), seed = q.get("seed");
    if (q.get("layout") === "extended" || (CATAN_INITIAL && CATAN_INITIAL.layout === "extended")) $("layout").value = "extended";
    if (method && [...$("method").options].some(o => o.value === method)) $("method").value = method;
    if (q.get("objective") === "seat-equity") $("objective").value = "seat-equity";
    syncObjective();
    if (q.get("rules")) $("rules").value = q.get("rules").split(",").join(", ");
    const ports = q.get("ports");
    if (ports && [...$("ports").options].some(o => o.value === ports)) { $("ports").value = ports; portsTouched = true; }
    else $("ports").value = methodDefaultPorts($("method").value);
    const f = q.get("fairness");
    const okF = f !== null && f !== "" && Number.isFinite(Number(f)) && Number(f) >= 0 && Number(f) <= 1;
    if (okF && dialRules($("method").value).fixed === undefined) $("fairness").value = f;
    legacyDial = !okF && $("method").value === "anneal" && method !== null;
    syncPreset(); showDial(); showRulesNote();
    if (!CATAN_INITIAL) return;
    if (method && seed !== null && /^[0-9]+$/.test(seed)) {
      made = { source: "link", method: $("method").value, seed: Number(seed), rules: formRules(), fairness: dialValue(),
        objective: $("objective").value,
        ports: $("ports").value, layout: $("layout").value, code: CATAN_INITIAL.code, edits: 0, edited: [] };
    } else {
      made = { source: "shared", edits: 0, edited: [], rules: [] };
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("board").addEventListener("mouseover", onBoardOver);
    $("board").addEventListener("focusin", onBoardOver);
    $("board").addEventListener("focusin", evt => { const e = boardItem(evt); if (e) { boardStop = itemId(e); rove(); } });
    $("board").addEventListener("mouseleave", () => { if (pinnedSpot !== null) showSpot(pinnedSpot); });
    $("board").addEventListener("click", onBoardClick);
    $("board").addEventListener("keydown", onBoardKey);
    $("board").addEventListener("keydown", evt => {
      if (evt.key !== "Enter" && evt.key !== " ") return;
      if (!evt.target.closest || !evt.target.closest("g.spot[data-spot], [data-hex], [data-port]")) return;
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
    $("top-spots").addEventListener("keydown", evt => {  // one Tab stop: the arrow keys move between the rows
      if (evt.key === "Enter") { pickRow(evt); return; }
      const row = evt.target.closest("[data-spot-row]"), to = { ArrowDown: "nextElementSibling", ArrowUp: "previousElementSibling" }[evt.key];
      if (!row || !to) return;
      evt.preventDefault();
      const next = row[to];
      if (next) { row.tabIndex = -1; next.tabIndex = 0; next.focus(); }
    });
    $("paste-form").addEventListener("submit", paste);
    $("cancel").addEventListener("click", () => { if (currentJob) BE.api("DELETE", "/api/jobs/" + currentJob); });
    $("fairness").addEventListener("input", () => { legacyDial = false; showDial(); });
    $("method").addEventListener("change", onMethodChange);
    $("objective").addEventListener("change", () => { legacyDial = false; showDial(); });
    $("equity-draft").addEventListener("click", () => equityPart("draft"));
    $("equity-why").addEventListener("click", () => equityPart("why"));
    $("ports").addEventListener("change", () => { portsTouched = true; });
    $("preset").addEventListener("change", () => {
      const o = $("preset").selectedOptions[0];
      if (o && o.value !== "custom") $("rules").value = o.dataset.rules;
      showRulesNote(); showDial(); tools();
    });
    $("rules").addEventListener("input", () => { syncPreset(); showRulesNote(); showDial(); tools(); });
    $("rule-help").addEventListener("toggle", () => {  // the rule list, from the datalist (sent once)
      if ($("rule-list").childElementCount) return;
      $("rule-list").innerHTML = [...$("rule-names").options].map(o => `<li><code>${BE.esc(o.value)}</code>: ${BE.esc(o.textContent)}</li>`).join("");
    });
    $("layout").addEventListener("change", () => {
      clearErrors();
      syncObjective(); showDial();
      if (currentJob) { again = true; BE.api("DELETE", "/api/jobs/" + currentJob); } else generate(null, true);
    });
    $("show-ids").addEventListener("change", () => { tools(); if (view) showSpot(selectedSpot); });
    $("copy-link").addEventListener("click", async () => {
      const url = location.origin + shareUrl(view);
      try { await navigator.clipboard.writeText(url); BE.toast("link copied", "info"); }
      catch (e) { BE.toast(url, "info"); }
    });
    document.querySelectorAll('input[name="edit"]').forEach(r => r.addEventListener("change", () => {
      if (window.CatanEdit) window.CatanEdit.reset(); else tools();
    }));
    ["input", "change"].forEach(e => { $("pt-games").addEventListener(e, showCount); $("pt-rotate").addEventListener(e, showCount); });
    $("playtest-card").addEventListener("pointerenter", loadPlay, { once: true });
    $("playtest-card").addEventListener("focusin", loadPlay, { once: true });
    $("playtest-form").addEventListener("submit", async evt => {
      evt.preventDefault();
      if ($("pt-run").disabled) return;
      try { await loadPlay(); } catch (e) { BE.toast("the play-test panel did not load (is the server still running?)"); return; }
      window.CatanPlay.run();
    });
    document.addEventListener("catan:playtest-idle", showCount);
    readUrl();
    if (CATAN_INITIAL) show(CATAN_INITIAL, false);
    else firstBoard();
  });
})();
