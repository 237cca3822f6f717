/* Shared helpers for the boardeval pages: JSON calls with readable errors, toasts, job polling. */
"use strict";

const BE = (() => {
  function toast(message, kind) {
    const el = document.getElementById("toast");
    if (!el) return;
    el.textContent = message;
    el.className = "toast" + (kind === "info" ? " info" : "");
    el.hidden = false;
    clearTimeout(el._timer);
    el._timer = setTimeout(() => { el.hidden = true; }, 6000);
  }

  /* Call the JSON API. Resolves with the parsed body; on a 4xx/5xx rejects with an Error whose message is
     the server's readable `detail` (and shows it in the toast unless opts.quiet). */
  async function api(method, url, body, opts) {
    opts = opts || {};
    const init = { method, headers: { "Accept": "application/json" } };
    if (body instanceof FormData) {
      init.body = body;
    } else if (body !== undefined && body !== null) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let resp;
    try {
      resp = await fetch(url, init);
    } catch (e) {
      const err = new Error("the server did not answer (is it still running?)");
      if (!opts.quiet) toast(err.message);
      throw err;
    }
    let data = null;
    const text = await resp.text();
    try { data = text ? JSON.parse(text) : null; } catch (e) { data = { detail: text }; }
    if (!resp.ok) {
      const detail = (data && data.detail) ? (typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail))
        : resp.statusText;
      const err = new Error(detail);
      err.status = resp.status;
      if (!opts.quiet) toast(detail);
      throw err;
    }
    return data;
  }

  /* Poll a background job until it finishes; onProgress(job) is called on every poll. */
  async function waitJob(id, onProgress, intervalMs) {
    intervalMs = intervalMs || 150;
    for (;;) {
      const job = await api("GET", "/api/jobs/" + encodeURIComponent(id));
      if (onProgress) onProgress(job);
      if (job.state === "done" || job.state === "cancelled") return job;
      if (job.state === "failed") {
        toast(job.error || "the job failed");
        throw new Error(job.error || "the job failed");
      }
      await new Promise(r => setTimeout(r, intervalMs));
    }
  }

  function fmt(x, digits) {
    if (x === null || x === undefined) return "–";
    if (typeof x !== "number") return String(x);
    if (Number.isInteger(x)) return String(x);
    return x.toFixed(digits === undefined ? 2 : digits);
  }

  /* A number with its sign as fmt writes it ("+0.50", "-1.25", "0"; "–" for a missing one). */
  function signed(x, digits) {
    return x === null || x === undefined ? "–" : (x > 0 ? "+" : "") + fmt(x, digits);
  }

  function esc(s) {
    return String(s).replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  }

  function download(filename, text, type) {
    const blob = new Blob([text], { type: type || "text/plain" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = filename;
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 500);
  }

  /* "contribution" broke as "contrib/ution" in a phone's table header (issue 23 §4): phones show "contrib."
     and a screen reader still hears the whole word. */
  const CONTRIBUTION = '<span class="th-long">contribution</span><span class="th-short" aria-hidden="true">contrib.</span>';

  /* A breakdown (terms with raw, weight, contribution) as an HTML table with contribution bars.
     opts.raw(term) and opts.value(number) format the raw values and the contributions/total (a page's
     one precision per quantity); without them: 3 and 2 decimals. */
  function breakdownTable(bd, opts) {
    opts = opts || {};
    const raw = opts.raw || (t => fmt(t.raw, 3)), value = opts.value || (x => fmt(x, 2));
    const max = Math.max(1e-9, ...bd.terms.map(t => Math.abs(t.contribution)));
    let html = '<table class="data breakdown"><thead><tr><th>term</th><th>raw</th><th>weight</th>' +
      '<th>' + CONTRIBUTION + '</th><th><span class="sr-only">share of the largest contribution</span></th></tr></thead><tbody>';
    for (const t of bd.terms) {
      const w = Math.round(60 * Math.abs(t.contribution) / max);
      html += `<tr data-term="${esc(t.name)}"><td>${esc(t.name.replace(/_/g, " "))}</td>` +
        `<td class="num">${raw(t)}</td><td class="num">${fmt(t.weight, 2)}</td>` +
        `<td class="num">${value(t.contribution)}</td>` +
        `<td><span class="bar${t.contribution < 0 ? " neg" : ""}" style="width:${w}px"></span></td></tr>`;
    }
    html += `<tr class="total"><td>${esc(opts.totalLabel || "total")}</td><td></td><td></td>` +
      `<td class="num">${value(bd.total)}</td><td></td></tr></tbody></table>`;
    return html;
  }

  /* A glossary term in a page's script: BE.term("tempi", "Tempi"); its definition comes from the page's
     glossary (the one module boardeval.web.glossary), shown by the popover below. */
  function term(key, text) {
    return `<span class="term" data-gloss="${esc(key)}">${text}</span>`;
  }

  /* The definition of a glossary key on this page ("" if the page has none): read from the page's
     definitions list (base.html writes each entry as <dd id="def-KEY">, KEY as glossary.term_id makes it),
     the one copy of the definitions a page carries (no second JSON copy: the web budget). */
  function gloss(key) {
    const dd = key ? document.getElementById("def-" + String(key).replace(/[^A-Za-z0-9_-]/g, "-")) : null;
    return dd && dd.tagName === "DD" && !dd.id.startsWith("def-extra-") ? dd.textContent : "";
  }

  /* A page part loaded on first use (/static/NAME.js, the web budget: the page does not carry it until asked),
     once: every caller gets the same promise. A failed load is forgotten, so the next ask tries again. */
  const parts = {};
  function loadScript(name) {
    parts[name] = parts[name] || new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = `/static/${name}.js`; s.onload = resolve;
      s.onerror = () => { delete parts[name]; s.remove(); reject(new Error(`${name}.js did not load`)); };
      document.body.appendChild(s);
    });
    return parts[name];
  }

  return { api, toast, waitJob, fmt, signed, esc, download, breakdownTable, term, gloss, loadScript };
})();

/* Glossary terms (issue 23 §4). A term (class "term") shows its definition in a popover that opens on hover,
   on tap and on keyboard focus, stays while the pointer moves onto it, and closes on Escape, on a tap
   elsewhere or when focus leaves. Definitions come from the page's definitions list (BE.gloss: written by
   base.html from boardeval.web.glossary) by the term's data-gloss key, else from a title= the page gave it
   (moved to data-def, so no second, native tooltip appears). Every term is described by its entry in the
   page's definitions list (aria-describedby), which a skip link reaches.
   Terms are not one Tab stop each (there were 102 on /diplomacy): each section's terms are one stop (a
   roving tabindex: the first term of a section, or the one last used, has tabindex 0), and the arrow keys
   (Home/End) move between the terms of the section. Pages need no code of their own: new terms (drawn by
   a page's script) are picked up by a MutationObserver. */
const GLOSSARY_UI = (() => {
  const slug = key => String(key).replace(/[^A-Za-z0-9_-]/g, "-");
  let pop = null, current = null, pinned = false, closeTimer = 0;

  function definition(el) {
    const key = el.dataset.gloss;
    return BE.gloss(key) || el.dataset.def || "";
  }

  /* The definitions list entry of a term, made when the page's glossary has none (a title-only term). */
  function entryFor(el, text) {
    const list = document.getElementById("definitions-list");
    if (!list) return null;
    const key = el.dataset.gloss;
    if (BE.gloss(key)) return "def-" + slug(key);
    for (const dd of list.querySelectorAll("dd")) if (dd.textContent === text) return dd.id;
    const id = "def-extra-" + list.querySelectorAll("dd").length;
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = el.textContent.trim(); dd.textContent = text; dd.id = id;
    list.append(dt, dd);
    return id;
  }

  function upgrade() {
    for (const el of document.querySelectorAll("[data-gloss]:not(.term)")) el.classList.add("term");
    for (const el of document.querySelectorAll(".term:not([data-gl]), .term[title]")) {
      const title = el.getAttribute("title");
      if (title) { el.dataset.def = title; el.removeAttribute("title"); }
      const text = definition(el);
      if (!text) continue;
      el.dataset.def = text;
      const id = entryFor(el, text);
      if (id && el.getAttribute("aria-describedby") !== id) el.setAttribute("aria-describedby", id);
      el.dataset.gl = "1";
    }
    rove();
  }

  function group(el) {
    return el.closest("[data-term-group]") || el.closest("section, .card, form, main") || document.body;
  }

  /* One Tab stop per section: keep the section's current stop if it has one, else its first term. */
  function rove() {
    const groups = new Map();
    for (const el of document.querySelectorAll(".term[data-gl]")) {
      const g = group(el);
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g).push(el);
    }
    for (const terms of groups.values()) {
      const stop = terms.find(t => t.dataset.stop === "1") || terms[0];
      for (const t of terms) {
        const want = t === stop ? "0" : "-1";
        if (t.getAttribute("tabindex") !== want) t.setAttribute("tabindex", want);
        if (t !== stop && t.dataset.stop) delete t.dataset.stop;
      }
      stop.dataset.stop = "1";
    }
  }

  function ensurePop() {
    if (pop) return pop;
    pop = document.createElement("div");
    pop.id = "gloss-pop"; pop.className = "gloss-pop"; pop.setAttribute("role", "tooltip"); pop.hidden = true;
    pop.addEventListener("mouseenter", () => clearTimeout(closeTimer));
    pop.addEventListener("mouseleave", () => { if (!pinned) later(); });
    document.body.appendChild(pop);
    return pop;
  }

  function open(el, how) {
    const text = definition(el);
    if (!text) return;
    clearTimeout(closeTimer);
    const p = ensurePop();
    current = el;
    const tip = how === "key" ? `<span class="gloss-keys">← → other terms here · Esc closes</span>` : "";
    p.innerHTML = `<b>${BE.esc(el.textContent.trim())}</b> ${BE.esc(text)}${tip}`;
    p.hidden = false;
    place(el);
  }

  function place(el) {
    const r = el.getBoundingClientRect(), vw = document.documentElement.clientWidth;
    const width = Math.min(352, vw - 16);
    pop.style.width = width + "px";
    const left = Math.max(8, Math.min(r.left, vw - width - 8));
    pop.style.left = (left + window.scrollX) + "px";
    pop.style.top = (r.bottom + window.scrollY + 6) + "px";
    const below = r.bottom + 6 + pop.offsetHeight;
    if (below > window.innerHeight && r.top > pop.offsetHeight + 12) {
      pop.style.top = (r.top + window.scrollY - pop.offsetHeight - 6) + "px";
    }
  }

  function close() {
    clearTimeout(closeTimer);
    if (pop) pop.hidden = true;
    current = null; pinned = false;
  }
  function later() { clearTimeout(closeTimer); closeTimer = setTimeout(close, 300); }

  function move(el, key) {
    const terms = [...document.querySelectorAll(".term[data-gl]")].filter(t => group(t) === group(el) && t.offsetParent !== null);
    const i = terms.indexOf(el);
    const j = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: terms.length - 1 }[key];
    if (j === undefined || j < 0 || j >= terms.length || j === i) return false;
    for (const t of terms) delete t.dataset.stop;
    terms[j].dataset.stop = "1";
    rove();
    terms[j].focus();
    return true;
  }

  let lastKey = 0;
  document.addEventListener("keydown", evt => {
    lastKey = Date.now();
    const el = evt.target.closest && evt.target.closest(".term[data-gl]");
    if (evt.key === "Escape" && current) { close(); evt.stopImmediatePropagation(); return; }
    if (!el || evt.altKey || evt.ctrlKey || evt.metaKey) return;
    if (["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "Home", "End"].includes(evt.key)) {
      evt.preventDefault(); evt.stopImmediatePropagation();
      move(el, evt.key);
    } else if (evt.key === "Enter" || evt.key === " ") {
      evt.preventDefault();
      if (current === el && pinned) close(); else { open(el, "key"); pinned = true; }
    }
  });
  document.addEventListener("focusin", evt => {
    const el = evt.target.closest && evt.target.closest(".term[data-gl]");
    if (!el) return;
    for (const t of document.querySelectorAll(".term[data-stop]")) if (group(t) === group(el) && t !== el) delete t.dataset.stop;
    el.dataset.stop = "1"; rove();
    open(el, Date.now() - lastKey < 1000 ? "key" : "pointer");
  });
  document.addEventListener("focusout", evt => {
    const el = evt.target.closest && evt.target.closest(".term[data-gl]");
    if (el && el === current && !pinned) later();
  });
  document.addEventListener("mouseover", evt => {
    const el = evt.target.closest && evt.target.closest(".term[data-gl]");
    if (el) { if (el !== current || !pinned) open(el, "pointer"); }
  });
  document.addEventListener("mouseout", evt => {
    const el = evt.target.closest && evt.target.closest(".term[data-gl]");
    if (el && el === current && !pinned && !(evt.relatedTarget && el.contains(evt.relatedTarget))) later();
  });
  document.addEventListener("click", evt => {
    const el = evt.target.closest && evt.target.closest(".term[data-gl]");
    if (el) {  // a tap or click pins the definition open; a second one closes it
      if (el.closest("label")) evt.preventDefault();  // a term in a label does not jump to its field
      if (current === el && pinned) { close(); return; }
      open(el, "pointer"); pinned = true; return;
    }
    if (pop && !pop.hidden && !pop.contains(evt.target)) close();
  });

  /* The skip link to the definitions opens the list and moves focus there. */
  function openDefinitions() {
    const d = document.getElementById("definitions");
    if (!d) return;
    d.open = true;
    const s = d.querySelector("summary");
    if (s) s.focus();
  }
  document.addEventListener("click", evt => {
    const a = evt.target.closest && evt.target.closest('a[href="#definitions"]');
    if (a) { evt.preventDefault(); openDefinitions(); history.replaceState(null, "", "#definitions"); }
  });

  function start() {
    upgrade();
    new MutationObserver(upgrade).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["title", "class"] });
    if (location.hash === "#definitions") openDefinitions();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
  return { open, close, upgrade };
})();
