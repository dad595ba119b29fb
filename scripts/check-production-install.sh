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
export BCRYPT_COST=12 LOG_LEVEL=warn HOST=127.0.0.1
PORT=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
export PORT
npm run admin:create -- --email first.staff@example.com --password 'first staff passphrase'

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
status=$(curl -s -o /dev/null -w '%{http_code}' -H 'content-type: application/json' \
  -d '{"email":"first.staff@example.com","password":"first staff passphrase"}' \
  "http://127.0.0.1:$PORT/api/admin/signin")
if [ "$status" != 200 ]; then echo "staff sign-in answered $status" >&2; exit 1; fi
echo "production install: admin:create, start, /readyz and staff sign-in work"
