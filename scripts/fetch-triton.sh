#!/usr/bin/env bash
# Installs the triton wheel (the client whose PTX cli/tests/clients/triton/ keeps) into a virtual
# environment in a cache directory and prints its python. Triton compiles for an explicit target
# without a GPU or torch, so the live client test (cli/tests/clients_triton_live.rs) can run it.
# Usage: scripts/fetch-triton.sh            -> prints e.g. ~/.cache/ptxforge/triton-3.9.0/bin/python
# Env:   PTXFORGE_TRITON_CACHE overrides the cache directory.
set -euo pipefail
VERSION=3.9.0
VENV="${PTXFORGE_TRITON_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ptxforge/triton-$VERSION}"
if [ -x "$VENV/bin/python" ] && [ -f "$VENV/.complete" ]; then
  echo "$VENV/bin/python"; exit 0
fi
python3 -m venv "$VENV" >&2
"$VENV/bin/python" -m pip install -q "triton==$VERSION" >&2
touch "$VENV/.complete"
echo "$VENV/bin/python"
