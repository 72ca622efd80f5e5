import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { checkedKey, sizeLimit, type BlobStore } from './blob-store.js';

export interface S3Settings {
  bucket: string;
  prefix: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** Parts of a multipart upload: 8 MiB, four in flight, so a blob of any size costs about 32 MB. */
const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 4;

/**
 * Blobs in an S3-compatible bucket, so several consoles share them (the single-use claims are in
 * the shared database). Written with multipart uploads of unknown length, so a stream of any size
 * goes through in bounded memory; an upload that fails is aborted, leaving no parts behind.
 */
export class S3BlobStore implements BlobStore {
  readonly followsWrites = false;
  private readonly client: S3Client;

  constructor(private readonly s: S3Settings) {
    this.client = new S3Client({
      region: s.region,
      endpoint: s.endpoint,
      forcePathStyle: s.forcePathStyle,
      credentials: s.accessKeyId && s.secretAccessKey ? { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } : undefined,
      // Checksums only where S3 requires them: many compatible stores do not know the newer
      // aws-chunked bodies with checksum trailers the SDK would otherwise send.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async write(key: string, source: Readable, maxBytes: number): Promise<number> {
    const limit = sizeLimit(maxBytes);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.s.bucket, Key: this.key(key), Body: limit },
      partSize: PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    const piping = pipeline(source, limit);
    try {
      await Promise.all([piping, upload.done()]);
    } catch (err) {
      source.destroy();
      await upload.abort().catch(() => {});
      // A small blob is one PUT, which nothing can abort once it has landed.
      await this.remove(key).catch(() => {});
      await piping.catch(() => {});
      throw err;
    }
    return limit.bytes();
  }

  async read(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.s.bucket, Key: this.key(key) }));
      return { stream: res.Body as Readable, size: res.ContentLength ?? 0 };
    } catch (err) {
      if ((err as Error).name === 'NoSuchKey' || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return undefined;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.s.bucket, Key: this.key(key) }));
  }

  async removeOlderThan(before: Date): Promise<number> {
    let removed = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.s.bucket, Prefix: this.s.prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        if (!object.Key || !object.LastModified || object.LastModified >= before) continue;
        await this.client.send(new DeleteObjectCommand({ Bucket: this.s.bucket, Key: object.Key }));
        removed++;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return removed + (await this.abortUploadsOlderThan(before));
  }

  /** Multipart uploads a console began and never ended (it stopped mid-way): their parts cost storage. */
  private async abortUploadsOlderThan(before: Date): Promise<number> {
    let aborted = 0;
    try {
      const page = await this.client.send(new ListMultipartUploadsCommand({ Bucket: this.s.bucket, Prefix: this.s.prefix }));
      for (const u of page.Uploads ?? []) {
        if (!u.Key || !u.UploadId || !u.Initiated || u.Initiated >= before) continue;
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.s.bucket, Key: u.Key, UploadId: u.UploadId }));
        aborted++;
      }
    } catch {
      // Not every compatible store lists multipart uploads; their own expiry rules then apply.
    }
    return aborted;
  }

  private key(key: string): string {
    return `${this.s.prefix}${checkedKey(key)}`;
  }
}
