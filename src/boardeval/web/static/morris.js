/* Morris page: draws the board as SVG, turns clicks/drags into legal turns (the server lists them), asks the
   AI for its turn and renders the why-panel. The game lives in the page: start position + list of turns. */
"use strict";
(() => {
  const NAMES = ["a7","d7","g7","b6","d6","f6","c5","d5","e5","a4","b4","c4","e4","f4","g4","c3","d3","e3",
    "b2","d2","f2","a1","d1","g1"];
  const STEP = 80, MARGIN = 40;
  const XY = NAMES.map(n => [MARGIN + STEP * (n.charCodeAt(0) - 97), MARGIN + STEP * (7 - Number(n[1]))]);
  const LINES = [["a7","g7"],["g7","g1"],["g1","a1"],["a1","a7"],["b6","f6"],["f6","f2"],["f2","b2"],["b2","b6"],
    ["c5","e5"],["e5","e3"],["e3","c3"],["c3","c5"],["d7","d5"],["d3","d1"],["a4","c4"],["e4","g4"]];
  const TURN_RE = /^([a-g][1-7])(?:-([a-g][1-7]))?(?:x([a-g][1-7]))?$/;
  const idx = n => NAMES.indexOf(n);

  let game = { moves: [] };
  let state = null;         // last MorrisState from the server
  let selected = null;      // selected source point name (moving)
  let pendingBase = null;   // "d2" or "a1-a4" awaiting a removal click
  let busy = false;
  let lastAiMove = null;

  const $ = id => document.getElementById(id);

  function parseTurn(t) {
    const m = TURN_RE.exec(t);
    if (!m) return null;
    return m[2] ? { text: t, src: m[1], dst: m[2], remove: m[3] || null }
                : { text: t, src: null, dst: m[1], remove: m[3] || null };
  }

  function human() { return $("colour").value; }
  function variant() { return $("variant").value; }
  function humanToMove() { return state && state.outcome === "ongoing" && state.side === human(); }

  function draw() {
    const size = 2 * MARGIN + 6 * STEP;
    let s = `<svg viewBox="0 0 ${size} ${size}" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Morris board">`;
    s += `<rect x="4" y="4" width="${size - 8}" height="${size - 8}" rx="14" fill="#e9d8b4" stroke="#b89a63" stroke-width="2"/>`;
    for (const [a, b] of LINES) {
      const [x1, y1] = XY[idx(a)], [x2, y2] = XY[idx(b)];
      s += `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#5a4526" stroke-width="4" stroke-linecap="round"/>`;
    }
    const legal = state ? state.legal.map(parseTurn).filter(Boolean) : [];
    const targets = new Set(), removable = new Set(), movable = new Set();
    if (humanToMove() && !busy) {
      if (pendingBase) {
        for (const t of legal) if (baseOf(t) === pendingBase && t.remove) removable.add(t.remove);
      } else if (selected) {
        for (const t of legal) if (t.src === selected) targets.add(t.dst);
      } else {
        for (const t of legal) { if (t.src) movable.add(t.src); else targets.add(t.dst); }
      }
    }
    const last = lastTurn();
    NAMES.forEach((n, i) => {
      const [x, y] = XY[i];
      const who = state ? state.points[i] : ".";
      const cls = ["pt"];
      if (targets.has(n)) cls.push("target");
      if (removable.has(n)) cls.push("removable");
      if (movable.has(n)) cls.push("movable");
      s += `<g class="${cls.join(" ")}" data-point="${n}" data-man="${who}">`;
      s += `<circle cx="${x}" cy="${y}" r="26" fill="transparent"/>`;
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
      if (last && (last.dst === n)) s += `<circle cx="${x}" cy="${y}" r="4" fill="#c8553d"/>`;
      s += `<text x="${x + 14}" y="${y + 30}" font-size="11" fill="#7a6440" font-family="sans-serif">${n}</text>`;
      s += `</g>`;
    });
    s += `</svg>`;
    $("board").innerHTML = s;
  }

  function baseOf(t) { return t.src ? `${t.src}-${t.dst}` : t.dst; }
  function lastTurn() { return state && state.moves.length ? parseTurn(state.moves[state.moves.length - 1]) : null; }

  function updatePanel() {
    if (!state) return;
    $("white-count").textContent = state.hand.white; $("black-count").textContent = state.hand.black;
    $("white-board").textContent = state.on_board.white; $("black-board").textContent = state.on_board.black;
    $("phase-pill").textContent = state.phase;
    $("position-text").textContent = state.position;
    const ms = state.moves;
    let html = "";
    for (let i = 0; i < ms.length; i += 2) html += `${i / 2 + 1}. ${BE.esc(ms[i])} ${ms[i + 1] ? BE.esc(ms[i + 1]) : ""}<br>`;
    $("moves").innerHTML = html || "–";
    $("moves").scrollTop = 1e9;
    let status;
    if (state.outcome !== "ongoing") {
      const res = state.outcome === "draw" ? "Draw" : (state.outcome === human() ? "You win" : "The AI wins");
      status = `${res}: ${state.reason}.`;
    } else if (busy) {
      status = "The AI is thinking…";
    } else if (state.side === human()) {
      status = pendingBase ? "Mill! Click an opponent man to remove." : `Your turn (${state.side}, ${state.phase}).`;
    } else {
      status = "AI to move.";
    }
    $("status").textContent = status;
    $("hint").textContent = pendingBase ? "Men marked with a red cross may be removed." :
      (state.phase === "placing" ? "Dashed rings mark where you may place." :
        "Dashed rings mark the men that can move: drag one, or click it and then a dashed target.");
  }

  function syncUrl() {
    const q = new URLSearchParams();
    if (game.moves.length) q.set("moves", game.moves.join(" "));
    if (human() !== "white") q.set("colour", human());
    if (variant() !== "standard") q.set("variant", variant());
    const qs = q.toString();
    history.replaceState(null, "", "/morris" + (qs ? "?" + qs : ""));
  }

  async function refresh() {
    try {
      state = await BE.api("POST", "/api/morris/state", { position: MORRIS_START, moves: game.moves, variant: variant() });
    } catch (e) {
      game.moves = []; syncUrl();
      state = await BE.api("POST", "/api/morris/state", { position: MORRIS_START, moves: [], variant: variant() });
    }
    game.moves = state.moves.slice(); syncUrl();
    selected = null; pendingBase = null;
    draw(); updatePanel();
    maybeAi();
  }

  async function play(turnText) {
    selected = null; pendingBase = null;
    const moves = game.moves.concat([turnText]);
    try {
      state = await BE.api("POST", "/api/morris/state", { position: MORRIS_START, moves, variant: variant() });
      game.moves = state.moves.slice(); syncUrl();
    } catch (e) { /* toast shown; keep the old state */ }
    draw(); updatePanel();
    maybeAi();
  }

  async function maybeAi() {
    if (!state || state.outcome !== "ongoing" || state.side === human() || busy) return;
    busy = true; updatePanel(); draw();
    try {
      const ans = await BE.api("POST", "/api/morris/ai", {
        position: MORRIS_START, moves: game.moves, variant: variant(), strength: $("strength").value, candidates: 3 });
      state = ans.state; game.moves = state.moves.slice(); syncUrl();
      lastAiMove = ans.move;
      renderWhy(ans);
    } catch (e) { /* toast */ }
    busy = false;
    draw(); updatePanel();
  }

  function renderWhy(ans) {
    $("ai-move").textContent = ans.move;
    $("why").innerHTML = MorrisWhy.render(ans);
  }

  function clickPoint(n) {
    if (!humanToMove() || busy) return;
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
    if (moved && to && to !== from && humanToMove() && !pendingBase) {
      const legal = state.legal.map(parseTurn).filter(Boolean);
      if (legal.some(t => t.src === from)) { selected = from; clickPoint(to); return; }
    }
    if (!moved && to) clickPoint(to);
  }

  function newGame() {
    game = { moves: [] }; lastAiMove = null;
    $("ai-move").textContent = "–";
    $("why").innerHTML = '<p class="muted">The AI\'s reasoning appears here after its first move.</p>';
    refresh();
  }

  function undo() {
    if (busy || !game.moves.length) return;
    // Take back turns until it is the human's turn again, at least one human turn back.
    const parity = human() === "white" ? 0 : 1;
    let k = game.moves.length - 1;
    while (k > 0 && k % 2 !== parity) k--;
    game.moves = game.moves.slice(0, Math.max(0, k));
    refresh();
  }

  document.addEventListener("DOMContentLoaded", () => {
    const board = $("board");
    board.addEventListener("pointerdown", onDown);
    board.addEventListener("pointermove", onMove);
    board.addEventListener("pointerup", onUp);
    $("new-game").addEventListener("click", newGame);
    $("undo").addEventListener("click", undo);
    $("colour").addEventListener("change", newGame);
    $("variant").addEventListener("change", newGame);
    if (MORRIS_INITIAL.variant) $("variant").value = MORRIS_INITIAL.variant;
    if (MORRIS_INITIAL.colour === "black") $("colour").value = "black";
    if (MORRIS_INITIAL.moves) game.moves = MORRIS_INITIAL.moves.split(/\s+/).filter(Boolean);
    refresh();
  });
})();

/* The why-panel (library data: raw features of both sides, candidate turns and how each changes them, a
   ranked explanation in words). Phase scales are engine-internal and never in the data, so never shown. */
const MorrisWhy = (() => {
  const LABEL = f => f.replace(/_/g, " ");
  const sgn = v => (v > 0 ? "+" : "") + BE.fmt(v, 2);
  function render(ans) {
    const w = ans.why || {};
    const me = w.side || "white", opp = me === "white" ? "black" : "white";
    let h = `<p class="muted" style="margin:.2rem 0">${BE.esc(me)} to move, ${BE.esc(w.phase || "")} phase · ` +
      `score ${BE.fmt(ans.score, 2)} · depth ${ans.depth} · ${ans.nodes.toLocaleString()} nodes · ${BE.fmt(ans.seconds * 1000, 0)} ms` +
      (ans.pv && ans.pv.length ? ` · line <span class="mono">${ans.pv.map(BE.esc).join(" ")}</span>` : "") + `</p>`;
    if (w.explanation && w.explanation.length) {
      h += `<h3>In words</h3><ul class="why-words">` + w.explanation.map(s => `<li>${BE.esc(s)}</li>`).join("") + `</ul>`;
    }
    const cands = w.candidates || [];
    if (cands.length) {
      h += `<h3>Top candidate moves</h3><table class="data why-candidates"><thead><tr><th>move</th><th>score</th><th>line</th></tr></thead><tbody>`;
      const bestScore = cands[0].score;
      const played = cands.find(c => c.move === ans.move);
      for (const c of cands) {
        const mine = c.move === ans.move;
        h += `<tr${mine ? ' style="font-weight:700"' : ""}><td class="mono">${BE.esc(c.move)}${mine ? " ◀" : ""}</td>` +
          `<td class="num">${BE.fmt(c.score, 2)}</td><td class="mono" style="text-align:left">${(c.pv || []).map(BE.esc).join(" ")}</td></tr>`;
      }
      h += `</tbody></table>`;
      if (!played) h += `<p class="hint">The AI's deeper search chose ${BE.esc(ans.move)}, outside these candidates.</p>`;
      else if (played !== cands[0] && Math.abs(played.score - bestScore) < 1e-6)
        h += `<p class="hint">${BE.esc(ans.move)} scores the same as ${BE.esc(cands[0].move)}: a tie.</p>`;
    }
    const feats = w.features || {};
    const names = Object.keys(feats[me] || {});
    if (names.length) {
      const ranked = new Set(w.ranking || []);
      h += `<h3>Raw features now, and the change each move makes (${BE.esc(me)} / ${BE.esc(opp)})</h3>` +
        `<table class="data why-features"><thead><tr><th>feature</th><th>${BE.esc(me)}</th><th>${BE.esc(opp)}</th>` +
        cands.map(c => `<th class="mono">${BE.esc(c.move)}</th>`).join("") + `</tr></thead><tbody>`;
      const order = (w.ranking || []).concat(names.filter(n => !ranked.has(n)));
      for (const f of order) {
        if (!(f in feats[me])) continue;
        h += `<tr data-feature="${BE.esc(f)}"><td>${BE.esc(LABEL(f))}${ranked.has(f) ? "" : ' <span class="muted">(no effect)</span>'}</td>` +
          `<td class="num">${BE.fmt(feats[me][f], 2)}</td><td class="num">${BE.fmt(feats[opp][f], 2)}</td>`;
        for (const c of cands) {
          const a = c.change && c.change[me] ? c.change[me][f] : 0, b = c.change && c.change[opp] ? c.change[opp][f] : 0;
          h += `<td class="num">${a || b ? `${sgn(a)} / ${sgn(b)}` : '<span class="muted">·</span>'}</td>`;
        }
        h += `</tr>`;
      }
      h += `</tbody></table>`;
    }
    return h;
  }
  return { render };
})();
