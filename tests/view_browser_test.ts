/**
 * The viewer in a real headless Chromium (lib/report/browser.ts): the seaborn sample, a simulated
 * chain, a Codex session given with --root, an audit report and a log with a hostile file name
 * and hostile log text. Each page must load with no console error and no request outside the
 * site; every target of a turn must be there with its outcome class; the lines marked shown must
 * be the turn's reads — computed here again by reading the log against W_{t-1} written to disk
 * (lib/logs `readLog`), and counted against the scored frames' `lines`; keyboard navigation must
 * move between turns and events. Screenshots go to out/view/shots/.
 *
 * Skipped when Chromium is not installed (`deno task setup` installs it).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type Browser, chromiumPath, type Page } from "../lib/report/browser.ts";
import { type Ranges, rangesOf, readLog } from "../lib/logs/mod.ts";
import { readCorpus } from "../lib/layout/mod.ts";
import { scoreRows } from "../lib/frames/score.ts";
import type { TargetRow, TurnRow } from "../lib/metrics/rows.ts";
import { viewAudit, viewCorpus, viewLog } from "../lib/report/view/mod.ts";
import { simulateCorpus } from "../lib/simulate/mod.ts";
import { auditReport } from "../lib/audit/report.ts";
import { formatJson } from "../lib/audit/format.ts";

const chromium = await chromiumPath();
const SHOTS = new URL("../out/view/shots/", import.meta.url).pathname;
const cacheDir = await Deno.makeTempDir({ prefix: "reporeuse-view-cache-" });
Deno.env.set("REPOREUSE_CACHE_DIR", cacheDir);

/** Opens pages, recording console errors, exceptions and any request that is not a file. */
class Session {
  errors: string[] = [];
  requests: string[] = [];
  #off: () => void;
  private constructor(readonly browser: Browser, readonly page: Page) {
    this.#off = browser.onEvent((method, p) => {
      if (method === "Runtime.consoleAPICalled" && (p.type === "error" || p.type === "assert")) {
        this.errors.push(`console.${p.type}: ${JSON.stringify(p.args)}`);
      } else if (method === "Runtime.exceptionThrown") {
        this.errors.push(`exception: ${JSON.stringify(p.exceptionDetails)}`);
      } else if (method === "Log.entryAdded") {
        const e = p.entry as { level: string; text: string; url?: string };
        if (e.level === "error") this.errors.push(`log: ${e.text} ${e.url ?? ""}`);
      } else if (method === "Network.requestWillBeSent") {
        this.requests.push(String((p.request as { url: string }).url));
      }
    });
  }
  static async open(width = 1280, height = 900): Promise<Session> {
    const { Browser } = await import("../lib/report/browser.ts");
    const browser = await Browser.launch();
    const page = await browser.newPage(width, height);
    await browser.send("Log.enable", {}, page.session);
    await browser.send("Network.enable", {}, page.session);
    return new Session(browser, page);
  }
  /** Opens a page and waits until its code is drawn (`body[data-ready]`). */
  async go(url: string): Promise<void> {
    await this.page.goto(url);
    await this.ready();
  }
  async ready(): Promise<void> {
    for (let i = 0; i < 200; i++) {
      if (await this.page.evaluate<boolean>(`document.body?.dataset.ready === "1"`)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`page not ready: ${await this.page.evaluate<string>("location.href")}`);
  }
  async key(k: string): Promise<void> {
    for (const type of ["keyDown", "keyUp"]) {
      await this.browser.send("Input.dispatchKeyEvent", {
        type,
        key: k,
        text: type === "keyDown" && k.length === 1 ? k : undefined,
        code: k.length === 1 ? `Key${k.toUpperCase()}` : k,
        windowsVirtualKeyCode: k === "Enter" ? 13 : k.toUpperCase().charCodeAt(0),
      }, this.page.session);
    }
  }
  async shot(name: string, full = false): Promise<void> {
    await Deno.mkdir(SHOTS, { recursive: true });
    const [w, h, vh, y] = await this.page.evaluate<[number, number, number, number]>(
      "[document.documentElement.clientWidth, document.documentElement.scrollHeight, innerHeight, scrollY]",
    );
    const png = await this.page.screenshot(
      full
        ? { x: 0, y: 0, width: w, height: Math.min(h, 6000) }
        : { x: 0, y, width: w, height: vh },
    );
    await Deno.writeFile(join(SHOTS, name), png);
  }
  /** No console error and no request outside the site so far. */
  clean(site: string): void {
    assert.deepEqual(this.errors, []);
    const outside = this.requests.filter((u) => !u.startsWith(`file://${site}/`));
    assert.deepEqual(outside, []);
  }
  async close(): Promise<void> {
    this.#off();
    await this.browser.close();
  }
}

/** The lines marked shown on the page, per file, as ranges. */
async function markedLines(page: Page): Promise<Ranges> {
  const pairs = await page.evaluate<[string, number][]>(
    `[...document.querySelectorAll("#viewer .ln.shown")].map((e) => [e.dataset.file, Number(e.dataset.line)])`,
  );
  const by = new Map<string, number[]>();
  for (const [f, n] of pairs) by.set(f, [...(by.get(f) ?? []), n]);
  return Object.fromEntries(
    [...by].sort(([a], [b]) => (a < b ? -1 : 1)).map(([f, ns]) => [f, rangesOf(ns)]),
  );
}

function sortRanges(r: Ranges): Ranges {
  return Object.fromEntries(
    Object.entries(r).filter(([, v]) => v.length).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

/** The outcome class a target row must have on the page, from its frame columns. */
function expectedOutcome(t: TargetRow): string {
  if (t.reimplemented) return "reimplemented";
  if (t.reused) return "reused";
  if (!t.implemented) return "absent";
  return t.read ? "read_not_used" : "never_read";
}

/** W_{t-1} of a turn written to disk: W0 plus the agent's earlier submissions. */
async function workspaceOf(
  corpusDir: string,
  config: string,
  chain: string,
  turn: number,
): Promise<string> {
  const { corpus } = await readCorpus(corpusDir);
  const spec = corpus.chains.find((c) => c.chain === chain)!;
  const dir = await Deno.makeTempDir({ prefix: "reporeuse-view-ws-" });
  const cp = new Deno.Command("cp", { args: ["-r", `${spec.repo.workspace}/.`, dir] });
  assert.ok((await cp.output()).success);
  for (const r of corpus.runs) {
    if (r.config !== config || r.chain !== chain || r.turn >= turn || !r.submission) continue;
    const path = join(dir, spec.turns[r.turn - 1].path);
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.copyFile(r.submission, path);
  }
  return dir;
}

/**
 * Checks every turn page of a corpus site: no errors, the targets with their outcome classes, the
 * marked lines equal to the reads of the log re-read against W_{t-1} on disk and to the frames'
 * `lines`.
 */
async function checkTurns(
  s: Session,
  corpusDir: string,
  site: string,
  turns: TurnRow[],
  targets: TargetRow[],
) {
  const { corpus } = await readCorpus(corpusDir);
  const { turnHref } = await import("../lib/report/view/paths.ts");
  for (const row of turns) {
    await s.go(`file://${site}/${turnHref(row)}`);
    const same = (t: TargetRow) =>
      t.harness === row.harness && t.model === row.model && t.memory === row.memory &&
      t.chain === row.chain &&
      t.turn === row.turn;
    const want = Object.fromEntries(
      targets.filter(same).map((t) => [t.target, expectedOutcome(t)]),
    );
    const got = Object.fromEntries(
      await s.page.evaluate<[string, string][]>(
        `[...document.querySelectorAll("tr.target")].map((e) => [e.dataset.target, [...e.classList].find((c) => c.startsWith("outcome-")).slice(8)])`,
      ),
    );
    assert.deepEqual(got, want, `${row.chain} turn ${row.turn}`);
    const config = corpus.configs.find((c) =>
      c.harness === row.harness && c.model === row.model && c.memory === row.memory
    )!;
    const run = corpus.runs.find((r) =>
      r.config === config.id && r.chain === row.chain && r.turn === row.turn
    )!;
    const ws = await workspaceOf(corpusDir, config.id, row.chain, row.turn);
    const reads = (await readLog(run.log!, { root: ws, cwd: config.cwd })).reads;
    await Deno.remove(ws, { recursive: true });
    const marked = await markedLines(s.page);
    assert.deepEqual(marked, sortRanges(reads), `${row.chain} turn ${row.turn}: marked lines`);
    const count = Object.values(marked).flat().reduce((n, [a, b]) => n + b - a + 1, 0);
    assert.equal(
      count,
      row.lines,
      `${row.chain} turn ${row.turn}: marked lines against the frames`,
    );
  }
  s.clean(site);
}

Deno.test({
  name:
    "view: the seaborn sample in Chromium — targets, marked lines = reads, navigation, no errors",
  ignore: !chromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const site = await Deno.makeTempDir({ prefix: "reporeuse-view-sample-" });
    const summary = await viewCorpus({ corpus: "data/sample", out: site, workers: 1 });
    assert.equal(summary.pages, 10 + 2 + 1); // turns, configurations, index
    const rows = await scoreRows("data/sample", { workers: 1 });
    // hand-checked in data/sample/README.md: the OpenCode run re-implements utils.desaturate at
    // turn 2; the mini-SWE-agent run never reads utils.ci at turn 4
    const by = (h: string, t: number, id: string) =>
      rows.targets.find((r) => r.harness === h && r.turn === t && r.target === id)!;
    assert.equal(expectedOutcome(by("OpenCode", 2, "seaborn.utils.desaturate")), "reimplemented");
    assert.equal(expectedOutcome(by("mini-SWE-agent", 4, "seaborn.utils.ci")), "never_read");
    const s = await Session.open();
    try {
      await checkTurns(s, "data/sample", site, rows.turns, rows.targets);
      const { turnHref } = await import("../lib/report/view/paths.ts");
      const oc2 = rows.turns.find((r) => r.harness === "OpenCode" && r.turn === 2)!;
      await s.go(`file://${site}/${turnHref(oc2)}`);
      await s.shot("turn-sample-opencode-t2.png", true);
      // the re-implementation: F beside G, the shared calls marked in both
      assert.equal(await s.page.evaluate<number>(`document.querySelectorAll(".reimpl").length`), 1);
      assert.ok(
        await s.page.evaluate<number>(
          `document.querySelectorAll('[data-snippet="g"] .ln.hl').length`,
        ) >= 3,
      );
      assert.ok(
        await s.page.evaluate<number>(
          `document.querySelectorAll('[data-snippet="f"] .ln.hl').length`,
        ) >= 2,
      );
      // events: j selects event #0, its lines are the marked ones
      await s.key("j");
      const ev0 = await s.page.evaluate<[string, number]>(
        `[document.querySelector(".ev.current")?.id, document.querySelectorAll(".ln.sel").length]`,
      );
      assert.equal(ev0[0], "ev-0");
      const wantSel = await s.page.evaluate<number>(
        `(() => { const d = JSON.parse(document.getElementById("rv-turn").textContent); return Object.values(d.events[0].l).flat().reduce((n, [a, b]) => n + b - a + 1, 0); })()`,
      );
      assert.equal(ev0[1], wantSel);
      await s.key("j");
      assert.equal(
        await s.page.evaluate<string>(`document.querySelector(".ev.current")?.id`),
        "ev-1",
      );
      // n / p: the next and previous turns
      await s.key("n");
      await s.ready();
      const next = rows.turns.find((r) => r.harness === "OpenCode" && r.turn === 3)!;
      assert.ok((await s.page.evaluate<string>("location.href")).endsWith(turnHref(next)));
      await s.key("p");
      await s.ready();
      assert.ok((await s.page.evaluate<string>("location.href")).endsWith(turnHref(oc2)));
      // a file of the tree opens on click
      await s.page.evaluate(
        `document.querySelector('.tree button[data-file="seaborn/palettes.py"]').click()`,
      );
      for (
        let i = 0;
        i < 50 &&
        !(await s.page.evaluate<boolean>(
          `!!document.querySelector('section.file[data-path="seaborn/palettes.py"] .ln')`,
        ));
        i++
      ) {
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok(
        await s.page.evaluate<boolean>(
          `!!document.querySelector('section.file[data-path="seaborn/palettes.py"] .ln')`,
        ),
      );
      // the index: filter and sort
      await s.go(`file://${site}/index.html`);
      await s.shot("index-sample.png");
      await s.page.evaluate(
        `(() => { const q = document.getElementById("q"); q.value = "turn=2"; q.dispatchEvent(new Event("input")); })()`,
      );
      assert.equal(
        await s.page.evaluate<number>(`document.querySelectorAll("#turns tbody tr").length`),
        2,
      );
      await s.page.evaluate(
        `(() => { const q = document.getElementById("q"); q.value = "reimplemented>0"; q.dispatchEvent(new Event("input")); })()`,
      );
      assert.deepEqual(
        await s.page.evaluate<string[]>(
          `[...document.querySelectorAll("#turns tbody tr")].map((r) => r.cells[0].textContent + " " + r.cells[2].textContent)`,
        ),
        ["OpenCode__DeepSeek-v4.1-flash__interface 2"],
      );
      await s.page.evaluate(
        `(() => { const q = document.getElementById("q"); q.value = ""; q.dispatchEvent(new Event("input")); document.querySelector('th[data-key="lines"] button').click(); })()`,
      );
      const lines = await s.page.evaluate<number[]>(
        `[...document.querySelectorAll("#turns tbody tr")].map((r) => Number(r.cells[8].textContent))`,
      );
      assert.deepEqual(lines, [...rows.turns.map((r) => r.lines)].sort((a, b) => b - a));
      // j then Enter opens the first row's turn
      await s.key("j");
      await s.key("Enter");
      await s.ready();
      assert.match(await s.page.evaluate<string>("location.href"), /\/turns\/.+\/t\d\.html$/);
      const { configHref } = await import("../lib/report/view/paths.ts");
      await s.go(`file://${site}/${configHref(oc2)}`);
      await s.shot("config-sample.png");
      // a narrow window: no horizontal scroll of the page itself
      await s.page.viewport(420, 900);
      await s.go(`file://${site}/${turnHref(oc2)}`);
      assert.ok(await s.page.evaluate<boolean>("document.documentElement.scrollWidth <= 420"));
      await s.shot("turn-sample-narrow.png");
      s.clean(site);
    } finally {
      await s.close();
    }
  },
});

Deno.test({
  name: "view: a simulated chain — SIMULATED banner, targets, marked lines = reads",
  ignore: !chromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const full = await Deno.makeTempDir({ prefix: "reporeuse-view-sim-" });
    await simulateCorpus(full, { seed: 3, scale: "small" });
    // one chain, two configurations (a chain with a planted re-implementation under the first)
    const truth = (await Deno.readTextFile(`${full}/truth/targets.csv`)).split("\n").slice(1).map((
      l,
    ) => l.split(","));
    const hit = truth.find((c) => c[0] === "OpenCode" && c[10] === "true")!;
    const chain = hit[3];
    const configs = [...Deno.readDirSync(`${full}/runs`)].map((e) => e.name)
      .filter((n) =>
        n.startsWith(`OpenCode__${hit[1].replaceAll(" ", "-")}__${hit[2]}`) ||
        n.startsWith("mini-SWE-agent__GPT-5.6-Terra__interface")
      );
    assert.equal(configs.length, 2);
    const corpus = await Deno.makeTempDir({ prefix: "reporeuse-view-chain-" });
    const cp = async (rel: string) => {
      await Deno.mkdir(join(corpus, rel, ".."), { recursive: true });
      assert.ok(
        (await new Deno.Command("cp", { args: ["-r", join(full, rel), join(corpus, rel)] })
          .output()).success,
      );
    };
    await cp("corpus.json");
    await cp("repos");
    await cp(`tasks/${chain}`);
    for (const c of configs) {
      await cp(`runs/${c}/config.json`);
      await cp(`runs/${c}/${chain}`);
    }
    const site = await Deno.makeTempDir({ prefix: "reporeuse-view-simsite-" });
    await viewCorpus({ corpus, out: site, workers: 1 });
    const rows = await scoreRows(corpus, { workers: 1 });
    assert.equal(rows.turns.length, 10);
    assert.ok(rows.turns.some((r) => r.reimplemented > 0));
    const s = await Session.open();
    try {
      await checkTurns(s, corpus, site, rows.turns, rows.targets);
      const { turnHref } = await import("../lib/report/view/paths.ts");
      const row = rows.turns.find((r) => r.reimplemented > 0)!;
      await s.go(`file://${site}/${turnHref(row)}`);
      assert.match(
        await s.page.evaluate<string>(`document.querySelector(".banner.sim")?.textContent ?? ""`),
        /^SIMULATED/,
      );
      assert.ok(
        await s.page.evaluate<number>(`document.querySelectorAll(".reimpl .ln.hl").length`) > 0,
      );
      await s.shot("turn-simulated.png");
      await s.go(`file://${site}/index.html`);
      assert.match(
        await s.page.evaluate<string>(`document.querySelector(".banner.sim")?.textContent ?? ""`),
        /^SIMULATED/,
      );
      s.clean(site);
    } finally {
      await s.close();
      await Deno.remove(full, { recursive: true });
    }
  },
});

Deno.test({
  name: "view: a Codex session given with --root — marked lines = reads",
  ignore: !chromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const log = "tests/fixtures/logs/codex/subagents.synthetic";
    const root = "tests/fixtures/logs/workspace";
    const site = await Deno.makeTempDir({ prefix: "reporeuse-view-codex-" });
    await viewLog({ log, root, out: site, workers: 0 });
    const s = await Session.open();
    try {
      await s.go(`file://${site}/index.html`);
      // tests/logs_sessions_test.ts: parent nl -ba pkg/core.py | sed -n '1,5p', child sed -n '2,4p' util.py
      assert.deepEqual(await markedLines(s.page), {
        "pkg/core.py": [[1, 5]],
        "pkg/util.py": [[2, 4]],
      });
      // each shown line names its event: the parent's read and the sub-agent's
      const events = await s.page.evaluate<string[]>(
        `[...new Set([...document.querySelectorAll("#viewer .ln.shown")].map((e) => e.dataset.events))]`,
      );
      assert.equal(events.length, 2);
      await s.shot("log-codex.png", true);
      s.clean(site);
    } finally {
      await s.close();
    }
  },
});

Deno.test({
  name: "view: hostile file names and log text stay text (no HTML injection)",
  ignore: !chromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "reporeuse-view-hostile-" });
    const evil = `<img src=x onerror="window.__pwned=1">`;
    const name = `${evil}.py`;
    await Deno.mkdir(`${dir}/ws/pkg`, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/ws/pkg/${name}`,
      `# </script><script>window.__pwned=2</script>\ndef f():\n    return "<b>${evil}</b>"\n`,
    );
    const fence = "`".repeat(3);
    const out = await Deno.readTextFile(`${dir}/ws/pkg/${name}`);
    await Deno.writeTextFile(
      `${dir}/log.json`,
      JSON.stringify({
        info: {},
        trajectory_format: "mini-swe-agent-1",
        messages: [
          {
            role: "assistant",
            content: `THOUGHT: ${evil}\n\n${fence}bash\ncat 'pkg/${name}'\n${fence}`,
          },
          { role: "user", content: `<returncode>0</returncode>\n<output>\n${out}</output>` },
          {
            role: "assistant",
            content:
              `${fence}bash\necho '</pre></li><script>window.__pwned=3</script>' ${evil}\n${fence}`,
          },
          { role: "user", content: "<returncode>0</returncode>\n<output>\nx\n</output>" },
        ],
      }),
    );
    const site = `${dir}/site`;
    await viewLog({
      log: `${dir}/log.json`,
      root: `${dir}/ws`,
      cwd: "/testbed",
      out: site,
      workers: 0,
    });
    const s = await Session.open();
    try {
      await s.go(`file://${site}/index.html`);
      assert.equal(await s.page.evaluate<unknown>("window.__pwned ?? null"), null);
      assert.equal(await s.page.evaluate<number>(`document.querySelectorAll("img").length`), 0);
      assert.equal(await s.page.evaluate<number>(`document.querySelectorAll("b").length`), 0);
      // the name and the text are there, as text
      assert.ok(
        await s.page.evaluate<boolean>(
          `document.body.textContent.includes(${JSON.stringify(evil)})`,
        ),
      );
      assert.deepEqual(await markedLines(s.page), { [`pkg/${name}`]: [[1, 3]] });
      assert.ok(
        await s.page.evaluate<boolean>(
          `[...document.querySelectorAll(".cmd")].some((e) => e.textContent.includes("<script>window.__pwned=3</script>"))`,
        ),
      );
      await s.shot("hostile.png", true);
      s.clean(site);
    } finally {
      await s.close();
    }
  },
});

async function git(repo: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-C", repo, ...args],
    env: {
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.org",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.org",
    },
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test({
  name: "view: an audit report — each finding F beside G at its anchor",
  ignore: !chromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const repo = await Deno.makeTempDir({ prefix: "reporeuse-view-audit-" });
    await git(repo, "init", "-q", "-b", "main");
    await Deno.mkdir(`${repo}/p`);
    await Deno.writeTextFile(`${repo}/p/__init__.py`, "");
    await Deno.writeTextFile(
      `${repo}/p/util.py`,
      "def a(x):\n    return x\n\n\ndef b(x):\n    return x\n\n\ndef c(x):\n    return x\n\n\n" +
        "def clean(rows):\n    out = []\n    for r in rows:\n        out.append(c(b(a(r))))\n    return out\n",
    );
    await git(repo, "add", "-A");
    await git(repo, "commit", "-q", "-m", "base");
    await Deno.writeTextFile(
      `${repo}/p/new.py`,
      "from p.util import a, b, c\n\n\ndef tidy(rows):\n    res = []\n    for r in rows:\n        res.append(c(b(a(r))))\n    return res\n",
    );
    const report = await auditReport({ repo, base: "HEAD" });
    assert.equal(report.findings.length >= 1, true);
    await Deno.writeTextFile(`${repo}/../audit.json`, formatJson(report));
    const site = await Deno.makeTempDir({ prefix: "reporeuse-view-auditsite-" });
    await viewAudit({ report: `${repo}/../audit.json`, out: site });
    const { findingAnchor, formatMarkdown } = await import("../lib/audit/mod.ts");
    // the pull-request comment links each row to its finding on the published page
    const md = formatMarkdown(report, {
      viewUrl: "https://ci.example.org/artifacts/audit/index.html",
    });
    const links = [
      ...md.matchAll(/\]\((https:\/\/ci\.example\.org\/artifacts\/audit\/index\.html#[^)]+)\)/g),
    ]
      .map((m) => m[1].slice(m[1].indexOf("#") + 1));
    assert.deepEqual(links, report.findings.map(findingAnchor));
    assert.throws(() => formatMarkdown(report, { viewUrl: "javascript:alert(1)" }));
    const s = await Session.open();
    try {
      const f = report.findings[0];
      // as the link is followed: the page opens at the finding
      await s.go(`file://${site}/index.html#${links[0]}`);
      assert.ok(
        await s.page.evaluate<boolean>(
          `!!document.getElementById(${JSON.stringify(findingAnchor(f))})`,
        ),
      );
      const lines = await s.page.evaluate<[number, number]>(
        `[document.querySelectorAll('[data-snippet="f"] .ln').length, document.querySelectorAll('[data-snippet="g"] .ln').length]`,
      );
      assert.deepEqual(lines, [
        f.function.end - f.function.line + 1,
        f.target.end - f.target.line + 1,
      ]);
      await s.shot("audit.png", true);
      s.clean(site);
    } finally {
      await s.close();
    }
  },
});
