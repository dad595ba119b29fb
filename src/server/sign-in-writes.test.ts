import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Sign-in and sessions write only through commands (issue 44): in modules/auth, modules/sessions
 * and plugins/, no table is written outside a `commands.ts` file, and nothing publishes a live
 * change itself (`app.run` does, once the command committed). The project-wide rule is checked
 * elsewhere; this holds the rooms whose writes used to bypass it.
 */
const ROOMS = ['modules/auth', 'modules/sessions', 'plugins'];

/** Files that write outside commands.ts, each with its reason. */
const WRITE_HELPERS: Record<string, string> = {
  'modules/auth/two-factor.ts':
    "the enrolment's writes, called inside the commands' transactions and by the operator commands",
  'plugins/rate-limit.ts': 'the attempt counters (rate_limits), which count requests, not data',
  'plugins/idempotency.ts':
    "an Idempotency-Key's claim and stored answer (decision 126), around the request's own command",
};

const here = import.meta.dirname;
const sources = ROOMS.flatMap((room) =>
  readdirSync(path.join(here, room), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => path.posix.join(room, file.split(path.sep).join('/'))),
);

/** The tables a file imports from db/schema: what `.insert(x)`, `.update(x)`, `.delete(x)` write. */
function tablesOf(text: string): string[] {
  const imported = text.match(/import \{([^}]*)\} from '[./]*db\/schema';/)?.[1] ?? '';
  return imported
    .split(',')
    .map((name) => name.trim().replace(/^type /, ''))
    .filter(Boolean);
}

function writesIn(text: string): string[] {
  const tables = tablesOf(text);
  const drizzle = tables.length
    ? text.match(new RegExp(`\\.(insert|update|delete)\\(\\s*(${tables.join('|')})\\b`, 'g'))
    : null;
  const raw = text.match(/\b(insert\s+into|delete\s+from|update\s+\w+(\s+\w+)?\s+set)\b/gi);
  return [...(drizzle ?? []), ...(raw ?? [])];
}

describe('writes in sign-in, sessions and the plugins', () => {
  it('are in commands, or in a write helper named here', () => {
    const outside = sources
      .filter((file) => !file.endsWith('/commands.ts') && !(file in WRITE_HELPERS))
      .map((file) => ({ file, writes: writesIn(readFileSync(path.join(here, file), 'utf8')) }))
      .filter(({ writes }) => writes.length > 0);
    expect(outside).toEqual([]);
    expect(sources).toEqual(expect.arrayContaining(Object.keys(WRITE_HELPERS)));
  });

  it('publish nothing themselves', () => {
    const publishing = sources.filter((file) =>
      /\.live\.(changed|changedEverywhere|sessionsEnded|accountChanged)\(/.test(
        readFileSync(path.join(here, file), 'utf8'),
      ),
    );
    expect(publishing).toEqual([]);
  });

  it('would be found', () => {
    expect(
      writesIn("import { sessions } from '../db/schema';\nawait app.db\n  .delete(sessions)"),
    ).toEqual(['.delete(sessions']);
    expect(writesIn('update sessions s\n set expire = now()')).toEqual(['update sessions s\n set']);
    expect(writesIn("createHash('sha256').update(token)")).toEqual([]);
  });
});
