/**
 * The turn pages of a corpus: the scorer's rows (scored now, from the cache when unchanged, or
 * read from a scored directory) joined with what only the corpus holds — each log re-read against
 * W_{t-1} for the line ranges of every event, the workspace's files, the submissions, the
 * reference solutions and, for re-implemented targets, the code models that show F beside G.
 *
 * Logs are re-read (and files highlighted) in a pool of workers; (configuration, chain) groups go
 * through a few at a time, each page written as soon as it is built, so memory does not grow with
 * the corpus.
 *
 * @module
 */
import { join, relative } from "node:path";
import {
  type ChainSpec,
  type ConfigSpec,
  type Corpus,
  readCorpus,
  type RunTurn,
} from "../../layout/mod.ts";
import { MAX_LOG_BYTES, type ReadsResult } from "../../logs/mod.ts";
import {
  type EventRow,
  isReimplemented,
  submissionUses,
  type TargetRow,
  type TestRow,
  type TurnRow,
} from "../../metrics/mod.ts";
import {
  analyzePackage,
  CALL_KINDS,
  moduleName,
  type ModuleSummary,
  type Project,
} from "../../python/mod.ts";
import { readBounded } from "../../util/mod.ts";
import type { TurnPage } from "./model.ts";
import { buildTurnPage, type FileAddresses, type ReimplementationFacts } from "./turn.ts";
import { listWorkspace, type WorkspaceFiles } from "./workspace.ts";
import type { TextStore } from "./store.ts";
import type { ViewPool } from "./jobs.ts";

/** Where the pages of a corpus go: a site being written, or a notebook display collecting one. */
export interface PageSink {
  pool: ViewPool;
  store: TextStore;
  addresses: FileAddresses;
  turnPage(p: TurnPage): Promise<void>;
}
import { chainHref, turnHref } from "./paths.ts";

/** The scorer's rows the viewer shows. */
export interface ViewRows {
  turns: TurnRow[];
  targets: TargetRow[];
  events: EventRow[];
  tests: TestRow[];
}

/** A scored turn with its page, as the index lists it. */
export interface IndexedTurn {
  row: TurnRow;
  href: string;
}

const keyOf = (
  r: { harness: string; model: string; memory: string; chain: string; turn: number },
) => `${r.harness}\u0000${r.model}\u0000${r.memory}\u0000${r.chain}\u0000${r.turn}`;
const configKey = (r: { harness: string; model: string; memory: string }) =>
  `${r.harness}\u0000${r.model}\u0000${r.memory}`;

function groupRows<T extends Parameters<typeof keyOf>[0]>(rows: readonly T[]): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const k = keyOf(r);
    const g = m.get(k);
    if (g) g.push(r);
    else m.set(k, [r]);
  }
  return m;
}

/** Whether a corpus directory is the project's simulated corpus (its corpus.json says so). */
export function isSimulatedCorpus(dir: string): boolean {
  try {
    const text = new TextDecoder().decode(readBounded(join(dir, "corpus.json"), 1 << 20));
    const data = JSON.parse(text);
    return data?.generator === "reporeuse simulate";
  } catch {
    // no readable corpus.json: not labelled simulated
    return false;
  }
}

/**
 * Writes the turn pages of a corpus into `site` and returns the turns in index order. `corpus`
 * may be absent (a scored directory alone): pages then show the frames' rows without code.
 */
export async function corpusPages(
  site: PageSink,
  rows: ViewRows,
  corpusDir: string | undefined,
  simulated: boolean,
): Promise<IndexedTurn[]> {
  const corpus = corpusDir ? (await readCorpus(corpusDir)).corpus : undefined;
  const targets = groupRows(rows.targets);
  const tests = groupRows(rows.tests);
  const events = groupRows(rows.events);
  for (const g of events.values()) g.sort((a, b) => a.idx - b.idx);

  // index order = the frames' order; each turn knows its neighbours and its chain's turns
  const indexed: IndexedTurn[] = rows.turns.map((row) => ({ row, href: turnHref(row) }));
  const chains = new Map<string, IndexedTurn[]>();
  for (const t of indexed) {
    const k = `${configKey(t.row)}\u0000${t.row.chain}`;
    const g = chains.get(k);
    if (g) g.push(t);
    else chains.set(k, [t]);
  }

  const configs = new Map<string, ConfigSpec>();
  const chainSpecs = new Map<string, ChainSpec>();
  const runs = new Map<string, RunTurn[]>();
  if (corpus) {
    for (const c of corpus.configs) configs.set(configKey(c), c);
    for (const c of corpus.chains) chainSpecs.set(c.chain, c);
    for (const r of corpus.runs) {
      const k = `${r.config}\u0000${r.chain}`;
      const g = runs.get(k);
      if (g) g.push(r);
      else runs.set(k, [r]);
    }
  }
  const position = new Map(indexed.map((t, i) => [t, i]));
  const groups = [...chains.values()];
  const lanes = Math.max(2, site.pool.size * 3);
  const workspaces = new Map<string, Promise<WorkspaceFiles>>();
  const projects = new Map<string, Promise<Project>>();
  const ctx: GroupContext = { site, corpus, configs, chainSpecs, runs, workspaces, projects };
  await Promise.all(
    Array.from({ length: Math.min(lanes, groups.length) }, async () => {
      for (let g = groups.shift(); g; g = groups.shift()) {
        await chainPages(ctx, g, (t) => {
          const i = position.get(t)!;
          const k = keyOf(t.row);
          return {
            targets: targets.get(k) ?? [],
            tests: tests.get(k) ?? [],
            events: events.get(k) ?? [],
            prev: indexed[i - 1]?.href,
            next: indexed[i + 1]?.href,
            simulated,
          };
        });
      }
    }),
  );
  return indexed;
}

interface GroupContext {
  site: PageSink;
  corpus: Corpus | undefined;
  configs: Map<string, ConfigSpec>;
  chainSpecs: Map<string, ChainSpec>;
  runs: Map<string, RunTurn[]>;
  workspaces: Map<string, Promise<WorkspaceFiles>>;
  projects: Map<string, Promise<Project>>;
}

interface TurnExtras {
  targets: TargetRow[];
  tests: TestRow[];
  events: EventRow[];
  prev?: string;
  next?: string;
  simulated: boolean;
}

function readText(path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    const t = new TextDecoder().decode(readBounded(path, MAX_LOG_BYTES));
    return t.includes("\r\n") ? t.replaceAll("\r\n", "\n") : t;
  } catch {
    // a log gone or unreadable: the turn page shows no log
    return undefined;
  }
}

/** The pages of one (configuration, chain), turn by turn (W_{t-1} grows with the submissions). */
async function chainPages(
  ctx: GroupContext,
  turns: IndexedTurn[],
  extras: (t: IndexedTurn) => TurnExtras,
): Promise<void> {
  const first = turns[0].row;
  const config = ctx.configs.get(configKey(first));
  const chain = ctx.chainSpecs.get(first.chain);
  const runs = config ? (ctx.runs.get(`${config.id}\u0000${first.chain}`) ?? []) : [];
  runs.sort((a, b) => a.turn - b.turn);
  const chainNav = turns.map((t) => ({ turn: t.row.turn, href: t.href }));
  const site = ctx.site;
  let workspace: WorkspaceFiles | undefined;
  let w0: Project | undefined;
  const pkgDir = chain ? join(chain.repo.workspace, chain.repo.package) : undefined;
  if (chain && ctx.corpus) {
    const root = chain.repo.workspace;
    let ws = ctx.workspaces.get(root);
    if (!ws) ctx.workspaces.set(root, ws = listWorkspace(root));
    // a workspace that cannot be listed: the page shows no file tree
    workspace = await ws.catch(() => undefined);
  }
  // the agent's files so far: W_{t-1} = W0 + these
  const overlays: Record<string, string> = {};
  const summaries: ModuleSummary[] = [];
  const rel = (p: string) => (ctx.corpus ? relative(ctx.corpus.dir, p) : p);
  // every run turn in order — an unscored turn's submission is still part of later W_{t-1}
  const byTurn = new Map(turns.map((t) => [t.row.turn, t]));
  const order = [...new Set([...runs.map((r) => r.turn), ...byTurn.keys()])].sort((a, b) => a - b);
  for (const n of order) {
    const spec = chain?.turns[n - 1];
    const run = runs.find((r) => r.turn === n);
    const t = byTurn.get(n);
    if (!t) {
      const text = readText(run?.submission);
      if (spec && text !== undefined) {
        overlays[spec.path] = text;
        if (pkgDir && chain) {
          summaries.push(
            await site.pool.summarize(
              text,
              packageFile(pkgDir, join(chain.repo.workspace, spec.path)),
              spec.module,
            ),
          );
        }
      }
      continue;
    }
    const x = extras(t);
    const warnings: string[] = [];
    let reads: ReadsResult | null = null;
    const submissionText = readText(run?.submission);
    if (ctx.corpus && (!config || !chain || !spec || !run?.log)) {
      warnings.push(
        "This turn's run is not in the corpus given: the page shows the scored rows only.",
      );
    } else if (!ctx.corpus) {
      warnings.push(
        "Only the scored frames were given (no --corpus): the page shows the scored rows, without the code and the lines each event showed.",
      );
    }
    if (config && chain && run?.log) {
      try {
        reads = await site.pool.log({
          text: new TextDecoder().decode(readBounded(run.log, MAX_LOG_BYTES)),
          file: rel(run.log),
          cwd: config.cwd,
          workspace: chain.repo.workspace,
          overlays: { ...overlays },
          companions: (run.companions ?? []).map((c) => ({
            file: rel(c),
            text: new TextDecoder().decode(readBounded(c, MAX_LOG_BYTES)),
          })),
        });
      } catch (e) {
        warnings.push(`The log could not be read again: ${e instanceof Error ? e.message : e}`);
      }
    }
    let reimplementations: ReimplementationFacts[] = [];
    if (spec && chain && pkgDir && submissionText !== undefined) {
      const own = site.pool.summarize(
        submissionText,
        packageFile(pkgDir, join(chain.repo.workspace, spec.path)),
        spec.module,
      );
      if (x.targets.some((r) => r.reimplemented)) {
        try {
          if (!w0) {
            let p = ctx.projects.get(pkgDir);
            if (!p) {
              ctx.projects.set(
                pkgDir,
                p = analyzePackage(pkgDir, {
                  name: moduleName(pkgDir.slice(pkgDir.lastIndexOf("/") + 1)),
                  workers: site.pool.size,
                }),
              );
            }
            w0 = await p;
          }
          const agent = w0.withModules([...summaries, await own]);
          reimplementations = reimplementationFacts(x.targets, w0, agent, spec.module);
        } catch (e) {
          warnings.push(
            `The code models could not be built: ${e instanceof Error ? e.message : e}`,
          );
        }
      }
      // a submission that cannot be summarised: its definitions are not linked
      const summary = await own.catch(() => undefined);
      if (summary) summaries.push(summary);
    }
    const referenceText = spec ? readText(spec.solution) : undefined;
    const page: TurnPage = await buildTurnPage(
      {
        href: t.href,
        title: `${t.row.chain} · turn ${t.row.turn}`,
        keys: {
          harness: t.row.harness,
          model: t.row.model,
          memory: t.row.memory,
          chain: t.row.chain,
          turn: t.row.turn,
        },
        simulated: x.simulated,
        log: run?.log ? rel(run.log) : null,
        reads,
        row: t.row,
        targets: x.targets,
        tests: x.tests,
        frameEvents: x.events,
        workspace,
        overlays: { ...overlays },
        submission: spec && submissionText !== undefined
          ? { path: spec.path, text: submissionText }
          : null,
        reference: spec && referenceText !== undefined
          ? { path: spec.path, text: referenceText }
          : null,
        reimplementations,
        nav: {
          prev: x.prev,
          next: x.next,
          up: chainHref(t.row),
          chain: chainNav,
        },
        warnings,
      },
      site.store,
      site.addresses,
    );
    await site.turnPage(page);
    if (spec && submissionText !== undefined) overlays[spec.path] = submissionText;
  }
}

/** Path of a file relative to the package directory (what lib/python calls `file`). */
function packageFile(pkg: string, path: string): string {
  return relative(pkg, path).replaceAll("\\", "/");
}

/** The module of a definition id: its longest prefix that is a module of the project. */
function moduleOf(project: Project, id: string): string | undefined {
  const parts = id.split(".");
  for (let n = parts.length - 1; n > 0; n--) {
    const m = parts.slice(0, n).join(".");
    if (project.hasModule(m)) return m;
  }
  return undefined;
}

/** Lines of `scope`'s own body (nested defs excluded, as `callees`) calling one of `ids`. */
function callLines(project: Project, scope: string, ids: ReadonlySet<string>, nested: boolean) {
  const module = moduleOf(project, scope);
  if (!module) return [];
  const lines = new Set<number>();
  for (const u of project.resolveModule(module).uses) {
    const own = u.scope === scope || (nested && u.scope.startsWith(scope + "."));
    if (own && CALL_KINDS.has(u.kind) && ids.has(u.target)) lines.add(u.line);
  }
  return [...lines].sort((a, b) => a - b);
}

/**
 * F beside G for each re-implemented target: G's callees (lib/python `callees`, of W0 for repo
 * targets and of the agent's own version for self targets, as the scorer takes them), those the
 * submission calls, those F calls, the overlap by lib/metrics `isReimplemented` and the lines
 * holding the shared calls.
 */
export function reimplementationFacts(
  targets: readonly TargetRow[],
  w0: Project,
  agent: Project,
  module: string,
): ReimplementationFacts[] {
  const uses = submissionUses(agent.resolveModule(module));
  const out: ReimplementationFacts[] = [];
  for (const t of targets) {
    if (!t.reimplemented) continue;
    const models = t.kind === "repo" ? w0 : agent;
    const callees = [...new Set(models.callees(t.target))];
    const shared = callees.filter((c) => uses.calls.has(c));
    const f = t.reimplemented_by
      ? uses.byScope.find((s) => s.def.id === t.reimplemented_by)
      : undefined;
    const sharedByF = f ? shared.filter((c) => f.calls.has(c)) : [];
    const g = models.definition(t.target);
    const set = new Set(shared);
    out.push({
      target: t.target,
      kind: t.kind,
      by: t.reimplemented_by,
      g: g && t.file ? { path: t.file, start: g.start, end: g.end } : null,
      f: f ? { start: f.def.start, end: f.def.end } : null,
      callees,
      shared,
      sharedByF,
      overlap: isReimplemented(uses.used.has(t.target), callees, uses.calls).overlap,
      gLines: callLines(models, t.target, set, false),
      fLines: f ? callLines(agent, f.def.id, set, true) : [],
    });
  }
  return out;
}
