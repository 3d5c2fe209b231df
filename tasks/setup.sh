#!/usr/bin/env bash
# One-time set-up of a fresh machine (Debian with Node/npm): Deno, the npm dependencies,
# the Debian packages the tests use, and the Deno Jupyter kernel. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
DENO_VERSION=2.9.6

have_deno() { command -v deno >/dev/null 2>&1 && deno --version 2>/dev/null | head -n1 | grep -q " ${DENO_VERSION} "; }
if ! have_deno; then
  echo "setup: installing deno ${DENO_VERSION} from npm"
  npm install -g --silent "deno@${DENO_VERSION}"
  export PATH="$(npm prefix -g)/bin:${PATH}"
fi
have_deno || { echo "setup: deno ${DENO_VERSION} is not on PATH after install" >&2; exit 1; }

PKGS=(python3-seaborn python3-sympy python3-pytest jupyter-nbconvert jupyter-nbformat python3-nbclient jupyter-client chromium)
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

echo "setup: registering the Deno Jupyter kernel"
deno jupyter --install --force >/dev/null 2>&1 || deno jupyter --install --force
echo "setup: done"
