/**
 * The frame every page of a site shares: head (stylesheet, content security policy that allows
 * only the site's own files — no network), breadcrumbs, the SIMULATED banner, the keyboard help
 * and the script.
 *
 * @module
 */
import { type Html, html, type Part } from "./html.ts";
import { relHref } from "./paths.ts";
import { SIMULATED } from "../provenance.ts";

/**
 * The pages' content security policy: scripts, styles and images only from the site's own files
 * (`'self'`; `data:` images), nothing else — no network, no inline script.
 */
export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'";

/** Options of {@link page}. */
export interface PageOptions {
  /** Site-relative path of the page (decides the relative links to assets). */
  href: string;
  title: string;
  kind: "index" | "config" | "turn" | "audit" | "log";
  simulated: boolean;
  /** Breadcrumbs: [label, site-relative href | null]. */
  crumbs: [string, string | null][];
  body: Part;
}

/** The words of the SIMULATED banner. */
export function simulatedBanner(): Html {
  return html`
    <p class="banner sim"
      role="note"><strong>${SIMULATED}</strong>: synthetic run logs that test the pipeline; no number here describes a real agent.</p>
  `;
}

/** The keyboard help of a kind of page. */
function keys(kind: PageOptions["kind"]): [string, string][] {
  const common: [string, string][] = [["?", "show or hide this help"], ["g i", "go to the index"]];
  if (kind === "turn" || kind === "log") {
    return [
      ["j / k", "next / previous event (its lines are marked in the code)"],
      ["n / p", "next / previous turn"],
      ["u", "up: the chain's strip"],
      ["t", "targets"],
      ...common,
    ];
  }
  if (kind === "index") {
    return [["/", "filter the turns"], ["j / k", "next / previous row"], [
      "Enter",
      "open the row's turn",
    ], ...common];
  }
  if (kind === "audit") return [["j / k", "next / previous finding"], ...common];
  return [["j / k", "next / previous turn in the strips"], ["Enter", "open it"], ...common];
}

/** A whole page. */
export function page(o: PageOptions): string {
  const root = relHref(o.href, "");
  const crumbs = o.crumbs.map(([label, href], i) =>
    html`${i ? html`<span aria-hidden="true"> › </span>` : ""}${
      href
        ? html`<a href="${relHref(o.href, href)}">${label}</a>`
        : html`<span aria-current="page">${label}</span>`
    }`
  );
  const help = keys(o.kind).map(([k, what]) =>
    html`
      <dt><kbd>${k}</kbd></dt>
      <dd>${what}</dd>
    `
  );
  return String(html`
    <!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="${CSP}">
        <meta name="rv-root" content="${root}">
        <title>${o.title} — reporeuse</title>
        <link rel="stylesheet" href="${root}assets/view.css">
      </head>
      <body data-page="${o.kind}">
    <a class="skip" href="#main">Skip to content</a>
    <header class="top"><nav class="crumbs" aria-label="Breadcrumbs">${crumbs}</nav><button type="button" class="keyhint" id="keyhint" aria-controls="keyhelp">? keys</button></header>
    ${o.simulated ? simulatedBanner() : ""}
    <main id="main">
    ${o.body}
    </main>
    <aside id="keyhelp" class="keyhelp" hidden aria-label="Keyboard"><h2>Keyboard</h2><dl>${help}</dl></aside>
    <script src="${root}assets/view.js"></script>
      </body>
    </html>
  `);
}

/** A share as a percentage (`–` when undefined). */
export function pct(x: number | null | undefined, digits = 0): string {
  return x === null || x === undefined || !Number.isFinite(x)
    ? "–"
    : `${(x * 100).toFixed(digits)}%`;
}

/** A number, `–` when undefined. */
export function num(x: number | null | undefined, digits = 0): string {
  return x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(digits);
}
