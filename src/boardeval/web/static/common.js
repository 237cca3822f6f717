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

  /* A breakdown (terms with raw, weight, contribution) as an HTML table with contribution bars. */
  function breakdownTable(bd, opts) {
    opts = opts || {};
    const max = Math.max(1e-9, ...bd.terms.map(t => Math.abs(t.contribution)));
    let html = '<table class="data breakdown"><thead><tr><th>term</th><th>raw</th><th>weight</th>' +
      '<th>contribution</th><th></th></tr></thead><tbody>';
    for (const t of bd.terms) {
      const w = Math.round(60 * Math.abs(t.contribution) / max);
      html += `<tr data-term="${esc(t.name)}"><td>${esc(t.name.replace(/_/g, " "))}</td>` +
        `<td class="num">${fmt(t.raw, 3)}</td><td class="num">${fmt(t.weight, 2)}</td>` +
        `<td class="num">${fmt(t.contribution, 2)}</td>` +
        `<td><span class="bar${t.contribution < 0 ? " neg" : ""}" style="width:${w}px"></span></td></tr>`;
    }
    html += `<tr class="total"><td>${esc(opts.totalLabel || "total")}</td><td></td><td></td>` +
      `<td class="num">${fmt(bd.total, 2)}</td><td></td></tr></tbody></table>`;
    return html;
  }

  return { api, toast, waitJob, fmt, esc, download, breakdownTable };
})();
