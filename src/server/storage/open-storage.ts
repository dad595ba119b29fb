import path from 'node:path';
import type { AppConfig } from '../config';
import { LocalDiskStorage } from './local-disk-storage';
import type { ObjectStorage } from './object-storage';
import { S3Storage } from './s3-storage';

/** The storage the configuration names: its S3 bucket, or DATA_DIR/objects on local disk. */
export const openStorage = (config: Pick<AppConfig, 's3' | 'dataDir'>): ObjectStorage =>
  config.s3 ? new S3Storage(config.s3) : new LocalDiskStorage(path.join(config.dataDir, 'objects'));
