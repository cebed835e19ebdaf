#!/usr/bin/env bash
# Replicas on PostgreSQL, on one machine (docs/deploy.md walks through it): a primary, two streaming
# standbys made with pg_basebackup, a service replica on each of the three. It loads the demo into
# the primary, checks that every replica gives the same answers, loads a second version and checks
# that all three serve it without a restart (the standbys' once they have replayed the load). Then
# it measures requests per second at 8 clients: one standby's replica alone, the same behind
# HAProxy, and both standbys' replicas behind HAProxy on one port. Everything lives in a temporary
# directory and is removed at the end.
#   bash deploy/replicas.sh [EVENTS] [SECONDS]   (EVENTS in the demo, SECONDS per throughput run;
#   needs postgresql-15, postgresql-15-postgis-3 and haproxy; npm run build first)
set -euo pipefail
cd "$(dirname "$0")/.."
EVENTS=${1:-20000}
SECONDS_EACH=${2:-10}
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
  for c in standby-1 standby-2 primary; do [ -f "$WORK/$c/postmaster.pid" ] && as_pg "$PG_BIN/pg_ctl" -D "$WORK/$c" -m fast -w stop >/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

PRIMARY=$(free_port)
echo "== primary on port $PRIMARY"
as_pg "$PG_BIN/initdb" -D "$WORK/primary" -A trust -U postgres -E UTF8 --locale=C >/dev/null
# wal_level=replica (the default) and initdb's pg_hba.conf, which lets 127.0.0.1 connect for replication.
as_pg "$PG_BIN/pg_ctl" -D "$WORK/primary" -l "$WORK/primary.log" -w -o "-p $PRIMARY -k $WORK -c listen_addresses=127.0.0.1" start >/dev/null
psql -q -h 127.0.0.1 -p "$PRIMARY" -U postgres -c 'CREATE DATABASE events'
P_URL="postgres://postgres@127.0.0.1:$PRIMARY/events"

standby() { # NAME: a streaming standby of the primary on a free port; prints its database URL
  local port; port=$(free_port)
  # pg_basebackup -R: it follows the primary from now on.
  as_pg "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$PRIMARY" -U postgres -D "$WORK/$1" -R -X stream
  as_pg "$PG_BIN/pg_ctl" -D "$WORK/$1" -l "$WORK/$1.log" -w -o "-p $port -k $WORK -c listen_addresses=127.0.0.1" start >/dev/null
  psql -qAt -h 127.0.0.1 -p "$port" -U postgres -c 'SELECT pg_is_in_recovery()' | grep -qx t
  echo "postgres://postgres@127.0.0.1:$port/events"
}
S1_URL=$(standby standby-1); S2_URL=$(standby standby-2)
echo "== streaming standbys: $S1_URL and $S2_URL"

echo "== the demo ($EVENTS events) loaded into the primary"
"${CLI[@]}" demo --engine postgres --database-url "$P_URL" --events "$EVENTS" --seed 1
TOKEN=$("${CLI[@]}" token create --tokens "$WORK/tokens.json" --name replicas --datasets 'public-*' | tail -1)

serve() { # URL NAME: a replica on a free port; prints its base URL
  # No rate limit: the throughput runs below send 8 clients' requests under one token.
  "${CLI[@]}" serve --engine postgres --database-url "$1" --port 0 --tokens "$WORK/tokens.json" --log-level warn --rate-limit 0 >"$WORK/$2.out" 2>&1 &
  echo $! >"$WORK/$2.pid"
  for _ in $(seq 100); do grep -q '^serving ' "$WORK/$2.out" && break; sleep 0.1; done
  sed -n 's/^serving //p' "$WORK/$2.out"
}
A=$(serve "$P_URL" replica-primary); B=$(serve "$S1_URL" replica-standby-1); C=$(serve "$S2_URL" replica-standby-2)
echo "== replicas: $A on the primary, $B and $C on the two standbys"

get() { curl -sf -H "Authorization: Bearer $TOKEN" "$1$2"; }
total() { get "$1" "/v3/events?datasets=public-global-fishing-events:$2&flags=CHN&limit=1&offset=0" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).total))'; }
same_everywhere() { # VERSION: the total of one query on every replica, which must agree
  local a b c
  a=$(total "$A" "$1"); b=$(total "$B" "$1"); c=$(total "$C" "$1")
  echo "   $1: CHN fishing events: $a (the primary's replica), $b and $c (the standbys')"
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
echo "== every replica serves the new version, none restarted; the standbys replayed it (lag $(psql -qAt -h 127.0.0.1 -p "$PRIMARY" -U postgres -c "SELECT string_agg(coalesce(replay_lag::text, '0'), ', ') FROM pg_stat_replication"))"

balancer() { # NAME BASE...: HAProxy on a free port in front of the replicas at BASE...; prints its base URL
  local name=$1 port; shift; port=$(free_port)
  {
    printf 'global\n  maxconn 256\ndefaults\n  mode http\n  timeout connect 5s\n  timeout client 120s\n  timeout server 120s\n'
    # Round robin over the replicas that answer /readyz (200 once their database holds a dataset).
    printf 'frontend events\n  bind 127.0.0.1:%s\n  default_backend replicas\n  stats enable\n  stats uri /haproxy-stats\nbackend replicas\n  balance roundrobin\n  option httpchk GET /readyz\n' "$port"
    local i=0; for b in "$@"; do i=$((i + 1)); printf '  server replica-%s %s check inter 1s\n' "$i" "${b#http://}"; done
  } >"$WORK/$name.cfg"
  haproxy -c -q -f "$WORK/$name.cfg"
  haproxy -f "$WORK/$name.cfg" -db >"$WORK/$name.out" 2>&1 &
  echo $! >"$WORK/$name.pid"
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done
  echo "http://127.0.0.1:$port"
}
throughput() { # LABEL BASE: requests per second at 8 clients through BASE (bench/replicas-throughput.ts)
  node --import tsx bench/replicas-throughput.ts --url "$2" --token "$TOKEN" --seconds "$SECONDS_EACH" --clients 8 --label "$1" | tee -a "$WORK/throughput.ndjson"
}
ONE=$(balancer haproxy-one "$B"); TWO=$(balancer haproxy-two "$B" "$C")
echo "== requests per second at 8 clients, $SECONDS_EACH s each: one replica, then HAProxy on $ONE (one replica) and on $TWO (two)"
throughput "one replica on a standby" "$B"
throughput "HAProxy, one replica" "$ONE"
throughput "HAProxy, two replicas on two standbys" "$TWO"
# Both replicas took their share of the last run (HAProxy's own count of requests per server).
curl -sf "$TWO/haproxy-stats;csv" | awk -F, '$1 == "replicas" && $2 ~ /^replica-/ { print "   " $2 ": " $8 " requests"; if ($8 == 0) idle = 1 } END { exit idle }'

