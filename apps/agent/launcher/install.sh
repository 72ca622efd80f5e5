#!/bin/sh
# Installs the Fleetlink agent on Linux (issue 32). The Install page's installer is this script with
# the portable archive appended after the line __FLEETLINK_ARCHIVE__; run from an unpacked portable
# archive, it installs the folder it is in.
#
#   printf %s <key> | sudo sh fleetlink-agent-<version>-linux-installer.sh --server <console url> --device <id> --key-file -
#
# The installation key comes from --key-file (a file, or - for standard input) or FLEETLINK_AGENT_KEY,
# not the command line, where every user of the machine sees it (ps); --key=<key> still works.
# Node.js is not bundled: the agent needs Node.js 20.19 or newer (`node` on the PATH, or
# FLEETLINK_NODE), checked before anything is written. It installs into --prefix (default
# /opt/fleetlink-agent): the launcher, the bundle, and agent.env (mode 600: server, device, key,
# Node.js), writes the systemd unit fleetlink-agent.service into --unit-dir (default
# /etc/systemd/system) and starts it with systemctl; where systemd is not running (a container),
# or with --unit-dir elsewhere, it starts the launcher in the background itself (agent.pid, agent.log).
set -eu

prefix=/opt/fleetlink-agent
unit_dir=/etc/systemd/system
server=''
device=''
key=${FLEETLINK_AGENT_KEY:-}
key_file=''
start=yes

fail() { printf 'fleetlink-agent installer: %s\n' "$*" >&2; exit 1; }
usage() {
  sed -n '6,6p' "$0" | sed 's/^#  *//' >&2
  printf 'options: --prefix <dir> (default %s), --unit-dir <dir> (default %s), --no-start\n' "$prefix" "$unit_dir" >&2
  exit 2
}

while [ $# -gt 0 ]; do
  case "$1" in
    --server) server=${2:-}; shift 2 || usage ;;
    --server=*) server=${1#--server=}; shift ;;
    --device) device=${2:-}; shift 2 || usage ;;
    --device=*) device=${1#--device=}; shift ;;
    --key=*) key=${1#--key=}; shift ;;
    --key) key=${2:-}; shift 2 || usage ;;
    --key-file=*) key_file=${1#--key-file=}; shift ;;
    --key-file) key_file=${2:-}; shift 2 || usage ;;
    --prefix) prefix=${2:-}; shift 2 || usage ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --unit-dir) unit_dir=${2:-}; shift 2 || usage ;;
    --unit-dir=*) unit_dir=${1#--unit-dir=}; shift ;;
    --no-start) start=no; shift ;;
    -h|--help) usage ;;
    *) printf 'unknown option: %s\n' "$1" >&2; usage ;;
  esac
done

[ -n "$server" ] && [ -n "$device" ] || usage
if [ -n "$key_file" ]; then
  if [ "$key_file" = - ]; then key=$(head -n 1); else key=$(head -n 1 "$key_file") || fail "cannot read the installation key from $key_file."; fi
  key=$(printf '%s' "$key" | tr -d ' \t\r')
fi
# agent.env is read by the launcher as shell: only plain characters get into it.
case "$server" in http://*|https://*) ;; *) fail "--server must be the console's http:// or https:// address." ;; esac
case "$server$device" in *[!A-Za-z0-9:/._~%-]*) fail "--server or --device holds a character a URL or device id never has." ;; esac
case "$key" in *[!A-Za-z0-9_=-]*) fail "--key is not an installation key (copy it from the Install page)." ;; esac
case "$prefix" in /*) ;; *) fail "--prefix must be an absolute path." ;; esac
case "$prefix$unit_dir" in *[!A-Za-z0-9/._-]*) fail "--prefix and --unit-dir may hold letters, digits, '/', '.', '_' and '-' only." ;; esac

node=${FLEETLINK_NODE:-$(command -v node || true)}
[ -n "$node" ] || fail "Node.js was not found: install Node.js 20.19 or newer (or give its path in FLEETLINK_NODE) and run this again."
case "$node" in /*[!A-Za-z0-9/._+-]*|[!/]*) fail "Node.js must be given by an absolute path of plain characters, not $node." ;; esac
"$node" -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' \
  || fail "$node is not Node.js 20.19 or newer$(v=$("$node" -e 'process.stdout.write(process.version)' 2>/dev/null) && [ -n "$v" ] && echo " (it is $v)"): install that (or give its path in FLEETLINK_NODE) and run this again."

# The files to install: the archive after the marker, or the folder this script is in.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
line=$(awk '/^__FLEETLINK_ARCHIVE__$/ { print NR + 1; exit }' "$0")
if [ -n "$line" ]; then
  tail -n "+$line" "$0" | tar -xzf - -C "$work" || fail "the archive inside this installer is damaged: download it again."
  source=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n 1)
else
  source=$(cd "$(dirname "$0")" && pwd)
fi
version=$(head -n 1 "$source/current")
[ -f "$source/bundles/$version/dist/cli.mjs" ] || fail "no agent bundle in $source."

mkdir -p "$prefix/bundles" "$unit_dir"
if [ -f "$prefix/agent.pid" ] && kill -0 "$(cat "$prefix/agent.pid")" 2>/dev/null; then
  kill -TERM "$(cat "$prefix/agent.pid")" 2>/dev/null || true
fi
# A reinstall keeps the agent's credentials (data/) and a newer bundle it updated itself to.
rm -rf "$prefix/bundles/$version"
cp -R "$source/bundles/$version" "$prefix/bundles/$version"
cp "$source/fleetlink-agent" "$source/install.sh" "$prefix/"
chmod 755 "$prefix/fleetlink-agent" "$prefix/install.sh"
printf '%s\n' "$version" > "$prefix/current"
rm -f "$prefix/previous" "$prefix/trial" "$prefix/next" "$prefix/update-failed"
(
  umask 077
  {
    printf "FLEETLINK_SERVER='%s'\n" "$server"
    printf "FLEETLINK_DEVICE='%s'\n" "$device"
    printf "FLEETLINK_KEY='%s'\n" "$key"
    printf "FLEETLINK_NODE='%s'\n" "$node"
  } > "$prefix/agent.env"
  mkdir -p "$prefix/data"
)

cat > "$unit_dir/fleetlink-agent.service" <<UNIT
[Unit]
Description=Fleetlink agent
After=network-online.target
Wants=network-online.target

[Service]
ExecStart=/bin/sh $prefix/fleetlink-agent run
Restart=always
RestartSec=5
KillMode=control-group

[Install]
WantedBy=multi-user.target
UNIT
echo "Installed the Fleetlink agent $version into $prefix; systemd unit: $unit_dir/fleetlink-agent.service"

[ "$start" = yes ] || exit 0
if [ "$unit_dir" = /etc/systemd/system ] && [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
  systemctl daemon-reload
  systemctl enable fleetlink-agent.service
  systemctl restart fleetlink-agent.service
  echo "Started: systemctl status fleetlink-agent"
else
  nohup /bin/sh "$prefix/fleetlink-agent" run >> "$prefix/agent.log" 2>&1 < /dev/null &
  echo $! > "$prefix/agent.pid"
  echo "Started without systemd (not running here): pid $(cat "$prefix/agent.pid"), log $prefix/agent.log"
fi
exit 0
