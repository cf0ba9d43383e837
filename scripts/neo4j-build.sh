#!/usr/bin/env bash
# Build tools/neo4j-runner (the real Neo4j 5.26 Community server from Maven jars) and write its classpath file.
#
#   scripts/neo4j-build.sh            build if needed, print the classpath file's path
#   scripts/neo4j-build.sh --force    rebuild
#
# Output: tools/neo4j-runner/target/runner.classpath = runner jar + every runtime dependency jar (absolute
# paths, ':'-separated), used as `java -cp "$(cat ...)" org.openresearch.neo4jrunner.Neo4jRunner ...`.
# Idempotent and fast when nothing changed: the build is skipped when the stamp (hash of pom.xml, the Java
# sources and the `mvn -v` Java line) matches and every jar on the classpath still exists.
# Needs java (17 or 21) and mvn on PATH. Tries Maven offline first, then online (Maven Central).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
runner="$repo/tools/neo4j-runner"
target="$runner/target"
cpfile="$target/runner.classpath"
stampfile="$target/.build-stamp"
force=0
[[ "${1:-}" == "--force" ]] && force=1

die() { echo "neo4j-build: $*" >&2; exit 1; }
command -v java >/dev/null 2>&1 || die "java not found on PATH (need Java 17 or 21)"
command -v mvn >/dev/null 2>&1 || die "mvn not found on PATH (need Maven 3.6+)"
[[ -f "$runner/pom.xml" ]] || die "missing $runner/pom.xml"

hash_cmd() { if command -v sha256sum >/dev/null 2>&1; then sha256sum; else shasum -a 256; fi; }
stamp() {
  {
    cat "$runner/pom.xml"
    find "$runner/src" -type f -name '*.java' | LC_ALL=C sort | while read -r f; do echo "$f"; cat "$f"; done
    java -version 2>&1 | head -1
  } | hash_cmd | cut -d' ' -f1
}

classpath_ok() {
  [[ -s "$cpfile" ]] || return 1
  local IFS=':' entry
  for entry in $(cat "$cpfile"); do
    [[ -f "$entry" ]] || return 1
  done
  return 0
}

# Serialise concurrent builds (parallel test workers) on one checkout.
mkdir -p "$target"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$target/.build.lock"
  flock 9
fi

want="$(stamp)"
if [[ $force -eq 0 && -f "$stampfile" && "$(cat "$stampfile")" == "$want" ]] && classpath_ok; then
  echo "$cpfile"
  exit 0
fi

log="$(mktemp -t neo4j-build.XXXXXX.log)"
trap 'rm -f "$log"' EXIT
mvn_args=(-q -B -f "$runner/pom.xml" -DskipTests -Dstyle.color=never package)
if ! mvn -o "${mvn_args[@]}" >"$log" 2>&1; then
  if ! mvn "${mvn_args[@]}" >"$log" 2>&1; then
    tail -40 "$log" >&2
    die "maven build failed (log above)"
  fi
fi

jar="$(ls "$target"/neo4j-runner-*.jar 2>/dev/null | head -1)"
[[ -n "$jar" && -s "$target/deps.classpath" ]] || die "maven finished but the jar or deps.classpath is missing"
printf '%s:%s\n' "$jar" "$(tr -d '\n' <"$target/deps.classpath")" >"$cpfile.tmp"
mv "$cpfile.tmp" "$cpfile"
classpath_ok || die "classpath lists jars that do not exist"
echo "$want" >"$stampfile"
echo "$cpfile"
