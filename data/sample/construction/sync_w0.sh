#!/bin/sh
# Re-creates the sample's W0 (data/sample/repos/seaborn/seaborn) from Debian's python3-seaborn
# 0.12.2: the package's Python sources, byte for byte (no __pycache__). The copy is in the
# repository because the log readers never follow symbolic links out of a workspace.
#   sh data/sample/construction/sync_w0.sh [/usr/lib/python3/dist-packages/seaborn]
set -e
src="${1:-/usr/lib/python3/dist-packages/seaborn}"
dest="$(dirname "$0")/../repos/seaborn/seaborn"
rm -rf "$dest"
mkdir -p "$dest"
(cd "$src" && find . -name '*.py' -not -path '*/__pycache__/*' | sort) | while read -r f; do
  mkdir -p "$dest/$(dirname "$f")"
  cp "$src/$f" "$dest/$f"
done
echo "copied $(find "$dest" -name '*.py' | wc -l) files to $dest"
