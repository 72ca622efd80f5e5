# Source this file (`. scripts/node24.sh`) to run Fleetlink on Node.js 24 LTS where the machine's
# `node` is older: it installs the official Node.js 24 build from the npm registry (the package
# node-linux-<arch>, which holds the binary and its C headers) into a cache folder once, puts it
# first on the PATH of this shell, and points native builds (node-gyp: ssh2's crypto, node-pty) at
# its headers, so they build offline and for the Node that runs them. The machine's own Node stays
# as it is; FLEETLINK_SYSTEM_NODE names it afterwards (CI runs the agent's suite on it too).
# Where the machine's node is 24 or newer already, nothing changes. Needs npm (any version) and the
# npm registry; the cache folder is FLEETLINK_CACHE (default ~/.cache/fleetlink; root's
# /var/cache/fleetlink).

fleetlink_node24() {
  local wanted=24 machine_node arch dir pkg major
  machine_node="$(command -v node || true)"
  export FLEETLINK_SYSTEM_NODE="${FLEETLINK_SYSTEM_NODE:-$machine_node}"
  major="$([ -n "$machine_node" ] && node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
  if [ "$major" -ge "$wanted" ]; then
    return 0
  fi
  case "$(uname -s)/$(uname -m)" in
    Linux/x86_64) arch=x64 ;;
    Linux/aarch64 | Linux/arm64) arch=arm64 ;;
    *)
      echo "scripts/node24.sh: no Node.js build on the npm registry for $(uname -s)/$(uname -m): install Node.js $wanted LTS from https://nodejs.org" >&2
      return 1
      ;;
  esac
  # root's cache is /var/cache/fleetlink, not /root/.cache (mode 700): the tests run agents as
  # `nobody` too, which must be able to run this Node. Not /tmp: anyone could put a `node` there first.
  local cache="${XDG_CACHE_HOME:-$HOME/.cache}/fleetlink"
  [ "$(id -u)" -ne 0 ] || cache=/var/cache/fleetlink
  dir="${FLEETLINK_CACHE:-$cache}/node$wanted"
  pkg="$dir/node_modules/node-linux-$arch"
  if ! "$pkg/bin/node" -e "process.exit(process.versions.node.split('.')[0] === '$wanted' ? 0 : 1)" 2>/dev/null; then
    echo "scripts/node24.sh: the machine's node is ${major}; installing Node.js $wanted from the npm registry into $dir"
    mkdir -p "$dir"
    # --ignore-scripts: the package is a binary and its headers, nothing to run.
    npm install --prefix "$dir" --no-audit --no-fund --no-save --ignore-scripts --loglevel=error "node-linux-$arch@$wanted" || return 1
  fi
  export PATH="$pkg/bin:$PATH"
  # node-gyp reads the headers from here (include/node) instead of the machine's nodedir (~/.npmrc
  # names /usr, Node 20's) or a download, which this network would refuse.
  export npm_config_nodedir="$pkg"
  hash -r
  echo "scripts/node24.sh: using Node.js $(node --version) from $pkg/bin (the machine's: $("$FLEETLINK_SYSTEM_NODE" --version 2>/dev/null || echo none))"
}

fleetlink_node24
