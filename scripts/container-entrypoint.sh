#!/bin/sh
# The image's entry point (Dockerfile): the billing-sim CLI, `serve` unless other arguments are given.
# State stays in memory unless a volume is mounted at /data: then the simulator keeps it in /data/billing-sim.db
# (`--data`), so answered writes survive the container's stop and start. BILLING_SIM_DATA set by the user wins.
# The image declares no VOLUME: one would create an anonymous volume on every `docker run`, and a test double that
# a CI job starts should begin empty unless the job asks otherwise.
if [ -z "${BILLING_SIM_DATA:-}" ] && grep -qs ' /data ' /proc/self/mountinfo; then
  export BILLING_SIM_DATA=/data/billing-sim.db
fi
# exec: node is PID 1 and receives docker stop's SIGTERM itself (it stops within 2 s, exit 0).
exec node /app/dist/src/cli.js "$@"
