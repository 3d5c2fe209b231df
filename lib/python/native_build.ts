/**
 * Building the native Python parser (lib/python/native.ts) once per machine, and verifying it
 * before anything of it is loaded or run.
 *
 * What is built, from the pinned npm packages `tree-sitter` (its vendored C runtime) and
 * `tree-sitter-python` (`src/parser.c`, `src/scanner.c`) plus `native/*.c`:
 * - the parse server `reporeuse-parse-server` (runtime, grammar, `native/flat.c`,
 *   `native/arena.c`, `native/server.c`), an executable: tree-sitter runs only there;
 * - the client library `libreporeuse-parse-client.so` (`native/client.c`, no tree-sitter), which
 *   this process loads with Deno's FFI to talk to servers;
 * - `manifest.json`, written last: the SHA-256 digest and size of both, as built.
 * Our C files use tree-sitter's public API only (`tree_sitter/api.h`): they are compiled without
 * the runtime's private headers on the include path.
 *
 * With GCC the server is profile-guided and link-time optimised: compiled instrumented, trained
 * by parsing `native/train.py` (the training input lives here, in lib/, so nothing outside lib/
 * is needed and no test fixture's edit forces a rebuild), compiled again with that profile; any
 * other compiler, or a failure, gives the plain -O3 build. Without a C compiler everything runs on
 * the wasm parser (`deno task reporeuse parser` says how to get this one).
 *
 * Where: `<cache root>/native-v<N>/<key>/`, the key hashing every source, the compiler (its
 * binary) and the flags; built atomically and once across processes (a lock; the others wait).
 * Trust: the directories from the file up are checked (owned by this user, or root above the cache
 * root; not writable by others unless sticky, as /tmp is, and then the entry below is ours), the
 * files too, and each file's digest must be the manifest's, before the client is loaded or the
 * server started ({@link verifyNativeParser}). The build creates its directories 0700.
 *
 * @example
 * ```ts
 * import { buildNativeParser, verifyNativeParser } from "./native_build.ts";
 * const built = await buildNativeParser();
 * if ("files" in built) console.assert(verifyNativeParser(built.files) === null);
 * else console.assert(typeof built.error === "string"); // no C compiler, say
 * ```
 * @module
 */
import {
  cacheRoot,
  changeableByOthers,
  eachLimited,
  exists,
  existsSync,
  findExecutable,
  nodeModulesDir,
  runProcess,
  sha256,
  writeFileAtomic,
} from "../util/mod.ts";

/** Version of the build recipe (flags, file list, layout); part of the directory's name. */
const BUILD_VERSION = 5;
const FLAGS = [
  "-O3",
  "-fPIC",
  "-fvisibility=hidden",
  "-DNDEBUG",
  // the grammar's external scanner allocates through tree-sitter's allocator (native/arena.c)
  "-DTREE_SITTER_REUSE_ALLOCATOR",
];

/** The one line that says how to get the native parser where it is not built. */
export const NATIVE_HINT =
  "for the ~2x faster native parser, install a C compiler (Debian: apt-get install gcc libc6-dev) and run `deno task reporeuse parser`";

/** The files of a built native parser. */
export interface NativeFiles {
  /** The directory holding them. */
  dir: string;
  /** The client library (loaded into this process). */
  client: string;
  /** The parse server (an executable). */
  server: string;
  /** Digests and sizes of both, written when they were built. */
  manifest: string;
}

/**
 * What {@link buildNativeParser} gives: the parser's files, or why there are none. `profiled`
 * (when `built`): whether this build was profile-guided, or why it was not.
 */
export type NativeBuild =
  | { files: NativeFiles; built: boolean; profiled?: true | string }
  | { error: string };

/** What the manifest records of each file. */
interface Recorded {
  sha256: string;
  size: number;
}
interface Manifest {
  version: number;
  key: string;
  client: Recorded;
  server: Recorded;
  profiled: true | string;
}

/** How the parser is built, and where it goes (see {@link plan}). */
interface Plan {
  key: string;
  files: NativeFiles;
  cc: string;
  /** Compiler flags of our files: tree-sitter's public headers only. */
  flags: string[];
  /** Extra flags of the runtime's own sources (its private headers). */
  runtimeFlags: string[];
  runtime: string;
  /** The server's C sources. */
  sources: string[];
  clientSource: string;
  /** The training input of a profile-guided build. */
  training: string;
}

let planned: Plan | { error: string } | undefined;

/** The build's inputs and the parser's place in the cache (computed once per process). */
function plan(): Plan | { error: string } {
  // any failure (a permission not granted, say) means no native parser, never an error
  try {
    planned ??= planOnce();
  } catch (e) {
    planned = { error: `the native parser cannot be planned: ${e}` };
  }
  return planned;
}

function planOnce(): Plan | { error: string } {
  if (Deno.env.get("REPOREUSE_PARSER") === "wasm") {
    return { error: "REPOREUSE_PARSER=wasm turns the native parser off" };
  }
  const here = new URL("./native/", import.meta.url);
  if (here.protocol !== "file:") return { error: "the sources are not local files" };
  const ours = here.pathname;
  const runtime = `${nodeModulesDir()}tree-sitter/vendor/tree-sitter/lib`;
  const grammar = `${nodeModulesDir()}tree-sitter-python/src`;
  const sources = [
    `${runtime}/src/lib.c`,
    `${grammar}/parser.c`,
    `${grammar}/scanner.c`,
    `${ours}flat.c`,
    `${ours}arena.c`,
    `${ours}server.c`,
  ];
  const clientSource = `${ours}client.c`;
  const training = `${ours}train.py`;
  const path = Deno.env.get("PATH") ?? "";
  const cc = ["cc", "gcc", "clang"].map((c) => findExecutable(c, path)).find((c) => c);
  if (!cc) return { error: "no C compiler (cc, gcc or clang) on PATH" };
  let identity: string;
  try {
    // the compiler by its binary (no process is started: the workers of a package analysis wait
    // for this plan); whether it can do a profile-guided build is asked when building
    const real = Deno.realPathSync(cc);
    const st = Deno.statSync(real);
    const compiler = `${real} ${st.size} ${st.mtime?.getTime()}`;
    const texts = [
      ...sources,
      clientSource,
      training,
      `${runtime}/include/tree_sitter/api.h`,
      `${ours}arena.h`,
      `${ours}flat.h`,
      `${ours}shm.h`,
      `${nodeModulesDir()}tree-sitter/package.json`,
      `${nodeModulesDir()}tree-sitter-python/package.json`,
    ].map((f) => Deno.readTextFileSync(f));
    identity = [BUILD_VERSION, Deno.build.target, compiler, FLAGS.join(" "), ...texts].join("\0");
  } catch (e) {
    return { error: `the sources cannot be read (run \`deno install\`): ${e}` };
  }
  const key = sha256(identity).slice(0, 32);
  const dir = `${cacheRoot()}/native-v${BUILD_VERSION}/${key}`;
  return {
    key,
    files: {
      dir,
      client: `${dir}/libreporeuse-parse-client.so`,
      server: `${dir}/reporeuse-parse-server`,
      manifest: `${dir}/manifest.json`,
    },
    cc,
    flags: [...FLAGS, `-I${runtime}/include`, `-I${grammar}`],
    runtimeFlags: [`-I${runtime}/src`],
    runtime,
    sources,
    clientSource,
    training,
  };
}

/**
 * The native parser's files if it is built already (no build), else why not. Synchronous: a
 * package analysis asks while its file reads are in flight, which asynchronous checks would wait
 * behind.
 */
export function nativeParserFiles(): NativeBuild {
  const p = plan();
  if ("error" in p) return p;
  return existsSync(p.files.manifest) ? { files: p.files, built: false } : {
    error: "not built yet",
  };
}

function readManifest(path: string): Manifest | null {
  try {
    const m = JSON.parse(Deno.readTextFileSync(path));
    const ok = (r: unknown): r is Recorded =>
      typeof (r as Recorded)?.sha256 === "string" && typeof (r as Recorded)?.size === "number";
    return m?.version === BUILD_VERSION && ok(m.client) && ok(m.server) ? m : null;
  } catch {
    // no manifest, or a damaged one: the parser counts as not built
    return null;
  }
}

/**
 * Null when the native parser's files may be loaded and run, else why not: the manifest, the
 * client and the server must be in place no other user can write (lib/util/cache.ts `changeableByOthers`), and
 * each file's SHA-256 digest and size those the manifest recorded when they were built. A library
 * planted in their place is never loaded, so its code never runs.
 */
export function verifyNativeParser(files: NativeFiles): string | null {
  try {
    const root = cacheRoot();
    for (const f of [files.manifest, files.client, files.server]) {
      const st = Deno.lstatSync(f);
      if (!st.isFile) return `${f} is not a regular file`;
      const unsafe = changeableByOthers(f, existsSync(root) ? root : files.dir);
      if (unsafe) return `refused, another user could have changed it: ${unsafe}`;
    }
    const m = readManifest(files.manifest);
    if (!m) return `${files.manifest} is not a manifest of this build`;
    for (const [f, r] of [[files.client, m.client], [files.server, m.server]] as const) {
      const bytes = Deno.readFileSync(f);
      if (bytes.length !== r.size || sha256(bytes) !== r.sha256) {
        return `refused: ${f} does not match the digest recorded when it was built`;
      }
    }
    return null;
  } catch (e) {
    return `the native parser cannot be verified: ${e}`;
  }
}

/**
 * Builds the native parser into the cache root unless it is there (about 10 s on two cores,
 * once per machine and source version). One process builds at a time: the others wait for it
 * (a lock older than 10 minutes is taken as abandoned). Never throws: a failed build returns why,
 * and the wasm parser is used.
 */
export async function buildNativeParser(): Promise<NativeBuild> {
  const p = plan();
  if ("error" in p) return p;
  const { files } = p;
  if (await exists(files.manifest)) return { files, built: false };
  const lock = `${files.dir}/build.lock`;
  try {
    await Deno.mkdir(files.dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    return { error: `cannot write ${files.dir}: ${e}` };
  }
  const unsafe = changeableByOthers(files.dir, cacheRoot());
  if (unsafe) return { error: `refused to build where another user could write: ${unsafe}` };
  for (let waited = 0;; waited += 250) {
    try {
      (await Deno.open(lock, { createNew: true, write: true })).close();
      break;
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) return { error: `cannot write ${lock}: ${e}` };
      if (await exists(files.manifest)) return { files, built: false };
      const age = await Deno.stat(lock).then(
        (s) => Date.now() - (s.mtime?.getTime() ?? 0),
        () => 0,
      );
      // gone meanwhile (the other build ended): the next try takes the lock
      if (age > 600_000) await Deno.remove(lock).catch(() => {});
      else if (waited > 300_000) return { error: `${lock}: another build is still running` };
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  let work: string | undefined;
  try {
    // the process that held the lock before may have built it meanwhile
    if (await exists(files.manifest)) return { files, built: false };
    work = await Deno.makeTempDir({ dir: files.dir, prefix: "build-" });
    const client = `${work}/client.so`, server = `${work}/server`;
    const why = await compile([
      p.cc,
      ...p.flags,
      "-O2",
      "-shared",
      p.clientSource,
      "-o",
      client,
    ]);
    if (why) return { error: why };
    // a profile-guided build that fails for any reason leaves the plain one to try
    const unprofiled = !(await isGcc(p.cc))
      ? "the compiler is not GCC"
      : await serverBuild(p, work, server, true);
    if (unprofiled) {
      const why = await serverBuild(p, work, server, false);
      if (why) return { error: why };
    }
    const record = async (f: string): Promise<Recorded> => {
      const bytes = await Deno.readFile(f);
      return { sha256: sha256(bytes), size: bytes.length };
    };
    const manifest: Manifest = {
      version: BUILD_VERSION,
      key: p.key,
      client: await record(client),
      server: await record(server),
      profiled: unprofiled ?? true,
    };
    await Deno.chmod(client, 0o500);
    await Deno.chmod(server, 0o500);
    await Deno.rename(client, files.client);
    await Deno.rename(server, files.server);
    // written last: a manifest means a whole build
    await writeFileAtomic(files.manifest, JSON.stringify(manifest, null, 1) + "\n");
    return { files, built: true, profiled: manifest.profiled };
  } catch (e) {
    return { error: `building the native parser failed: ${e}` };
  } finally {
    // best effort in finally: a scratch left behind must not hide the build's result
    if (work) await Deno.remove(work, { recursive: true }).catch(() => {});
    // a lock left behind is stale after 10 minutes (above), then removed
    await Deno.remove(lock).catch(() => {});
  }
}

/**
 * Whether the compiler is GCC, whose profile-guided build (-fprofile-generate/-use) this module
 * drives; clang's needs llvm-profdata, so it builds plainly.
 */
async function isGcc(cc: string): Promise<boolean> {
  const r = await runProcess([cc, "--version"], { timeoutMs: 30_000 });
  return r.code === 0 && /Free Software Foundation/.test(r.stdout) && !/clang/i.test(r.stdout);
}

/** Runs a compiler command (or the training run); null when it succeeded, else why not. */
async function compile(
  argv: string[],
  what = `the C compiler (${argv[0]})`,
): Promise<string | null> {
  const r = await runProcess(argv, { timeoutMs: 600_000 });
  if (r.code === 0 && !r.timedOut) return null;
  const why = r.timedOut ? "timed out" : r.stderr.trim().split("\n").slice(-3).join(" / ");
  return `${what} failed: ${why}`;
}

/** Commands run at most `limit` at a time; the first failure's reason, or null. */
async function compileAll(argvs: string[][], limit: number): Promise<string | null> {
  let failed: string | null = null;
  await eachLimited(argvs, async (argv) => {
    if (failed === null) failed = await compile(argv);
  }, limit);
  return failed;
}

/**
 * The parse server built into `out`; null when built, else why not. Profiled (GCC): its sources
 * compiled instrumented, linked, run once on the training input, then compiled again with that
 * profile (code the run never reached optimised as usual: `-fprofile-partial-training`) and
 * link-time optimised; about a quarter less CPU per parse than a plain build. Plain: -O3.
 */
async function serverBuild(
  p: Plan,
  work: string,
  out: string,
  profiled: boolean,
): Promise<string | null> {
  const profile = `${work}/profile`;
  // object paths name the profile's data files: the same in both passes
  const objects = p.sources.map((f, i) => `${work}/${i}-${f.slice(f.lastIndexOf("/") + 1)}.o`);
  const flags = profiled ? [...p.flags, "-flto=auto"] : p.flags;
  // only the runtime's own sources see its private headers
  const each = (extra: string[]) =>
    p.sources.map((f, i) => [
      p.cc,
      ...flags,
      ...(f.startsWith(p.runtime) ? p.runtimeFlags : []),
      ...extra,
      "-c",
      f,
      "-o",
      objects[i],
    ]);
  const cores = navigator.hardwareConcurrency ?? 1;
  const link = (extra: string[], to: string) =>
    compile([p.cc, ...flags, ...extra, ...objects, "-o", to]);
  const steps: (() => Promise<string | null>)[] = profiled
    ? [
      () => compileAll(each([`-fprofile-generate=${profile}`]), cores),
      () => link([`-fprofile-generate=${profile}`], `${work}/train`),
      () => compile([`${work}/train`, "TRAIN", p.training], "the training run"),
      () =>
        compileAll(
          each([`-fprofile-use=${profile}`, "-fprofile-partial-training", "-Wno-missing-profile"]),
          cores,
        ),
      () => link([], out),
    ]
    : [() => compileAll(each([]), cores), () => link([], out)];
  for (const step of steps) {
    const why = await step();
    if (why) return why;
  }
  return null;
}
