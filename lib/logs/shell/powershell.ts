/**
 * PowerShell actions (Codex CLI on Windows runs every shell command as `powershell -Command …`;
 * agents wrap commands in `powershell -Command "…"` / `pwsh -c '…'`): the script is split into
 * statements and pipelines, each pipeline simulated stage by stage over the workspace like a
 * bash one (commands.ts), and its events credited by the same alignment and content check as
 * bash (align.ts `segEvents`, `TurnWorkspace.credit`).
 *
 * Simulated (Microsoft's cmdlet reference; parameters case-insensitive, unambiguous prefixes,
 * `-Name:value`):
 * - `Get-Content` (aliases `gc`, `cat`, `type`): `-Path`/positional and `-LiteralPath` operands
 *   (comma lists), `-TotalCount`/`-Head`/`-First` N, `-Tail`/`-Last` N, `-Raw` (the text as one
 *   string: a final newline prints one empty line more); `(Get-Content f)[a..b]` indexes 0-based;
 * - `Select-Object -First/-Last/-Skip/-SkipLast/-Index` over a pipe of lines;
 * - `Select-String` (`sls`) over files prints `path:N:line` (with `-Context`, `> ` before a match
 *   and two spaces before a context line): those numbers are read back and checked;
 * - `ForEach-Object` after one file's lines: numbers the agent printed (`"{0,4}: {1}" -f …`) are
 *   read back and checked;
 * - `Write-Output`/`echo`/`Write-Host` of literals, `Set-Location`/`cd`, `Get-ChildItem`/`ls`/`dir`
 *   (a listing), `Set-Content`/`Out-File`/`Add-Content`/`New-Item`/`Remove-Item`/`Copy-Item`/
 *   `Move-Item` and `>`/`>>` (writes), `cmd /c type f`; any other command runs as the bash
 *   simulation runs it (`rg`, `git`, `python`, …).
 *
 * Anything else (`if`, `foreach`, script blocks, variables in operands) is not guessed: its
 * output is not credited. Windows PowerShell's profile-loading error (printed on stderr after the
 * output when scripts are disabled) is removed from the observation before alignment.
 *
 * @module
 */
import type { Event } from "../types.ts";
import { makeEvent } from "../event.ts";
import { splitLines, type TurnWorkspace, UNKNOWN } from "../workspace.ts";
import { type Call, type OutLine, runStage, type StageResult, type Stream } from "./commands.ts";
import { existing, fileArgs, resolve, shownPath, tagged } from "./stream.ts";
import { isLoud, type Seg } from "./interp.ts";
import { segEvents, type ShellContext, type ShellObservation } from "./align.ts";

// ------------------------------------------------------------------------------ tokens

/** One word of a PowerShell command: its literal value (undefined when it expands), or a group. */
interface Word {
  /** The source text. */
  raw: string;
  /** Literal value; undefined when it depends on a variable or subexpression. */
  value?: string;
  /** A comma list (`a,b`): each element's value. */
  list?: (string | undefined)[];
  /** True for a bare word (parameters are bare words starting with `-`). */
  bare: boolean;
  /** `( … )`, `{ … }`, `@( … )`, `$( … )`, `[ … ]`: the kind of bracket and the inner text. */
  group?: { open: string; inner: string };
  /** An operator token: `|`, `;`, `&&`, `||`, `>`, `>>`, `2>`, `2>&1`, `*>`, … */
  op?: string;
}

const OPEN: Record<string, string> = { "(": ")", "{": "}", "[": "]" };

/** Reads a balanced group starting at `i` (an opening bracket); returns the index after it. */
function balanced(s: string, i: number): number {
  const stack = [OPEN[s[i]]];
  let j = i + 1;
  while (j < s.length && stack.length) {
    const c = s[j];
    if (c === "'") {
      j = s.indexOf("'", j + 1);
      if (j < 0) return s.length;
      while (s[j + 1] === "'") j = s.indexOf("'", j + 2);
      if (j < 0) return s.length;
    } else if (c === '"') {
      j++;
      while (j < s.length && s[j] !== '"') j += s[j] === "`" ? 2 : 1;
    } else if (c === "`") j++;
    else if (c in OPEN) stack.push(OPEN[c]);
    else if (c === stack[stack.length - 1]) stack.pop();
    j++;
  }
  return j;
}

const ESC: Record<string, string> = { n: "\n", t: "\t", r: "\r", "0": "\0", a: "\x07" };

/**
 * The words and operators of a PowerShell script (quotes removed, backtick escapes resolved;
 * `$var` and `$(…)` inside a word make its value unknown).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { psTokens } from "./powershell.ts";
 * const t = psTokens(`Get-Content -Path 'a b.py' -TotalCount 5 | Select-Object -First 2; echo "x\`ny"`);
 * assert.deepEqual(t.map((w) => w.op ?? w.value), ["Get-Content", "-Path", "a b.py", "-TotalCount", "5", "|", "Select-Object", "-First", "2", ";", "echo", "x\ny"]);
 * assert.equal(psTokens("gc $f")[1].value, undefined);
 * ```
 */
export function psTokens(script: string): Word[] {
  const out: Word[] = [];
  const s = script;
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "`" && s[i + 1] === "\n") {
      i += 2; // line continuation
      continue;
    }
    if (c === "#") {
      while (i < s.length && s[i] !== "\n") i++;
      continue;
    }
    if (c === "\n" || c === ";") {
      out.push({ raw: c, op: ";", bare: false });
      i++;
      continue;
    }
    const two = s.slice(i, i + 2);
    if (two === "&&" || two === "||") {
      out.push({ raw: two, op: two, bare: false });
      i += 2;
      continue;
    }
    if (c === "|") {
      out.push({ raw: c, op: "|", bare: false });
      i++;
      continue;
    }
    const redir = c === ">" || (/[2-6*]/.test(c) && s[i + 1] === ">")
      ? s.slice(i, i + 5).match(/^(?:[2-6*]?>>?(?:&[12])?|>>?)/)
      : null;
    if (redir && redir[0]) {
      out.push({ raw: redir[0], op: redir[0], bare: false });
      i += redir[0].length;
      continue;
    }
    // one word: quoted parts, bare characters, groups; commas join a list
    const start = i;
    let value: string | undefined = "";
    let bare = true;
    let group: Word["group"];
    const list: (string | undefined)[] = [];
    let isList = false;
    while (i < s.length) {
      const ch = s[i];
      if (" \t\r\n;|".includes(ch)) break;
      if (ch === "&" && s[i + 1] === "&") break;
      if (ch === ">" && i > start) break;
      if (ch === "'") {
        bare = false;
        let j = i + 1;
        let v = "";
        while (j < s.length) {
          if (s[j] === "'" && s[j + 1] === "'") {
            v += "'";
            j += 2;
          } else if (s[j] === "'") break;
          else v += s[j++];
        }
        if (value !== undefined) value += v;
        i = j + 1;
        continue;
      }
      if (ch === '"') {
        bare = false;
        let j = i + 1;
        let v: string | undefined = "";
        while (j < s.length && s[j] !== '"') {
          if (s[j] === "`" && j + 1 < s.length) {
            const e = s[j + 1];
            if (v !== undefined) v += ESC[e] ?? e;
            j += 2;
          } else if (s[j] === '"' && s[j + 1] === '"') {
            if (v !== undefined) v += '"';
            j += 2;
          } else {
            if (s[j] === "$" && /[\w({:]/.test(s[j + 1] ?? "")) v = undefined;
            else if (v !== undefined) v += s[j];
            j++;
          }
        }
        if (value !== undefined) value = v === undefined ? undefined : value + v;
        i = j + 1;
        continue;
      }
      if (
        ch === "(" || ch === "{" || ch === "[" || ((ch === "@" || ch === "$") && s[i + 1] === "(")
      ) {
        const at = ch === "@" || ch === "$" ? i + 1 : i;
        const end = balanced(s, at);
        if (i === start && (ch === "(" || ch === "{" || ch === "@") || ch === "[" && i > start) {
          // a group word (or an index after one)
          group ??= { open: s[at], inner: s.slice(at + 1, end - 1) };
        }
        value = undefined;
        bare = false;
        i = end;
        continue;
      }
      if (ch === "`" && i + 1 < s.length) {
        if (value !== undefined) value += s[i + 1];
        i += 2;
        continue;
      }
      if (ch === ",") {
        isList = true;
        list.push(value);
        value = "";
        i++;
        continue;
      }
      if (ch === "$") value = undefined;
      else if (value !== undefined) value += ch;
      i++;
    }
    const raw = s.slice(start, i);
    if (isList) {
      list.push(value);
      out.push({ raw, list, bare, value: undefined });
    } else out.push({ raw, value, bare, group });
    if (i === start) i++; // never loop on an unexpected character
  }
  return out;
}

// --------------------------------------------------------------------------- wrappers

/**
 * The script of a `powershell`/`pwsh` command line (argv or one string): the text after
 * `-Command`/`-c` (the rest of the line), or the decoded `-EncodedCommand`; undefined when the
 * command is not such a wrapper.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { powershellScript } from "./powershell.ts";
 * assert.equal(powershellScript(["powershell.exe", "-NoProfile", "-Command", "gc a.py"]), "gc a.py");
 * assert.equal(powershellScript(`pwsh -NoLogo -c "Get-Content -Tail 3 a.py"`), "Get-Content -Tail 3 a.py");
 * assert.equal(powershellScript("bash -lc ls"), undefined);
 * ```
 */
export function powershellScript(command: string | readonly string[]): string | undefined {
  const argv = typeof command === "string"
    ? psTokens(command).filter((w) => !w.op).map((w) => w.value ?? w.raw)
    : [...command];
  if (!argv.length || !/^(?:.*[\\/])?(?:pwsh|powershell)(?:\.exe)?$/i.test(argv[0])) {
    return undefined;
  }
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k].toLowerCase();
    if (/^[-/](?:c|co|com|comm|comma|comman|command)$/.test(a)) {
      return argv.slice(k + 1).join(" ");
    }
    if (/^[-/]e(?:c|ncodedcommand|nc|nco|ncod|ncode|ncoded)?$/.test(a)) {
      const b64 = argv[k + 1];
      if (b64 === undefined) return undefined;
      try {
        const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
        return new TextDecoder("utf-16le").decode(bytes);
      } catch {
        return undefined; // not base64: a command this analysis cannot read (an `other` event)
      }
    }
    if (/^[-/](?:f|file)$/.test(a)) return undefined; // a script file: not known
    if (
      /^[-/](?:executionpolicy|ep|ex|windowstyle|w|outputformat|of|inputformat|if|workingdirectory|wd|configurationname|version|v|settingsfile)$/
        .test(a)
    ) {
      k++;
    } else if (!a.startsWith("-") && !a.startsWith("/")) {
      return argv.slice(k).join(" "); // the command is the rest of the line
    }
  }
  return undefined;
}

// --------------------------------------------------------------------------- parameters

/** A cmdlet's parameters: canonical name → aliases; `valued` take a value. */
interface Params {
  names: Record<string, string[]>;
  valued: Set<string>;
  positional: string[];
}

interface Bound {
  named: Map<string, Word | true>;
  positional: Word[];
  /** A parameter not known or ambiguous. */
  unknown?: string;
}

const COMMON: Record<string, string[]> = {
  ErrorAction: ["ea"],
  WarningAction: ["wa"],
  ErrorVariable: ["ev"],
  OutVariable: ["ov"],
  Verbose: ["vb"],
  Debug: ["db"],
};

/** Binds the words after a cmdlet name to its parameters (PowerShell's prefix matching). */
function bind(words: Word[], p: Params): Bound {
  const named = new Map<string, Word | true>();
  const positional: Word[] = [];
  const all: [string, string][] = [];
  for (const [name, aliases] of Object.entries({ ...p.names, ...COMMON })) {
    all.push([name.toLowerCase(), name]);
    for (const a of aliases) all.push([a.toLowerCase(), name]);
  }
  const valued = new Set([
    ...p.valued,
    "ErrorAction",
    "WarningAction",
    "ErrorVariable",
    "OutVariable",
  ]);
  let unknown: string | undefined;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const m = w.bare && w.value !== undefined ? w.value.match(/^-([A-Za-z][\w-]*)(:(.*))?$/) : null;
    if (!m) {
      positional.push(w);
      continue;
    }
    const key = m[1].toLowerCase();
    const exact = all.find(([k]) => k === key);
    const hits = exact
      ? [exact[1]]
      : [...new Set(all.filter(([k]) => k.startsWith(key)).map(([, n]) => n))];
    if (hits.length !== 1) {
      unknown ??= w.value;
      continue;
    }
    const name = hits[0];
    if (valued.has(name)) {
      if (m[2] !== undefined) named.set(name, { raw: m[3], value: m[3], bare: true });
      else if (i + 1 < words.length) named.set(name, words[++i]);
      else unknown ??= w.value;
    } else {
      named.set(name, true);
      if (m[2] !== undefined && /^\$false$/i.test(m[3])) named.delete(name);
    }
  }
  for (const [k, n] of p.positional.entries()) {
    if (!named.has(n) && positional[k]) named.set(n, positional[k]);
  }
  return { named, positional: positional.slice(p.positional.length), unknown };
}

/** The values of a word (a comma list or one value). */
function valuesOf(w: Word | true | undefined): (string | undefined)[] {
  if (w === undefined || w === true) return [];
  return w.list ?? [w.value];
}

/** An integer parameter value, or undefined. */
function intOf(w: Word | true | undefined): number | undefined {
  if (w === undefined || w === true || w.value === undefined) return undefined;
  return /^-?\d+$/.test(w.value) ? Number(w.value) : undefined;
}

const GET_CONTENT: Params = {
  names: {
    Path: [],
    LiteralPath: ["PSPath", "LP"],
    TotalCount: ["First", "Head"],
    Tail: ["Last"],
    Raw: [],
    ReadCount: [],
    Encoding: [],
    Delimiter: [],
    Wait: [],
    Force: [],
    Filter: [],
    Include: [],
    Exclude: [],
    Stream: [],
    AsByteStream: [],
    Credential: [],
  },
  valued: new Set([
    "Path",
    "LiteralPath",
    "TotalCount",
    "Tail",
    "ReadCount",
    "Encoding",
    "Delimiter",
    "Filter",
    "Include",
    "Exclude",
    "Stream",
    "Credential",
  ]),
  positional: ["Path"],
};

const SELECT_OBJECT: Params = {
  names: {
    Property: [],
    First: [],
    Last: [],
    Skip: [],
    SkipLast: [],
    Index: [],
    Unique: [],
    ExpandProperty: [],
    ExcludeProperty: [],
    Wait: [],
    CaseInsensitive: [],
  },
  valued: new Set([
    "Property",
    "First",
    "Last",
    "Skip",
    "SkipLast",
    "Index",
    "ExpandProperty",
    "ExcludeProperty",
  ]),
  positional: ["Property"],
};

const SELECT_STRING: Params = {
  names: {
    Pattern: [],
    Path: [],
    LiteralPath: ["PSPath", "LP"],
    SimpleMatch: [],
    CaseSensitive: [],
    Context: [],
    NotMatch: [],
    AllMatches: [],
    List: [],
    Quiet: [],
    Encoding: [],
    Include: [],
    Exclude: [],
    NoEmphasis: [],
    Raw: [],
    Culture: [],
    InputObject: [],
  },
  valued: new Set([
    "Pattern",
    "Path",
    "LiteralPath",
    "Context",
    "Encoding",
    "Include",
    "Exclude",
    "Culture",
    "InputObject",
  ]),
  positional: ["Pattern", "Path"],
};

const LOCATION: Params = {
  names: { Path: [], LiteralPath: ["PSPath", "LP"], PassThru: [], StackName: [] },
  valued: new Set(["Path", "LiteralPath", "StackName"]),
  positional: ["Path"],
};

const CHILD_ITEM: Params = {
  names: {
    Path: [],
    LiteralPath: ["PSPath", "LP"],
    Filter: [],
    Include: [],
    Exclude: [],
    Recurse: ["s"],
    Depth: [],
    Force: [],
    Name: [],
    File: [],
    Directory: ["ad", "d"],
    Hidden: ["ah", "h"],
    Attributes: [],
    FollowSymlink: [],
    ReadOnly: [],
    System: [],
  },
  valued: new Set(["Path", "LiteralPath", "Filter", "Include", "Exclude", "Depth", "Attributes"]),
  positional: ["Path", "Filter"],
};

const WRITE_ITEM: Params = {
  names: {
    Path: [],
    LiteralPath: ["PSPath", "LP"],
    FilePath: [],
    Value: [],
    Encoding: [],
    Force: [],
    NoNewline: [],
    Append: [],
    InputObject: [],
    Width: [],
    ItemType: ["Type"],
    Name: [],
    Recurse: [],
    Destination: [],
    NewName: [],
    Confirm: [],
    WhatIf: [],
    NoClobber: [],
    PassThru: [],
  },
  valued: new Set([
    "Path",
    "LiteralPath",
    "FilePath",
    "Value",
    "Encoding",
    "InputObject",
    "Width",
    "ItemType",
    "Name",
    "Destination",
    "NewName",
  ]),
  positional: ["Path"],
};

// --------------------------------------------------------------------------- cmdlets

/** Canonical cmdlet of a name or alias (lower case), or undefined for a native command. */
const CMDLETS: Record<string, string> = {};
for (
  const [name, aliases] of Object.entries({
    "get-content": ["gc", "cat", "type"],
    "select-object": ["select"],
    "select-string": ["sls"],
    "set-location": ["cd", "sl", "chdir"],
    "push-location": ["pushd"],
    "pop-location": ["popd"],
    "get-location": ["pwd", "gl"],
    "get-childitem": ["ls", "dir", "gci"],
    "write-output": ["echo", "write"],
    "write-host": [],
    "out-host": ["oh"],
    "out-default": [],
    "out-null": [],
    "set-content": ["sc"],
    "add-content": ["ac"],
    "out-file": [],
    "new-item": ["ni", "mkdir", "md"],
    "remove-item": ["rm", "del", "ri", "rd", "rmdir", "erase"],
    "copy-item": ["cp", "copy", "cpi"],
    "move-item": ["mv", "move", "mi"],
    "rename-item": ["ren", "rni"],
    "foreach-object": ["%", "foreach"],
    "where-object": ["?", "where"],
    "test-path": [],
    "measure-object": ["measure"],
    "sort-object": ["sort"],
    "format-table": ["ft"],
    "format-list": ["fl"],
    "out-string": [],
    "tee-object": ["tee"],
    "write-error": [],
    "write-warning": [],
    "set-strictmode": [],
    "set-executionpolicy": [],
    "import-module": ["ipmo"],
    "start-sleep": ["sleep"],
  })
) {
  CMDLETS[name] = name;
  for (const a of aliases) CMDLETS[a] = name;
}

/** Cmdlets that print nothing the reader tracks and change nothing. */
const QUIET = new Set([
  "set-strictmode",
  "set-executionpolicy",
  "import-module",
  "start-sleep",
  "out-null",
  "push-location",
  "pop-location",
]);

/** Cmdlets whose output is their input formatted in a way the reader does not reproduce. */
const FORMATTERS = new Set([
  "where-object",
  "measure-object",
  "sort-object",
  "format-table",
  "format-list",
  "out-string",
]);

interface PsCall {
  cmdlet: string | undefined;
  name: string;
  words: Word[];
  input?: Stream;
  ws: TurnWorkspace;
  cwd: string | undefined;
  quietErrors: boolean;
  /** The previous stage of the pipeline, when there is one. */
  prev?: { cmdlet?: string; res: StageResult };
}

function callOf(c: PsCall, name: string, args: (string | undefined)[]): Call {
  return {
    name,
    args,
    globs: args.map((a) => a !== undefined && /[*?[]/.test(a)),
    input: c.input,
    ws: c.ws,
    cwd: c.cwd,
    quietErrors: c.quietErrors,
  };
}

function opaque(kind: StageResult["kind"] = "run", other?: string): StageResult {
  return { stream: { lines: null }, kind, paths: [], other };
}

/** `Get-Content`: the lines of its files (the window its parameters select). */
function getContent(c: PsCall): StageResult {
  const b = bind(c.words, GET_CONTENT);
  if (b.unknown) return opaque("read", `Get-Content parameter not understood: ${b.unknown}`);
  if (b.named.has("Delimiter") || b.named.has("AsByteStream") || b.named.has("Stream")) {
    return opaque("read", "Get-Content with -Delimiter/-AsByteStream/-Stream is not simulated");
  }
  const literal = b.named.has("LiteralPath");
  const names = [
    ...valuesOf(b.named.get(literal ? "LiteralPath" : "Path")),
    ...b.positional.flatMap((w) => valuesOf(w)),
  ];
  if (!names.length) return { stream: c.input ?? { lines: null }, kind: "run", paths: [] };
  if (names.some((n) => n === undefined)) {
    return opaque("read", "file name not known (a variable or expression)");
  }
  if (!literal && names.some((n) => /[*?[]/.test(n!))) {
    return opaque("read", "wildcard file names are not expanded");
  }
  const call = callOf(c, "cat", names);
  const { files, outside } = fileArgs(call, names as string[]);
  const head = intOf(b.named.get("TotalCount"));
  const tail = intOf(b.named.get("Tail"));
  const raw = b.named.has("Raw");
  if (
    (b.named.has("TotalCount") && head === undefined) || (b.named.has("Tail") && tail === undefined)
  ) {
    return opaque("read", "line count not known");
  }
  let lines: OutLine[] | null = [];
  let failed = false;
  for (const f of files) {
    if (f.content === undefined) {
      // an error record (several lines, wrapped to the console): its size is not known
      failed = true;
      if (!c.quietErrors) lines = null;
      continue;
    }
    if (f.content === UNKNOWN) {
      lines = null;
      continue;
    }
    let own = tagged(f.rel!, f.content);
    if (head !== undefined && head >= 0) own = own.slice(0, head);
    if (tail !== undefined) own = tail > 0 ? own.slice(Math.max(0, own.length - tail)) : [];
    if (lines) {
      for (const l of own) lines.push(l);
      // -Raw: one string; when it ends with a newline the host prints one empty line after it
      if (raw && f.content.endsWith("\n")) lines.push({ text: "" });
    }
  }
  const ex = existing(files);
  const single = ex.length === 1 && files.length === 1 ? ex[0] : undefined;
  const start = tail !== undefined ? undefined : 1;
  return {
    stream: {
      lines,
      declared: single && start !== undefined
        ? {
          file: single,
          start,
          end: head !== undefined && head >= 0 ? head : undefined,
          trailer: raw ? 1 : 0,
        }
        : undefined,
    },
    kind: "read",
    paths: ex,
    outside,
    failed: failed && !ex.length,
  };
}

/** `Select-Object` over a pipe of lines: `-First/-Last/-Skip/-SkipLast/-Index`. */
function selectObject(c: PsCall): StageResult {
  const b = bind(c.words, SELECT_OBJECT);
  const input = c.input ?? { lines: null };
  if (
    b.unknown || b.named.has("Property") || b.named.has("ExpandProperty") || b.named.has("Unique")
  ) {
    return { stream: { lines: null }, kind: "run", paths: [] };
  }
  const nums = (k: string) => b.named.has(k) ? intOf(b.named.get(k)) ?? NaN : undefined;
  const first = nums("First"),
    last = nums("Last"),
    skip = nums("Skip"),
    skipLast = nums("SkipLast");
  if ([first, last, skip, skipLast].some((n) => n !== undefined && !(n >= 0))) {
    return { stream: { lines: null }, kind: "run", paths: [] };
  }
  const index = b.named.has("Index")
    ? valuesOf(b.named.get("Index")).map((
      v,
    ) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : NaN))
    : undefined;
  if (index?.some((n) => Number.isNaN(n))) {
    return { stream: { lines: null }, kind: "run", paths: [] };
  }
  const pick = <T>(all: T[]): T[] => {
    if (index) {
      return [...new Set(index)].sort((a, b) => a - b).filter((k) => k < all.length).map((k) =>
        all[k]
      );
    }
    let l = all;
    if (last !== undefined) {
      // with -Last, -Skip counts from the end
      const end = l.length - (skip ?? 0);
      l = l.slice(Math.max(0, end - last), Math.max(0, end));
      if (first !== undefined) l = l.slice(0, first);
      return l;
    }
    if (skip !== undefined) l = l.slice(skip);
    if (skipLast !== undefined) l = l.slice(0, Math.max(0, l.length - skipLast));
    if (first !== undefined) l = l.slice(0, first);
    return l;
  };
  const lines = input.lines ? pick(input.lines) : null;
  let declared = input.declared;
  if (declared && !index && last === undefined && skipLast === undefined) {
    const start = declared.start + (skip ?? 0);
    const ends = [
      declared.end,
      first !== undefined ? start + first - 1 : undefined,
    ].filter((e): e is number => e !== undefined);
    declared = { file: declared.file, start, end: ends.length ? Math.min(...ends) : undefined };
  } else declared = undefined;
  return { stream: { lines, declared, numbered: input.numbered }, kind: "run", paths: [] };
}

/** `Select-String`: over files its output carries `path:N:` (read back); over a pipe it does not. */
function selectString(c: PsCall): StageResult {
  const b = bind(c.words, SELECT_STRING);
  if (b.unknown) return opaque("search", `Select-String parameter not understood: ${b.unknown}`);
  const literal = b.named.has("LiteralPath");
  const names = valuesOf(b.named.get(literal ? "LiteralPath" : "Path"));
  if (b.named.has("Quiet")) return { stream: { lines: null }, kind: "search", paths: [] };
  if (!names.length) {
    // files piped from Get-ChildItem print as files do (`path:N:line`); piped lines print
    // without numbers (`InputStream`)
    if (c.prev?.cmdlet === "get-childitem") {
      return {
        stream: { lines: null, numbered: { style: "sls" } },
        kind: "search",
        paths: c.prev.res.paths,
        outside: c.prev.res.outside,
        primary: true,
      };
    }
    return { stream: { lines: null }, kind: "search", paths: [] };
  }
  const call = callOf(c, "grep", names);
  const rels: string[] = [];
  const outside: string[] = [];
  let unknownName = false;
  for (const n of names) {
    if (n === undefined) {
      unknownName = true;
      continue;
    }
    const glob = !literal && /[*?[]/.test(n);
    const target = glob ? n.replace(/[\\/][^\\/]*[*?[][^\\/]*$/, "") || "." : n;
    const rel = resolve(call, glob && !/[\\/]/.test(n) ? "." : target);
    if (rel === undefined) outside.push(n);
    else rels.push(shownPath(rel));
  }
  return {
    stream: { lines: null, numbered: { style: "sls" } },
    kind: "search",
    paths: [...new Set(rels)],
    outside,
    other: unknownName && !rels.length
      ? "file name not known (a variable or expression)"
      : undefined,
  };
}

/** `ForEach-Object` after one file's lines: the numbers the script printed are read back. */
function forEach(c: PsCall): StageResult {
  const files = new Set((c.input?.lines ?? []).map((l) => l.file).filter((f) => f !== undefined));
  const file = c.input?.declared?.file ?? (files.size === 1 ? [...files][0] : undefined);
  const body = c.words.map((w) => w.raw).join(" ");
  const numbers = /ReadCount|\$i\b|\+\+|-f\b|\$n\b|\$ln\b|\$line(?:No|Number)?\b/i.test(body);
  return {
    stream: { lines: null, numbered: file && numbers ? { style: "agent", file } : undefined },
    kind: "run",
    paths: [],
  };
}

function location(c: PsCall): StageResult {
  const b = bind(c.words, LOCATION);
  const w = b.named.get("LiteralPath") ?? b.named.get("Path");
  const v = valuesOf(w)[0];
  if (w === undefined) return { stream: { lines: [] }, kind: "run", paths: [], cd: null };
  const rel = v === undefined ? null : resolve(callOf(c, "cd", []), v) ?? null;
  return { stream: { lines: [] }, kind: "run", paths: [], cd: rel };
}

function childItem(c: PsCall): StageResult {
  const b = bind(c.words, CHILD_ITEM);
  const names = valuesOf(b.named.get("LiteralPath") ?? b.named.get("Path"));
  const call = callOf(c, "ls", []);
  const dirs = names.length ? names : ["."];
  const rels: string[] = [];
  const outside: string[] = [];
  for (const d of dirs) {
    if (d === undefined) continue;
    const target = /[*?[]/.test(d) ? d.replace(/[\\/]?[^\\/]*[*?[][^\\/]*$/, "") || "." : d;
    const rel = resolve(call, target);
    if (rel === undefined) outside.push(d);
    else rels.push(shownPath(rel));
  }
  return { stream: { lines: null }, kind: "list", paths: [...new Set(rels)], outside };
}

function writeOutput(c: PsCall, host: boolean): StageResult {
  const vals = c.words.filter((w) => !(host && w.bare && /^-/.test(w.value ?? ""))).flatMap((w) =>
    w.list ?? [w.value]
  );
  if (vals.some((v) => v === undefined)) return opaque();
  const lines = vals.flatMap((v) => splitLines(v! + "\n").map((t) => ({ text: t })));
  return { stream: { lines: host ? lines : lines }, kind: "run", paths: [] };
}

/** Writes: the items' content becomes unknown (encodings and formatting are not reproduced). */
function writeItem(c: PsCall, cmdlet: string): StageResult {
  const b = bind(c.words, WRITE_ITEM);
  const call = callOf(c, "touch", []);
  const targets = [
    ...valuesOf(b.named.get("LiteralPath") ?? b.named.get("Path") ?? b.named.get("FilePath")),
  ];
  const writes: NonNullable<StageResult["writes"]> = [];
  const content = (): string | typeof UNKNOWN | null => cmdlet === "remove-item" ? null : UNKNOWN;
  for (const t of targets) {
    if (t === undefined) continue;
    const base = resolve(call, t);
    if (base === undefined) continue;
    if (cmdlet === "new-item") {
      const type = valuesOf(b.named.get("ItemType"))[0]?.toLowerCase();
      if (type === "directory") continue;
      const name = valuesOf(b.named.get("Name"))[0];
      const rel = name ? resolve(call, `${t}/${name}`) : base;
      if (rel) {
        writes.push({ path: rel, content: b.named.has("Value") ? UNKNOWN : "" });
      }
      continue;
    }
    if (cmdlet === "copy-item" || cmdlet === "move-item" || cmdlet === "rename-item") {
      const dest = valuesOf(b.named.get(cmdlet === "rename-item" ? "NewName" : "Destination"))[0] ??
        b.positional.map((w) => w.value)[0];
      const d = dest === undefined
        ? undefined
        : resolve(call, cmdlet === "rename-item" && !/[\\/]/.test(dest) ? `${t}/../${dest}` : dest);
      const text = c.ws.read(base);
      if (d !== undefined && text !== undefined) writes.push({ path: d, content: text });
      if (cmdlet !== "copy-item" && text !== undefined) writes.push({ path: base, content: null });
      continue;
    }
    writes.push({ path: base, content: content() });
  }
  return {
    stream: { lines: cmdlet === "out-file" || cmdlet === "set-content" ? [] : null },
    kind: "write",
    paths: writes.map((w) => w.path),
    writes,
  };
}

/** Runs one stage of a PowerShell pipeline. */
function runPsStage(c: PsCall): StageResult {
  switch (c.cmdlet) {
    case "get-content":
      return getContent(c);
    case "select-object":
      return selectObject(c);
    case "select-string":
      return selectString(c);
    case "foreach-object":
      return forEach(c);
    case "set-location":
      return location(c);
    case "get-childitem":
      return childItem(c);
    case "write-output":
      return writeOutput(c, false);
    case "write-host":
    case "out-host":
    case "out-default":
      return c.cmdlet === "write-host"
        ? writeOutput(c, true)
        : { stream: c.input ?? { lines: null }, kind: "run", paths: [] };
    case "tee-object":
      return { stream: c.input ?? { lines: null }, kind: "run", paths: [] };
    case "set-content":
    case "add-content":
    case "out-file":
    case "new-item":
    case "remove-item":
    case "copy-item":
    case "move-item":
    case "rename-item":
      return writeItem(c, c.cmdlet);
    case "get-location":
    case "test-path":
    case "write-error":
    case "write-warning":
      return opaque();
  }
  if (c.cmdlet && QUIET.has(c.cmdlet)) return { stream: { lines: [] }, kind: "run", paths: [] };
  if (c.cmdlet && FORMATTERS.has(c.cmdlet)) {
    return { stream: { lines: null, numbered: c.input?.numbered }, kind: "run", paths: [] };
  }
  // a native command: as the bash simulation runs it (`cmd /c type f` is Get-Content)
  const args = c.words.flatMap((w) => w.list ?? [w.value]);
  const name = c.name.replace(/^.*[\\/]/, "").replace(/\.exe$/i, "").toLowerCase();
  if (name === "cmd" && /^\/c$/i.test(args[0] ?? "") && /^type$/i.test(args[1] ?? "")) {
    return getContent({ ...c, words: c.words.slice(2).map((w) => ({ ...w, bare: false })) });
  }
  if (/^[a-z]+-[a-z]+$/i.test(name)) return opaque(); // another cmdlet
  return runStage(callOf(c, name, args));
}

// --------------------------------------------------------------------------- statements

const KEYWORDS = new Set([
  "if",
  "elseif",
  "else",
  "foreach",
  "for",
  "while",
  "do",
  "switch",
  "try",
  "catch",
  "finally",
  "function",
  "filter",
  "param",
  "return",
  "break",
  "continue",
  "throw",
  "trap",
  "begin",
  "process",
  "end",
  "class",
  "using",
]);

/** A statement: its pipelines' stages, with the operator before it. */
interface Stmt {
  op: string;
  stages: Word[][];
  text: string;
}

function statements(words: Word[], script: string): Stmt[] {
  const out: Stmt[] = [];
  let cur: Word[][] = [[]];
  let op = ";";
  const flush = (next: string) => {
    if (cur.some((s) => s.length)) {
      const text = cur.map((s) => s.map((w) => w.raw).join(" ")).join(" | ");
      out.push({ op, stages: cur, text });
    }
    cur = [[]];
    op = next;
  };
  for (const w of words) {
    if (w.op === ";" || w.op === "&&" || w.op === "||") flush(w.op);
    else if (w.op === "|") cur.push([]);
    else cur[cur.length - 1].push(w);
  }
  flush(";");
  void script;
  return out;
}

/** Indexes of `(…)[a..b]`, `[i]`, `[a,b]` (0-based, negative from the end), or undefined. */
function indexes(spec: string, length: number): number[] | undefined {
  const out: number[] = [];
  for (const part of spec.split(",")) {
    const p = part.trim();
    const r = p.match(/^(-?\d+)\s*\.\.\s*(-?\d+)$/);
    const at = (n: number) => (n < 0 ? length + n : n);
    if (r) {
      const a = Number(r[1]), b = Number(r[2]);
      const step = a <= b ? 1 : -1;
      for (let k = a; step > 0 ? k <= b : k >= b; k += step) out.push(at(k));
    } else if (/^-?\d+$/.test(p)) out.push(at(Number(p)));
    else return undefined;
  }
  return out;
}

/** Simulates the statements of a script as segments (as bash's Interp does). */
class PsInterp {
  segs: Seg[] = [];
  lastFailed = false;
  constructor(readonly ws: TurnWorkspace, public cwd: string | undefined) {}

  run(script: string, depth = 0): void {
    for (const st of statements(psTokens(script), script)) {
      let skip = false;
      if (st.op === "&&" && this.lastFailed) skip = true;
      if (st.op === "||" && !this.lastFailed) skip = true;
      this.statement(st, skip, depth);
    }
  }

  push(
    text: string,
    res: StageResult,
    stages: StageResult[],
    skip: boolean,
    silent = false,
    quiet = false,
  ): void {
    const stream = silent ? { lines: [] } : res.stream;
    this.segs.push({
      text,
      res,
      stages,
      silent,
      skipped: skip,
      out: silent ? [] : stream.lines,
      stream,
      failed: res.failed ?? false,
      other: res.other,
      quietBuiltin: quiet,
    });
  }

  statement(st: Stmt, skip: boolean, depth: number): void {
    const first = st.stages[0][0];
    const head = first?.value?.toLowerCase();
    if (first && first.bare && head && KEYWORDS.has(head)) {
      const o = opaque("other", `unsupported PowerShell construct: ${head}`);
      this.push(st.text, o, [o], skip);
      return;
    }
    const assign = first?.raw.startsWith("$") &&
      (/^\$[\w:]+(?:\[[^\]]*\])?\s*[-+*/]?=/.test(first.raw) ||
        /^[-+*/]?=$/.test(st.stages[0][1]?.raw ?? ""));
    if (assign && st.stages.length === 1) {
      // an assignment: nothing printed; what it reads is not shown
      const o: StageResult = { stream: { lines: [] }, kind: "run", paths: [] };
      this.push(st.text, o, [o], skip, false, true);
      return;
    }
    if (first?.raw.startsWith("$")) {
      const o = opaque("other", "unsupported PowerShell construct: variable expression");
      this.push(st.text, o, [o], skip);
      return;
    }
    this.pipeline(st, skip, depth);
  }

  pipeline(st: Stmt, skip: boolean, depth: number): void {
    let input: Stream | undefined;
    const results: StageResult[] = [];
    let silent = false;
    const writes: NonNullable<StageResult["writes"]> = [];
    let other: string | undefined;
    let firstCmdlet: string | undefined;
    let prev: PsCall["prev"];
    for (const [idx, stage] of st.stages.entries()) {
      let words = [...stage];
      let quietErrors = false;
      // redirections: `> f`, `>> f`, `2> $null`, `*> $null`, `2>&1`
      const kept: Word[] = [];
      for (let k = 0; k < words.length; k++) {
        const w = words[k];
        if (!w.op) {
          kept.push(w);
          continue;
        }
        if (/&[12]$/.test(w.op)) continue;
        const dest = words[k + 1];
        k++;
        const nul = dest?.raw.toLowerCase() === "$null" || dest?.value?.toLowerCase() === "nul";
        if (/^2/.test(w.op) || /^[3-6]/.test(w.op)) {
          if (nul) quietErrors = true;
          continue;
        }
        if (w.op.startsWith("*") && nul) quietErrors = true;
        if (idx === st.stages.length - 1) silent = true;
        if (!nul && dest?.value !== undefined) {
          const rel = resolve(callOf({ ws: this.ws, cwd: this.cwd } as PsCall, "", []), dest.value);
          if (rel && !skip) writes.push({ path: rel, content: UNKNOWN });
        }
      }
      words = kept;
      const ea = words.findIndex((w, k) =>
        /^-(?:ea|erroraction)$/i.test(w.value ?? "") &&
        /^(?:silentlycontinue|ignore|0)$/i.test(words[k + 1]?.value ?? "")
      );
      if (ea >= 0) quietErrors = true;
      const head = words[0];
      let res: StageResult;
      if (!head) {
        res = opaque("other", "empty pipeline stage");
      } else if (head.group && idx === 0 && (head.group.open === "(" || head.group.open === "@")) {
        res = this.group(head, depth);
        words = words.slice(1);
      } else if (head.group || head.value === undefined) {
        res = opaque("other", `unsupported PowerShell construct: ${head.raw.slice(0, 40)}`);
      } else {
        let name = head.value;
        let args = words.slice(1);
        if (name === "&" || name === ".") {
          // the call operator: `& cmd args`
          name = args[0]?.value ?? "";
          args = args.slice(1);
        }
        const lower = name.toLowerCase();
        const cmdlet = CMDLETS[lower];
        if (idx === 0) firstCmdlet = cmdlet ?? lower;
        const nested = powershellScript([name, ...args.map((a) => a.value ?? a.raw)]);
        if (nested !== undefined && idx === 0 && st.stages.length === 1 && depth < 3) {
          // `powershell -Command "…"` inside PowerShell: its statements run here
          this.run(nested, depth + 1);
          return;
        }
        res = runPsStage({
          cmdlet,
          name,
          words: args,
          input: idx === 0 ? undefined : input ?? { lines: null },
          ws: this.ws,
          cwd: this.cwd,
          quietErrors,
          prev: idx === 0 ? undefined : prev,
        });
        prev = { cmdlet: cmdlet ?? lower, res };
      }
      if (res.cd !== undefined && !skip) this.cwd = res.cd ?? undefined;
      if (res.writes && !skip) writes.push(...res.writes);
      if (res.other) other ??= res.other;
      results.push(res);
      input = res.stream;
    }
    if (!skip) {
      for (const w of writes) {
        if (w.content === null) this.ws.remove(w.path);
        else this.ws.write(w.path, w.content);
      }
    }
    const source = results.find((r) => r.primary) ??
      results.find((r) => r.kind === "read" || r.kind === "search" || r.kind === "list") ??
      results[0];
    const last = results[results.length - 1];
    const failed = last?.failed ?? false;
    if (!skip) this.lastFailed = failed;
    const kind = other && source.kind === "run" ? "other" : source.kind;
    const res: StageResult = {
      ...source,
      kind,
      stream: input ?? { lines: null },
      writes,
      other: other && kind === "other" ? other : source.other,
    };
    const quiet = results.length === 1 && (firstCmdlet === "set-location" ||
      (firstCmdlet !== undefined && QUIET.has(firstCmdlet)));
    this.push(
      st.text,
      res,
      results,
      skip,
      silent || firstCmdlet === "out-null" ||
        st.stages.length > 1 && /^out-null$/i.test(st.stages[st.stages.length - 1][0]?.value ?? ""),
      quiet,
    );
  }

  /** `(pipeline)` and `(pipeline)[a..b]`: the group's lines, indexed 0-based. */
  group(w: Word, depth: number): StageResult {
    const inner = new PsInterp(this.ws, this.cwd);
    inner.run(w.group!.inner, depth + 1);
    const segs = inner.segs.filter((s) => !s.skipped);
    if (segs.length !== 1) return opaque("other", "unsupported PowerShell construct: group");
    const s = segs[0];
    const rest = w.raw.slice(w.raw.indexOf(w.group!.inner) + w.group!.inner.length + 1);
    if (!rest) return s.res;
    const idx = rest.match(/^\[([^\]]*)\]$/);
    const lines = s.res.stream.lines;
    if (idx) {
      const at = lines ? indexes(idx[1], lines.length) : undefined;
      if (!lines || !at) return { ...s.res, stream: { lines: null } };
      return {
        ...s.res,
        stream: { lines: at.filter((k) => k >= 0 && k < lines.length).map((k) => lines[k]) },
      };
    }
    // `.Count`, `.Length`: a number, nothing of the file shown
    return {
      ...s.res,
      kind: s.res.kind === "read" ? "search" : s.res.kind,
      stream: { lines: null },
    };
  }
}

/** The Windows PowerShell profile error printed (stderr, after the output) when scripts are off. */
const PROFILE_ERROR =
  /(?:^|\n)\. : [^\n]*profile\.ps1[\s\S]*?\n[ \t]+\+ FullyQualifiedErrorId : [^\n]*(?:\n|$)/g;

/** The observation without the profile-loading error records. */
function withoutProfileErrors(obs: ShellObservation | undefined): ShellObservation | undefined {
  if (!obs) return obs;
  const strip = (t: string | undefined) =>
    t === undefined || !t.includes("profile.ps1")
      ? t
      : t.replace(PROFILE_ERROR, (m) => (m.startsWith("\n") ? "\n" : ""));
  return { ...obs, output: strip(obs.output), head: strip(obs.head), tail: strip(obs.tail) };
}

/**
 * Interprets one PowerShell action (a script, as `powershell -Command` runs it) and what it
 * printed. `obs` undefined: nothing shown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { analyzePowerShell } from "./powershell.ts";
 * import { TurnWorkspace } from "../workspace.ts";
 * const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
 * const ws = new TurnWorkspace((p) => (p === "src/a.py" ? text : undefined), "C:\\w");
 * const out = Array.from({ length: 5 }, (_, i) => `line ${i + 11}`).join("\r\n") + "\r\n";
 * const ev = analyzePowerShell("Get-Content src\\a.py | Select-Object -Skip 10 -First 5", { ws, cwd: "", step: 0 }, { output: out.replaceAll("\r\n", "\n") });
 * assert.equal(JSON.stringify(ev[0].lines), '{"src/a.py":[[11,15]]}');
 * ```
 */
export function analyzePowerShell(
  script: string,
  ctx: ShellContext,
  obs: ShellObservation | undefined,
): Event[] {
  const ws = ctx.ws.fork();
  const it = new PsInterp(ws, ctx.cwd);
  try {
    it.run(script);
  } catch (e) {
    return [
      makeEvent(
        ctx.step,
        "other",
        ctx.tool ?? "powershell",
        script,
        [],
        {},
        `PowerShell not parsed: ${e}`,
      ),
    ];
  }
  ctx.ws.adopt(ws);
  if (!it.segs.length) {
    return [makeEvent(ctx.step, "run", ctx.tool ?? "powershell", script, [], {})];
  }
  void isLoud;
  return segEvents(script, it.segs, ctx, withoutProfileErrors(obs));
}
