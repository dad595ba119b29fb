import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';

const base = { NODE_ENV: 'test', SESSION_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/cb-config-test' };

describe('S3_* configuration', () => {
  it('leaves files on local disk when S3_BUCKET is unset or empty', () => {
    expect(loadConfig(base).s3).toBeUndefined();
    expect(loadConfig({ ...base, S3_BUCKET: '' }).s3).toBeUndefined();
  });

  it('reads the bucket, endpoint, region, key pair and path style', () => {
    const config = loadConfig({
      ...base,
      S3_BUCKET: 'cards',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_REGION: 'eu-west-1',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config.s3).toEqual({
      bucket: 'cards',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
  });

  it('defaults to us-east-1, virtual-hosted style and the SDK credential chain', () => {
    expect(loadConfig({ ...base, S3_BUCKET: 'cards' }).s3).toEqual({
      bucket: 'cards',
      endpoint: undefined,
      region: 'us-east-1',
      credentials: undefined,
      forcePathStyle: false,
    });
  });

  it.each([
    [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, /^Invalid S3_BUCKET: required when/],
    [{ S3_BUCKET: 'cards', S3_ENDPOINT: 'ftp://example.com' }, /^Invalid S3_ENDPOINT: /],
    [{ S3_BUCKET: 'cards', S3_ENDPOINT: 'not a url' }, /^Invalid S3_ENDPOINT: /],
    [{ S3_BUCKET: 'cards', S3_FORCE_PATH_STYLE: 'maybe' }, /^Invalid S3_FORCE_PATH_STYLE: /],
    [{ S3_BUCKET: 'cards', S3_ACCESS_KEY_ID: 'key' }, /^Invalid S3_SECRET_ACCESS_KEY: /],
    [{ S3_BUCKET: 'cards', S3_SECRET_ACCESS_KEY: 'secret' }, /^Invalid S3_ACCESS_KEY_ID: /],
  ])('refuses a half or wrong setting: %o', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });
});
