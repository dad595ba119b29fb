import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'cb-config-'));

describe('loadConfig', () => {
  it('applies the defaults and keeps a generated session secret in DATA_DIR', () => {
    const dir = tempDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(5000);
    expect(config.bcryptCost).toBe(12);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.sessionSecret).toHaveLength(64);
    expect(readFileSync(path.join(dir, 'session-secret'), 'utf8').trim()).toBe(
      config.sessionSecret,
    );
    expect(loadConfig({ DATA_DIR: dir }).sessionSecret).toBe(config.sessionSecret);
  });

  it('treats an empty variable as unset', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: '', PORT: '' });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.port).toBe(5000);
  });

  it('stops on a bad value with a one-line reason', () => {
    expect(() => loadConfig({ PORT: 'abc', DATA_DIR: tempDir() })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: '70000', DATA_DIR: tempDir() })).toThrow(/^Invalid PORT: /);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x', DATA_DIR: tempDir() })).toThrow(
      'Invalid DATABASE_URL: must start with postgres:// or postgresql://',
    );
  });

  it('requires SESSION_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tempDir() })).toThrow(
      'Invalid SESSION_SECRET: required when NODE_ENV=production',
    );
    const config = loadConfig({
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      DATA_ENCRYPTION_KEY: 'ab'.repeat(32),
    });
    expect(config.sessionSecret).toBe('x'.repeat(40));
  });

  it('requires DATA_ENCRYPTION_KEY in production, and generates one into DATA_DIR elsewhere', () => {
    const production = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) };
    expect(() => loadConfig({ ...production, DATA_DIR: tempDir() })).toThrow(
      /^Invalid DATA_ENCRYPTION_KEY: required when NODE_ENV=production/,
    );
    expect(() =>
      loadConfig({ ...production, DATA_ENCRYPTION_KEY: 'too short', DATA_DIR: tempDir() }),
    ).toThrow('Invalid DATA_ENCRYPTION_KEY: 64 hex characters (32 random bytes)');
    const dir = tempDir();
    const generated = loadConfig({ DATA_DIR: dir }).encryption.current;
    expect(readFileSync(path.join(dir, 'data-encryption-key'), 'utf8').trim()).toBe(
      generated.key.toString('hex'),
    );
    // The same key at the next start; DATA_ENCRYPTION_KEY wins over the file.
    expect(loadConfig({ DATA_DIR: dir }).encryption.current.id).toBe(generated.id);
    const set = loadConfig({
      DATA_DIR: dir,
      DATA_ENCRYPTION_KEY: 'ab'.repeat(32),
      DATA_ENCRYPTION_PREVIOUS_KEYS: generated.key.toString('hex'),
    }).encryption;
    expect(set.current.id).not.toBe(generated.id);
    expect(set.byId.has(generated.id)).toBe(true);
  });

  it('takes TRUST_PROXY as a hop count or a list of proxy addresses, never "every hop"', () => {
    const dir = tempDir();
    expect(loadConfig({ DATA_DIR: dir }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: '10.0.0.5, 10.1.0.0/16' }).trustProxy).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
    ]);
    expect(() => loadConfig({ DATA_DIR: dir, TRUST_PROXY: 'true' })).toThrow(
      /^Invalid TRUST_PROXY: say how many proxies to trust/,
    );
    expect(() => loadConfig({ DATA_DIR: dir, TRUST_PROXY: 'proxy.local' })).toThrow(
      'Invalid TRUST_PROXY: a hop count or a comma-separated list of addresses',
    );
  });
});
