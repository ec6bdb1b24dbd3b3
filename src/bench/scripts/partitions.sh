#!/usr/bin/env bash
# Times `export --partitions N` on one collection: N = 1, 2 and 4 in threads, then 2 and 4 in two
# `flatdump worker` processes, with the CPU each process used. Prints one Markdown row per run.
#
#   src/bench/scripts/partitions.sh URI DB COLLECTION JOB_REPOSITORY_URL [RUNS] [JAR]
#
# JOB_REPOSITORY_URL is a PostgreSQL JDBC URL (bin/postgres-local url) for the remote rows. CPU is
# read from /proc: the manager's with /usr/bin/time, the workers' and mongod's as the change of
# their utime + stime over the run (mongod's pid from bin/mongod-local's state directory). Every
# run exports into a fresh directory with --compress none, so that exportStep dominates.
set -euo pipefail
URI="$1" DB="$2" COLL="$3" REPO="$4" RUNS="${5:-2}" JAR="${6:-target-bench/flatdump.jar}"
STATE="${FLATDUMP_MONGOD_STATE:-$HOME/.cache/flatdump/mongod-state}"
MONGOD_PID="$(cat "$STATE/mongod.pid")"
TICKS="$(getconf CLK_TCK)"
WORK="$(mktemp -d)"
trap 'pkill -f "flatdump.jar worker --broker tcp://127.0.0.1:61799" || true; rm -rf "$WORK"' EXIT

cpu_seconds() { # utime + stime of a pid, in seconds
  awk -v t="$TICKS" '{ sub(/^.*\) /, ""); print ($12 + $13) / t }' "/proc/$1/stat"
}

workers=()
start_workers() {
  local threads="$1"
  for w in 1 2; do
    java -jar "$JAR" worker --broker tcp://127.0.0.1:61799 --job-repository "$REPO" --uri "$URI" \
      --threads "$threads" > "$WORK/worker-$w.log" 2>&1 &
    workers+=("$!")
  done
}
stop_workers() {
  kill "${workers[@]}" 2>/dev/null || true
  wait "${workers[@]}" 2>/dev/null || true
  workers=()
}

echo "| run | mode | N | export wall s | exportStep s | flatdump CPU s | mongod CPU s |"
echo "|---|---|---|---|---|---|---|"
for run in $(seq 1 "$RUNS"); do
  for mode in local:1 local:2 local:4 remote:2 remote:4; do
    kind="${mode%%:*}" n="${mode##*:}"
    out="$WORK/out-$kind-$n-$run"
    extra=()
    if [[ "$kind" == remote ]]; then
      start_workers $(( n / 2 ))
      sleep 3
      extra=(--remote --broker tcp://127.0.0.1:61799 --job-repository "$REPO")
    fi
    w0=0
    for p in "${workers[@]}"; do w0=$(echo "$w0 + $(cpu_seconds "$p")" | bc); done
    m0="$(cpu_seconds "$MONGOD_PID")"
    /usr/bin/time -f "%e %U %S" -o "$WORK/time" java -jar "$JAR" export --uri "$URI" --db "$DB" \
      --collection "$COLL" --out "$out" --schema schemas/organizations.fbs --partitions "$n" \
      --compress none "${extra[@]}" \
      > "$WORK/export.log" 2>&1
    m1="$(cpu_seconds "$MONGOD_PID")"
    w1=0
    for p in "${workers[@]}"; do w1=$(echo "$w1 + $(cpu_seconds "$p")" | bc); done
    read -r wall user sys < "$WORK/time"
    step="$(awk '$1 == "exportStep" { sub(/s$/, "", $NF); print $NF }' "$WORK/export.log")"
    client="$(echo "$user + $sys + $w1 - $w0" | bc)"
    mongod="$(echo "$m1 - $m0" | bc)"
    echo "| $run | $kind | $n | $wall | $step | $client | $mongod |"
    [[ "$kind" == remote ]] && stop_workers
    rm -rf "$out"
  done
done
