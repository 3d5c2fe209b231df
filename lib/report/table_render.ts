/**
 * The report's table model and its renderers (Markdown, CSV, LaTeX/booktabs, HTML, plain text).
 *
 * Every numeric cell holds the computed value and, when the paper has one, the paper's value and
 * the difference (computed − paper). Best values per column are bolded as in the paper; columns
 * with a tolerance get a per-row agreement check and a summary line.
 *
 * @module
 */
import { csvField, escapeHtml, mdText } from "../util/mod.ts";

/** A numeric column. */
export interface Column {
  key: string;
  /** Plain-text header. */
  label: string;
  /** LaTeX header (defaults to the escaped label). */
  latex?: string;
  /** Column group ("Reuse", "Recall", …) shown above the header. */
  group?: string;
  /** LaTeX form of the group (defaults to the escaped group). */
  groupLatex?: string;
  /** Digits after the decimal point. */
  digits: number;
  /** Bold the best value of the column ("max" or "min"). */
  best?: "max" | "min";
  /** Largest |computed − paper| counted as agreement. */
  tolerance?: number;
  /** Print a sign on positive values (Δ columns). */
  signed?: boolean;
}

/** A row: key cells (e.g. harness, model), values and the paper's values. */
export interface Row {
  keys: string[];
  values: Record<string, number | null>;
  paper?: Record<string, number | null>;
  /** Per-row digit overrides (Table 1). */
  digits?: Record<string, number>;
}

/** A report table. */
export interface TableData {
  /** File stem, e.g. "table2". */
  id: string;
  title: string;
  caption: string;
  /** Where the numbers come from, printed in every rendering's header. */
  provenance: string;
  keys: { name: string; label: string }[];
  columns: Column[];
  rows: Row[];
  /** Extra lines printed under the table. */
  notes: string[];
  /** Hide repeated key cells (e.g. the harness) in Markdown and LaTeX. */
  groupKeys?: boolean;
}

/**
 * Rounds half away from zero to `digits` and formats; "–" for null, no "-0.0".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fmt } from "./table_render.ts";
 * assert(fmt(2.25, 1) === "2.3" && fmt(-0.04, 1) === "0.0" && fmt(3, 1, true) === "+3.0");
 * ```
 */
export function fmt(x: number | null | undefined, digits: number, signed = false): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return "–";
  const r = roundTo(x, digits);
  const s = (r === 0 ? 0 : r).toFixed(digits);
  return signed && r > 0 ? `+${s}` : s;
}

/** Rounds half away from zero (with a tolerance for binary representation) to `digits`. */
export function roundTo(x: number, digits: number): number {
  const f = 10 ** digits;
  const y = Math.abs(x) * f;
  const r = Math.floor(y + 0.5 + 1e-9) / f;
  return x < 0 ? -r : r;
}

function digitsOf(_t: TableData, row: Row, c: Column): number {
  return row.digits?.[c.key] ?? c.digits;
}

/** Difference computed − paper, or null. */
export function diffOf(row: Row, key: string): number | null {
  const v = row.values[key], p = row.paper?.[key];
  return v === null || v === undefined || p === null || p === undefined ? null : v - p;
}

/** Columns failing their tolerance in a row. */
export function offColumns(t: TableData, row: Row): Column[] {
  return t.columns.filter((c) => {
    if (c.tolerance === undefined) return false;
    const d = diffOf(row, c.key);
    return d !== null && Math.abs(d) > c.tolerance + 1e-9;
  });
}

/** Rounded values of the best cells per column (as a set of "row:col" ids). */
function bestCells(t: TableData): Set<string> {
  const out = new Set<string>();
  for (const c of t.columns) {
    if (!c.best) continue;
    const vals = t.rows.map((r) => r.values[c.key]);
    const rounded = vals.map((v, i) =>
      v === null || v === undefined ? null : roundTo(v, digitsOf(t, t.rows[i], c))
    );
    const defined = rounded.filter((v): v is number => v !== null);
    if (defined.length < 2) continue;
    const best = c.best === "max" ? Math.max(...defined) : Math.min(...defined);
    rounded.forEach((v, i) => v === best && out.add(`${i}:${c.key}`));
  }
  return out;
}

function hasChecks(t: TableData): boolean {
  return t.columns.some((c) => c.tolerance !== undefined) && t.rows.some((r) => r.paper);
}

/** The one line that sums up the tolerance checks, e.g. "Agreement with the paper: 70/72 cells within …". */
export function toleranceLine(t: TableData): string | null {
  if (!hasChecks(t)) return null;
  let total = 0, within = 0;
  const off: string[] = [];
  for (const row of t.rows) {
    for (const c of t.columns) {
      if (c.tolerance === undefined) continue;
      const d = diffOf(row, c.key);
      if (d === null) continue;
      total++;
      if (Math.abs(d) <= c.tolerance + 1e-9) within++;
      else {
        const shown = roundTo(row.values[c.key]!, digitsOf(t, row, c)) - row.paper![c.key]!;
        off.push(`${row.keys.join(" / ")} ${fullLabel(c)} (${fmt(shown, c.digits, true)})`);
      }
    }
  }
  const tol = [
    ...new Set(t.columns.filter((c) => c.tolerance !== undefined).map((c) => c.tolerance)),
  ]
    .map((x) => `±${x}`).join("/");
  const base = `Agreement with the paper (tolerance ${tol} points per column as listed): ` +
    `${within}/${total} cells within tolerance`;
  return off.length ? `${base}; outside: ${off.join("; ")}.` : `${base}.`;
}

/** "Reuse repo", "Files", … */
export function fullLabel(c: Column): string {
  return c.group ? `${c.group} ${c.label}` : c.label;
}

function keyCells(t: TableData, i: number): string[] {
  const row = t.rows[i];
  if (!t.groupKeys || i === 0) return row.keys;
  const prev = t.rows[i - 1].keys;
  let same = true;
  return row.keys.map((k, j) => {
    same = same && prev[j] === k && j < row.keys.length - 1;
    return same ? "" : k;
  });
}

function cellText(
  t: TableData,
  row: Row,
  c: Column,
): { value: string; paper?: string; diff?: string } {
  const d = digitsOf(t, row, c);
  const value = fmt(row.values[c.key], d, c.signed);
  const p = row.paper?.[c.key];
  if (p === null || p === undefined) return { value };
  // the printed difference is that of the printed values (the check uses the exact one)
  const v = row.values[c.key];
  const diff = v === null || v === undefined ? null : roundTo(v, d) - p;
  return { value, paper: fmt(p, d, c.signed), diff: fmt(diff, d, true) };
}

/** Markdown rendering: header with provenance, cells "computed / paper (Δ)". */
export function toMarkdown(t: TableData): string {
  const best = bestCells(t);
  const checks = hasChecks(t);
  const head = [
    ...t.keys.map((k) => k.label),
    ...t.columns.map(fullLabel),
    ...(checks ? ["Check"] : []),
  ];
  const lines = [
    `## ${t.title}`,
    "",
    `> **Data: ${mdText(t.provenance)}**`,
    "",
    mdText(t.caption),
    "",
    (t.rows.some((r) => r.paper)
      ? "Cells: computed / paper (difference, computed − paper)."
      : "Cells: computed values.") +
    (t.columns.some((c) => c.best) ? " Bold: best computed value per column." : ""),
    "",
    `| ${head.map(mdText).join(" | ")} |`,
    `|${head.map((_, i) => (i < t.keys.length ? "---" : "---:")).join("|")}|`,
  ];
  t.rows.forEach((row, i) => {
    const cells = keyCells(t, i).map(mdText);
    for (const c of t.columns) {
      const x = cellText(t, row, c);
      const v = best.has(`${i}:${c.key}`) ? `**${x.value}**` : x.value;
      cells.push(x.paper === undefined ? v : `${v} / ${x.paper} (${x.diff})`);
    }
    if (checks) {
      const off = offColumns(t, row);
      cells.push(
        !row.paper ? "" : off.length ? `✗ ${mdText(off.map((c) => c.key).join(", "))}` : "✓",
      );
    }
    lines.push(`| ${cells.join(" | ")} |`);
  });
  // captions, notes and the summary carry data (configuration names, paths): escaped too
  const summary = toleranceLine(t);
  lines.push("");
  if (summary) lines.push(mdText(summary), "");
  for (const n of t.notes) lines.push(`- ${mdText(n)}`);
  if (t.notes.length) lines.push("");
  return lines.join("\n");
}

/** One CSV field: RFC 4180 quoting, spreadsheet formulas neutralised (lib/util/text.ts). */
export { csvField };

/**
 * CSV rendering: one line per row; for each column `<key>`, `<key>_paper`, `<key>_diff` (values at
 * full precision rounded to the column's digits + 2 for stable bytes); first column `source`.
 */
export function toCSV(t: TableData): string {
  const withPaper = t.rows.some((r) => r.paper);
  const head = ["source", ...t.keys.map((k) => k.name)];
  for (const c of t.columns) {
    head.push(c.key);
    if (withPaper) head.push(`${c.key}_paper`, `${c.key}_diff`);
  }
  if (hasChecks(t)) head.push("within_tolerance");
  const lines = [head.map(csvField).join(",")];
  t.rows.forEach((row) => {
    const cells: (string | number | null)[] = [t.provenance, ...row.keys];
    for (const c of t.columns) {
      const d = digitsOf(t, row, c);
      const v = row.values[c.key];
      cells.push(v === null || v === undefined ? null : roundTo(v, d + 2));
      if (withPaper) {
        const p = row.paper?.[c.key];
        const df = diffOf(row, c.key);
        cells.push(p ?? null, df === null ? null : roundTo(df, d + 2));
      }
    }
    if (hasChecks(t)) cells.push(row.paper ? String(offColumns(t, row).length === 0) : null);
    lines.push(cells.map(csvField).join(","));
  });
  return lines.join("\n") + "\n";
}

/** Escapes LaTeX special characters in text. */
export function latexEscape(s: string): string {
  return s.replace(/[\\{}&%$#_^~]/g, (ch) => {
    switch (ch) {
      case "\\":
        return "\\textbackslash{}";
      case "~":
        return "\\textasciitilde{}";
      case "^":
        return "\\textasciicircum{}";
      default:
        return `\\${ch}`;
    }
  }).replaceAll("–", "--").replaceAll("—", "---").replaceAll("Δ", "$\\Delta$")
    .replaceAll("±", "$\\pm$").replaceAll("−", "$-$").replaceAll("·", "$\\cdot$");
}

function texNum(s: string): string {
  return s === "–" ? "--" : s.replace(/^-/, "$-$").replace(/^\+/, "$+$");
}

/** LaTeX (booktabs) rendering; cells "computed (paper, Δ)" with the paper's values in small type. */
export function toLaTeX(t: TableData): string {
  const best = bestCells(t);
  const nk = t.keys.length;
  const spec = "l".repeat(nk) + "r".repeat(t.columns.length);
  const wide = nk + t.columns.length > 4;
  const env = wide ? "table*" : "table";
  const out = [
    `% ${t.title} — Data: ${t.provenance}`,
    "% Requires \\usepackage{booktabs,graphicx}",
    `\\begin{${env}}[t]`,
    "\\centering",
    `\\caption{${latexEscape(`${t.caption} Data: ${t.provenance}.`)}` +
    (t.rows.some((r) => r.paper) ? " Cells: computed (paper, difference).}" : "}"),
    `\\label{tab:${t.id}}`,
    ...(wide ? ["\\resizebox{\\textwidth}{!}{%"] : []),
    `\\begin{tabular}{${spec}}`,
    "\\toprule",
  ];
  if (t.columns.some((c) => c.group)) {
    const cells: string[] = Array(nk).fill("");
    const rules: string[] = [];
    let i = 0;
    while (i < t.columns.length) {
      const g = t.columns[i].group ?? "";
      let j = i;
      while (j + 1 < t.columns.length && (t.columns[j + 1].group ?? "") === g) j++;
      const span = j - i + 1;
      const gl = t.columns[i].groupLatex ?? latexEscape(g);
      cells.push(span > 1 ? `\\multicolumn{${span}}{c}{${gl}}` : gl);
      if (g) rules.push(`\\cmidrule(lr){${nk + i + 1}-${nk + j + 1}}`);
      i = j + 1;
    }
    out.push(`${cells.join(" & ")} \\\\`, rules.join(" "));
  }
  out.push(
    [
      ...t.keys.map((k) => latexEscape(k.label)),
      ...t.columns.map((c) => c.latex ?? latexEscape(c.label)),
    ]
      .join(" & ") + " \\\\",
    "\\midrule",
  );
  t.rows.forEach((row, i) => {
    const cells = keyCells(t, i).map(latexEscape);
    for (const c of t.columns) {
      const x = cellText(t, row, c);
      let v = texNum(x.value);
      if (best.has(`${i}:${c.key}`)) v = `\\textbf{${v}}`;
      if (x.paper !== undefined) v += ` {\\scriptsize(${texNum(x.paper)}, ${texNum(x.diff!)})}`;
      cells.push(v);
    }
    const groupBreak = t.groupKeys && i > 0 && nk > 1 && row.keys[0] !== t.rows[i - 1].keys[0];
    if (groupBreak) out.push("\\midrule");
    out.push(`${cells.join(" & ")} \\\\`);
  });
  out.push("\\bottomrule", wide ? "\\end{tabular}}" : "\\end{tabular}");
  // the Markdown check column has no LaTeX counterpart (its summary is the comment below)
  const notes = t.notes.filter((n) => !n.startsWith("Check column"));
  if (notes.length) {
    out.push(`\\par\\smallskip{\\footnotesize ${notes.map(latexEscape).join(" ")}}`);
  }
  out.push(`\\end{${env}}`);
  const summary = toleranceLine(t);
  if (summary) out.push(`% ${summary.replace(/\s+/g, " ")}`); // one comment line
  return out.join("\n") + "\n";
}

/** HTML rendering (for notebooks). */
export function toHTML(t: TableData): string {
  const best = bestCells(t);
  const head = [...t.keys.map((k) => k.label), ...t.columns.map(fullLabel)];
  const rows = t.rows.map((row, i) => {
    const cells = row.keys.map((k) => `<td>${escapeHtml(k)}</td>`);
    for (const c of t.columns) {
      const x = cellText(t, row, c);
      const v = best.has(`${i}:${c.key}`) ? `<b>${x.value}</b>` : x.value;
      const extra = x.paper === undefined
        ? ""
        : ` <small style="color:#777">(${x.paper}, ${x.diff})</small>`;
      cells.push(`<td style="text-align:right">${v}${extra}</td>`);
    }
    return `<tr>${cells.join("")}</tr>`;
  });
  const summary = toleranceLine(t);
  return [
    `<div><p><b>${escapeHtml(t.title)}</b> — <i>Data: ${escapeHtml(t.provenance)}</i></p>`,
    `<table><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr></thead>`,
    `<tbody>${rows.join("")}</tbody></table>`,
    `<p><small>${escapeHtml(t.caption)}${
      summary ? ` ${escapeHtml(summary)}` : ""
    }</small></p></div>`,
  ].join("\n");
}

/** Plain-text rendering (aligned columns). */
export function toText(t: TableData): string {
  const head = [...t.keys.map((k) => k.label), ...t.columns.map(fullLabel)];
  const body = t.rows.map((row) => [
    ...row.keys,
    ...t.columns.map((c) => {
      const x = cellText(t, row, c);
      return x.paper === undefined ? x.value : `${x.value} (${x.paper}, ${x.diff})`;
    }),
  ]);
  const widths = head.map((h, j) => Math.max(h.length, ...body.map((r) => r[j].length)));
  const line = (cells: string[]) =>
    cells.map((s, j) => (j < t.keys.length ? s.padEnd(widths[j]) : s.padStart(widths[j]))).join(
      "  ",
    );
  const summary = toleranceLine(t);
  return [
    `${t.title} — Data: ${t.provenance}`,
    line(head),
    ...body.map(line),
    ...(summary ? [summary] : []),
  ].join("\n");
}
