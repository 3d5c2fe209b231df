/**
 * Set-up helpers of the tests that build git repositories: run a command (git with a fixed author
 * and no system configuration) and get its stdout, failing loudly with its stderr.
 *
 * @module
 */

const decoder = new TextDecoder();

/** Environment of the tests' own git commands (a fixed author, no system configuration). */
export const TEST_GIT_ENV = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.org",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.org",
  GIT_CONFIG_NOSYSTEM: "1",
};

/** Runs `cmd` in `cwd` (stdin: `input`); its stdout bytes, or an Error with its stderr. */
export async function shBytes(
  cwd: string,
  cmd: string[],
  input?: Uint8Array | string,
): Promise<Uint8Array> {
  const child = new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd,
    stdin: input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: TEST_GIT_ENV,
  }).spawn();
  if (input !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(typeof input === "string" ? new TextEncoder().encode(input) : input);
    await w.close();
  }
  const out = await child.output();
  if (!out.success) throw new Error(`${cmd.join(" ")}: ${decoder.decode(out.stderr)}`);
  return out.stdout;
}

/** {@link shBytes} as text. */
export async function sh(cwd: string, cmd: string[], input?: Uint8Array | string): Promise<string> {
  return decoder.decode(await shBytes(cwd, cmd, input));
}
