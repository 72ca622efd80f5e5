import { auditFilterSchema, type AuditFilter } from '@fleetlink/contract';

const KEYS = ['who', 'device', 'kind', 'outcome', 'from', 'to'] as const;

/** The filter a page's address holds (so a filtered view can be bookmarked and shared). */
export function filterFromParams(params: URLSearchParams): AuditFilter {
  const raw = Object.fromEntries(KEYS.flatMap((k) => (params.get(k) ? [[k, params.get(k)]] : [])));
  const parsed = auditFilterSchema.safeParse(raw);
  return parsed.success ? parsed.data : {};
}

export function filterToParams(filter: AuditFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const k of KEYS) if (filter[k]) params.set(k, filter[k]);
  return params;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** ISO time → the local `YYYY-MM-DDTHH:mm` a datetime-local input shows. */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}T${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** A datetime-local input's value → ISO time; `to` takes the whole minute it names. */
export function fromLocalInput(value: string, end = false): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return undefined;
  if (end) d.setSeconds(59, 999);
  return d.toISOString();
}
