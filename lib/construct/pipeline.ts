/**
 * The construction pipeline (paper §3.1): over a repository's dependency graph, per turn, a
 * guided evidence walk, task synthesis and execution verification; a turn whose verification
 * fails is regenerated; verified reference solutions are written back into the reference
 * workspace for later turns, and the verified chain is written in the tasks format of the
 * run-log layout.
 *
 * @module
 */
import { relative, resolve } from "node:path";
import type { ModelClient } from "./llm.ts";
import { GraphIndex } from "./graph.ts";
import { walk, WalkError } from "./walk.ts";
import { synthesize } from "./synth.ts";
import { type CalledSymbols, verifyTurn } from "./execution.ts";
import { calledSymbols } from "./reuse.ts";
import { writeChain } from "./write.ts";
import { recheckChain, type RecheckedTurn } from "./recheck.ts";
import type { EvidencePack, VerifiedTurn } from "./types.ts";
import { analyzePackage, type Graph } from "../python/mod.ts";
import { prepareWorkspace } from "../protocol/mod.ts";

/** Options of {@link buildChain}. */
export interface BuildOptions {
  /** W0: the repository root holding the package directory. */
  repo: string;
  /** Package directory name inside W0 (e.g. `seaborn`). */
  package: string;
  repoName?: string;
  version?: string;
  /** Corpus directory: the chain goes to `<out>/tasks/<chain>/`. */
  out: string;
  chain: string;
  turns?: number;
  /** Functions per turn (default 3). */
  nfun?: number;
  lo?: number;
  hi?: number;
  /** Starting symbol of turn 1 (default: a candidate chosen by `seed`). */
  start?: string;
  seed?: number;
  /** Attempts per turn (walk + synthesis + verification) before giving up (default 3). */
  attempts?: number;
  minCases?: number;
  python?: string;
  /** `repo.workspace` value written to chain.json (default: W0 relative to the chain dir). */
  workspaceRef?: string;
  /** Builds the graph of the reference workspace's package (default: lib/python). */
  graphOf?: (packageDir: string) => Promise<Graph>;
  /** Resolver-based reuse check (default: lib/python). */
  calledSymbols?: CalledSymbols;
  /** Re-run every turn's tests from a fresh W0 after writing (default true). */
  recheck?: boolean;
  log?: (line: string) => void;
}

/** Outcome of {@link buildChain}. */
export interface BuildResult {
  dir: string;
  turns: VerifiedTurn[];
  /** Rejected attempts with their reasons. */
  rejected: { turn: number; attempt: number; reason: string }[];
  /** The independent re-check (absent when disabled). */
  recheck?: RecheckedTurn[];
}

async function defaultGraph(packageDir: string): Promise<Graph> {
  const project = await analyzePackage(packageDir);
  return project.graph(packageDir);
}

/** Builds one verified chain. Throws when a turn cannot be verified within its attempts. */
export async function buildChain(client: ModelClient, opts: BuildOptions): Promise<BuildResult> {
  const log = opts.log ?? (() => {});
  const pkg = opts.package;
  const nTurns = opts.turns ?? 5, nfun = opts.nfun ?? 3, attempts = opts.attempts ?? 3;
  const graphOf = opts.graphOf ?? defaultGraph;
  const called = opts.calledSymbols ??
    ((w: string, t: Parameters<CalledSymbols>[1]) => calledSymbols(w, t, { package: pkg }));
  const ws = await Deno.makeTempDir({ prefix: "reporeuse-build-" });
  const rejected: BuildResult["rejected"] = [];
  const turns: VerifiedTurn[] = [];
  try {
    log(`preparing the reference workspace from ${opts.repo}`);
    await prepareWorkspace(opts.repo, ws, { package: pkg, python: opts.python });
    const used = new Set<string>();
    let seed = opts.seed ?? 0;
    for (let t = 1; t <= nTurns; t++) {
      const graph = new GraphIndex(await graphOf(`${ws}/${pkg}`));
      const layout = [...new Set(graph.graph.nodes.map((n) => `${pkg}/${n.file}`))];
      const ownModules = turns.map((v) => v.module);
      const isOwn = (id: string) => ownModules.some((m) => id.startsWith(`${m}.`));
      let verified: VerifiedTurn | undefined;
      let feedback: string | undefined;
      for (let attempt = 1; attempt <= attempts && !verified; attempt++) {
        let evidence: EvidencePack;
        try {
          evidence = await walkForTurn(client, graph, opts, t, turns, used, seed++, isOwn);
        } catch (e) {
          if (!(e instanceof WalkError)) throw e;
          rejected.push({ turn: t, attempt, reason: e.message });
          log(`turn ${t} attempt ${attempt}: ${e.message}`);
          continue;
        }
        log(`turn ${t} attempt ${attempt}: evidence ${evidence.symbols.join(", ")}`);
        let draft;
        try {
          draft = await synthesize(client, {
            evidence,
            graph,
            layout: [...new Set(layout)].sort(),
            previous: turns,
            nfun,
            feedback,
          });
        } catch (e) {
          rejected.push({ turn: t, attempt, reason: (e as Error).message });
          log(`turn ${t} attempt ${attempt}: ${(e as Error).message}`);
          continue;
        }
        const dir = placement(graph, evidence, pkg, isOwn);
        const module = `${dir.replaceAll("/", ".")}.${draft.moduleName}`;
        const path = `${dir}/${draft.moduleName}.py`;
        const outcome = await verifyTurn(
          {
            module,
            path,
            functions: draft.functions,
            solution: draft.solution,
            calls: draft.calls,
          },
          {
            workspace: ws,
            evidence: evidence.symbols,
            calledSymbols: called,
            python: opts.python,
            minCases: opts.minCases,
          },
        );
        if (!outcome.ok) {
          feedback = outcome.problems.join("; ");
          rejected.push({ turn: t, attempt, reason: feedback });
          log(`turn ${t} attempt ${attempt} rejected: ${feedback}`);
          continue;
        }
        verified = {
          turn: t,
          module,
          path,
          functions: draft.functions,
          goal: draft.goal,
          solution: draft.solution,
          cases: outcome.cases,
          evidence,
          readTargets: draft.readTargets,
          dropped: outcome.dropped,
        };
      }
      if (!verified) throw new Error(`turn ${t} could not be verified in ${attempts} attempts`);
      for (const s of verified.evidence.symbols) used.add(s);
      turns.push(verified);
      log(`turn ${t}: verified ${verified.module} with ${verified.cases.length} cases`);
    }
    const chainDir = resolve(opts.out, "tasks", opts.chain);
    const workspace = opts.workspaceRef ?? relative(chainDir, resolve(opts.repo));
    const dir = await writeChain(`${opts.out}/tasks`, opts.chain, {
      name: opts.repoName ?? pkg,
      ...(opts.version ? { version: opts.version } : {}),
      workspace,
      package: pkg,
    }, turns);
    if (opts.recheck === false) return { dir, turns, rejected };
    log(`re-checking ${dir} from a fresh workspace`);
    const recheck = await recheckChain(dir, { python: opts.python });
    const bad = recheck.filter((a) => a.failed.length);
    if (bad.length) {
      const what = bad.map((a) => `turn ${a.turn}: ${a.failed.join(", ")}`).join("; ");
      throw new Error(`re-check of ${dir} failed (${what})`);
    }
    return { dir, turns, rejected, recheck };
  } finally {
    // best effort in finally: a scratch left behind must not hide the build's result
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
}

/** Directory (workspace-relative) of a new module: beside the first repository evidence symbol. */
function placement(
  graph: GraphIndex,
  evidence: EvidencePack,
  pkg: string,
  isOwn: (id: string) => boolean,
): string {
  const repoSym = evidence.symbols.find((s) => !isOwn(s)) ?? evidence.symbols[0];
  const file = graph.node(repoSym)?.file ?? "";
  const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "";
  return dir ? `${pkg}/${dir}` : pkg;
}

async function walkForTurn(
  client: ModelClient,
  graph: GraphIndex,
  opts: BuildOptions,
  t: number,
  turns: VerifiedTurn[],
  used: Set<string>,
  seed: number,
  isOwn: (id: string) => boolean,
): Promise<EvidencePack> {
  const common = { repoName: opts.repoName ?? opts.package, lo: opts.lo, hi: opts.hi };
  if (t === 1) {
    const candidates = graph.candidates();
    const start = opts.start ?? candidates[(seed * 7919) % Math.max(candidates.length, 1)];
    if (!start || !graph.node(start)) {
      throw new WalkError(`no starting symbol (${start ?? "none"})`);
    }
    return await walk(client, graph, {
      ...common,
      start,
      roundCtx: "Round 1. The walk starts from an internal symbol beneath the public API.",
      allow: (id) => graph.node(id)?.internal === true,
    });
  }
  const prev = turns[turns.length - 1];
  const artifacts = prev.functions.map((f) => `${prev.module}.${f.name}`).filter((id) =>
    graph.node(id)
  );
  if (!artifacts.length) throw new WalkError(`the artifact of turn ${t - 1} is not in the graph`);
  const start = artifacts[seed % artifacts.length];
  const injected = graph.nearbyUnused(artifacts, used, {
    excludePrefixes: turns.map((v) => `${v.module}.`),
  });
  const ctx = [
    `Round ${t}. This walk departs from \`${start}\`, a function written in round ${
      t - 1
    } (module \`${prev.module}\`); reusing earlier rounds' functions is a natural part of the task.`,
  ];
  if (injected) {
    ctx.push(
      `The nearby repository symbol \`${injected}\`, not used in earlier rounds, has been added to the pack so that the pack does not only wrap earlier rounds.`,
    );
  }
  return await walk(client, graph, {
    ...common,
    start,
    preset: injected ? [injected] : [],
    roundCtx: ctx.join(" "),
    allow: (id) => graph.node(id)?.internal === true || isOwn(id),
  });
}
