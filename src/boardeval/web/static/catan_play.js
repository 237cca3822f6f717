/* Catan page, "Play-test this board" panel, loaded on first use (catan.js loads it when the panel is
   approached or submitted; the form, its game count and its refusal on 5-6 player boards live there):
   runs POST /api/jobs/catan/playtest on the board shown, shows progress with a Cancel button (a cancelled
   play-test keeps its finished games, flagged), then per player and per seat the wins and win rates with
   their 95 % intervals (a bar from 0 to 100 % with the interval, the point and the equal-share line), the
   game length, and the advisor's picks: where the opening advisor settled in those games, drawn as rings
   on the board (area ~ how often), with "A" on the advisor's first pick for an empty board; spots are
   named by what they touch, as on the rest of the page. The overlay follows the board: it is redrawn when
   the board is shown again ("catan:board") and dropped when another board is shown. */
"use strict";
window.CatanPlay = (() => {
  const $ = id => document.getElementById(id);
  const SVG_NS = "http://www.w3.org/2000/svg";
  let job = null;      // id of the running play-test job
  let result = null;   // the last result shown
  const board = () => window.CATAN_VIEW;  // the board view shown (catan.js)

  const pct = x => `${(100 * x).toFixed(1)}%`;

  /** A 0..100 % bar: the Wilson interval as a band, the win rate as a tick, the equal share dashed. */
  function rateBar(r, equal) {
    const [lo, hi] = r.ci95, w = 120;
    return `<svg width="${w}" height="12" viewBox="0 0 ${w} 12" role="img" aria-label="95% interval ${pct(lo)} to ${pct(hi)}">` +
      `<rect x="0" y="4" width="${w}" height="4" fill="#eee8dc"/>` +
      `<rect x="${(w * lo).toFixed(1)}" y="2" width="${Math.max(1, w * (hi - lo)).toFixed(1)}" height="8" fill="#c9a66b"/>` +
      `<line x1="${(w * equal).toFixed(1)}" x2="${(w * equal).toFixed(1)}" y1="0" y2="12" stroke="#5b6470" stroke-dasharray="2,2"/>` +
      `<rect x="${(w * r.win_rate - 1).toFixed(1)}" y="0" width="2" height="12" fill="#9c3d28"/></svg>`;
  }

  /** A spot by what it touches (the board's name), with its id when ids are shown. */
  function spotName(spot) {
    const s = board() && board().spots[spot];
    return `${BE.esc(s ? s.name : "spot " + spot)}<span class="catan-id"> (spot ${spot})</span>`;
  }

  function rateTable(rows, equal, kind) {
    // players: the row of the player listed in seat k (with every seating it played every seat)
    const who = (r, k) => kind === "players" ? `${BE.esc(r.name)} <span class="muted">(listed seat ${k + 1})</span>` : BE.esc(r.name);
    return `<table class="data pt-${kind}"><thead><tr><th>${kind === "players" ? "player" : "seat"}</th><th>games</th><th>wins</th>` +
      `<th>win rate</th><th>95% interval</th><th><span class="catan-sr">interval bar</span></th><th>mean VP</th></tr></thead><tbody>` +
      rows.map((r, k) => `<tr><td>${who(r, k)}</td><td class="num">${r.games}</td><td class="num">${r.wins}</td>` +
        `<td class="num">${pct(r.win_rate)}</td><td class="num">${pct(r.ci95[0])}–${pct(r.ci95[1])}</td>` +
        `<td>${rateBar(r, equal)}</td><td class="num">${BE.fmt(r.mean_vp, 2)}</td></tr>`).join("") +
      `</tbody></table>`;
  }

  /** Rings on the board for the advisor's picks (and "A" on its empty-board first pick). */
  function drawPicks() {
    const svg = document.querySelector("#board svg");
    if (!svg) return;
    const old = svg.querySelector("#pt-overlay");
    if (old) old.remove();
    if (!result || svg.getAttribute("data-code") !== result.code) return;
    const g = document.createElementNS(SVG_NS, "g");
    g.setAttribute("id", "pt-overlay");
    g.setAttribute("pointer-events", "none");
    const top = result.advisor_picks.length ? result.advisor_picks[0].count : 1;
    const dotOf = spot => svg.querySelector(`g.spot[data-spot="${spot}"] circle.spot-dot`);
    const ring = (spot, r, color, width) => {
      const dot = dotOf(spot);
      if (!dot) return null;
      const c = document.createElementNS(SVG_NS, "circle");
      c.setAttribute("cx", dot.getAttribute("cx")); c.setAttribute("cy", dot.getAttribute("cy"));
      c.setAttribute("r", r.toFixed(1)); c.setAttribute("fill", color); c.setAttribute("fill-opacity", "0.12");
      c.setAttribute("stroke", color); c.setAttribute("stroke-width", String(width));
      g.appendChild(c);
      return dot;
    };
    for (const p of result.advisor_picks) {
      const dot = ring(p.spot, 7 + 11 * Math.sqrt(p.count / top), "#0d47a1", 3);
      if (dot) {
        const c = g.lastChild;
        c.setAttribute("class", "advisor-pick"); c.setAttribute("data-pick", String(p.spot));
        c.setAttribute("data-count", String(p.count));
      }
    }
    const first = result.advice.spot;
    const dot = dotOf(first);
    if (dot) {
      const t = document.createElementNS(SVG_NS, "text");
      t.setAttribute("x", String(Number(dot.getAttribute("cx")) + 9));
      t.setAttribute("y", String(Number(dot.getAttribute("cy")) - 9));
      t.setAttribute("font-size", "15"); t.setAttribute("font-weight", "700"); t.setAttribute("fill", "#1565c0");
      t.setAttribute("stroke", "#fff"); t.setAttribute("stroke-width", "3"); t.setAttribute("paint-order", "stroke");
      t.setAttribute("id", "advice-marker");
      t.textContent = "A";
      g.appendChild(t);
    }
    svg.appendChild(g);
  }

  function showResult(r, state) {
    result = r;
    const equal = 1 / r.listed.length;
    $("pt-players").innerHTML = rateTable(r.players, equal, "players");
    $("pt-seats").innerHTML = rateTable(r.seats, equal, "seats");
    const t = r.turns, ci = r.turns_ci95;
    $("pt-turns").innerHTML = r.games ? `mean <b>${BE.fmt(t.mean, 1)}</b> turns` +
      (ci ? ` (95% ${BE.fmt(ci[0], 1)}–${BE.fmt(ci[1], 1)})` : "") +
      `, median ${BE.fmt(t.median, 1)}, 90th percentile ${BE.fmt(t.p90, 1)}; ${r.unfinished} unfinished (turn limit)` :
      "no game finished";
    const picks = r.advisor_picks.slice(0, 6).map(p => `${spotName(p.spot)} ×${p.count}`).join(", ");
    $("pt-picks").innerHTML = (picks ? `Rings on the board: where the advisor settled (${picks}). ` :
      "No advisor played. ") + `<b>A</b>: its first pick on an empty board (${spotName(r.advice.spot)}).`;
    $("pt-results").hidden = false;
    const stopped = state === "cancelled" || r.interrupted;
    const seatings = r.rotate ? r.listed.length : 1;
    $("pt-info").textContent = `${r.games} games (${r.games / seatings} games × ${seatings} seating${seatings === 1 ? "" : "s"}; ` +
      `${r.listed.join(", ")}; seed ${r.seed}) · ${BE.fmt(r.seconds, 1)} s, ${BE.fmt(r.games_per_second, 1)} games/s` +
      (stopped ? ` · stopped early: ${r.games} of ${r.planned} games kept` : "");
    drawPicks();
  }

  async function run() {
    if (job) return;
    const code = board() && board().code;
    if (!code) return;
    const body = {
      board: code,
      players: [...document.querySelectorAll(".pt-player")].map(s => s.value),
      games: Number($("pt-games").value),
      rotate: $("pt-rotate").checked,
      seed: Number($("pt-seed").value || 0),
    };
    const bar = $("pt-progress"), fill = bar.firstElementChild;
    $("pt-run").disabled = true; $("pt-cancel").hidden = false; bar.hidden = false; fill.style.width = "0";
    $("pt-info").textContent = "playing…";
    try {
      const j = await BE.api("POST", "/api/jobs/catan/playtest", body);
      job = j.id;
      const done = await BE.waitJob(j.id, p => {
        fill.style.width = p.total ? `${Math.round(100 * p.done / p.total)}%` : "5%";
        if (p.total) $("pt-info").textContent = `${p.done} of ${p.total} games`;
      }, 250);
      if (done.result) showResult(done.result, done.state);
      else $("pt-info").textContent = "cancelled before any game finished";
    } catch (e) {
      $("pt-info").textContent = e.message;
    } finally {
      job = null; $("pt-cancel").hidden = true; bar.hidden = true;
      document.dispatchEvent(new Event("catan:playtest-idle"));
    }
  }

  // every board shown: redraw the picks (only on the board they were played on)
  document.addEventListener("catan:board", drawPicks);
  $("pt-cancel").addEventListener("click", () => { if (job) BE.api("DELETE", "/api/jobs/" + job); });
  return { run, busy: () => job !== null };
})();
