// The README's set-up lines on a fresh machine: `.ci/run` runs exactly what README.md says, and
// `tasks/setup.sh` leaves a deno that a new shell finds even when it was started through `npx`
// (whose temporary deno is on the task's PATH but gone in the next shell).
import assert from "node:assert/strict";

const ROOT = new URL("..", import.meta.url).pathname;

async function run(cmd: string[], env: Record<string, string> = {}, clearEnv = false) {
  const out = await new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd: ROOT,
    env,
    clearEnv,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

const setupVersion = (await Deno.readTextFile(`${ROOT}tasks/setup.sh`)).match(
  /^DENO_VERSION=(\S+)$/m,
)?.[1] ?? "";

Deno.test("setup.sh pins a deno version", () => assert.match(setupVersion, /^\d+\.\d+\.\d+$/));

Deno.test("README's first sh block holds the two set-up lines .ci/run executes", async () => {
  const { code, stdout } = await run(["bash", ".ci/readme-lines"]);
  assert.equal(code, 0);
  const lines = stdout.trim().split("\n");
  assert.equal(lines.length, 2, stdout);
  assert.match(lines[0], /^npx --yes deno@\S+ task reproduce\b/);
  assert.match(lines[1], /^npx --yes deno@\S+ task setup && deno task test\b/);
  for (const line of lines) assert.ok(line.includes(`deno@${setupVersion} `), line);
  const ci = await Deno.readTextFile(`${ROOT}.ci/run`);
  assert.match(ci, /\.ci\/readme-lines/);
  assert.doesNotMatch(ci, /tasks\/setup\.sh/, ".ci/run must not bypass the README's lines");
});

Deno.test("setup.sh under npx installs deno into npm's global bin, where a new shell finds it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "setup-fresh-" });
  try {
    const npx = `${dir}/home/.npm/_npx/abc/node_modules/.bin`;
    const prefix = `${dir}/prefix`;
    const stubs = `${dir}/stubs`;
    for (const d of [npx, `${prefix}/bin`, stubs]) await Deno.mkdir(d, { recursive: true });
    const fakeDeno =
      `#!/bin/sh\n[ "$1" = --version ] && echo "deno ${setupVersion} (stable)"\nexit 0\n`;
    const write = async (path: string, text: string) => {
      await Deno.writeTextFile(path, text);
      await Deno.chmod(path, 0o755);
    };
    // npx's temporary deno: on PATH for the task only.
    await write(`${npx}/deno`, fakeDeno);
    // npm: `prefix -g` and `install -g deno@…`, which puts a deno into the global bin.
    await write(
      `${stubs}/npm`,
      `#!/bin/sh\ncase "$1" in\n  prefix) echo "${prefix}";;\n  install) echo "$@" >> "${dir}/npm.log"; printf '%s' '${fakeDeno}' > "${prefix}/bin/deno"; chmod +x "${prefix}/bin/deno";;\nesac\n`,
    );
    await write(`${stubs}/dpkg`, "#!/bin/sh\nexit 0\n"); // every Debian package present
    const path = `${npx}:${stubs}:/usr/local/bin:/usr/bin:/bin`;
    const r = await run(["bash", "tasks/setup.sh"], { PATH: path, HOME: `${dir}/home` }, true);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const npmLog = await Deno.readTextFile(`${dir}/npm.log`).catch(() => "");
    assert.match(npmLog, new RegExp(`install -g .*deno@${setupVersion}`));
    const installed = await run([`${prefix}/bin/deno`, "--version"]);
    assert.match(installed.stdout, new RegExp(` ${setupVersion.replaceAll(".", "\\.")} `));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
