import { FILE_LISTING_PAGE_MAX } from '@fleetlink/contract';

/** Where the Storage page is: the folder, whether hidden entries show, and the page of a long folder. */
export interface FileLocation {
  /** Absent: the device's first drive. */
  path?: string;
  hidden: boolean;
  /** Where the page starts, a multiple of FILE_LISTING_PAGE_MAX. */
  offset: number;
}

/** The location the URL holds, so back, forward and reload land in the same place (issue 26 item 2). */
export function readLocation(params: URLSearchParams): FileLocation {
  const offset = Number(params.get('offset'));
  return {
    path: params.get('path') || undefined,
    hidden: params.get('hidden') === 'true',
    offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
  };
}

/** The query string of a location; defaults are left out. */
export function locationParams({ path, hidden, offset }: FileLocation): URLSearchParams {
  const params = new URLSearchParams();
  if (path) params.set('path', path);
  if (hidden) params.set('hidden', 'true');
  if (offset) params.set('offset', String(offset));
  return params;
}

/** 'Entries 501–1,000 of 100,000', or nothing when the folder fits one page. */
export function pageNote(offset: number, shown: number, total: number): string | undefined {
  if (offset === 0 && shown >= total) return undefined;
  const n = (v: number) => v.toLocaleString('en-US');
  return shown === 0 ? `No entries past ${n(offset)} of ${n(total)}` : `Entries ${n(offset + 1)}–${n(offset + shown)} of ${n(total)}`;
}

/** The offsets of the previous and next pages, where there are such pages. */
export function pageSteps(offset: number, shown: number, total: number): { previous?: number; next?: number } {
  return {
    previous: offset > 0 ? Math.max(0, offset - FILE_LISTING_PAGE_MAX) : undefined,
    next: offset + shown < total && shown > 0 ? offset + shown : undefined,
  };
}

/** How many entries a folder holds, in words: "1 entry", "12 entries". */
export function entryCount(total: number): string {
  return `${total} entr${total === 1 ? 'y' : 'ies'}`;
}
