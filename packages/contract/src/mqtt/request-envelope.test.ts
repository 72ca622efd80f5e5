import { describe, expect, it } from 'vitest';
import { readRequestEnvelope } from './request-envelope.js';

const ping = { id: 'r1', replyTo: 'fl/d/dev/reply/token', name: 'ping', parameters: {}, deadline: 1_800_000_000_000 };

describe("the agent's reading of a request envelope (without zod)", () => {
  it('takes a request, with only its own fields', () => {
    expect(readRequestEnvelope({ ...ping, extra: 'dropped' })).toEqual(ping);
  });

  it('takes a request without parameters or deadline, its parameters then empty', () => {
    expect(readRequestEnvelope({ id: 'r1', replyTo: 'fl/d/dev/reply/t', name: 'properties' })).toEqual({ id: 'r1', replyTo: 'fl/d/dev/reply/t', name: 'properties', parameters: {} });
  });

  it.each([
    ['nothing', undefined],
    ['null', null],
    ['text', 'ping'],
    ['a list', [ping]],
    ['no id', { ...ping, id: undefined }],
    ['an empty id', { ...ping, id: '' }],
    ['an id of 65 characters', { ...ping, id: 'x'.repeat(65) }],
    ['a reply topic of 257 characters', { ...ping, replyTo: 'x'.repeat(257) }],
    ['a name that is a number', { ...ping, name: 1 }],
    ['a name of 65 characters', { ...ping, name: 'x'.repeat(65) }],
    ['parameters that are a list', { ...ping, parameters: [] }],
    ['parameters that are null', { ...ping, parameters: null }],
    ['a deadline as text', { ...ping, deadline: '1800000000000' }],
    ['a deadline that is no integer', { ...ping, deadline: 1.5 }],
  ])('refuses %s', (_, value) => {
    expect(() => readRequestEnvelope(value)).toThrow(/^The request envelope is not valid: .+\.$/);
  });

  it('names the field that is wrong', () => {
    expect(() => readRequestEnvelope({ ...ping, replyTo: '' })).toThrow('The request envelope is not valid: replyTo.');
  });

  it('takes the longest fields allowed', () => {
    const longest = { id: 'x'.repeat(64), replyTo: 'y'.repeat(256), name: 'z'.repeat(64), parameters: { a: 1 } };
    expect(readRequestEnvelope(longest)).toEqual(longest);
  });
});
