/**
 * Rendering harness-neutral actions as shell commands with the output the shell would print
 * (`ls`, `find`, `sed -n`, `nl -ba | sed -n`, `cat`, `head -n`, `grep -n [-A/-B]`, `grep -rn`,
 * here-doc writes, `python -c`).
 *
 * @module
 */
import type { Rng } from "./rng.ts";
import { type Action, grepHits, type SimWorkspace } from "./reads.ts";

/** Immediate entries of a directory of the workspace (`""` = root), directories with a slash. */
export function entries(ws: SimWorkspace, dir: string): string[] {
  const prefix = dir === "" ? "" : dir + "/";
  const out = new Set<string>();
  for (const p of [...ws.files.keys(), ...ws.extras]) {
    if (!p.startsWith(prefix)) continue;
    const rest = p.slice(prefix.length);
    const i = rest.indexOf("/");
    out.add(i < 0 ? rest : rest.slice(0, i) + "/");
  }
  return [...out].sort();
}

/** Python files under a directory, sorted. */
export function pyUnder(ws: SimWorkspace, dir: string): string[] {
  const prefix = dir === "" ? "" : dir + "/";
  return [...ws.files.keys()].filter((p) => p.startsWith(prefix) && p.endsWith(".py")).sort();
}

/** A bash command and its output for an action; `cwd` is the harness working directory. */
export function bashFor(
  rng: Rng,
  ws: SimWorkspace,
  a: Action,
  cwd: string,
): { command: string; output: string; returncode: number } {
  const abs = rng.chance(0.12);
  const p = (path: string) => (abs ? `${cwd}/${path}` : path === "" ? "." : path);
  const cd = !abs && rng.chance(0.15) ? `cd ${cwd} && ` : "";
  switch (a.kind) {
    case "list": {
      if (a.how === "ls" || a.how === "glob") {
        const list = entries(ws, a.path);
        const long = rng.chance(0.4);
        const out = long
          ? [
            `total ${list.length * 4}`,
            ...list.map((e) =>
              `${e.endsWith("/") ? "drwxr-xr-x 2" : "-rw-r--r-- 1"} root root ${
                e.endsWith("/") ? 4096 : 1000 + (e.length * 97) % 9000
              } Nov 20 10:02 ${e.replace(/\/$/, "")}`
            ),
          ]
          : list.map((e) => e.replace(/\/$/, ""));
        return {
          command: `${cd}ls ${long ? "-la " : ""}${p(a.path)}`,
          output: out.join("\n") + "\n",
          returncode: 0,
        };
      }
      const base = p(a.path);
      const files = pyUnder(ws, a.path).map((
        f,
      ) => (abs ? `${cwd}/${f}` : a.path === "" ? `./${f}` : f));
      return {
        command: `${cd}find ${base} -name "*.py" | sort`,
        output: files.join("\n") + "\n",
        returncode: 0,
      };
    }
    case "view": {
      const lines = ws.files.get(a.path);
      if (!lines) {
        const tool = a.how === "cat" ? "cat" : a.how === "head" ? "head" : "sed";
        const cmd = a.how === "cat"
          ? `cat ${p(a.path)}`
          : a.how === "head"
          ? `head -n ${a.b} ${p(a.path)}`
          : `sed -n '${a.a},${a.b}p' ${p(a.path)}`;
        const msg = tool === "sed"
          ? `sed: can't read ${p(a.path)}: No such file or directory`
          : `${tool}: ${p(a.path)}: No such file or directory`;
        return { command: `${cd}${cmd}`, output: msg + "\n", returncode: tool === "sed" ? 2 : 1 };
      }
      const b = Math.min(a.b, lines.length);
      const slice = lines.slice(a.a - 1, b);
      if (a.how === "cat") {
        return { command: `${cd}cat ${p(a.path)}`, output: lines.join("\n") + "\n", returncode: 0 };
      }
      if (a.how === "head") {
        return {
          command: `${cd}head -n ${a.b} ${p(a.path)}`,
          output: slice.join("\n") + "\n",
          returncode: 0,
        };
      }
      if (a.how === "nl") {
        return {
          command: `${cd}nl -ba ${p(a.path)} | sed -n '${a.a},${a.b}p'`,
          output: slice.map((l, i) => `${String(a.a + i).padStart(6)}\t${l}`).join("\n") + "\n",
          returncode: 0,
        };
      }
      return {
        command: `${cd}sed -n '${a.a},${a.b}p' ${p(a.path)}`,
        output: slice.join("\n") + "\n",
        returncode: 0,
      };
    }
    case "grep": {
      const hits = grepHits(ws, a);
      const ctx = `${a.after ? ` -A ${a.after}` : ""}${a.before ? ` -B ${a.before}` : ""}`;
      if (a.recursive) {
        const out: string[] = [];
        for (const [file, h] of hits) {
          const lines = ws.files.get(file)!;
          for (const n of h.hits) out.push(`${abs ? `${cwd}/${file}` : file}:${n}:${lines[n - 1]}`);
        }
        const inc = rng.chance(0.5) ? ` --include="*.py"` : "";
        return {
          command: `${cd}grep -rn${inc} "${a.pattern}" ${p(a.path)}`,
          output: out.join("\n") + (out.length ? "\n" : ""),
          returncode: out.length ? 0 : 1,
        };
      }
      const h = hits.get(a.path);
      const out: string[] = [];
      if (h) {
        const lines = ws.files.get(a.path)!;
        const hitSet = new Set(h.hits);
        let prev = -1;
        for (const n of h.shown) {
          if (prev !== -1 && n !== prev + 1 && (a.after || a.before)) out.push("--");
          out.push(`${n}${hitSet.has(n) ? ":" : "-"}${lines[n - 1]}`);
          prev = n;
        }
      }
      return {
        command: `${cd}grep -n${ctx} "${a.pattern}" ${p(a.path)}`,
        output: out.join("\n") + (out.length ? "\n" : ""),
        returncode: out.length ? 0 : 1,
      };
    }
    case "write":
      return { command: `cat <<'EOF' > ${p(a.path)}\n${a.text}EOF`, output: "", returncode: 0 };
    case "run":
      return {
        command: `${cd || `cd ${cwd} && `}${a.command}`,
        output: a.output + "\n",
        returncode: 0,
      };
    case "submit":
      return {
        command: "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT",
        output: "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n",
        returncode: 0,
      };
  }
}
