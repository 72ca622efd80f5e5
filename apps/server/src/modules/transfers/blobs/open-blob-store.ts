import path from 'node:path';
import type { Env } from '../../../env.js';
import type { BlobStore } from './blob-store.js';
import { FsBlobStore } from './fs-blob-store.js';

/**
 * The blob store the configuration selects: S3 when BLOB_S3_BUCKET is set, else a folder: BLOB_DIR's
 * (shared by several consoles), or DATA_DIR/blobs.
 * Agent bundles are kept apart (DATA_DIR/bundles, BUNDLE_S3_PREFIX): the transfers' store is swept
 * of whatever is a day old, and bundles stay until an administrator deletes them.
 */
export async function openBlobStore(env: Env, kind: 'transfers' | 'bundles' = 'transfers'): Promise<BlobStore> {
  const folder = kind === 'bundles' ? 'bundles' : 'blobs';
  if (!env.BLOB_S3_BUCKET && env.BLOB_DIR) return FsBlobStore.open(path.resolve(env.BLOB_DIR, folder), { shared: true });
  if (!env.BLOB_S3_BUCKET) return FsBlobStore.open(path.resolve(env.DATA_DIR, folder));
  // Loaded only when configured: the SDK is big, and most consoles keep blobs on their own disk.
  const { S3BlobStore } = await import('./s3-blob-store.js');
  return new S3BlobStore({
    bucket: env.BLOB_S3_BUCKET,
    prefix: kind === 'bundles' ? env.BUNDLE_S3_PREFIX : env.BLOB_S3_PREFIX,
    endpoint: env.BLOB_S3_ENDPOINT,
    region: env.BLOB_S3_REGION,
    accessKeyId: env.BLOB_S3_ACCESS_KEY_ID,
    secretAccessKey: env.BLOB_S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.BLOB_S3_FORCE_PATH_STYLE,
  });
}
