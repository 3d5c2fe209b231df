// reporeuse viewer — the one script of every page. It draws code from the site's content store
// (files/<aa>/<address>.js, loaded as scripts: a page opened from disk may not fetch), sorts and
// filters the index, and handles the keyboard. Data are never turned into markup: every text
// goes in through textContent.
"use strict";
(() => {
  const root = document.querySelector('meta[name="rv-root"]')?.getAttribute("content") ?? "";
  const CLASSES = ["kw", "str", "com", "num", "const", "def", "dec", "call", "builtin", "self"];
  const LABELS = {
    reused: ["✔", "reused"],
    read_not_used: ["◐", "read, not reused"],
    never_read: ["○", "never read"],
    reimplemented: ["⟳", "re-implemented"],
    absent: ["∅", "absent"],
  };

  /** An element with attributes and children (strings become text nodes). */
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else e.setAttribute(k, String(v));
    }
    for (const k of kids) if (k !== null && k !== undefined) e.append(k);
    return e;
  }
  const readJson = (id) => {
    const s = document.getElementById(id);
    return s ? JSON.parse(s.textContent) : null;
  };

  // ---- content store -------------------------------------------------------------------------
  const store = new Map();
  const waiting = new Map();
  globalThis.RV = {
    file(address, data) {
      store.set(address, data);
      for (const w of waiting.get(address) ?? []) w.resolve(data);
      waiting.delete(address);
    },
  };
  function load(address) {
    if (typeof address !== "string" || !/^[0-9a-f]{32}$/.test(address)) {
      return Promise.reject(new Error("no stored text"));
    }
    if (store.has(address)) return Promise.resolve(store.get(address));
    return new Promise((resolve, reject) => {
      const list = waiting.get(address);
      if (list) return list.push({ resolve, reject });
      waiting.set(address, [{ resolve, reject }]);
      const s = document.createElement("script");
      s.src = `${root}files/${address.slice(0, 2)}/${address}.js`;
      s.onerror = () => {
        for (const w of waiting.get(address) ?? []) w.reject(new Error(`cannot load ${s.src}`));
        waiting.delete(address);
      };
      document.head.append(s);
    });
  }
  function splitLines(t) {
    if (!t) return [];
    const ls = t.split("\n");
    if (ls[ls.length - 1] === "") ls.pop();
    return ls;
  }
  /** Per line, its tokens [col, len, class]. */
  function lineTokens(k) {
    const out = new Map();
    let line = 0;
    for (let i = 0; i + 3 < k.length; i += 4) {
      line += k[i];
      let a = out.get(line);
      if (!a) out.set(line, a = []);
      a.push([k[i + 1], k[i + 2], k[i + 3]]);
    }
    return out;
  }
  /** The source of one line with its tokens as spans (text only). */
  function codeText(s, toks) {
    const span = el("span", { class: "src" });
    let at = 0;
    for (const [col, len, cls] of toks || []) {
      if (col < at || col + len > s.length) continue;
      if (col > at) span.append(s.slice(at, col));
      span.append(el("span", { class: `t-${CLASSES[cls] ?? "x"}` }, s.slice(col, col + len)));
      at = col + len;
    }
    span.append(s.slice(at) || (at === 0 ? " " : ""));
    return span;
  }

  // ---- turn pages ----------------------------------------------------------------------------
  const turn = readJson("rv-turn");
  const viewer = document.getElementById("viewer");
  const sections = new Map();
  let selected = -1;

  /** Line → events that showed it, for one path. */
  function marksOf(path) {
    const m = new Map();
    for (const e of turn.events) {
      for (const [a, b] of e.l[path] ?? []) {
        for (let n = a; n <= b; n++) {
          let x = m.get(n);
          if (!x) m.set(n, x = []);
          x.push(e);
        }
      }
    }
    return m;
  }

  function fileSection(path) {
    if (sections.has(path)) return sections.get(path);
    const info = turn.files[path] ?? { h: null, n: 0, seen: 0 };
    const marks = marksOf(path);
    const evs = [...new Set([...marks.values()].flat().map((e) => e.i))].sort((a, b) => a - b);
    const head = el(
      "h3",
      {},
      el("code", {}, path),
      el(
        "span",
        { class: "meta" },
        info.n
          ? `${info.seen} of ${info.n} lines shown (${Math.round(100 * info.seen / info.n)}%)`
          : "text not stored",
      ),
      evs.length
        ? el(
          "span",
          { class: "meta" },
          `by event${evs.length > 1 ? "s" : ""} ${evs.map((i) => `#${i}`).join(" ")}`,
        )
        : null,
    );
    const body = el("div", { class: "code" });
    const sec = el("section", { class: "file", "data-path": path }, head, body);
    const ready = load(info.h).then((data) => drawFile(body, path, data, marks)).catch((e) => {
      body.append(
        el(
          "p",
          { class: "note" },
          info.h
            ? `⚠ ${e.message}`
            : "The text of this file is not in the site (not shown to the model, or not readable).",
        ),
      );
      // lines shown of a file without text still count as marked
      for (const [n, es] of marks) body.append(lineEl(path, n, "", null, es));
    });
    const entry = { sec, ready };
    sections.set(path, entry);
    viewer.append(sec);
    return entry;
  }

  function lineEl(path, n, text, toks, es) {
    const row = el(
      "div",
      {
        class: `ln ${es ? "shown" : "unshown"}`,
        "data-file": path,
        "data-line": n,
        "data-events": es ? es.map((e) => e.i).join(" ") : null,
        title: es ? `shown by ${es.map((e) => `#${e.i} (${e.v})`).join(", ")}` : null,
      },
      el(
        "a",
        { class: "no", href: `#f=${encodeURIComponent(path)}&l=${n}`, tabindex: "-1" },
        String(n),
      ),
      el(
        "span",
        { class: "mk" },
        es ? `#${es[0].i}${es.length > 1 ? `+${es.length - 1}` : ""}` : "",
      ),
      codeText(text, toks),
    );
    return row;
  }

  function drawFile(body, path, data, marks) {
    const lines = splitLines(data.t);
    const toks = lineTokens(data.k);
    const targets = turn.targets.filter((t) => t.f === path && t.s && t.e);
    const inTarget = (n) => targets.find((t) => n >= (t.s ?? t.b) && n <= t.e);
    // keep near shown lines and target bodies; fold long runs of never-shown lines
    const keep = new Uint8Array(lines.length + 2);
    // a file nothing was shown of, opened from the tree, is shown whole (dimmed)
    if (!marks.size && !targets.length) keep.fill(1);
    for (const n of marks.keys()) {
      for (let d = -3; d <= 3; d++) if (n + d >= 1 && n + d <= lines.length) keep[n + d] = 1;
    }
    for (const t of targets) {
      for (let n = Math.max(1, t.s - 2); n <= Math.min(lines.length, t.e + 1); n++) {
        keep[n] = 1;
      }
    }
    const frag = document.createDocumentFragment();
    let n = 1;
    while (n <= lines.length) {
      if (!keep[n]) {
        let m = n;
        while (m <= lines.length && !keep[m]) m++;
        if (m - n > 12) {
          const a = n, b = m - 1;
          const fold = el(
            "button",
            { type: "button", class: "fold", "data-from": a, "data-to": b },
            `⋯ lines ${a}–${b} (${b - a + 1}) never shown to the model — show them`,
          );
          fold.addEventListener("click", () => {
            const f = document.createDocumentFragment();
            for (let k = a; k <= b; k++) {
              f.append(lineEl(path, k, lines[k - 1], toks.get(k - 1), null));
            }
            fold.replaceWith(f);
          });
          frag.append(fold);
          n = m;
          continue;
        }
      }
      const t = targets.find((x) => x.s === n);
      if (t) {
        const [icon, label] = LABELS[t.o] ?? ["?", t.o];
        frag.append(
          el(
            "div",
            { class: `tlabel outcome-${t.o}`, "data-target": t.id },
            el("span", { class: `badge outcome-${t.o}` }, `${icon} ${label}`),
            " ",
            el("code", {}, t.id),
          ),
        );
      }
      const row = lineEl(path, n, lines[n - 1], toks.get(n - 1), marks.get(n));
      const tb = inTarget(n);
      if (tb) row.classList.add("tb", `outcome-${tb.o}`);
      frag.append(row);
      n++;
    }
    // shown lines past the end of the text (the file changed during the turn)
    for (const [k, es] of marks) if (k > lines.length) frag.append(lineEl(path, k, "", null, es));
    body.append(frag);
  }

  /** A stretch of code (lines s..e; marked lines m) in a snippet box. */
  function drawSnippet(box, spec, path) {
    if (!spec || !spec.h) {
      box.append(el("p", { class: "note" }, "not available"));
      return Promise.resolve();
    }
    return load(spec.h).then((data) => {
      const lines = splitLines(data.t);
      const toks = lineTokens(data.k);
      const s = Math.max(1, spec.s ?? 1), e = Math.min(lines.length, spec.e ?? lines.length);
      const hl = new Set(spec.m ?? []);
      const frag = document.createDocumentFragment();
      for (let n = s; n <= e; n++) {
        const row = el(
          "div",
          { class: `ln${hl.has(n) ? " hl" : ""}`, "data-line": n },
          el("span", { class: "no" }, String(n)),
          el("span", { class: "mk" }),
          codeText(lines[n - 1], toks.get(n - 1)),
        );
        frag.append(row);
      }
      box.append(el("div", { class: "code" }, frag));
      void path;
    }).catch((err) => box.append(el("p", { class: "note" }, `⚠ ${err.message}`)));
  }

  function openFile(path, line) {
    if (!turn || !viewer) return;
    const { sec, ready } = fileSection(path);
    ready.then(() => {
      let target = sec;
      if (line) {
        let row = sec.querySelector(`.ln[data-line="${Number(line)}"]`);
        if (!row) {
          const fold = [...sec.querySelectorAll(".fold")].find((f) =>
            Number(f.dataset.from) <= line && Number(f.dataset.to) >= line
          );
          if (fold) {
            fold.click();
            row = sec.querySelector(`.ln[data-line="${Number(line)}"]`);
          }
        }
        if (row) {
          target = row;
          row.classList.add("flash");
          setTimeout(() => row.classList.remove("flash"), 1600);
        }
      }
      target.scrollIntoView({ block: line ? "center" : "start" });
    });
  }

  function selectEvent(i) {
    const items = [...document.querySelectorAll("ol.events > li.ev")];
    if (!items.length) return;
    selected = Math.max(0, Math.min(items.length - 1, i));
    for (const x of document.querySelectorAll(".ln.sel")) x.classList.remove("sel");
    for (const x of items) x.classList.toggle("current", x === items[selected]);
    const idx = items[selected].dataset.idx;
    const rows = document.querySelectorAll(`.ln[data-events~="${idx}"]`);
    for (const r of rows) r.classList.add("sel");
    const ev = turn?.events.find((e) => String(e.i) === idx);
    const first = ev && Object.entries(ev.l)[0];
    if (rows.length) rows[0].scrollIntoView({ block: "center" });
    else if (first) openFile(first[0], first[1][0][0]);
    else items[selected].scrollIntoView({ block: "center" });
    items[selected].focus({ preventScroll: true });
    history.replaceState(null, "", `#ev=${idx}`);
  }

  function fromHash() {
    const h = new URLSearchParams(location.hash.slice(1));
    if (h.has("f")) openFile(h.get("f"), Number(h.get("l")) || 0);
    else if (h.has("ev")) {
      const items = [...document.querySelectorAll("ol.events > li.ev")];
      const k = items.findIndex((x) => x.dataset.idx === h.get("ev"));
      if (k >= 0) selectEvent(k);
    }
  }

  /** The workspace tree: directories (open where lines were seen), files with their share seen. */
  function drawTree(nav) {
    const rootDir = { dirs: new Map(), files: [], seen: 0 };
    for (const path of Object.keys(turn.files).sort()) {
      const parts = path.split("/");
      let d = rootDir;
      for (const part of parts.slice(0, -1)) {
        let next = d.dirs.get(part);
        if (!next) d.dirs.set(part, next = { dirs: new Map(), files: [], seen: 0 });
        d = next;
        d.seen += turn.files[path].seen;
      }
      d.files.push(path);
    }
    const ORIGIN = { earlier: "agent's earlier file", turn: "written this turn" };
    const list = (d, top) => {
      const ul = el("ul");
      for (const [name, sub] of d.dirs) {
        const det = el(
          "details",
          { open: sub.seen > 0 || top ? "" : null },
          el("summary", {}, `${name}/`),
          list(sub, false),
        );
        ul.append(el("li", { class: "dir" }, det));
      }
      for (const path of d.files) {
        const f = turn.files[path];
        const share = f.n ? f.seen / f.n : 0;
        ul.append(el(
          "li",
          { class: `file${f.seen ? " seen" : ""} origin-${f.o}` },
          el(
            "button",
            { type: "button", "data-file": path, title: path },
            el("span", { class: "name" }, path.slice(path.lastIndexOf("/") + 1)),
            el(
              "span",
              { class: "share", "aria-label": `${f.seen} of ${f.n} lines seen` },
              el("meter", { min: "0", max: "1", value: share.toFixed(3) }),
              f.seen
                ? ` ${f.seen}/${f.n} (${Math.round(share * 100)}%)`
                : f.n
                ? " 0%"
                : f.h
                ? " empty"
                : " –",
            ),
            ORIGIN[f.o] ? el("span", { class: "origin" }, ORIGIN[f.o]) : null,
          ),
        ));
      }
      return ul;
    };
    nav.replaceChildren(list(rootDir, true));
  }

  if (turn && viewer) {
    const base = turn.base ? load(turn.base) : Promise.resolve(null);
    base.then((b) => {
      if (!b) return;
      for (let i = 0; i < b.p.length; i++) {
        if (!turn.files[b.p[i]]) {
          turn.files[b.p[i]] = { h: b.h[i], n: b.n[i], seen: turn.seen[b.p[i]] ?? 0, o: "w0" };
        }
      }
    }).catch(() => {}).then(() => start());
    document.addEventListener("click", (ev) => {
      const b = ev.target.closest("button[data-more]");
      if (!b) return;
      load(b.dataset.more).then((d) => {
        b.previousElementSibling.textContent = d.t;
        b.remove();
      });
    });
  }
  function start() {
    const nav = document.getElementById("tree");
    if (nav) drawTree(nav);
    const loads = turn.shown.map((p) => fileSection(p).ready);
    const snippets = [];
    for (const box of document.querySelectorAll("[data-snippet]")) {
      const kind = box.dataset.snippet;
      if (kind === "sub") snippets.push(drawSnippet(box, turn.sub));
      else if (kind === "ref") snippets.push(drawSnippet(box, turn.ref));
      else {
        const r = turn.reimpl[Number(box.dataset.i)];
        snippets.push(drawSnippet(box, r && r[kind]));
      }
    }
    if (!turn.shown.length) {
      viewer.append(
        el(
          "p",
          { class: "hint" },
          "The agent was shown no line of the workspace in this turn. Pick a file in the tree to see it.",
        ),
      );
    }
    Promise.allSettled([...loads, ...snippets]).then(() => {
      document.body.dataset.ready = "1";
      fromHash();
    });
    document.addEventListener("click", (ev) => {
      const a = ev.target.closest("[data-file]");
      if (!a || a.classList.contains("ln")) return;
      ev.preventDefault();
      const line = Number(a.dataset.line) || 0;
      openFile(a.dataset.file, line);
      history.replaceState(
        null,
        "",
        `#f=${encodeURIComponent(a.dataset.file)}${line ? `&l=${line}` : ""}`,
      );
    });
    globalThis.addEventListener("hashchange", fromHash);
  }

  // ---- index ---------------------------------------------------------------------------------
  const table = readJson("rv-turns");
  const tbody = document.querySelector("#turns tbody");
  let sortKey = null, sortDir = 1, current = -1;
  const fmt = (v, type) => {
    if (v === null || v === undefined) return "–";
    if (type === "pct") return `${Math.round(v * 100)}%`;
    if (type === "bool") return v ? "yes" : "no";
    return String(v);
  };
  function parseFilter(q) {
    const tests = [];
    for (const tok of q.trim().split(/\s+/).filter(Boolean)) {
      const m = tok.match(/^([a-z_]+)(<=|>=|!=|<|>|=)(.*)$/);
      if (m && table.columns.includes(m[1])) {
        const [, col, op, raw] = m;
        const i = table.columns.indexOf(col);
        const want = raw === "yes" || raw === "true"
          ? true
          : raw === "no" || raw === "false"
          ? false
          : Number.isNaN(Number(raw))
          ? raw.toLowerCase()
          : Number(raw);
        tests.push((r) => {
          const v = r[i];
          if (v === null || v === undefined) return op === "!=";
          const x = typeof v === "string" ? v.toLowerCase() : v;
          switch (op) {
            case "<":
              return x < want;
            case ">":
              return x > want;
            case "<=":
              return x <= want;
            case ">=":
              return x >= want;
            case "!=":
              return x !== want;
            default:
              return typeof x === "string" ? x.includes(String(want)) : x === want;
          }
        });
      } else {
        const w = tok.toLowerCase();
        tests.push((r) =>
          String(r[1]).toLowerCase().includes(w) || String(r[2]).toLowerCase().includes(w)
        );
      }
    }
    return (r) => tests.every((t) => t(r));
  }
  function drawTable() {
    const q = document.getElementById("q").value;
    let rows = table.rows.filter(parseFilter(q));
    if (sortKey) {
      const i = table.columns.indexOf(sortKey);
      rows = [...rows].sort((a, b) => {
        const x = a[i], y = b[i];
        if (x === y) return 0;
        if (x === null || x === undefined) return 1;
        if (y === null || y === undefined) return -1;
        return (x < y ? -1 : 1) * sortDir;
      });
    }
    const types = [...document.querySelectorAll("#turns thead th")].map((th) => th.dataset.type);
    const frag = document.createDocumentFragment();
    for (const r of rows) {
      const tr = el("tr", { tabindex: "-1", "data-href": r[0] });
      for (let c = 1; c < r.length; c++) {
        const text = fmt(r[c], types[c - 1]);
        // chain and turn link to the turn's page
        tr.append(el("td", {}, c === 2 || c === 3 ? el("a", { href: r[0] }, text) : text));
      }
      frag.append(tr);
    }
    tbody.replaceChildren(frag);
    current = -1;
    document.getElementById("count").textContent = `${rows.length} of ${table.rows.length} turns`;
    const state = new URLSearchParams();
    if (q) state.set("q", q);
    if (sortKey) state.set("s", `${sortKey}:${sortDir > 0 ? "asc" : "desc"}`);
    history.replaceState(null, "", state.toString() ? `#${state}` : location.pathname);
  }
  if (table && tbody) {
    const h = new URLSearchParams(location.hash.slice(1));
    const input = document.getElementById("q");
    input.value = h.get("q") ?? "";
    const s = (h.get("s") ?? "").split(":");
    if (table.columns.includes(s[0])) {
      sortKey = s[0];
      sortDir = s[1] === "desc" ? -1 : 1;
    }
    const setSort = () => {
      for (const th of document.querySelectorAll("#turns thead th")) {
        th.setAttribute(
          "aria-sort",
          th.dataset.key === sortKey ? (sortDir > 0 ? "ascending" : "descending") : "none",
        );
      }
    };
    setSort();
    document.querySelector("#turns thead").addEventListener("click", (ev) => {
      const th = ev.target.closest("th");
      if (!th) return;
      if (sortKey === th.dataset.key) sortDir = -sortDir;
      else {
        sortKey = th.dataset.key;
        sortDir = th.dataset.type === "str" ? 1 : -1;
      }
      setSort();
      drawTable();
    });
    input.addEventListener("input", drawTable);
    document.getElementById("turn-filter").addEventListener("submit", (ev) => ev.preventDefault());
    drawTable();
    document.body.dataset.ready = "1";
  }
  function moveRow(d) {
    const rows = [...tbody.rows];
    if (!rows.length) return;
    current = Math.max(0, Math.min(rows.length - 1, current + d));
    for (const r of rows) r.classList.remove("cur");
    rows[current].classList.add("cur");
    rows[current].focus();
  }

  // ---- audit ---------------------------------------------------------------------------------
  const audit = readJson("rv-audit");
  if (audit) {
    const jobs = [];
    for (const box of document.querySelectorAll("[data-snippet]")) {
      const f = audit.findings[Number(box.dataset.i)];
      jobs.push(drawSnippet(box, f && f[box.dataset.snippet]));
    }
    Promise.allSettled(jobs).then(() => {
      document.body.dataset.ready = "1";
      const t = location.hash &&
        document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (t) t.scrollIntoView();
    });
  }
  if (!turn && !table && !audit) document.body.dataset.ready = "1";

  // ---- keyboard ------------------------------------------------------------------------------
  const help = document.getElementById("keyhelp");
  const toggleHelp = () => (help.hidden = !help.hidden);
  document.getElementById("keyhint")?.addEventListener("click", toggleHelp);
  let lastKey = "";
  function follow(sel) {
    const a = document.querySelector(sel);
    if (a) location.href = a.href;
  }
  function moveAmong(selector, d) {
    const items = [...document.querySelectorAll(selector)];
    if (!items.length) return;
    const at = items.indexOf(document.activeElement.closest(selector) ?? document.activeElement);
    const next = items[
      Math.max(0, Math.min(items.length - 1, at < 0 ? (d > 0 ? 0 : items.length - 1) : at + d))
    ];
    next.focus();
    next.classList.add("current");
    for (const x of items) if (x !== next) x.classList.remove("current");
    next.scrollIntoView({ block: "nearest" });
  }
  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const typing = ev.target.closest && ev.target.closest("input, textarea, select");
    if (typing) {
      if (ev.key === "Escape") ev.target.blur();
      if (ev.key === "Enter" && tbody?.rows.length) {
        ev.preventDefault();
        moveRow(1);
      }
      return;
    }
    const k = ev.key;
    const page = document.body.dataset.page;
    let handled = true;
    if (k === "?") toggleHelp();
    else if (k === "Escape") help.hidden = true;
    else if (lastKey === "g" && k === "i") location.href = `${root}index.html`;
    else if (page === "turn" || page === "log") {
      if (k === "j") selectEvent(selected + 1);
      else if (k === "k") selectEvent(selected < 0 ? 0 : selected - 1);
      else if (k === "n") follow('a[rel="next"]');
      else if (k === "p") follow('a[rel="prev"]');
      else if (k === "u") follow('a[rel="up"]');
      else if (k === "t") document.getElementById("targets")?.scrollIntoView();
      else handled = false;
    } else if (page === "index") {
      if (k === "/") document.getElementById("q").focus();
      else if (k === "j") moveRow(1);
      else if (k === "k") moveRow(-1);
      else if (k === "Enter" && current >= 0) location.href = tbody.rows[current].dataset.href;
      else handled = false;
    } else if (page === "config") {
      if (k === "j") moveAmong(".strip a", 1);
      else if (k === "k") moveAmong(".strip a", -1);
      else handled = false;
    } else if (page === "audit") {
      if (k === "j") moveAmong(".finding", 1);
      else if (k === "k") moveAmong(".finding", -1);
      else handled = false;
    } else handled = false;
    lastKey = k;
    if (handled && k !== "g") ev.preventDefault();
  });
})();
