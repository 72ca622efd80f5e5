/**
 * One sample's value in Prometheus' text format (`name{labels} value`): the first line of `name`
 * whose labels hold all of `labels`; undefined when there is none.
 */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z0-9_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m?.[1] !== name) continue;
    const has = (m[2] ?? '').split(',');
    if (want.every((w) => has.includes(w))) return Number(m[3]);
  }
  return undefined;
}

/** GET a /metrics listener with its bearer token; the text, once it answered 200 in Prometheus' format. */
export async function scrape(url: string, token?: string): Promise<string> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  if (!res.headers.get('content-type')?.startsWith('text/plain; version=0.0.4')) throw new Error(`${url} answered ${res.headers.get('content-type')}`);
  return res.text();
}
