#!/usr/bin/env bash
# One-time set-up of a fresh machine (Debian with Node/npm): Deno, the npm dependencies,
# the Debian packages the tests use (Jupyter's classic Notebook among them), and the Deno Jupyter
# kernel. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
DENO_VERSION=2.9.6

# Deno must end up where a new shell finds it: npm's global bin. A deno already on PATH may be
# npx's temporary copy (`npx deno@… task setup` puts it there), which the next shell does not have,
# so check the global install itself, not `command -v deno`.
GLOBAL_BIN="$(npm prefix -g)/bin"
global_deno_ok() { "${GLOBAL_BIN}/deno" --version 2>/dev/null | head -n1 | grep -q " ${DENO_VERSION} "; }
if ! global_deno_ok; then
  echo "setup: installing deno ${DENO_VERSION} globally from npm (${GLOBAL_BIN})"
  npm install -g --silent "deno@${DENO_VERSION}"
fi
global_deno_ok || { echo "setup: deno ${DENO_VERSION} is not in ${GLOBAL_BIN} after npm install -g" >&2; exit 1; }
export PATH="${GLOBAL_BIN}:${PATH}"
# Is npm's global bin on the PATH a new shell gets (npx's own entries aside)?
case ":$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -e '/_npx/' -e 'node_modules/\.bin' | tr '\n' ':')" in
  *":${GLOBAL_BIN}:"*) ;;
  *) echo "setup: note: ${GLOBAL_BIN} is not on your PATH; add it (export PATH=\"${GLOBAL_BIN}:\$PATH\") so 'deno' is found" >&2 ;;
esac

# No C compiler is installed for the native Python parser: where one is (cc, gcc or clang; the
# project's machines come with GCC) it is built below, elsewhere the wasm parser does the work and
# `deno task reporeuse parser` says how to get the faster one.
PKGS=(python3-seaborn python3-sympy python3-pytest jupyter-nbconvert jupyter-nbformat python3-nbclient jupyter-client jupyter-notebook iproute2 chromium cmark-gfm python3-dask python3-distributed)
missing=()
for p in "${PKGS[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

echo "setup: installing npm dependencies (deno install)"
deno install >/dev/null 2>&1 || deno install

echo "setup: the Python parser (the native one is built once where a C compiler is; else wasm)"
deno task reporeuse parser

echo "setup: registering the Deno Jupyter kernel"
deno jupyter --install --force >/dev/null 2>&1 || deno jupyter --install --force
echo "setup: done"
