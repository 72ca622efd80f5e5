import { describe, expect, it } from 'vitest';
import * as contract from '../index.js';
import { serverFormSchema } from '../http/servers.js';

/** A zod check as zod 4 keeps it: its kind, its bound, and its message. */
interface Check {
  kind: string;
  bound: number;
  inclusive: boolean;
  message: string;
  where: string;
}

type ZodLike = { _zod: { def: Record<string, unknown> } };
const isSchema = (v: unknown): v is ZodLike => !!v && typeof v === 'object' && '_zod' in v && !!(v as ZodLike)._zod?.def;

/** Every limit check reachable from a schema: object shapes, wrappers, pipes, arrays, unions, records. */
function limitChecks(schema: ZodLike, where: string, seen: Set<unknown>, out: Check[]): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  const def = schema._zod.def;
  for (const check of (def.checks as ZodLike[] | undefined) ?? []) {
    const c = check._zod.def as { check: string; maximum?: number; minimum?: number; value?: number; inclusive?: boolean; error?: (issue: unknown) => unknown };
    const bound = c.maximum ?? c.minimum ?? c.value;
    const message = c.error?.({});
    if (typeof bound === 'number' && typeof message === 'string') {
      out.push({ kind: c.check, bound, inclusive: c.inclusive ?? true, message, where });
    }
  }
  for (const [key, value] of Object.entries(def)) {
    if (isSchema(value)) limitChecks(value, `${where}.${key}`, seen, out);
    else if (Array.isArray(value)) value.forEach((v, i) => isSchema(v) && limitChecks(v, `${where}.${key}[${i}]`, seen, out));
    else if (key === 'shape' && value && typeof value === 'object') {
      for (const [field, v] of Object.entries(value)) if (isSchema(v)) limitChecks(v, `${where}.${field}`, seen, out);
    }
  }
}

/** The largest and smallest values each check lets through. */
const largestAccepted = (c: Check) => (c.inclusive ? c.bound : c.bound - 1);
const smallestAccepted = (c: Check) => (c.inclusive ? c.bound : c.bound + 1);

describe('limit messages (SPEC §5 formats)', () => {
  const checks: Check[] = [];
  const seen = new Set<unknown>();
  for (const [name, value] of Object.entries(contract)) if (isSchema(value)) limitChecks(value, name, seen, checks);

  it('walks every schema of the contract and finds their limits', () => {
    expect(checks.length).toBeGreaterThan(60);
    expect(checks.map((c) => c.message)).toContain('Max capacity must be less than 10000000.');
  });

  it('names in each limit message a bound its rule really enforces', () => {
    const wrong: string[] = [];
    for (const c of checks) {
      const lessThanChars = /must be less than (\d+) characters\.$/.exec(c.message);
      const lessThan = /must be less than (\d+)\.$/.exec(c.message);
      const atLeast = /must be at least (\d+)\.$/.exec(c.message);
      const atMostKib = /at most (\d+) KiB\.$/.exec(c.message);
      const atMost = /at most (\d+)\b/.exec(c.message);
      let holds = true;
      if (lessThanChars) holds = c.kind === 'max_length' && largestAccepted(c) === Number(lessThanChars[1]) - 1;
      else if (lessThan) holds = c.kind === 'less_than' && largestAccepted(c) === Number(lessThan[1]) - 1;
      else if (atLeast) holds = (c.kind === 'greater_than' || c.kind === 'min_length') && smallestAccepted(c) === Number(atLeast[1]);
      // A file kept as base64: the text of exactly that many KiB, padded.
      else if (atMostKib) holds = c.kind === 'max_length' && largestAccepted(c) === 4 * Math.ceil((Number(atMostKib[1]) * 1024) / 3);
      else if (atMost) holds = (c.kind === 'max_length' || c.kind === 'less_than') && largestAccepted(c) === Number(atMost[1]);
      if (!holds) wrong.push(`${c.where}: ${c.kind} ${c.inclusive ? '<=' : '<'} ${c.bound} says '${c.message}'`);
    }
    expect(wrong).toEqual([]);
  });

  it('takes a max capacity up to 9,999,999 and refuses 10,000,000 with a message that says so', () => {
    const server = { type: 'PROXY', url: 'ssh://proxy.example.com:22', status: 'ONLINE', password: 'proxy-password', hostKey: 'ssh-ed25519 AAAA' };
    expect(serverFormSchema.safeParse({ ...server, maxCapacity: 9_999_999 }).success).toBe(true);
    const refused = serverFormSchema.safeParse({ ...server, maxCapacity: 10_000_000 });
    expect(refused.error?.issues.map((i) => i.message)).toEqual(['Max capacity must be less than 10000000.']);
  });

  it('takes a trust store of 256 KiB and refuses one byte more, though its base64 is as long', () => {
    const server = { type: 'MESSAGE', url: 'mqtts://mq.example.com:8883', maxCapacity: 100, status: 'ONLINE', username: 'u', password: 'p', trustStorePassword: 't', blobBaseUrl: 'https://blob.example.com' };
    const of = (bytes: number) => serverFormSchema.safeParse({ ...server, trustStore: Buffer.alloc(bytes, 7).toString('base64') });
    expect(Buffer.alloc(256 * 1024 + 1).toString('base64')).toHaveLength(Buffer.alloc(256 * 1024).toString('base64').length);
    expect(of(256 * 1024).success).toBe(true);
    expect(of(256 * 1024 + 1).error?.issues.map((i) => i.message)).toEqual(['Trust store must be a file of at most 256 KiB.']);
  });
});
