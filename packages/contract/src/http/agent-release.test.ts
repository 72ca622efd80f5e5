import { describe, expect, it } from 'vitest';
import { expectSameVerdict } from '../json-reader.test-support.js';
import { readAgentRelease } from './agent-release.js';
import { agentReleaseSchema } from './releases.js';

const bundle = { name: 'fleetlink-agent', version: '1.2.0', sha256: 'ab'.repeat(32), size: 1234 };
const release = { branch: 'PRODUCTION', version: '1.2.0', bundles: [bundle] };
const waiting = { branch: 'ACCEPTANCE', version: '1.3.0', wave: 2, started: 1, state: 'RUNNING' };

/** Answers the console may give, and answers no console gives: the agent must take exactly the first. */
const answers: [string, unknown][] = [
  ['no release', { release: null }],
  ['a release', { release }],
  ['a release and a rollout holding back a newer one', { release, waiting }],
  ['no release yet, a rollout waiting', { release: null, waiting }],
  ['fields the agent does not know (dropped)', { release: { ...release, notes: 'x', bundles: [{ ...bundle, extra: 1 }] }, waiting: { ...waiting, more: true }, other: 1 }],
  ['a release without bundles', { release: { ...release, bundles: [] } }],
  ['nothing', undefined],
  ['null', null],
  ['an array', [release]],
  ['no release field', {}],
  ['a release that is a string', { release: '1.2.0' }],
  ['an unknown branch', { release: { ...release, branch: 'NIGHTLY' } }],
  ['bundles that are no list', { release: { ...release, bundles: bundle } }],
  ['a bundle without its hash', { release: { ...release, bundles: [{ ...bundle, sha256: undefined }] } }],
  ['a size that is no integer', { release: { ...release, bundles: [{ ...bundle, size: 12.5 }] } }],
  ['a size as text', { release: { ...release, bundles: [{ ...bundle, size: '1234' }] } }],
  ['a size beyond a safe integer', { release: { ...release, bundles: [{ ...bundle, size: 2 ** 60 }] } }],
  ['a wave as text', { release, waiting: { ...waiting, wave: '2' } }],
  ['waiting that is null', { release, waiting: null }],
  ['a version that is a number', { release: { ...release, version: 1.2 } }],
];

describe("the agent's reading of its release (without zod)", () => {
  it.each(answers)('agrees with the API schema on %s', (_, answer) => {
    expectSameVerdict(agentReleaseSchema, readAgentRelease, answer, /^The console's release answer is not valid: .+\.$/);
  });

  it('names the field that is wrong', () => {
    expect(() => readAgentRelease({ release: { ...release, bundles: [bundle, { ...bundle, size: 'big' }] } })).toThrow("The console's release answer is not valid: release.bundles[1].size.");
  });
});
