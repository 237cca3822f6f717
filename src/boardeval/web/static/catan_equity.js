/* Catan page, "Seats if everyone opens well" (issue 26), loaded on first use (catan.js loads it when
   "Show the draft" or "Why" is pressed; the card's line of win rates is catan.js's, from the board view's
   seat_equity). The draft: every seat's two settlements drawn on the board in the seat's colour with the
   seat's number (pick order in the list below it, spots named by what they touch, as on the rest of the
   page). The why: POST /api/catan/equity, said in the page's words (who leads, who trails, the terms that
   separate them, where they settled), each seat's breakdown (its terms above the table's mean, the
   model's weights, contributions adding up to the seat's logit) as the energy's table is drawn, and the
   model's provenance; on a 5-6 player board the opening values only, with the reason. Its terms are
   glossary terms: the page does not embed them (web budget), so their definitions are read once from
   /api/glossary. Both follow the board: redrawn on "catan:board". */
"use strict";
window.CatanEquity = (() => {
  const $ = id => document.getElementById(id);
  const SVG_NS = "http://www.w3.org/2000/svg";
  const COLOURS = ["#c62828", "#1565c0", "#2e7d32", "#6a1b9a", "#5d4037", "#00695c"];  // seats 1..6 (white text >= 5:1)
  const ORD = ["1st", "2nd", "3rd", "4th", "5th", "6th"];
  const RESOURCES = ["wood", "brick", "sheep", "grain", "ore"];
  const on = { draft: false, why: false };
  let defs = null;      // the Catan glossary (/api/glossary), fetched once
  let answer = null;    // the last /api/catan/equity answer
  let chosen = null;    // the seat whose breakdown is shown (0-based; null: the favoured seat)
  let asked = 0;        // a request counter: an older answer never overwrites a newer board's
  const view = () => window.CATAN_VIEW;
  const pct = x => `${BE.fmt(100 * x, 0)} %`;

  function spotName(spot) {
    const s = view() && view().spots[spot];
    return `${BE.esc(s ? s.name : "spot " + spot)}<span class="catan-id"> (spot ${spot})</span>`;
  }

  const swatch = seat => `<span class="equity-seat" style="background:${COLOURS[seat]}">${seat + 1}</span>`;

  /** The snake order: the seat (0-based) of each pick. */
  const snake = n => [...Array(n).keys(), ...[...Array(n).keys()].reverse()];

  /** Every pick of the draft as a numbered disc on its spot, and the list of picks under the buttons. */
  function drawDraft() {
    const svg = document.querySelector("#board svg"), v = view();
    const old = svg && svg.querySelector("#equity-overlay");
    if (old) old.remove();
    $("equity-picks").innerHTML = "";
    if (!on.draft || !svg || !v || svg.getAttribute("data-code") !== v.code) return;
    const seats = v.seat_equity.seats, n = seats.length;
    const g = document.createElementNS(SVG_NS, "g");
    g.setAttribute("id", "equity-overlay");
    g.setAttribute("pointer-events", "none");
    const rows = [];
    snake(n).forEach((seat, k) => {
      const spot = seats[seat][k < n ? 0 : 1];
      const dot = svg.querySelector(`g.spot[data-spot="${spot}"] circle.spot-dot`);
      if (!dot) return;
      const c = document.createElementNS(SVG_NS, "circle");
      c.setAttribute("cx", dot.getAttribute("cx")); c.setAttribute("cy", dot.getAttribute("cy"));
      c.setAttribute("r", "12"); c.setAttribute("fill", COLOURS[seat]);
      c.setAttribute("stroke", "#fff"); c.setAttribute("stroke-width", "2.5");
      c.setAttribute("class", "draft-pick");
      c.setAttribute("data-spot", String(spot)); c.setAttribute("data-seat", String(seat + 1));
      c.setAttribute("data-pick", String(k + 1));
      const t = document.createElementNS(SVG_NS, "text");
      t.setAttribute("x", dot.getAttribute("cx")); t.setAttribute("y", String(Number(dot.getAttribute("cy")) + 4.5));
      t.setAttribute("text-anchor", "middle"); t.setAttribute("font-size", "13"); t.setAttribute("font-weight", "700");
      t.setAttribute("fill", "#fff");
      t.textContent = String(seat + 1);
      g.append(c, t);
      rows.push(`<li data-pick="${k + 1}">${swatch(seat)} seat ${seat + 1}, ${k < n ? "first" : "second"} settlement: ${spotName(spot)}</li>`);
    });
    svg.appendChild(g);
    $("equity-picks").innerHTML = `<h3>The ${BE.term("draft", "draft")}, pick by pick (on the board: the seat's number)</h3>` +
      `<ol class="equity-picks">${rows.join("")}</ol>`;
  }

  /** The glossary key of a breakdown term: resources' pips share one entry, the seat indicators another. */
  function glossKey(name) {
    if (RESOURCES.includes(name)) return "resource pips";
    if (/^seat_\d$/.test(name)) return "seat order";
    return name;
  }

  /** Term cells become glossary terms; the definition travels as title= (moved by common.js's popover). */
  function glossTerms(root) {
    root.querySelectorAll("tr[data-term]").forEach(tr => {
      const cell = tr.firstElementChild, key = glossKey(tr.dataset.term);
      if (!cell) return;
      cell.dataset.gloss = key; cell.classList.add("term");
      if (defs && defs[key]) cell.title = defs[key];
    });
    root.querySelectorAll(".term[data-gloss]:not([title])").forEach(el => {
      const key = el.dataset.gloss;
      if (defs && defs[key]) el.title = defs[key];
    });
  }

  function seatTable(a, seat) {
    const bd = a.seats[seat].why;
    return BE.breakdownTable(bd, { totalLabel: "logit", raw: t => BE.fmt(t.raw, 2),
      value: x => BE.fmt(x, 2) });
  }

  /** The why of a base board: who leads and trails and why, each seat's breakdown, the model. */
  function whyBase(a) {
    const p = a.win_probabilities, n = p.length;
    const best = p.indexOf(Math.max(...p)), worst = p.indexOf(Math.min(...p));
    const seat = chosen !== null && chosen < n ? chosen : best;
    const contrib = (i, name) => a.seats[i].why.terms.find(t => t.name === name).contribution;
    const gaps = a.seats[best].why.terms
      .map(t => [t.name, t.contribution - contrib(worst, t.name)])
      .sort((x, y) => Math.abs(y[1]) - Math.abs(x[1])).slice(0, 3);
    const settled = i => `seat ${i + 1} settled on ${spotName(a.seats[i].spots[0])} and ${spotName(a.seats[i].spots[1])}`;
    const ll = a.model.held_out_log_loss || {};
    const picker = p.map((x, i) => `<label class="inline"><input type="radio" name="equity-seat" value="${i}"${i === seat ? " checked" : ""}> ` +
      `${swatch(i)} ${ORD[i]} ${pct(x)}</label>`).join(" ");
    return `<p>Seat ${best + 1} is favoured (${pct(p[best])}), seat ${worst + 1} trails (${pct(p[worst])}): a spread of ` +
      `${BE.fmt(100 * (p[best] - p[worst]), 0)} points. What separates them (${BE.term("logit", "logit")} contributions, ` +
      `seat ${best + 1} minus seat ${worst + 1}): ${gaps.map(([k, g]) => `${BE.esc(k.replace(/_/g, " "))} ${g >= 0 ? "+" : "−"}${BE.fmt(Math.abs(g), 2)}`).join(", ")}. ` +
      `${settled(best)}; ${settled(worst)}.</p>` +
      `<fieldset class="equity-seats"><legend>Breakdown of seat</legend>${picker}</fieldset>` +
      `<div id="equity-breakdown">${seatTable(a, seat)}</div>` +
      `<p class="hint">Raw: the seat's term minus the table's mean; weight: the model's; the contributions add up to the ` +
      `seat's logit, and the softmax of the seats' logits (e to each, over their sum) is the win rates. Model: ${BE.esc(a.model.fitted_on || "")}` +
      (ll.model ? `; held-out log-loss ${BE.fmt(ll.model, 3)} a game against ${BE.fmt(ll.uniform, 3)} for 25 % each` : "") + ".</p>";
  }

  /** The why of a 5-6 player board: the reason, and each seat's opening value pick by pick. */
  function whyDraftOnly(a) {
    const rows = a.seats.map((s, i) => `<tr><td>${swatch(i)} ${ORD[i]}</td><td>${spotName(s.spots[0])}</td>` +
      `<td class="num">${BE.fmt(s.why.terms[0].raw, 2)}</td><td>${spotName(s.spots[1])}</td>` +
      `<td class="num">${BE.fmt(s.why.terms[1].raw, 2)}</td><td class="num">${BE.fmt(s.opening_value, 2)}</td></tr>`).join("");
    return `<p>${BE.esc(a.note)}.</p><table class="data equity-values"><thead><tr><th>seat</th><th>first settlement</th><th>value</th>` +
      `<th>second settlement</th><th>value</th><th>${BE.term("opening value", "opening value")}</th></tr></thead><tbody>${rows}</tbody></table>`;
  }

  async function showWhy() {
    const more = $("equity-more"), v = view();
    more.hidden = !on.why;
    if (!on.why || !v) return;
    const ask = ++asked;
    if (!answer || answer.code !== v.code) {
      more.innerHTML = `<p class="hint">working out why…</p>`;
      try {
        const [a, g] = await Promise.all([BE.api("POST", "/api/catan/equity", { board: v.code }),
          defs ? null : BE.api("GET", "/api/glossary?game=catan")]);
        if (g) defs = g.catan;
        if (ask !== asked) return;
        answer = a;
      } catch (e) { more.innerHTML = `<p class="catan-warn">${BE.esc(e.message)}</p>`; return; }
    }
    more.innerHTML = answer.win_probabilities ? whyBase(answer) : whyDraftOnly(answer);
    glossTerms(more);
  }

  function refresh() {
    drawDraft();
    showWhy();
  }

  /** Turn a part on or off ("draft" or "why"). */
  function set(what, value) {
    on[what] = value;
    refresh();
  }

  document.addEventListener("catan:board", () => { chosen = null; refresh(); });
  $("equity-more").addEventListener("change", evt => {
    if (evt.target.name !== "equity-seat" || !answer) return;
    chosen = Number(evt.target.value);
    $("equity-breakdown").innerHTML = seatTable(answer, chosen);
    glossTerms($("equity-breakdown"));
  });
  return { set };
})();
