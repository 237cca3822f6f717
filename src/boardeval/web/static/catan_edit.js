/* Catan page, loaded on first use (catan.js asks for it when an edit mode is chosen, "show ids" is
   checked, a swap, an edit or a rule names harbours, or an arrow key moves on the board): the board
   editor (pick two hexes or harbours, by click or Enter), the arrow keys' moves between spots, hexes or
   harbours (the board is one Tab stop, catan.js rove()) and the ids drawn over the board on demand (spot, hex and harbour numbers; harbour
   numbers alone when something names harbours). catan.js keeps the board and calls refresh() after
   every change; page.swap(a, b, kind) asks it for a swap. */
"use strict";
window.CatanEdit = (() => {
  const $ = id => document.getElementById(id);
  const SVG_NS = "http://www.w3.org/2000/svg";
  let page = null;     // catan.js: {editMode, portIdsNamed, swap, rove}
  let picked = null;   // the first hex (or harbour) picked

  function label(g, x, y, text, cls) {
    const t = document.createElementNS(SVG_NS, "text");
    t.setAttribute("x", x.toFixed(1)); t.setAttribute("y", y.toFixed(1));
    t.setAttribute("class", cls); t.setAttribute("text-anchor", "middle");
    t.setAttribute("pointer-events", "none");
    t.textContent = text;
    g.appendChild(t);
  }

  /** Spot, hex and harbour ids drawn over the board ("show ids"); harbour numbers alone when named. */
  function drawIds() {
    const svg = $("board").querySelector("svg");
    if (!svg) return;
    const old = svg.querySelector("#catan-ids");
    if (old) old.remove();
    const all = $("show-ids").checked, ports = all || page.portIdsNamed();
    if (!ports) return;
    const g = document.createElementNS(SVG_NS, "g");
    g.setAttribute("id", "catan-ids");
    svg.querySelectorAll("g.port[data-port]").forEach(p => {
      const c = p.querySelector("circle:not(.port-hit)");
      if (c) label(g, Number(c.getAttribute("cx")) + 17, Number(c.getAttribute("cy")) - 15, p.dataset.port, "catan-port-id");
    });
    if (all) {
      svg.querySelectorAll("g.spot[data-spot] circle.spot-dot").forEach(c => {
        label(g, Number(c.getAttribute("cx")), Number(c.getAttribute("cy")) - 11, c.parentNode.dataset.spot, "catan-spot-id");
      });
      svg.querySelectorAll("g.hex[data-hex]").forEach(h => {
        const pts = (h.querySelector("polygon").getAttribute("points") || "").trim().split(/\s+/).map(p => p.split(",").map(Number));
        const x = pts.reduce((a, p) => a + p[0], 0) / pts.length, y = pts.reduce((a, p) => a + p[1], 0) / pts.length;
        label(g, x, y + 36, `hex ${h.dataset.hex}`, "catan-hex-id");
      });
    }
    svg.appendChild(g);
  }

  /** A hex or harbour as the player reads it (the id in brackets when ids are shown). */
  function pickedName(id) {
    if (page.editMode() === "ports") return `harbour ${id}`;
    const h = window.CATAN_VIEW.board.hexes[id];
    return (h.number === null || h.number === undefined ? h.resource : `${h.resource} ${h.number}`) + ($("show-ids").checked ? ` (hex ${id})` : "");
  }

  /** The edit hint, the picked hex, which hexes or harbours take focus, and the ids. */
  function refresh() {
    const m = page.editMode();
    const what = m === "ports" ? "harbour" : "hex";
    $("edit-hint").textContent = m === "none" ? "" :
      (picked === null ? `click the first ${what}` : `${pickedName(picked)} picked: click the ${what} to swap it with`);
    $("board").classList.toggle("catan-editing", m !== "none");
    document.querySelectorAll("#board .picked").forEach(e => e.classList.remove("picked"));
    if (picked !== null) document.querySelectorAll(`#board [data-${m === "ports" ? "port" : "hex"}="${picked}"]`).forEach(e => e.classList.add("picked"));
    document.querySelectorAll("#board g.hex[data-hex], #board g.port[data-port]").forEach(e => {
      const port = e.hasAttribute("data-port");
      const on = m !== "none" && (port === (m === "ports"));
      if (!on) { e.removeAttribute("tabindex"); e.removeAttribute("role"); e.removeAttribute("aria-label"); }
      else {
        e.setAttribute("tabindex", "-1"); e.setAttribute("role", "button");
        e.setAttribute("aria-label", port ? `harbour ${e.dataset.port}` : pickedName(Number(e.dataset.hex)));
      }
    });
    page.rove();  // the board stays one Tab stop: the arrow keys move between the hexes or harbours
    drawIds();
  }

  /** A click (or Enter) on the board in an edit mode: the first pick, a release, or the swap. */
  function pick(target) {
    const mode = page.editMode();
    const key = mode === "ports" ? "data-port" : "data-hex";
    const h = target.closest ? target.closest(`[${key}]`) : null;
    if (!h) return;
    const id = Number(h.getAttribute(key));
    if (picked === null || picked === id) { picked = picked === null ? id : null; refresh(); return; }
    const a = picked; picked = null;
    page.swap(a, id, mode);
  }

  function centre(el) {
    const r = (el.querySelector("circle.spot-dot, polygon, circle.port-hit") || el).getBoundingClientRect();
    return [r.x + r.width / 2, r.y + r.height / 2];
  }

  const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

  /** The item of the board an arrow key moves to from ``from``: the nearest one within 45° of the arrow's
      direction (else the nearest ahead, sideways counting double); Home and End the first and the last. */
  function nextItem(from, key, items) {
    if (key === "Home") return items[0];
    if (key === "End") return items[items.length - 1];
    const [dx, dy] = ARROWS[key], c = centre(from);
    let best = null, bestCost = Infinity;
    for (const e of items) {
      const p = centre(e), along = (p[0] - c[0]) * dx + (p[1] - c[1]) * dy;
      const across = Math.abs((p[0] - c[0]) * dy - (p[1] - c[1]) * dx);
      if (e === from || along <= 0.5) continue;
      const cost = across <= along ? Math.hypot(along, across) : 1e6 + along + 2 * across;
      if (cost < bestCost) { best = e; bestCost = cost; }
    }
    return best;
  }

  return {
    init(p) { page = p; },
    nextItem,
    refresh,
    pick,
    reset() { picked = null; refresh(); },
  };
})();
