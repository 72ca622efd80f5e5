/**
 * Reading parsed JSON by hand, for the few answers the agent reads while it has no other reason to
 * load zod (issue 73: an idle agent that never loads zod is about 4 MB lighter). Each reading names
 * the field it checks, and a wrong one throws the error `invalid` makes of that name. Only what a
 * reader takes is kept, as zod keeps only an object's own fields.
 */
export class JsonReader {
  constructor(private readonly invalid: (field: string) => Error) {}

  record(v: unknown, field: string): Record<string, unknown> {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw this.invalid(field);
    return v as Record<string, unknown>;
  }

  list<T>(v: unknown, field: string, item: (value: unknown, field: string) => T): T[] {
    if (!Array.isArray(v)) throw this.invalid(field);
    return v.map((value: unknown, i) => item(value, `${field}[${i}]`));
  }

  string(v: unknown, field: string): string {
    if (typeof v !== 'string') throw this.invalid(field);
    return v;
  }

  /** A string of 1 to `max` characters. */
  text(v: unknown, field: string, max: number): string {
    const s = this.string(v, field);
    if (s.length < 1 || s.length > max) throw this.invalid(field);
    return s;
  }

  nullableString(v: unknown, field: string): string | null {
    return v === null ? null : this.string(v, field);
  }

  /** A safe integer, as zod's `.int()`; at least `min` when given. */
  integer(v: unknown, field: string, min = Number.MIN_SAFE_INTEGER): number {
    if (!Number.isSafeInteger(v) || (v as number) < min) throw this.invalid(field);
    return v as number;
  }

  oneOf<const T extends readonly string[]>(values: T, v: unknown, field: string): T[number] {
    if (!values.includes(v as string)) throw this.invalid(field);
    return v as T[number];
  }
}
