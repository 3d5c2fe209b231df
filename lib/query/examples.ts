/**
 * Documented example queries: the README's "ask your own questions" section is generated from
 * these (`tasks/readme_queries.ts`), `docs/queries.md` shows them, and the tests run each one
 * against a hand-computed fixture.
 *
 * @module
 */

/** An example research question and the one query that answers it. */
export interface Example {
  /** Short stable id. */
  id: string;
  /** The question, as a researcher would ask it. */
  question: string;
  sql: string;
  /** Shown in the README section (five are). */
  readme: boolean;
}

/** The examples, in the order the README and docs show them. */
export const EXAMPLES: readonly Example[] = [
  {
    id: "missed-by-class",
    question: "Why are repository targets missed — never read, or read but not used?",
    sql: `SELECT model, class, COUNT(*) AS targets
FROM missed_targets
WHERE kind = 'repo'
GROUP BY model, class
ORDER BY model, class`,
    readme: true,
  },
  {
    id: "qwen-read-not-reused",
    question: "Which repository targets did Qwen read but not reuse at the last turn?",
    sql: `SELECT harness, memory, chain, turn, target
FROM missed_targets
WHERE model = 'Qwen3.7-plus' AND kind = 'repo' AND class = 'read_not_used'
  AND turn IN (SELECT MAX(turn) FROM turns)
ORDER BY harness, memory, chain, target
LIMIT 5`,
    readme: true,
  },
  {
    id: "long-reimplementations",
    question: "How many re-implemented targets had more than 50 body lines?",
    sql: `SELECT model, COUNT(*) AS reimplemented,
  SUM(CASE WHEN body_lines > 50 THEN 1 ELSE 0 END) AS over_50_lines
FROM reimplementations
GROUP BY model
ORDER BY model`,
    readme: true,
  },
  {
    id: "harness-flips",
    question: "How many targets were reused under mini-SWE-agent but re-implemented under " +
      "OpenCode (same model, memory, chain and turn)?",
    sql: `SELECT model_a AS model, COUNT(*) AS flips, COUNT(DISTINCT chain) AS chains
FROM flips
WHERE harness_a = 'mini-SWE-agent' AND harness_b = 'OpenCode'
  AND model_a = model_b AND memory_a = memory_b
  AND reused_a AND reimplemented_b
GROUP BY model_a
ORDER BY model_a`,
    readme: true,
  },
  {
    id: "grep-then-bypass",
    question: "Every turn whose agent ran grep on a file holding a target it then bypassed",
    sql: `SELECT DISTINCT harness, model, memory, chain, turn, target
FROM target_reads
WHERE (tool = 'grep' OR regexp_like(command, '\\bgrep\\b')) AND NOT reused
ORDER BY harness, model, memory, chain, turn, target
LIMIT 8`,
    readme: true,
  },
  {
    id: "resolved-but-duplicated",
    question: "How many turns passed every test yet re-implemented a target?",
    sql: `SELECT harness, model, COUNT(*) AS resolved_turns,
  SUM(CASE WHEN reimplemented > 0 THEN 1 ELSE 0 END) AS with_reimplementation
FROM turns
WHERE resolved
GROUP BY harness, model
ORDER BY harness, model`,
    readme: false,
  },
];
