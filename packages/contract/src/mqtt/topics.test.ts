import { describe, expect, it } from 'vitest';
import { isOwnTopic, parseTopic, topics } from './topics.js';

const id = '3f2a9c1e-0000-4000-8000-000000000001';

describe('device topics', () => {
  it('parses the protocol topics and nothing else', () => {
    expect(parseTopic(topics.state(id))).toEqual({ deviceId: id, kind: 'state', rest: [] });
    expect(parseTopic(topics.reply(id, 'c1'))).toEqual({ deviceId: id, kind: 'reply', rest: ['c1'] });
    expect(parseTopic(`fl/d/${id}/unknown`)).toBeUndefined();
    expect(parseTopic('other/topic/x/y')).toBeUndefined();
  });

  it('keeps a device inside its own namespace, wildcards included', () => {
    expect(isOwnTopic(id, topics.request(id))).toBe(true);
    expect(isOwnTopic(id, `fl/d/${id}/#`)).toBe(true);
    expect(isOwnTopic(id, 'fl/d/+/state')).toBe(false);
    expect(isOwnTopic(id, 'fl/d/#')).toBe(false);
    expect(isOwnTopic(id, `fl/d/${id}`)).toBe(false);
    expect(isOwnTopic(id, `fl/d/${id}x/state`)).toBe(false);
  });
});
