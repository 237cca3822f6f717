/* Morris page: an analysis board. Draws the board as SVG, turns clicks, drags and keys into legal turns
   (the server lists them), asks the AI for its turn, renders the why-panel, the move list and the
   evaluation graph. The game lives in the page: start position + list of turns + the position shown.

   Races: every change of game (new game, colour, undo, a move, an import) bumps `gameId` and aborts the
   AI request in flight (AbortController); an answer that arrives for an older game id is dropped.

   One sign convention (issue 23 §2): every score shown is from White's view (+ good for White), on the
   graph and in the why-panel, and a decided line is shown in words ("White wins in 3"), never as a score.
   The graph and the hint are the same analysis search (the server's), so they agree at every position. */
"use strict";
(() => {
  const NAMES = ["a7","d7","g7","b6","d6","f6","c5","d5","e5","a4","b4","c4","e4","f4","g4","c3","d3","e3",
    "b2","d2","f2","a1","d1","g1"];
  const STEP = 80, MARGIN = 40;
  const XY = NAMES.map(n => [MARGIN + STEP * (n.charCodeAt(0) - 97), MARGIN + STEP * (7 - Number(n[1]))]);
  const LINES = [["a7","g7"],["g7","g1"],["g1","a1"],["a1","a7"],["b6","f6"],["f6","f2"],["f2","b2"],["b2","b6"],
    ["c5","e5"],["e5","e3"],["e3","c3"],["c3","c5"],["d7","d5"],["d3","d1"],["a4","c4"],["e4","g4"]];
  const TURN_RE = /^([a-g][1-7])(?:-([a-g][1-7]))?(?:x([a-g][1-7]))?$/;
  const GRAPH_CLIP = 20;
  const SPEEDS = { fast: 150, normal: 700, slow: 2000 };  // ms between two turns of AI vs AI
  const idx = n => NAMES.indexOf(n);

  let game = { start: MORRIS_START, moves: [] };
  let cursor = 0;           // the position shown: after game.moves[0:cursor]
  let wanted = 0;           // the position asked for last (keys step from here while an answer is on its way)
  let state = null;         // MorrisState of the position shown
  let gameId = 0;           // bumped by every change of game: older answers are dropped
  let viewToken = 0;        // the latest position request
  let aiCtl = null;         // AbortController of the AI request in flight (null: none)
  let selected = null;      // selected source point name (moving)
  let pendingBase = null;   // "d2" or "a1-a4" awaiting a removal click
  let setup = false;        // board editor on
  let evals = [];           // evaluation graph per position of the game: {v (White's view), verdict, depth}
  let evalCtl = null;
  const whyCache = new Map();  // key(ply) -> the AI's answer (its move and why-panel) in the position after `ply` turns
  const hintCache = new Map(); // key(ply) -> the analysis' answer there (Hint; a shared link to a hint)
  let pinned = null;           // key of a hint shown (Hint, share link)
  let paused = false;          // AI vs AI: no turn starts by itself
  let stepping = false;        // AI vs AI paused: one turn asked for by Step
  let nextTimer = 0;           // AI vs AI: the timer of the next turn

  const $ = id => document.getElementById(id);
  // the placing phase's hint comes with the page (morris.html: the first paint, no layout shift)
  const PLACING_HINT = $("hint").textContent;
  const mode = () => $("colour").value;            // white | black | both | none
  const variant = () => $("variant").value;
  const keyOf = ply => `${variant()}|${game.start}|${game.moves.slice(0, ply).join(" ")}`;
  const atEnd = () => cursor === game.moves.length;
  const humanSide = side => mode() === "both" || mode() === side;
  const busy = () => aiCtl !== null;
  const turns = n => `${n} turn${n === 1 ? "" : "s"}`;
  /* A score from White's view in words: a decided line's headline, else the signed number. */
  const evalWords = (v, verdict) => verdict ? verdict.headline : BE.signed(v, 2);

  /* POST JSON with an abort signal; rejects with AbortError (no toast) or a readable Error (toast). */
  async function post(url, body, signal, quiet) {
    let resp;
    try {
      resp = await fetch(url, { method: "POST", signal, body: JSON.stringify(body),
        headers: { "Accept": "application/json", "Content-Type": "application/json" } });
    } catch (e) {
      if (e.name === "AbortError") throw e;
      const err = new Error("the server did not answer (is it still running?)");
      if (!quiet) BE.toast(err.message);
      throw err;
    }
    const text = await resp.text();
    let data;
    try { data = text ? JSON.parse(text) : null; } catch (e) { data = { detail: text }; }
    if (!resp.ok) {
      const err = new Error(data && typeof data.detail === "string" ? data.detail : resp.statusText);
      if (!quiet) BE.toast(err.message);
      throw err;
    }
    return data;
  }
  const gameBody = moves => ({ position: game.start, moves, variant: variant() });

  function parseTurn(t) {
    const m = TURN_RE.exec(t);
    if (!m) return null;
    return m[2] ? { text: t, src: m[1], dst: m[2], remove: m[3] || null }
                : { text: t, src: null, dst: m[1], remove: m[3] || null };
  }
  function baseOf(t) { return t.src ? `${t.src}-${t.dst}` : t.dst; }
  function humanToMove() {
    return state && !setup && state.outcome === "ongoing" && (humanSide(state.side) || !atEnd());
  }
  function aiToMove() { return state && !setup && atEnd() && state.outcome === "ongoing" && !humanSide(state.side); }

  // ------------------------------------------------------------------------------------------ drawing

  function draw() {
    const size = 2 * MARGIN + 6 * STEP;
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#board [data-point]");
    const focusName = focused ? focused.getAttribute("data-point") : null;
    let s = `<svg viewBox="0 0 ${size} ${size}" xmlns="http://www.w3.org/2000/svg" role="group" aria-label="Morris board">`;
    s += `<rect x="4" y="4" width="${size - 8}" height="${size - 8}" rx="14" fill="#e9d8b4" stroke="#b89a63" stroke-width="2"/>`;
    for (const [a, b] of LINES) {
      const [x1, y1] = XY[idx(a)], [x2, y2] = XY[idx(b)];
      s += `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#5a4526" stroke-width="4" stroke-linecap="round"/>`;
    }
    const legal = state ? state.legal.map(parseTurn).filter(Boolean) : [];
    const targets = new Set(), removable = new Set(), movable = new Set();
    if (humanToMove() && !busy()) {
      if (pendingBase) {
        for (const t of legal) if (baseOf(t) === pendingBase && t.remove) removable.add(t.remove);
      } else if (selected) {
        for (const t of legal) if (t.src === selected) targets.add(t.dst);
      } else {
        for (const t of legal) { if (t.src) movable.add(t.src); else targets.add(t.dst); }
      }
    }
    const last = cursor > 0 ? parseTurn(game.moves[cursor - 1]) : null;
    const points = setup ? setupPoints() : (state ? state.points.slice() : NAMES.map(() => "."));
    if (pendingBase && state && !setup) {
      // a turn that closed a mill waits for its removal: its man already stands where it went
      const t = parseTurn(pendingBase);
      if (t.src) points[idx(t.src)] = ".";
      points[idx(t.dst)] = state.side === "white" ? "W" : "B";
    }
    NAMES.forEach((n, i) => {
      const [x, y] = XY[i];
      const who = points[i];
      const cls = ["pt"];
      if (targets.has(n)) cls.push("target");
      if (removable.has(n)) cls.push("removable");
      if (movable.has(n)) cls.push("movable");
      const label = `${n}: ${who === "W" ? "white man" : who === "B" ? "black man" : "empty"}` +
        (targets.has(n) ? ", you may place or move here" : "") + (removable.has(n) ? ", may be removed" : "") +
        (movable.has(n) ? ", can move" : "") + (selected === n ? ", selected" : "");
      s += `<g class="${cls.join(" ")}" data-point="${n}" data-man="${who}" tabindex="0" role="button" aria-label="${label}">`;
      s += `<circle cx="${x}" cy="${y}" r="26" fill="transparent"/>`;
      s += `<circle class="focus-ring" cx="${x}" cy="${y}" r="29" fill="none" stroke="#2f6fde" stroke-width="3"/>`;
      s += `<circle cx="${x}" cy="${y}" r="7" fill="#5a4526"/>`;
      if (targets.has(n)) s += `<circle cx="${x}" cy="${y}" r="13" fill="none" stroke="#2e7d4f" stroke-width="3" stroke-dasharray="4 3"/>`;
      if (who !== ".") {
        const fill = who === "W" ? "#fbfaf7" : "#23262b";
        const stroke = who === "W" ? "#6b6b6b" : "#000";
        const ring = (selected === n) ? ' stroke="#2f6fde" stroke-width="5"' : ` stroke="${stroke}" stroke-width="2"`;
        s += `<circle class="man ${who === "W" ? "white" : "black"}" cx="${x}" cy="${y}" r="22" fill="${fill}"${ring}/>`;
        s += `<circle cx="${x}" cy="${y}" r="13" fill="none" stroke="${who === "W" ? "#c9c4b8" : "#3d4249"}" stroke-width="2"/>`;
      }
      if (movable.has(n) && selected !== n) s += `<circle cx="${x}" cy="${y}" r="26" fill="none" stroke="#2e7d4f" stroke-width="2.5" stroke-dasharray="4 3"/>`;
      if (removable.has(n)) s += `<circle cx="${x}" cy="${y}" r="25" fill="none" stroke="#b3261e" stroke-width="4"/>` +
        `<line x1="${x - 9}" y1="${y - 9}" x2="${x + 9}" y2="${y + 9}" stroke="#b3261e" stroke-width="4"/>` +
        `<line x1="${x + 9}" y1="${y - 9}" x2="${x - 9}" y2="${y + 9}" stroke="#b3261e" stroke-width="4"/>`;
      if (!setup && last && last.dst === n) s += `<circle cx="${x}" cy="${y}" r="4" fill="#c8553d"/>`;
      s += `<text x="${x + 14}" y="${y + 30}" font-size="11" fill="#7a6440" font-family="sans-serif">${n}</text>`;
      s += `</g>`;
    });
    s += `</svg>`;
    $("board").innerHTML = s;
    if (focusName) { const g = $("board").querySelector(`[data-point="${focusName}"]`); if (g) g.focus(); }
  }

  function updatePanel() {
    if (!state) return;
    $("white-count").textContent = state.hand.white; $("black-count").textContent = state.hand.black;
    $("white-board").textContent = state.on_board.white; $("black-board").textContent = state.on_board.black;
    $("phase-pill").textContent = state.phase;
    $("position-text").textContent = state.position;
    // the Position box follows the position shown (unless it is being edited)
    if (!setup && document.activeElement !== $("setup-text")) $("setup-text").value = state.position;
    renderMoves();
    aiControls();
    let status;
    const n = game.moves.length;
    if (setup) {
      status = "Setting up: click a point to cycle empty → white → black.";
    } else if (!atEnd()) {
      status = `Viewing the position after ${cursor} of ${turns(n)} (→ steps on; a move here replaces the rest).`;
    } else if (state.outcome !== "ongoing") {
      const solo = mode() === "white" || mode() === "black";
      const res = state.outcome === "draw" ? "Draw" : solo ? (state.outcome === mode() ? "You win" : "The AI wins")
        : `${cap(state.outcome)} wins`;
      // the colours named as everywhere else on the page ("The AI wins: Black has no legal move.")
      status = `${res}: ${state.reason.replace(/\b(white|black)\b/g, cap)}.`;
    } else if (busy()) {
      status = mode() === "none" ? `${cap(state.side)} AI is thinking…` : "The AI is thinking…";
    } else if (mode() === "none" && paused) {
      status = `Paused: ${state.side} to move (Step plays one turn, Resume plays on).`;
    } else if (humanSide(state.side)) {
      const who = mode() === "both" ? `${cap(state.side)} to move` : "Your turn";
      status = pendingBase ? "Mill! Click an opponent man to remove." : `${who} (${state.side}, ${state.phase}).`;
    } else {
      status = "AI to move.";
    }
    $("status").textContent = status;
    $("hint").textContent = setup ? "The side to move and the men in hand are the last three fields of the text." :
      pendingBase ? "Men marked with a red cross may be removed." :
      (state.phase === "placing" ? PLACING_HINT :
        "Dashed rings mark the men that can move: drag one, or click it (or Enter) and then a dashed target.");
    $("prev").disabled = cursor === 0; $("next").disabled = atEnd();
  }
  const cap = s => s.charAt(0).toUpperCase() + s.slice(1);

  function renderMoves() {
    const ms = game.moves;
    let html = `<button type="button" class="mv${cursor === 0 ? " current" : ""}" data-ply="0">start</button> `;
    for (let i = 0; i < ms.length; i++) {
      if (i % 2 === 0) html += `<span class="mvno">${i / 2 + 1}.</span>`;
      html += `<button type="button" class="mv${cursor === i + 1 ? " current" : ""}" data-ply="${i + 1}">${BE.esc(ms[i])}</button> `;
    }
    $("moves").innerHTML = html;
    const cur = $("moves").querySelector(".mv.current");
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: "nearest" });
  }

  function syncUrl() {
    const q = new URLSearchParams();
    if (game.start !== MORRIS_START) q.set("start", game.start);
    if (game.moves.length) q.set("moves", game.moves.join(" "));
    if (mode() !== "white") q.set("colour", mode());
    if (variant() !== "standard") q.set("variant", variant());
    if ($("strength").value !== "medium") q.set("strength", $("strength").value);
    if ($("ai-speed").value !== "normal") q.set("speed", $("ai-speed").value);
    if (!atEnd()) q.set("ply", String(cursor));
    const w = shownWhy();
    if (w) q.set("why", String(w.ply));
    const qs = q.toString();
    history.replaceState(null, "", "/morris" + (qs ? "?" + qs : ""));
  }

  // ----------------------------------------------------------------------------------- game changes

  function cancelAi() {
    if (aiCtl) { aiCtl.abort(); aiCtl = null; }
    clearTimeout(nextTimer); nextTimer = 0;
  }

  /* A new game (or a changed one): drop everything in flight, then show position `ply` (default: the end). */
  function setGame(start, moves, ply) {
    cancelAi();
    gameId++;
    const old = game.moves;
    game = { start, moves: moves.slice() };
    let common = 0;
    while (common < old.length && common < moves.length && old[common] === moves[common]) common++;
    evals = evals.slice(0, Math.min(evals.length, common + 1));
    selected = null; pendingBase = null;
    return show(ply === undefined ? moves.length : ply);
  }

  /* Fetch and show the position after `ply` turns; then the AI moves if it is its turn at the end. */
  async function show(ply) {
    const token = ++viewToken, id = gameId;
    ply = Math.max(0, Math.min(ply, game.moves.length));
    wanted = ply;
    let s;
    try {
      s = await post("/api/morris/state", gameBody(game.moves.slice(0, ply)));
    } catch (e) {
      if (e.name === "AbortError" || token !== viewToken) return;
      if (ply === 0 && !game.moves.length && game.start === MORRIS_START) return;
      // a bad shared game: start afresh
      return setGame(MORRIS_START, [], 0);
    }
    if (token !== viewToken || id !== gameId) return;
    state = s; cursor = ply; selected = null; pendingBase = null;
    draw(); updatePanel(); renderWhyCard(); syncUrl(); refreshGraph();
    maybeAi();
  }

  async function play(turnText) {
    selected = null; pendingBase = null;
    const moves = game.moves.slice(0, cursor).concat([turnText]);
    await setGame(game.start, moves);
  }

  async function maybeAi() {
    if (!aiToMove() || busy()) return;
    if (mode() === "none" && paused && !stepping) { aiControls(); return; }
    stepping = false;
    clearTimeout(nextTimer); nextTimer = 0;
    const id = gameId, ctl = new AbortController();
    aiCtl = ctl;
    const before = game.moves.length;
    updatePanel(); draw();
    let ans;
    try {
      ans = await post("/api/morris/ai", { ...gameBody(game.moves), strength: $("strength").value, candidates: 3 }, ctl.signal);
    } catch (e) {
      if (aiCtl === ctl) { aiCtl = null; updatePanel(); draw(); }
      return;
    }
    if (id !== gameId || ctl.signal.aborted) return;  // an answer for an older game: never applied
    aiCtl = null;
    whyCache.set(keyOf(before), ans);
    pinned = null;
    game.moves = ans.state.moves.slice();
    gameId++;
    state = ans.state; cursor = game.moves.length;
    draw(); updatePanel(); renderWhyCard(); syncUrl(); refreshGraph();
    if (mode() === "none" && !paused && aiToMove()) {
      const next = gameId, delay = SPEEDS[$("ai-speed").value] || SPEEDS.normal;
      nextTimer = setTimeout(() => { nextTimer = 0; if (next === gameId) maybeAi(); }, delay);
    }
    aiControls();
  }

  /* AI vs AI: Pause (the turn being thought about is dropped), Step (one turn while paused), Resume,
     and the speed (the pause between two turns). #board's data-next says what comes: "paused", the
     milliseconds until the next turn, "thinking" or "" (nothing). */
  function aiControls() {
    const none = mode() === "none";
    $("ai-controls").hidden = !none;
    $("ai-pause").textContent = paused ? "Resume" : "Pause";
    $("ai-pause").setAttribute("aria-pressed", paused ? "true" : "false");
    $("ai-step").disabled = !(none && paused && aiToMove() && !busy());
    $("board").dataset.next = !none ? "" : busy() ? "thinking" : paused ? "paused" :
      nextTimer ? String(SPEEDS[$("ai-speed").value] || SPEEDS.normal) : "";
  }
  function togglePause() {
    paused = !paused;
    if (paused) cancelAi();
    updatePanel(); draw();
    if (!paused) maybeAi();
  }
  function stepAi() {
    if (!paused || busy() || !aiToMove()) return;
    stepping = true;
    maybeAi();
  }

  function newGame() {
    whyCache.clear(); hintCache.clear(); pinned = null; evals = [];
    return setGame(MORRIS_START, []);
  }

  function undo() {
    if (!game.moves.length) return;
    cancelAi();
    let k = game.moves.length - 1;
    if (mode() === "white" || mode() === "black") {
      // take back turns until it is the human's turn again, at least one human turn back
      const parity = ((mode() === "white") === startsWhite()) ? 0 : 1;
      while (k > 0 && k % 2 !== parity) k--;
    }
    return setGame(game.start, game.moves.slice(0, Math.max(0, k)));
  }
  const startsWhite = () => game.start.split(/\s+/)[1] !== "b";

  // ------------------------------------------------------------------------------------- why-panel

  /* The why-panel that fits the position shown: one asked for (hint, share link), else the one that
     explains the turn that led here; a panel about a turn no longer in the game is never shown. */
  function shownWhy() {
    const here = keyOf(cursor);
    if (pinned === here && hintCache.has(here)) return { ply: cursor, ans: hintCache.get(here), kind: "hint" };
    if (cursor > 0) {
      const prev = keyOf(cursor - 1), ans = whyCache.get(prev);
      if (ans && ans.move === game.moves[cursor - 1]) return { ply: cursor - 1, ans, kind: "played" };
    }
    return null;
  }

  function renderWhyCard() {
    const w = shownWhy();
    if (!w) {
      $("why-title").innerHTML = 'Why the AI played <span id="ai-move" class="mono">–</span>';
      $("why").innerHTML = '<p class="muted">The AI\'s reasoning appears here after its move; ' +
        '"Hint" explains the best move in the position shown.</p>';
      return;
    }
    if (typeof MorrisWhy === "undefined") {  // the panel's renderer (morris_why.js) loads on first use
      $("why-title").innerHTML = 'Why the AI played <span id="ai-move" class="mono">–</span>';
      $("why").innerHTML = '<p class="muted">Loading the explanation…</p>';
      BE.loadScript("morris_why").then(renderWhyCard,
        () => BE.toast("the why-panel did not load (is the server still running?)"));
      return;
    }
    const mover = w.ans.why && w.ans.why.side ? w.ans.why.side : "";
    const why = w.ans.why || {};  // the book's move, or the best-ranked turn that keeps the book's proven value
    const fromBook = (why.book && why.book.move === w.ans.move) || (why.proven && why.proven.move === w.ans.move);
    $("why-title").innerHTML = w.kind === "hint"
      ? `Best move here: <span id="ai-move" class="mono">${BE.esc(w.ans.move)}</span>` +
        (fromBook ? ` <span class="muted">(${BE.term("book move", "opening book")})</span>` : "")
      : `Why ${BE.esc(mover)} played <span id="ai-move" class="mono">${BE.esc(w.ans.move)}</span>`;
    $("why").innerHTML = MorrisWhy.render(w.ans, w.kind);
  }

  async function hint() {
    if (!state || state.outcome !== "ongoing") { BE.toast("the game is over: no move to explain", "info"); return; }
    const id = gameId, ply = cursor, key = keyOf(ply);
    if (!hintCache.has(key)) {
      $("hint-btn").disabled = true;
      try {
        const ans = await post("/api/morris/why",
          { ...gameBody(game.moves.slice(0, ply)), strength: $("strength").value, candidates: 3, analysis: true });
        if (id !== gameId) return;
        hintCache.set(key, ans);
      } catch (e) { return; } finally { $("hint-btn").disabled = false; }
    }
    if (id !== gameId || ply !== cursor) return;
    pinned = key;
    renderWhyCard(); syncUrl();
  }

  // --------------------------------------------------------------------------------- evaluation graph

  async function refreshGraph() {
    const total = game.moves.length + 1;
    if (evals.length > total) evals = evals.slice(0, total);
    drawGraph();
    if (evals.length >= total) return;
    if (evalCtl) evalCtl.abort();
    const ctl = new AbortController(), id = gameId;
    evalCtl = ctl;
    try {
      const ans = await post("/api/morris/evals", { ...gameBody(game.moves), from_ply: evals.length }, ctl.signal, true);
      if (id !== gameId || ctl.signal.aborted || ans.from_ply !== evals.length) return;
      evals = evals.concat(ans.scores.map((v, i) => ({ v, verdict: ans.verdicts[i], depth: ans.depths[i], book: ans.book[i] })));
      evalCtl = null;
      drawGraph();
      if (evals.length < total) refreshGraph();
    } catch (e) { if (evalCtl === ctl) evalCtl = null; }
  }

  function drawGraph() {
    const W = 400, H = 110, P = 6, n = game.moves.length;
    // the scale fits the largest score of an undecided line (at least ±2, at most ±GRAPH_CLIP); a decided
    // line sits at the edge of its winner's side
    const open = evals.filter(e => !e.verdict).map(e => Math.ceil(Math.abs(e.v)));
    const scale = Math.min(GRAPH_CLIP, Math.max(2, ...open));
    const height = e => e.verdict ? (e.verdict.winner === "white" ? 1 : e.verdict.winner === "black" ? -1 : 0)
      : Math.max(-1, Math.min(1, e.v / scale));
    const x = i => P + (W - 2 * P) * (n ? i / n : 0);
    const y = e => H / 2 - (H / 2 - P) * height(e);
    let s = `<svg viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="evaluation graph, White's view: above the line White is better">`;
    s += `<rect x="0" y="0" width="${W}" height="${H / 2}" fill="#fbfaf7"/><rect x="0" y="${H / 2}" width="${W}" height="${H / 2}" fill="#e4e1db"/>`;
    s += `<line x1="0" y1="${H / 2}" x2="${W}" y2="${H / 2}" stroke="#9a9488" stroke-width="1"/>`;
    s += `<text x="4" y="12" font-size="10" fill="#5b6470">White better (top: +${scale})</text>` +
      `<text x="4" y="${H - 4}" font-size="10" fill="#5b6470">Black better (bottom: −${scale})</text>`;
    if (evals.length) {
      s += `<polyline fill="none" stroke="#c8553d" stroke-width="2" points="${evals.map((e, i) => `${x(i).toFixed(1)},${y(e).toFixed(1)}`).join(" ")}"/>`;
      evals.forEach((e, i) => {
        s += `<circle class="ev${i === cursor ? " current" : ""}" data-ply="${i}" cx="${x(i).toFixed(1)}" cy="${y(e).toFixed(1)}" r="${i === cursor ? 4.5 : 3}"><title>after ${turns(i)}: ${BE.esc(evalWords(e.v, e.verdict) + bookWords(e))}</title></circle>`;
      });
    }
    s += `<line x1="${x(cursor).toFixed(1)}" y1="0" x2="${x(cursor).toFixed(1)}" y2="${H}" stroke="#2f6fde" stroke-width="1" stroke-dasharray="3 3"/>`;
    s += `</svg>`;
    $("graph").innerHTML = s;
    readout(cursor);
  }

  /* What the opening book proves of a position the analysis scored (its value with best play), if any: the
     analysis' number is a 6-7 turn search's, the book's value a proof to the last placement. */
  const bookWords = e => e.book ? ` · opening book: ${e.book}` : "";
  /* The graph's readout line: the analysis after `ply` turns (the position shown, or the one hovered). */
  function readout(ply) {
    const e = evals[ply];
    $("graph-readout").textContent = e === undefined ? "" : (e.verdict
      ? `after ${turns(ply)}: ${e.verdict.headline}`
      : `after ${turns(ply)}: ${BE.signed(e.v, 2)} (White's view, depth ${e.depth})`) + bookWords(e);
  }
  function graphPly(evt) {
    const r = $("graph").getBoundingClientRect(), n = game.moves.length;
    return Math.max(0, Math.min(n, Math.round((evt.clientX - r.left) / r.width * n)));
  }

  // ------------------------------------------------------------------------------------------ input

  function clickPoint(n) {
    if (setup) { cycleSetup(n); return; }
    if (!humanToMove() || busy()) return;
    const legal = state.legal.map(parseTurn).filter(Boolean);
    if (pendingBase) {
      const t = legal.find(t => baseOf(t) === pendingBase && t.remove === n);
      if (t) { play(t.text); return; }
      BE.toast(`${n} cannot be removed: pick a man marked with a red cross`, "info");
      return;
    }
    const placing = legal.some(t => !t.src);
    if (placing) { choose(legal.filter(t => !t.src && t.dst === n), `you cannot place on ${n}`); return; }
    if (selected) {
      if (n === selected) { selected = null; draw(); updatePanel(); return; }
      const cands = legal.filter(t => t.src === selected && t.dst === n);
      if (cands.length) { choose(cands, ""); return; }
    }
    if (legal.some(t => t.src === n)) { selected = n; draw(); updatePanel(); return; }
    BE.toast(selected ? `${selected} cannot move to ${n}` : `${n} has no legal move for you`, "info");
  }

  function choose(cands, errorText) {
    if (!cands.length) { BE.toast(errorText, "info"); return; }
    const withRemoval = cands.filter(t => t.remove);
    if (withRemoval.length) { pendingBase = baseOf(withRemoval[0]); selected = null; draw(); updatePanel(); return; }
    play(cands[0].text);
  }

  function pointAt(evt) {
    const el = document.elementFromPoint(evt.clientX, evt.clientY);
    const g = el && el.closest ? el.closest("[data-point]") : null;
    return g ? g.getAttribute("data-point") : null;
  }

  let drag = null;
  function onDown(evt) {
    const n = pointAt(evt);
    if (!n) return;
    drag = { from: n, moved: false, x: evt.clientX, y: evt.clientY };
  }
  function onMove(evt) {
    if (drag && Math.hypot(evt.clientX - drag.x, evt.clientY - drag.y) > 8) drag.moved = true;
  }
  function onUp(evt) {
    if (!drag) return;
    const to = pointAt(evt);
    const from = drag.from;
    const moved = drag.moved;
    drag = null;
    if (moved && to && to !== from && humanToMove() && !pendingBase && !busy()) {
      const legal = state.legal.map(parseTurn).filter(Boolean);
      if (legal.some(t => t.src === from)) { selected = from; clickPoint(to); return; }
    }
    if (!moved && to) clickPoint(to);
  }

  function onKey(evt) {
    const tag = evt.target && evt.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || evt.altKey || evt.ctrlKey || evt.metaKey) return;
    const g = evt.target && evt.target.closest ? evt.target.closest("#board [data-point]") : null;
    if (g && (evt.key === "Enter" || evt.key === " ")) {
      evt.preventDefault(); clickPoint(g.getAttribute("data-point")); return;
    }
    if (setup) return;
    const to = { ArrowLeft: wanted - 1, ArrowRight: wanted + 1, Home: 0, End: game.moves.length }[evt.key];
    if (to === undefined || to < 0 || to > game.moves.length || to === wanted) return;
    evt.preventDefault();
    step(to);
  }
  function step(ply) { cancelAi(); gameId++; selected = null; pendingBase = null; show(ply); }

  // --------------------------------------------------------------------------- set-up and import/export

  let setupBoard = null;
  function setupPoints() { return setupBoard; }
  function startSetup() {
    if (setup) { endSetup(); return; }
    cancelAi(); gameId++;
    setup = true;
    const text = (state ? state.position : MORRIS_START);
    setupBoard = text.split(" ")[0].split("");
    $("setup-text").value = text;
    $("setup-edit").textContent = "Stop editing";
    draw(); updatePanel();
  }
  function endSetup() {
    setup = false; setupBoard = null;
    $("setup-edit").textContent = "Edit the board";
    draw(); updatePanel(); maybeAi();
  }
  function cycleSetup(n) {
    const i = idx(n);
    setupBoard[i] = { ".": "W", "W": "B", "B": "." }[setupBoard[i]];
    const parts = $("setup-text").value.trim().split(/\s+/);
    parts[0] = setupBoard.join("");
    if (parts.length < 4) { parts[1] = parts[1] || "w"; parts[2] = parts[2] || "0"; parts[3] = parts[3] || "0"; }
    $("setup-text").value = parts.join(" ");
    draw();
  }
  async function useSetup() {
    const text = $("setup-text").value.trim().split(/\s+/).join(" ");
    try {
      await post("/api/morris/state", { position: text, moves: [], variant: variant() });
    } catch (e) { return; }
    setup = false; setupBoard = null; $("setup-edit").textContent = "Edit the board";
    whyCache.clear(); hintCache.clear(); pinned = null; evals = [];
    await setGame(text, []);
  }

  function exportText() {
    let out = game.start !== MORRIS_START ? `[start "${game.start}"]\n` : "";
    const ms = game.moves;
    const white = startsWhite();
    let line = [];
    for (let i = 0; i < ms.length; i++) {
      const num = Math.floor((i + (white ? 0 : 1)) / 2) + 1;
      if ((i + (white ? 0 : 1)) % 2 === 0) line.push(`${num}.`);
      else if (i === 0) line.push(`${num}. …`);
      line.push(ms[i]);
    }
    return out + line.join(" ") + "\n";
  }
  function exportGame() {
    $("game-io").value = exportText();
    $("game-io").select();
  }
  async function importGame() {
    const text = $("game-io").value;
    const m = /\[start\s+"([^"]*)"\]/.exec(text);
    const start = m ? m[1].trim().split(/\s+/).join(" ") : MORRIS_START;
    const body = text.replace(/\[start\s+"[^"]*"\]/, " ");
    const moves = body.split(/[\s,]+/).filter(t => t && !/^\d+\.+$/.test(t) && t !== "…" && t !== "...")
      .map(t => t.replace(/^\d+\.+/, "")).filter(Boolean);
    try {
      await post("/api/morris/state", { position: start, moves, variant: variant() });
    } catch (e) { return; }
    whyCache.clear(); hintCache.clear(); pinned = null; evals = [];
    await setGame(start, moves);
  }

  async function share() {
    syncUrl();
    const url = location.href;
    $("share-url").value = url;
    $("share-url").hidden = false;
    $("share-url").select();
    try { await navigator.clipboard.writeText(url); BE.toast("Link copied: it reopens this position and its why-panel", "info"); }
    catch (e) { /* the link is selected in the box */ }
  }

  // ------------------------------------------------------------------------------------------- start

  document.addEventListener("DOMContentLoaded", () => {
    const board = $("board");
    board.addEventListener("pointerdown", onDown);
    board.addEventListener("pointermove", onMove);
    board.addEventListener("pointerup", onUp);
    document.addEventListener("keydown", onKey);
    $("new-game").addEventListener("click", newGame);
    $("undo").addEventListener("click", undo);
    $("colour").addEventListener("change", () => { paused = false; newGame(); });
    $("variant").addEventListener("change", newGame);
    $("strength").addEventListener("change", () => { syncUrl(); });
    $("hint-btn").addEventListener("click", hint);
    $("ai-pause").addEventListener("click", togglePause);
    $("ai-step").addEventListener("click", stepAi);
    $("ai-speed").addEventListener("change", () => { syncUrl(); aiControls(); });
    $("prev").addEventListener("click", () => { if (wanted > 0) step(wanted - 1); });
    $("next").addEventListener("click", () => { if (wanted < game.moves.length) step(wanted + 1); });
    $("moves").addEventListener("click", e => { const b = e.target.closest("[data-ply]"); if (b) step(Number(b.dataset.ply)); });
    $("graph").addEventListener("click", e => { if (game.moves.length) step(graphPly(e)); });
    $("graph").addEventListener("mousemove", e => readout(graphPly(e)));
    $("graph").addEventListener("mouseleave", () => readout(cursor));
    $("setup-edit").addEventListener("click", startSetup);
    $("setup-use").addEventListener("click", useSetup);
    $("export").addEventListener("click", exportGame);
    $("import").addEventListener("click", importGame);
    $("download").addEventListener("click", () => BE.download("morris-game.txt", exportText(), "text/plain"));
    $("share").addEventListener("click", share);

    const init = MORRIS_INITIAL;
    if (init.variant) $("variant").value = init.variant;
    if (init.colour) $("colour").value = init.colour;
    if (init.strength) $("strength").value = init.strength;
    if (init.speed) $("ai-speed").value = init.speed;
    const start = init.start || MORRIS_START;
    const moves = init.moves ? init.moves.split(/\s+/).filter(Boolean) : [];
    game = { start, moves };
    const ply = init.ply === null || init.ply === undefined ? moves.length : Math.min(init.ply, moves.length);
    if (init.why !== null && init.why !== undefined && init.why <= moves.length) {
      // a share link: the why-panel of position `why`, then the position shown. A panel of the position
      // shown is a hint (the analysis); of the one before, the AI's move that led here (at its strength).
      const key = `${variant()}|${start}|${moves.slice(0, init.why).join(" ")}`, id = gameId;
      const isHint = init.why === ply;
      post("/api/morris/why", { position: start, moves: moves.slice(0, init.why), variant: variant(),
        strength: $("strength").value, candidates: 3, analysis: isHint }).then(ans => {
        if (isHint) { hintCache.set(key, ans); pinned = key; } else whyCache.set(key, ans);
        if (id === gameId || state) { renderWhyCard(); syncUrl(); }
      }).catch(() => {});
    }
    show(ply);
  });
})();
