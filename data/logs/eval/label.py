#!/usr/bin/env python3
"""Independent labels for the held-out log evaluation (issue 23, "Done when").

For each log in manifest.json this reads the RAW log (JSON / JSONL / text) with its own small
rules per harness -- it does not import or call reporeuse -- and writes labels/<id>.json:

  shown      {path: [[a, b], ...]}  lines of workspace files the model was shown, from tool
                                    results whose line numbers the raw text itself gives
  must_not   {path: [n, ...]}       lines never shown: for files that no unlabelled call mentions
                                    (an unlabelled call may show them), every line from 1 to three
                                    past the last shown line that no labelled call showed
  outside    [path, ...]            files read outside the workspace (never to be credited)
  probes     [...]                  one entry per labelled tool call (tool, path, ranges, why)
  unprobed   int                    tool calls that show file text but follow no rule here

Paths are relative to the workspace (the log's cwd, or manifest "cwd"). Rules, all read off the
tool result text:
  - numbered outputs: Claude Read (`N->` / `N<TAB>`), `cat -n` (OpenHands / SWE-agent view),
    OpenCode read (`N: ` / `00001| `), SWE-agent windows (`N:text` under `[File: p (N lines
    total)]`), `nl -ba` / `cat -n` piped through `sed -n`: the printed numbers;
  - shell windows without numbers: `sed -n 'A,Bp' F` -> A .. A+k-1 (k output lines, capped at
    B); `cat F` / `head [-n] N F` -> 1 .. k (capped at N); k counted on the output as shown;
  - `grep -n` / `rg -n` over one file -> the `N:` / `N-` numbers; over several, `F:N:` lines;
  - Aider: each file pasted in a fence (path line, then ```) -> 1 .. number of pasted lines;
  - a failed call (error flag, non-zero exit) or an output the harness truncated shows nothing
    here (left unprobed), and a call whose output does not match its rule is left unprobed.

Usage: python3 data/logs/eval/label.py            (writes labels/*.json)
       python3 data/logs/eval/label.py --check    (exit 1 if a label file would change)
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import shlex
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------- paths


def norm_path(p: str) -> str:
    """Normalises a POSIX or Windows path (drive letter lower-cased, `\\` -> `/`)."""
    p = p.strip().strip('"').strip("'")
    p = p.replace("\\", "/")
    m = re.match(r"^/?([A-Za-z]):(/|$)", p)
    if m:
        p = m.group(1).lower() + ":/" + p[m.end():]
    return p


def is_abs(p: str) -> bool:
    return p.startswith("/") or bool(re.match(r"^[a-z]:/", p))


def rel_to(path: str, cwd: str, base: str | None = None) -> tuple[str | None, str]:
    """(workspace-relative path or None if outside, absolute normalised path)."""
    path = norm_path(path)
    cwd = norm_path(cwd).rstrip("/")
    if path.startswith("~"):
        return None, path
    if not is_abs(path):
        path = posixpath.join(norm_path(base).rstrip("/") if base else cwd, path)
    path = posixpath.normpath(path)
    c = cwd.lower() if re.match(r"^[a-z]:/", cwd) else cwd
    p = path.lower() if re.match(r"^[a-z]:/", path) else path
    if p == c:
        return ".", path
    if p.startswith(c + "/"):
        return path[len(cwd) + 1:], path
    return None, path


# ---------------------------------------------------------------- label store


NO_LINES = {"Edit", "Write", "MultiEdit", "NotebookEdit", "TodoWrite", "Glob", "LS", "apply_patch",
            "update_plan", "write_file", "replace", "update_topic", "glob", "list_directory",
            "edit", "write", "patch", "todowrite", "todoread", "ls", "create"}


# a command that prints file names only (no file lines), alone: its output takes nothing out
LISTING = re.compile(r"""^(?:\{"(?:cmd|command)":\s*")?(?:rg --files|ls|find|tree|pwd|Get-ChildItem|gci|dir|git status|git log --oneline)\b[^|;&<>`$]*(?:"[,}]|$)""")


class Labels:
    def __init__(self, cwd: str):
        self.cwd = cwd
        self.shown: dict[str, set[int]] = {}
        self.outside: set[str] = set()
        self.probes: list[dict] = []
        self.unprobed = 0
        # (call text, output) of unlabelled calls: a file named in a call's text by its base name,
        # or in its output by its last two path components, has no must_not set
        self.unprobed_text: list[tuple[str, str]] = []
        self._pending: tuple[int, tuple[str, str]] | None = None

    def add(self, tool: str, path: str, lines: list[int], why: str, base: str | None = None):
        if not lines:
            return
        rel, absolute = rel_to(path, self.cwd, base)
        if rel is None:
            self.outside.add(absolute)
            self.probes.append({"tool": tool, "path": absolute, "outside": True, "why": why})
            return
        self.shown.setdefault(rel, set()).update(lines)
        self.probes.append({"tool": tool, "path": rel, "ranges": ranges(sorted(set(lines))),
                            "why": why})

    def begin(self, text: str, output, tool: str = "") -> None:
        """A tool call starts: if the previous one labelled nothing, its text and output join the
        texts that take a file out of must_not (a call not labelled may have shown its lines).
        Writes (their echo of the edited text is part of the write) and file-name listings show
        no lines: they are not recorded."""
        self.flush()
        if tool in NO_LINES:
            return
        self._pending = (len(self.probes), (str(text), str(output)))

    def flush(self) -> None:
        if self._pending and len(self.probes) == self._pending[0] and \
                not LISTING.search(self._pending[1][0]):
            self.unprobed_text.append(self._pending[1])
        self._pending = None

    def skip(self, text: str, output: str = ""):
        """An unlabelled call: its text and output (any file they name loses its must-not set)."""
        if LISTING.search(text):
            return  # file names only: no lines to label
        self.unprobed += 1
        self.unprobed_text.append((text, output))

    def result(self) -> dict:
        self.flush()
        shown = {p: ranges(sorted(s)) for p, s in sorted(self.shown.items())}
        must_not: dict[str, list[int]] = {}
        texts = [(t.replace("\\\\", "/").replace("\\", "/"), o.replace("\\\\", "/").replace("\\", "/"))
                 for t, o in self.unprobed_text]
        for p, s in self.shown.items():
            base = posixpath.basename(p)
            tail = "/".join(p.split("/")[-2:])
            if any(base in t or tail in o for t, o in texts):
                continue
            # no unlabelled call names the file: every line before the first shown one, in the
            # gaps between shown ranges, and the three after the last was never shown
            top = max(s)
            cand = set(range(1, top + 4)) - s
            if cand:
                must_not[p] = sorted(cand)
        return {
            "cwd": self.cwd,
            "shown": shown,
            "lines": sum(len(s) for s in self.shown.values()),
            "must_not": dict(sorted(must_not.items())),
            "outside": sorted(self.outside),
            "probes": self.probes,
            "unprobed": self.unprobed,
        }


def ranges(xs: list[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for x in xs:
        if out and x == out[-1][1] + 1:
            out[-1][1] = x
        else:
            out.append([x, x])
    return out


# ---------------------------------------------------------------- shell rules

SED_RE = re.compile(r"""^sed\s+-n\s+(['"]?)(\d+),(\d+)p\1\s+(\S+)$""")
NUMBERED = re.compile(r"^\s*(\d+)\t")


def out_lines(text: str) -> list[str]:
    text = text.replace("\r\n", "\n")
    if text.endswith("\n"):
        text = text[:-1]
    return text.split("\n") if text else []


PS_READ = {"get-content", "gc", "type", "cat"}


def powershell(lab: Labels, tool: str, cmd: str, output: str, cwd: str | None) -> bool:
    """PowerShell reads: Get-Content (aliases gc, type, cat) [-Path|-LiteralPath] F [-Raw]
    [-TotalCount|-Head|-First N], optionally piped to Select-Object -First N / -Skip S."""
    if any(c in cmd for c in ";`$(){}\n") or "&&" in cmd or ">" in cmd:
        return False
    parts = [p.strip() for p in cmd.replace("\\", "/").split("|")]
    try:
        argv = [shlex.split(p) for p in parts]
    except ValueError:
        return False
    if not argv or not argv[0] or argv[0][0].lower() not in PS_READ or len(argv) > 2:
        return False
    path, first, skip = None, None, 0
    it = iter(argv[0][1:])
    for x in it:
        xl = x.lower()
        if xl in ("-path", "-literalpath"):
            path = next(it, None)
        elif xl in ("-totalcount", "-head", "-first"):
            v = next(it, "")
            if not v.isdigit():
                return False
            first = int(v)
        elif xl == "-raw":
            continue
        elif xl == "-encoding":
            next(it, None)
        elif x.startswith("-"):
            return False  # -Tail, -Wait, -Delimiter, …: not simple
        elif path is None:
            path = x
        else:
            return False
    if path is None or any(ch in path for ch in "*?["):
        return False
    if len(argv) == 2:
        sel = [x.lower() for x in argv[1]]
        if sel[:1] not in (["select-object"], ["select"]):
            return False
        it2 = iter(sel[1:])
        for x in it2:
            v = next(it2, "")
            if not v.isdigit():
                return False
            if x == "-first":
                first = int(v) if first is None else min(first, int(v))
            elif x == "-skip":
                skip = int(v)
            else:
                return False  # -Last needs the file's length
    k = len(out_lines(output))
    if first is not None:
        k = min(k, max(0, first - skip))
    lab.add(tool, path, list(range(skip + 1, skip + k + 1)), "Get-Content: output lines", cwd)
    return True


def shell(lab: Labels, tool: str, cmd: str, output: str, cwd: str | None) -> bool:
    """Labels one successful shell command; True if a rule applied."""
    cmd = cmd.strip()
    if cmd.split()[:1] and cmd.split()[0].lower() in ("get-content", "gc", "type") or \
            (cwd or lab.cwd)[1:3] in (":\\", ":/") and cmd.startswith("cat "):
        return powershell(lab, tool, cmd, output, cwd)
    m = re.match(r"^cd\s+(\S+)\s*&&\s*(.*)$", cmd, re.S)
    if m:
        d = m.group(1).strip("'\"")
        cwd = d if is_abs(norm_path(d)) else posixpath.join(cwd or lab.cwd, d)
        cmd = m.group(2).strip()
    if "\n" in cmd or "$(" in cmd or "`" in cmd:
        return False
    lines = out_lines(output)
    try:
        lex = shlex.shlex(cmd, posix=True, punctuation_chars=True)
        lex.whitespace_split = True
        toks = list(lex)
    except ValueError:
        return False
    # only simple commands and plain pipelines: no lists, redirections, subshells, background
    if any(t and set(t) <= set("();<>&|") and t != "|" for t in toks):
        return False
    argv: list[list[str]] = [[]]
    for t in toks:
        if t == "|":
            argv.append([])
        else:
            argv[-1].append(t)
    if any(not a for a in argv):
        return False
    # nl -ba F | sed -n 'A,Bp'   /   cat -n F | sed -n 'A,Bp'   /  nl -ba F / cat -n F
    first = argv[0]
    if (first[:2] == ["nl", "-ba"] or first[:2] == ["cat", "-n"]) and len(first) == 3 and (
            len(argv) == 1 or (len(argv) == 2 and argv[1][:2] == ["sed", "-n"] and len(argv[1]) == 3)):
        nums = []
        for ln in lines:
            mm = NUMBERED.match(ln)
            if not mm:
                return False
            nums.append(int(mm.group(1)))
        lab.add(tool, first[2], nums, f"{first[0]} numbers", cwd)
        return True
    if len(argv) != 1:
        return False
    a = first
    if a[0] == "sed" and len(a) == 4 and a[1] == "-n":
        mm = re.match(r"^(\d+),(\d+)p$", a[2])
        if not mm:
            return False
        s, e = int(mm.group(1)), int(mm.group(2))
        k = min(len(lines), e - s + 1)
        lab.add(tool, a[3], list(range(s, s + k)), "sed window x output lines", cwd)
        return True
    if a[0] == "cat" and len(a) == 2 and not a[1].startswith("-"):
        lab.add(tool, a[1], list(range(1, len(lines) + 1)), "cat: output lines", cwd)
        return True
    if a[0] == "head":
        n = None
        rest = a[1:]
        if len(rest) == 3 and rest[0] == "-n" and rest[1].isdigit():
            n, f = int(rest[1]), rest[2]
        elif len(rest) == 2 and re.match(r"^-\d+$", rest[0]):
            n, f = int(rest[0][1:]), rest[1]
        elif len(rest) == 2 and re.match(r"^-n\d+$", rest[0]):
            n, f = int(rest[0][2:]), rest[1]
        else:
            return False
        lab.add(tool, f, list(range(1, min(n, len(lines)) + 1)), "head: output lines", cwd)
        return True
    if a[0] in ("grep", "rg"):
        flags, operands, it = [], [], iter(a[1:])
        for x in it:
            if x in ("-g", "--glob", "-t", "--type", "-T", "--type-not", "--include", "--exclude",
                     "-m", "--max-count", "-e", "--regexp"):
                nxt = next(it, None)
                if x in ("-e", "--regexp") and nxt is not None:
                    operands.insert(0, nxt)  # the pattern
                elif x in ("-m", "--max-count"):
                    return False  # cut per file: fine, but keep the rules simple
                continue
            (flags if x.startswith("-") and x != "-" else operands).append(x)
        if not any("n" in f.lstrip("-") and not f.startswith("--") for f in flags) \
                and "--line-number" not in flags and a[0] == "grep":
            return False
        if any(f in ("-l", "-c", "--files", "-o", "--count", "--files-with-matches") for f in flags):
            return False
        if any(f.startswith("-") and not f.startswith("--") and set(f[1:]) & set("lcoABC") for f in flags):
            return False
        if len(operands) == 2 and not any(ch in operands[1] for ch in "*?") and "." in posixpath.basename(operands[1]):
            # one file: N:text
            nums = []
            for ln in lines:
                mm = re.match(r"^(\d+):", ln)
                if not mm:
                    return False
                nums.append(int(mm.group(1)))
            lab.add(tool, operands[1], nums, f"{a[0]} -n one file", cwd)
            return True
        if len(operands) >= 2 and a[0] == "rg" or (a[0] == "grep" and any("r" in f for f in flags)):
            per: dict[str, list[int]] = {}
            for ln in lines:
                mm = re.match(r"^([^:\s][^:]*):(\d+):", ln)
                if not mm:
                    return False
                per.setdefault(mm.group(1), []).append(int(mm.group(2)))
            for f, nums in per.items():
                lab.add(tool, f, nums, f"{a[0]} -n F:N: lines", cwd)
            return bool(per)
        return False
    return False


SHOWS_TEXT = re.compile(r"\b(cat|sed|head|tail|nl|grep|rg|awk|less|more|view|open|Get-Content|type|gc|Select-String)\b")


# ---------------------------------------------------------------- Claude Code


def result_text(content) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


CLAUDE_NUM = re.compile(r"^\s*(\d+)(→|\t)")


def jsonl(path: str):
    """The records of a JSONL file (a line that is not JSON is passed over)."""
    for raw in open(path, encoding="utf-8"):
        try:
            yield json.loads(raw)
        except json.JSONDecodeError:
            continue


def claude(lab: Labels, path: str):
    calls = {}
    for d in jsonl(path):
        m = d.get("message")
        if not isinstance(m, dict) or not isinstance(m.get("content"), list):
            continue
        for b in m["content"]:
            if not isinstance(b, dict):
                continue
            if b.get("type") == "tool_use":
                calls[b["id"]] = b
            elif b.get("type") == "tool_result" and b.get("tool_use_id") in calls:
                call = calls[b["tool_use_id"]]
                name, inp = call["name"], call.get("input", {})
                text = result_text(b.get("content"))
                lab.begin(json.dumps(inp), text, name)
                if b.get("is_error"):
                    continue
                if name == "Read":
                    nums, last_empty = [], False
                    for ln in text.split("\n"):
                        if ln.startswith("<system-reminder>"):
                            break
                        mm = CLAUDE_NUM.match(ln)
                        if mm:
                            nums.append(int(mm.group(1)))
                            last_empty = ln[mm.end():] == ""
                    # Claude Code numbers the empty string after a file's final newline (its
                    # totalLines counts it): at EOF that "line" is not a line of the file
                    limit, start = inp.get("limit"), inp.get("offset") or 1
                    at_eof = not isinstance(limit, int) or (nums and nums[-1] < start + limit - 1)
                    if nums and last_empty and at_eof:
                        nums.pop()
                    if nums:
                        lab.add("Read", inp.get("file_path", ""), nums, "Read N-prefixes")
                    continue
                if name == "Bash":
                    cmd = inp.get("command", "")
                    if "<persisted-output>" in text or "[Output truncated" in text or "truncated" in text[-300:]:
                        if SHOWS_TEXT.search(cmd):
                            lab.skip(cmd, text)
                        continue
                    if not shell(lab, "Bash", cmd, text, None) and SHOWS_TEXT.search(cmd):
                        lab.skip(cmd, text)
                    continue
                if name == "Grep" and inp.get("output_mode") == "content":
                    lab.skip(json.dumps(inp), text)


# ---------------------------------------------------------------- Codex CLI


def codex_output(raw: str) -> tuple[int | None, str, bool]:
    """(exit code, output text, truncated?) of a function_call_output string."""
    try:
        j = json.loads(raw)
        if isinstance(j, dict) and "output" in j:
            code = (j.get("metadata") or {}).get("exit_code")
            return code, j["output"], False
    except (json.JSONDecodeError, TypeError):
        pass
    code = None
    mm = re.search(r"Process exited with code (\d+)", raw) or re.search(r"^Exit code: (\d+)", raw, re.M)
    if mm:
        code = int(mm.group(1))
    i = raw.find("Output:\n")
    out = raw[i + len("Output:\n"):] if i >= 0 else raw
    trunc = "tokens truncated" in raw or "Total output lines:" in raw[:i if i >= 0 else 200]
    return code, out, trunc


CELL = re.compile(r"^const (\w+) = await tools\.exec_command\((\{.*\})\);\ntext\(\1\.output\);?$", re.S)


def codemode(lab: Labels, call: dict, output):
    """Codex code mode: an `exec` cell of exactly one exec_command whose output it prints."""
    if call.get("name") != "exec":
        return
    cell = call.get("input") or ""
    mm = CELL.match(cell.strip())
    if not mm:
        if SHOWS_TEXT.search(cell):
            lab.skip(cell, json.dumps(output))
        return
    args = json.loads(mm.group(2))
    parts = output if isinstance(output, list) else [{"text": output}]
    texts = [x.get("text", "") for x in parts if isinstance(x, dict)]
    if not texts or not texts[0].startswith("Script completed\n"):
        if SHOWS_TEXT.search(args.get("cmd", "")):
            lab.skip(args.get("cmd", ""), json.dumps(output))  # still running (continued by `wait`) or failed
        return
    head = texts[0]
    body = head[head.index("Output:\n") + len("Output:\n"):] + "".join(texts[1:])
    if re.match(r"^(sed|cat|head|nl|rg|grep): ", body):
        return  # the command failed (its error is the output)
    if not shell(lab, "exec", args.get("cmd", ""), body, args.get("workdir")) and \
            SHOWS_TEXT.search(args.get("cmd", "")):
        lab.skip(args.get("cmd", ""), body)


def codex(lab: Labels, path: str):
    calls = {}
    for d in jsonl(path):
        p = d.get("payload")
        if not isinstance(p, dict):
            continue
        if p.get("type") in ("function_call", "custom_tool_call"):
            calls[p.get("call_id")] = p
        if p.get("type") == "custom_tool_call_output" and p.get("call_id") in calls:
            lab.begin(calls[p["call_id"]].get("input") or "", json.dumps(p.get("output")))
            codemode(lab, calls[p["call_id"]], p.get("output"))
            continue
        elif p.get("type") == "function_call_output" and p.get("call_id") in calls:
            call = calls[p["call_id"]]
            lab.begin(call.get("arguments") or "", json.dumps(p.get("output")), call.get("name") or "")
            try:
                args = json.loads(call.get("arguments") or "{}")
            except json.JSONDecodeError:
                continue
            name = call.get("name")
            if name not in ("exec_command", "shell", "shell_command"):
                if name not in ("apply_patch", "update_plan", "write_stdin", "view_image"):
                    lab.skip(call.get("arguments") or "", str(p.get("output")))
                continue
            cmd = args.get("cmd") or args.get("command")
            if isinstance(cmd, list):
                cmd = cmd[2] if len(cmd) == 3 and cmd[1] in ("-lc", "-c") else " ".join(cmd)
            out = p.get("output")
            if not isinstance(out, str):
                continue
            code, text, trunc = codex_output(out)
            if code != 0 or trunc:
                # still running (its output continues in write_stdin polls) or cut: unprobed
                if SHOWS_TEXT.search(cmd or "") and code != 0 and code is None or trunc:
                    lab.skip(cmd or "", text)
                continue
            if not shell(lab, name, cmd or "", text, args.get("workdir")) and SHOWS_TEXT.search(cmd or ""):
                lab.skip(cmd, text)


# ---------------------------------------------------------------- OpenCode


OC_NUM = re.compile(r"^(?:(\d{5})\| |(\d+): )")


def opencode(lab: Labels, path: str):
    d = json.load(open(path, encoding="utf-8"))
    for m in d["messages"]:
        for part in m["parts"]:
            if part.get("type") != "tool":
                continue
            st = part.get("state", {})
            if st.get("status") != "completed":
                lab.begin(json.dumps(st.get("input")), json.dumps(st), part.get("tool") or "")
                continue
            tool, inp, out = part.get("tool"), st.get("input", {}), st.get("output") or ""
            lab.begin(json.dumps(inp), out, part.get("tool") or "")
            if tool == "read":
                body = out
                i = body.find("<content>\n")
                if i >= 0:
                    body = body[i + len("<content>\n"):]
                nums = []
                for ln in body.split("\n"):
                    mm = OC_NUM.match(ln)
                    if mm:
                        nums.append(int(mm.group(1) or mm.group(2)))
                    elif nums:
                        break
                lab.add("read", inp.get("filePath", ""), nums, "read N-prefixes")
            elif tool == "bash":
                meta = st.get("metadata", {})
                cmd = inp.get("command", "")
                if meta.get("exit") not in (0, None) or meta.get("truncated"):
                    continue
                if not shell(lab, "bash", cmd, out, inp.get("workdir")) and SHOWS_TEXT.search(cmd):
                    lab.skip(cmd, out)
            elif tool == "grep":
                # "Found N matches\n<path>:\n  Line N: text" blocks
                cur, per = None, {}
                for ln in out.split("\n"):
                    mm = re.match(r"^  Line (\d+): ", ln)
                    if mm and cur:
                        per.setdefault(cur, []).append(int(mm.group(1)))
                    elif ln.endswith(":") and not ln.startswith(" ") and not ln.startswith("Found "):
                        cur = ln[:-1]
                if "(Results are truncated" in out or "truncated" in out[-200:]:
                    lab.skip(json.dumps(inp), out)
                    continue
                for f, nums in per.items():
                    lab.add("grep", f, nums, "grep tool Line N")


# ---------------------------------------------------------------- SWE-agent


SWE_FILE = re.compile(r"^\[File: (.+?) \((\d+) lines total\)\]$")


def sweagent(lab: Labels, path: str):
    d = json.load(open(path, encoding="utf-8"))
    for step in d["trajectory"]:
        action = (step.get("action") or "").strip()
        obs = (step.get("observation") or "").replace("\r\n", "\n")
        verb = action.split()[0] if action.split() else ""
        lab.begin(action, obs, verb)
        if verb in ("open", "goto", "scroll_down", "scroll_up"):
            cur, nums = None, []
            for ln in obs.split("\n"):
                mm = SWE_FILE.match(ln)
                if mm:
                    cur = mm.group(1)
                    continue
                mm = re.match(r"^(\d+):", ln)
                if cur and mm:
                    nums.append(int(mm.group(1)))
            if cur and nums:
                lab.add(verb, cur, nums, "window N: lines")
            continue
        if verb == "str_replace_editor" and action.split()[1:2] == ["view"]:
            mm = re.match(r"^Here's the result of running `cat -n` on (\S+):\n", obs)
            if mm:
                nums = [int(x.group(1)) for x in (NUMBERED.match(ln) for ln in obs.split("\n")[1:]) if x]
                lab.add("view", mm.group(1), nums, "cat -n numbers")
            continue
        if verb in ("edit", "create", "submit", "search_file", "search_dir", "find_file") or \
                verb.startswith("str_replace_editor"):
            continue
        if re.search(r"\bcommand not found\b|No such file", obs):
            continue
        if not shell(lab, "shell", action, obs, None) and SHOWS_TEXT.search(action):
            lab.skip(action, obs)


# ---------------------------------------------------------------- mini-SWE-agent


MINI_OBS = re.compile(r"^<returncode>(-?\d+)</returncode>\n<output>\n(.*)</output>\s*$", re.S)
FENCE = re.compile(r"```(?:bash|mswea_bash_command)\n(.*?)\n```", re.S)


def mini(lab: Labels, path: str):
    d = json.load(open(path, encoding="utf-8"))
    msgs = d if isinstance(d, list) else d["messages"]
    pending = None  # v1: the one fenced command of the last assistant message
    by_id: dict[str, str] = {}  # v2: tool_call_id -> command (extra.actions)
    for m in msgs:
        content = m.get("content")
        if isinstance(content, list):
            content = "\n".join(c.get("text", "") for c in content if isinstance(c, dict))
        content = content or ""
        if m.get("role") == "assistant":
            actions = (m.get("extra") or {}).get("actions") or []
            for a in actions:
                if a.get("tool_call_id"):
                    by_id[a["tool_call_id"]] = a.get("command", "")
            cmds = FENCE.findall(content)
            pending = cmds[0] if len(cmds) == 1 and not actions else None
            continue
        if m.get("role") == "tool" and m.get("tool_call_id") in by_id:
            cmd = by_id.pop(m["tool_call_id"])
        elif m.get("role") in ("user", "tool") and pending is not None:
            cmd, pending = pending, None
        else:
            continue
        lab.begin(cmd, content)
        mm = MINI_OBS.match(content)
        if mm and mm.group(1) == "0":
            if not shell(lab, "bash", cmd, mm.group(2), None) and SHOWS_TEXT.search(cmd):
                lab.skip(cmd, content)
        elif "<output_head>" in content and SHOWS_TEXT.search(cmd):
            lab.skip(cmd, content)


# ---------------------------------------------------------------- OpenHands


OH_VIEW = re.compile(r"^Here's the result of running `cat -n` on (\S+):\n")


def openhands_events(path: str) -> list[dict]:
    if path.endswith(".jsonl"):
        out = []
        for raw in open(path, encoding="utf-8"):
            rec = json.loads(raw)
            out.extend(rec.get("history") or [])
        return out
    return json.load(open(path, encoding="utf-8"))


def openhands(lab: Labels, path: str):
    events = openhands_events(path)
    by_id = {e.get("id"): e for e in events if isinstance(e, dict)}
    for e in events:
        if not isinstance(e, dict) or "observation" not in e:
            continue
        cause = by_id.get(e.get("cause"))
        obs, content = e["observation"], e.get("content") or ""
        lab.begin(json.dumps((cause or {}).get("args")), content)
        if obs == "read":
            mm = OH_VIEW.match(content)
            if mm:
                nums = [int(x.group(1)) for x in (NUMBERED.match(ln) for ln in content.split("\n")[1:]) if x]
                lab.add("read", mm.group(1), nums, "cat -n numbers")
        elif obs == "run" and cause:
            cmd = (cause.get("args") or {}).get("command", "")
            meta = (e.get("extras") or {}).get("metadata") or {}
            if meta.get("exit_code") != 0:
                continue
            text = re.sub(r"\n\[The command completed with exit code \d+\.\]\n?.*$", "", content, flags=re.S)
            text = re.sub(r"\n\[Current working directory: .*$", "", text, flags=re.S)
            if not shell(lab, "run", cmd, text, None) and SHOWS_TEXT.search(cmd):
                lab.skip(cmd, text)


# ---------------------------------------------------------------- Aider


def aider(lab: Labels, path: str):
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines) - 1:
        ln = lines[i]
        if ln.startswith("USER ") and lines[i + 1] == "USER ```" and re.match(r"^USER [\w./-]+$", ln) \
                and "." in ln[5:]:
            name = ln[5:]
            j = i + 2
            while j < len(lines) and lines[j] != "USER ```":
                j += 1
            if j < len(lines) and all(x.startswith("USER") for x in lines[i + 2:j]):
                n = j - (i + 2)
                lab.add("pasted", name, list(range(1, n + 1)), "file pasted whole")
            i = j + 1
            continue
        i += 1


# ---------------------------------------------------------------- Gemini CLI

GEM_TRUNC = re.compile(r"^\s*IMPORTANT: The file content has been truncated\.\s*\nStatus: Showing lines (\d+)-(\d+) of (\d+) total lines")


def gemini(lab: Labels, path: str):
    d = json.load(open(path, encoding="utf-8"))
    for m in d.get("messages", []):
        for t in m.get("toolCalls") or []:
            lab.begin(json.dumps(t.get("args")), json.dumps(t.get("result")), t.get("name") or "")
            if t.get("status") != "success":
                continue
            resp = ((t.get("result") or [{}])[0].get("functionResponse") or {}).get("response") or {}
            out = resp.get("output")
            if not isinstance(out, str):
                continue
            name, args = t.get("name"), t.get("args") or {}
            if name == "read_file":
                f = args.get("file_path") or args.get("absolute_path") or args.get("path")
                mm = GEM_TRUNC.match(out)
                if mm:
                    lab.add("read_file", f, list(range(int(mm.group(1)), int(mm.group(2)) + 1)),
                            "Showing lines A-B header")
                elif set(args) <= {"file_path", "absolute_path", "path"}:
                    lab.add("read_file", f, list(range(1, len(out_lines(out)) + 1)),
                            "whole file: output lines")
                else:
                    lab.skip(json.dumps(args), out)
            elif name == "run_shell_command":
                cmd = args.get("command", "")
                mm = re.match(r"^(?:Command: .*?\n)?(?:Directory: .*?\n)?Output: (.*?)(?:\nError: .*?)?(?:\nExit Code: (\d+))?(?:\nSignal: .*?)?(?:\nBackground PIDs: .*?)?(?:\nProcess Group PGID: .*)?$", out, re.S)
                if not mm or (mm.group(2) not in (None, "0")):
                    continue
                text = mm.group(1)
                if text == "(empty)":
                    text = ""
                if not shell(lab, "run_shell_command", cmd, text + "\n", args.get("dir_path") or args.get("directory")) \
                        and SHOWS_TEXT.search(cmd):
                    lab.skip(cmd, out)
            elif name in ("read_many_files", "grep_search", "search_file_content"):
                lab.skip(json.dumps(args), out)


# ---------------------------------------------------------------- main

RULES = {"claude": claude, "gemini": gemini, "codex": codex, "opencode": opencode, "swe-agent": sweagent,
         "mini": mini, "openhands": openhands, "aider": aider}


def cwd_of(entry: dict, path: str) -> str:
    if entry.get("cwd"):
        return entry["cwd"]
    if entry["rules"] == "claude":
        for raw in open(path, encoding="utf-8"):
            d = json.loads(raw)
            if d.get("cwd"):
                return d["cwd"]
    if entry["rules"] == "codex":
        for raw in open(path, encoding="utf-8"):
            p = json.loads(raw).get("payload") or {}
            if p.get("cwd"):
                return p["cwd"]
    if entry["rules"] == "opencode":
        return json.load(open(path, encoding="utf-8"))["info"]["directory"]
    raise SystemExit(f"{path}: no cwd (give it in manifest.json)")


def main() -> int:
    check = "--check" in sys.argv[1:]
    manifest = json.load(open(os.path.join(HERE, "manifest.json"), encoding="utf-8"))
    changed = 0
    for entry in manifest["logs"]:
        if not entry.get("rules"):
            continue
        path = os.path.join(HERE, entry["path"])
        lab = Labels(cwd_of(entry, path))
        RULES[entry["rules"]](lab, path)
        res = lab.result()
        text = json.dumps({"log": entry["path"], **res}, indent=1) + "\n"
        out = os.path.join(HERE, "labels", entry["id"] + ".json")
        old = open(out, encoding="utf-8").read() if os.path.exists(out) else None
        if old != text:
            changed += 1
            if not check:
                with open(out, "w", encoding="utf-8") as f:
                    f.write(text)
        print(f"{entry['id']}: {len(res['shown'])} files, {res['lines']} lines shown, "
              f"{sum(len(v) for v in res['must_not'].values())} must-not, {len(res['outside'])} outside, "
              f"{len(res['probes'])} probes, {res['unprobed']} unprobed")
    if check and changed:
        print(f"{changed} label file(s) out of date", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
