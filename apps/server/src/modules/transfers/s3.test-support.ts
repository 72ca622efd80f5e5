import { rmSync } from 'node:fs';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';
import { tempDir } from '../broker/broker.test-support.js';

export interface S3Server {
  /** The console's BLOB_S3_* configuration for it. */
  env: Record<string, string>;
  /** The blobs in the bucket (keys without the console's prefix). */
  blobs(): Promise<string[]>;
  /** Every key in the bucket under `prefix`, whole. */
  keys(prefix: string): Promise<string[]>;
  close(): Promise<void>;
}

const BUCKET = 'fleetlink-test';
const PREFIX = 'blobs/';

/** A real S3-compatible server (s3rver) on a free port, with one empty bucket, in its own folder. */
export async function startS3(): Promise<S3Server> {
  const directory = tempDir('fleetlink-s3-');
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver accepts any key pair; the console signs its requests all the same.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials });
  const keys = async (prefix: string) => {
    const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
    return (page.Contents ?? []).map((o) => o.Key!);
  };
  return {
    env: {
      BLOB_S3_BUCKET: BUCKET,
      BLOB_S3_ENDPOINT: endpoint,
      BLOB_S3_ACCESS_KEY_ID: credentials.accessKeyId,
      BLOB_S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      BLOB_S3_PREFIX: PREFIX,
    },
    async blobs() {
      return (await keys(PREFIX)).map((key) => key.slice(PREFIX.length));
    },
    keys,
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
