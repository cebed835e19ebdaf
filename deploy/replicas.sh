#!/usr/bin/env bash
# Replicas on PostgreSQL, on one machine (docs/deploy.md walks through it): a primary, a streaming
# standby made with pg_basebackup, two service replicas reading the primary and a third reading the
# standby. It loads the demo into the primary, checks that every replica gives the same answers,
# loads a second version and checks that all three serve it without a restart (the standby's once
# it has replayed the load). Everything lives in a temporary directory and is removed at the end.
#   bash deploy/replicas.sh [EVENTS]      (needs postgresql-15 and postgresql-15-postgis-3; npm run build first)
set -euo pipefail
cd "$(dirname "$0")/.."
EVENTS=${1:-20000}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
CLI=(node bin/vessel-events.js)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/vessel-events-replicas-XXXXXX")
# initdb refuses root: as root, the clusters run as the `postgres` user Debian's package creates.
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$WORK"

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
cleanup() {
  # The replicas' pids are in files: serve runs in a subshell ($(...)), which cannot set our variables.
  for f in "$WORK"/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true; done
  for c in standby primary; do [ -f "$WORK/$c/postmaster.pid" ] && as_pg "$PG_BIN/pg_ctl" -D "$WORK/$c" -m fast -w stop >/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

PRIMARY=$(free_port); STANDBY=$(free_port)
echo "== primary on port $PRIMARY"
as_pg "$PG_BIN/initdb" -D "$WORK/primary" -A trust -U postgres -E UTF8 --locale=C >/dev/null
# wal_level=replica (the default) and initdb's pg_hba.conf, which lets 127.0.0.1 connect for replication.
as_pg "$PG_BIN/pg_ctl" -D "$WORK/primary" -l "$WORK/primary.log" -w -o "-p $PRIMARY -k $WORK -c listen_addresses=127.0.0.1" start >/dev/null
psql -q -h 127.0.0.1 -p "$PRIMARY" -U postgres -c 'CREATE DATABASE events'
P_URL="postgres://postgres@127.0.0.1:$PRIMARY/events"

echo "== streaming standby on port $STANDBY (pg_basebackup -R: it follows the primary from now on)"
as_pg "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$PRIMARY" -U postgres -D "$WORK/standby" -R -X stream
as_pg "$PG_BIN/pg_ctl" -D "$WORK/standby" -l "$WORK/standby.log" -w -o "-p $STANDBY -k $WORK -c listen_addresses=127.0.0.1" start >/dev/null
S_URL="postgres://postgres@127.0.0.1:$STANDBY/events"
psql -qAt -h 127.0.0.1 -p "$STANDBY" -U postgres -c 'SELECT pg_is_in_recovery()' | grep -qx t

echo "== the demo ($EVENTS events) loaded into the primary"
"${CLI[@]}" demo --engine postgres --database-url "$P_URL" --events "$EVENTS" --seed 1
TOKEN=$("${CLI[@]}" token create --tokens "$WORK/tokens.json" --name replicas --datasets 'public-*' | tail -1)

serve() { # URL NAME: a replica on a free port; prints its base URL
  "${CLI[@]}" serve --engine postgres --database-url "$1" --port 0 --tokens "$WORK/tokens.json" --log-level warn >"$WORK/$2.out" 2>&1 &
  echo $! >"$WORK/$2.pid"
  for _ in $(seq 100); do grep -q '^serving ' "$WORK/$2.out" && break; sleep 0.1; done
  sed -n 's/^serving //p' "$WORK/$2.out"
}
A=$(serve "$P_URL" replica-a); B=$(serve "$P_URL" replica-b); C=$(serve "$S_URL" replica-standby)
echo "== replicas: $A and $B on the primary, $C on the standby"

get() { curl -sf -H "Authorization: Bearer $TOKEN" "$1$2"; }
total() { get "$1" "/v3/events?datasets=public-global-fishing-events:$2&flags=CHN&limit=1&offset=0" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).total))'; }
same_everywhere() { # VERSION: the total of one query on every replica, which must agree
  local a b c
  a=$(total "$A" "$1"); b=$(total "$B" "$1"); c=$(total "$C" "$1")
  echo "   $1: CHN fishing events: $a (replica a), $b (replica b), $c (standby's replica)"
  [ "$a" = "$b" ] && [ "$b" = "$c" ]
}
same_everywhere latest

echo "== a second version loaded into the primary while the replicas serve"
"${CLI[@]}" generate --events 2000 --seed 9 --out "$WORK/v2" >/dev/null
"${CLI[@]}" load --engine postgres --database-url "$P_URL" --version v2 "$WORK"/v2/*.ndjson
for _ in $(seq 50); do
  if get "$A" "/v3/events?datasets=public-global-fishing-events:v2&limit=1&offset=0" >/dev/null && get "$B" "/v3/events?datasets=public-global-fishing-events:v2&limit=1&offset=0" >/dev/null \
     && get "$C" "/v3/events?datasets=public-global-fishing-events:v2&limit=1&offset=0" >/dev/null; then break; fi
  sleep 0.2
done
same_everywhere v2
echo "== every replica serves the new version, none restarted; the standby replayed it (lag $(psql -qAt -h 127.0.0.1 -p "$PRIMARY" -U postgres -c "SELECT coalesce(replay_lag::text, '0') FROM pg_stat_replication"))"
