#!/usr/bin/env bash
# A production install of this checkout, as docs/operations.md describes it: the build and the
# package files only, `npm ci --omit=dev` (no tsx, no dev tools), then the operator commands:
# create the first staff account, start, be ready, sign that account in.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f dist/server/main.js ] && [ -f dist/client/index.html ] || npm run build

work=$(mktemp -d)
server=
cleanup() {
  # npm start runs the server as its child: stop the whole group.
  [ -n "$server" ] && kill -TERM -- "-$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
cp -r package.json package-lock.json scripts dist "$work/"
cd "$work"
npm ci --omit=dev --no-audit --no-fund
if [ -e node_modules/tsx ]; then echo "tsx is installed: not a production install" >&2; exit 1; fi

export NODE_ENV=production DATA_DIR="$work/data" SESSION_SECRET="$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export DATA_ENCRYPTION_KEY="$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export BCRYPT_COST=12 LOG_LEVEL=warn HOST=127.0.0.1
PORT=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
export PORT
npm run admin:create -- --email first.staff@example.com --password 'first staff passphrase'
# The key rotation runs from the build too (nothing sealed yet on a new install).
npm run keys:rotate | grep -q 'Every secret at rest is sealed under key'

setsid npm start &
server=$!
for _ in $(seq 1 60); do
  if curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1; then break; fi
  sleep 0.5
done
ready=$(curl -fsS "http://127.0.0.1:$PORT/readyz")
if [ "$ready" != '{"status":"ok","database":"ok","storage":"ok"}' ]; then
  echo "/readyz answered: $ready" >&2
  exit 1
fi
# Staff sign in with the password, then enrol the authenticator with its first code (made here
# with the installed otpauth, as an authenticator app makes it), then reach a staff route.
BASE="http://127.0.0.1:$PORT" node --input-type=module -e '
const { Secret, TOTP } = await import("otpauth");
const base = process.env.BASE;
const headers = { "content-type": "application/json" };
const cookieOf = (response) => response.headers.getSetCookie()[0].split(";")[0];
const first = await fetch(`${base}/api/admin/signin`, { method: "POST", headers,
  body: JSON.stringify({ email: "first.staff@example.com", password: "first staff passphrase" }) });
const challenge = await first.json();
if (first.status !== 200 || !challenge.secret) throw new Error(`password step answered ${first.status}`);
const code = new TOTP({ secret: Secret.fromBase32(challenge.secret) }).generate();
const second = await fetch(`${base}/api/admin/signin/verify`, { method: "POST",
  headers: { ...headers, cookie: cookieOf(first) }, body: JSON.stringify({ code }) });
const staff = await second.json();
if (second.status !== 200 || staff.recoveryCodes?.length !== 10) throw new Error(`code step answered ${second.status}`);
const stats = await fetch(`${base}/api/admin/stats`, { headers: { cookie: cookieOf(second) } });
if (stats.status !== 200) throw new Error(`/api/admin/stats answered ${stats.status}`);
'
# A backup while the server runs (it takes the embedded database's copy), then a restore of it
# into a new DATA_DIR: both from the build, without tsx.
npm run backup -- --out "$work/backup" | grep -q 'Backup written to'
DATA_DIR="$work/restored" npm run restore -- --from "$work/backup" | grep -q 'as the manifest counts them'

# A process manager stops the app with one SIGTERM to npm (not to its group): the server must
# get it and exit, not be left running behind a shell.
node_pid=$(pgrep -f -P "$server" "dist/server/main.js" || true)
[ -n "$node_pid" ] || { echo "npm start did not run node as its own child" >&2; exit 1; }
kill -TERM "$server"
for _ in $(seq 1 40); do
  kill -0 "$node_pid" 2>/dev/null || break
  sleep 0.25
done
if kill -0 "$node_pid" 2>/dev/null; then
  echo "the server (pid $node_pid) is still running after SIGTERM to npm start" >&2
  exit 1
fi
server=
echo "production install: admin:create, keys:rotate, start, /readyz, staff sign-in with a second factor, backup while running and restore, and a SIGTERM to npm start stopping the server work"
