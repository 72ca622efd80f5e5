import { messages, releaseLabels, serverLabels } from '@fleetlink/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../lib/app-error.js';

/**
 * NUL, the other C0 controls and DEL: nothing a person types, and PostgreSQL cannot store a NUL in
 * text or jsonb at all. Tab, line feed and carriage return pass here, as multi-line fields (notes,
 * addresses, messages) hold them; a single-line field refuses them in its own schema.
 */
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Labels the forms show where a field's name does not read as its label once split into words. */
const LABELS: Record<string, string> = { ...serverLabels, ...releaseLabels, id: 'ID', ip: 'IP', q: 'Search' };

const FIELD_NAME = /^[A-Za-z][\w.-]{0,63}$/;

/** `trustStorePassword` → 'Trust store password'; the form's own label where it differs. */
export function labelOf(key: string): string {
  if (Object.hasOwn(LABELS, key)) return LABELS[key]!;
  // A key that reads as no field name (any text a request put there) is not echoed back.
  if (!FIELD_NAME.test(key)) return 'This value';
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : 'This value';
}

/**
 * The path (`['devices', 2, 'name']`) of the first string or object key in `value` that holds a
 * control character, or undefined. Iterative, so a deeply nested body cannot exhaust the stack.
 */
export function findControlCharacter(value: unknown): (string | number)[] | undefined {
  // Each entry links to its parent, so the path is built only for the value that is found.
  interface Entry {
    value: unknown;
    key?: string | number;
    parent?: Entry;
  }
  const pathOf = (entry: Entry | undefined): (string | number)[] => {
    const path: (string | number)[] = [];
    for (let e = entry; e && e.key !== undefined; e = e.parent) path.push(e.key);
    return path.reverse();
  };
  const pending: Entry[] = [{ value }];
  while (pending.length) {
    const entry = pending.pop()!;
    const v = entry.value;
    if (typeof v === 'string') {
      if (CONTROL_CHARACTER.test(v)) return pathOf(entry);
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => pending.push({ value: item, key: i, parent: entry }));
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [key, item] of Object.entries(v)) {
        if (CONTROL_CHARACTER.test(key)) return [...pathOf(entry), key];
        pending.push({ value: item, key, parent: entry });
      }
    }
  }
  return undefined;
}

/**
 * The label of the field at `path`: its own key's, or, for the `{ name, value }` pairs a command's
 * parameters come as, the parameter's name (`Path`, not `Value`).
 */
export function fieldLabel(root: unknown, path: (string | number)[]): string {
  const key = [...path].reverse().find((p): p is string => typeof p === 'string');
  if (!key) return 'The request';
  if (key === path.at(-1) && key === 'value') {
    const parent = path.slice(0, -1).reduce<unknown>((node, step) => (node as Record<string | number, unknown>)?.[step], root) as { name?: unknown };
    // Only a name that reads as one: the message must not echo whatever a request put there.
    if (typeof parent?.name === 'string' && FIELD_NAME.test(parent.name)) return labelOf(parent.name);
  }
  return labelOf(key);
}

const PARTS = ['params', 'query', 'body'] as const;

/**
 * One check for every route, before its schema is: a control character in any path parameter,
 * query parameter or body field is a 400 naming the field, like a validation error, and never
 * reaches a service, the database or a log line.
 */
export function registerControlCharacterCheck(app: FastifyInstance) {
  app.addHook('preValidation', async (req: FastifyRequest) => {
    for (const part of PARTS) {
      const path = findControlCharacter(req[part]);
      if (!path) continue;
      const joined = path.join('.');
      const field = joined && joined.length <= 256 ? joined : part;
      const message = messages.controlCharacters(fieldLabel(req[part], path));
      throw badRequest(message, { [field]: message });
    }
  });
}
