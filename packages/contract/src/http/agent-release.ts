import { JsonReader } from '../json-reader.js';
import type { AgentRelease } from './releases.js';

/**
 * What the agent reads of its device's release, without zod. The agent asks at start and every hour,
 * and an idle agent that never loads zod is about 4 MB lighter (issue 73), so it reads the answer by
 * hand. The API documents the answer with agentReleaseSchema (releases.ts); agent-release.test.ts
 * holds the two to the same verdicts, so this is not a second definition that can drift.
 */

/** Every release branch (releases.ts builds its schema from them); here because the agent reads them. */
export const releaseBranches = ['DEVELOPMENT', 'TEST', 'ACCEPTANCE', 'PRODUCTION'] as const;

/** The agents' own routes of SPEC §7 Releases (device account, HTTP Basic); part of releaseRoutes. */
export const agentReleaseRoutes = {
  agentRelease: { method: 'GET', path: '/api/agent/release' },
  /** A bundle of a release the device's branch follows, for the device's own agent (HTTP Basic). */
  agentBundle: { method: 'GET', path: '/api/agent/bundle/:name/:version' },
} as const;

const read = new JsonReader((field) => new Error(`The console's release answer is not valid: ${field}.`));

/** The answer of `GET /api/agent/release` (parsed JSON), with only its own fields; throws, naming the first field that is wrong. */
export function readAgentRelease(value: unknown): AgentRelease {
  const answer = read.record(value, 'the answer');
  const release = answer.release === null ? null : readRelease(read.record(answer.release, 'release'));
  if (answer.waiting === undefined) return { release };
  const w = read.record(answer.waiting, 'waiting');
  return {
    release,
    waiting: {
      branch: read.oneOf(releaseBranches, w.branch, 'waiting.branch'),
      version: read.string(w.version, 'waiting.version'),
      wave: read.integer(w.wave, 'waiting.wave'),
      started: read.integer(w.started, 'waiting.started'),
      state: read.string(w.state, 'waiting.state'),
    },
  };
}

function readRelease(r: Record<string, unknown>): NonNullable<AgentRelease['release']> {
  const bundles = read.list(r.bundles, 'release.bundles', (value, field) => {
    const b = read.record(value, field);
    return { name: read.string(b.name, `${field}.name`), version: read.string(b.version, `${field}.version`), sha256: read.string(b.sha256, `${field}.sha256`), size: read.integer(b.size, `${field}.size`) };
  });
  return { branch: read.oneOf(releaseBranches, r.branch, 'release.branch'), version: read.string(r.version, 'release.version'), bundles };
}
