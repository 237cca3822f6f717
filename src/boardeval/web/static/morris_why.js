/* morris_why.js: loaded by morris.js on the first why-panel it shows (a hint, the AI's move, a shared
   link's panel), not with the page: most visits never open it (the web budget, benchmarks/web_budget.py). */

/* The why-panel (library data: raw features of both sides, candidate turns and how each changes them, a
   ranked explanation in words). Phase scales are engine-internal and never in the data, so never shown.
   Scores are shown from White's view (the answers' white_score); a decided line (a verdict) in words.
   Every term is a glossary term (BE.term: its definition comes from boardeval.web.glossary). */
const MorrisWhy = (() => {
  const LABEL = f => f.replace(/_/g, " ");
  const signed = v => BE.signed(v, 2);
  const r4 = v => Math.round(v * 1e4) / 1e4;
  const term = BE.term;
  function render(ans, kind) {
    const w = ans.why || {};
    const me = w.side || "white", opp = me === "white" ? "black" : "white";
    const scored = new Set(ans.scored || []);
    const view = `${term("white's view", "White's view")}`;
    const value = ans.verdict ? `<strong>${BE.esc(ans.verdict.headline)}</strong>`
      : `${signed(ans.white_score)} (${view})`;
    const search = kind === "hint" || ans.analysis ? `the ${term("analysis", "analysis")}, the graph's search`
      : "the AI's search";
    // the AI's move straight from the opening book: no search ran, so the header says where the move came
    // from (searched offline, or proven with the tables) rather than "depth 13 · 0 nodes · 225 ms" (the
    // time of a probe and of loading the book)
    const fromBook = kind !== "hint" && !ans.analysis && w.book && w.book.move === ans.move && ans.nodes === 0;
    const how = fromBook
      ? `the AI's move: ${term("book move", "book move")}, ${w.book.exact ? "proven to the last placement"
        : `searched to ${term("depth", "depth")} ${ans.depth} offline`}`
      : `${search}: ${term("depth", "depth")} ${ans.depth} · ${ans.nodes.toLocaleString()} ${term("nodes", "nodes")}`;
    // what the opening book proves of the position, beside the number (as the graph's readout says it)
    const proof = ans.book ? ` · ${term("book move", "opening book")}: ${BE.esc(ans.book)}` : "";
    // a hint in a book position names the book's move; the evaluation stays the position's (the analysis'
    // best, the graph's value), so the line shown is said to be that move's, not the evaluation's
    const first = (w.candidates || [])[0];
    const lineOf = kind === "hint" && first && first.move !== ans.move
      ? `${BE.esc(ans.move)}'s ${term("line", "line")}` : term("line", "line");
    let h = `<p class="muted why-eval" style="margin:.2rem 0"${ans.verdict ? "" : ` data-eval="${r4(ans.white_score)}"`}>` +
      `${term("score", "evaluation")} ${value}${proof} · ${BE.esc(me)} to move, ${term("phase", BE.esc(w.phase || ""))} phase · ` +
      `${how}${fromBook ? "" : ` · ${BE.fmt(ans.seconds * 1000, 0)} ms`}` +
      (ans.pv && ans.pv.length ? ` · ${lineOf} <span class="mono">${ans.pv.map(BE.esc).join(" ")}</span>` : "") + `</p>`;
    const tb = ans.tablebase;  // the endgame tablebase: its verdict, what it covers, or how to build one
    if (tb && tb.verdict) h += `<p class="tb-verdict" id="tb-verdict"><strong>${BE.esc(tb.verdict)}</strong></p>`;
    else if (tb && tb.note) h += `<p class="muted tb-note" id="tb-note">${BE.esc(tb.note).replace(/`([^`]+)`/g, "<code>$1</code>")}</p>`;
    if (w.explanation && w.explanation.length) {
      h += `<h3>In words</h3><ul class="why-words">` + w.explanation.map(s => `<li>${BE.esc(s)}</li>`).join("") + `</ul>`;
    }
    const cands = w.candidates || [];
    if (cands.length) {
      h += `<h3>Top ${term("candidates", "candidate moves")}</h3><table class="data why-candidates"><thead><tr><th>move</th>` +
        `<th>${term("score", "score")} <span class="muted">(White's view)</span></th><th>${term("line", "line")}</th></tr></thead><tbody>`;
      const played = cands.find(c => c.move === ans.move);
      for (const c of cands) {
        const mine = c.move === ans.move;
        const score = c.verdict ? `<span class="verdict">${BE.esc(c.verdict.text)}</span>` : signed(c.white_score);
        const outlook = (!c.verdict && c.outlook ? `<span class="outlook">${BE.esc(c.outlook)}</span>` : "") +
          (c.proven ? `<span class="outlook proven">${BE.esc(c.proven.text)}</span>` : "");
        h += `<tr${mine ? ' class="chosen"' : ""}><td class="mono">${BE.esc(c.move)}${mine ? " ◀" : ""}${c.book ? ` (${term("book move", "book")})` : c.keeps ? ` (${term("keeps the value", "keeps the value")})` : ""}</td>` +
          `<td class="${c.verdict ? "verdict-cell" : "num"}">${score}</td><td class="line"><span class="mono">${(c.pv || []).map(BE.esc).join(" ")}</span>${outlook}</td></tr>`;
      }
      h += `</tbody></table>`;
      if (!played) h += `<p class="hint">The AI's deeper search chose ${BE.esc(ans.move)}, outside these candidates.</p>`;
      else {
        const ties = cands.filter(c => c !== played && r4(c.score) === r4(played.score)).map(c => c.move);
        if (ties.length) h += `<p class="hint tie-note">${term("tie", "A tie")}: ${BE.esc(ans.move)} scores exactly the same as ` +
          `${ties.map(BE.esc).join(" and ")} (${played.verdict ? BE.esc(played.verdict.text) : BE.fmt(played.white_score, 4)}); ${played.book ? "the opening book's deeper search" : "the search's move ordering"} picked ${BE.esc(ans.move)}.</p>`;
      }
    }
    const feats = w.features || {};
    const names = Object.keys(feats[me] || {});
    if (names.length) {
      const ranked = new Set(w.ranking || []);
      h += `<h3>${term("raw features", "Raw features")} now, and the change each move makes (${BE.esc(me)} / ${BE.esc(opp)})</h3>` +
        `<table class="data why-features"><thead><tr><th>feature</th><th>${BE.esc(me)}</th><th>${BE.esc(opp)}</th>` +
        cands.map(c => `<th class="mono">${BE.esc(c.move)}</th>`).join("") + `</tr></thead><tbody>`;
      const order = (w.ranking || []).concat(names.filter(n => !ranked.has(n)));
      for (const f of order) {
        if (!(f in feats[me])) continue;
        const tag = ranked.has(f) ? "" : !scored.has(f) ? "not scored" : "not a factor here";
        h += `<tr data-feature="${BE.esc(f)}" data-status="${tag ? tag.replace(/ /g, "-") : "ranked"}"><td>${term(f, BE.esc(LABEL(f)))}` +
          (tag ? ` <span class="muted">(${term(tag, tag)})</span>` : "") + `</td>` +
          `<td class="num">${BE.fmt(feats[me][f], 2)}</td><td class="num">${BE.fmt(feats[opp][f], 2)}</td>`;
        for (const c of cands) {
          const a = c.change && c.change[me] ? c.change[me][f] : 0, b = c.change && c.change[opp] ? c.change[opp][f] : 0;
          h += `<td class="num chg">${a || b ? `<span>${signed(a)}</span><span class="sep"> / </span><span>${signed(b)}</span>` : '<span class="muted">·</span>'}</td>`;
        }
        h += `</tr>`;
      }
      h += `</tbody></table>`;
    }
    return h;
  }
  return { render };
})();
