/** A served file's path as the build wrote it: forward slashes, without the precompressed copy's .br or .gz. */
export const builtFileOf = (path: string): string => path.replace(/\\/g, '/').replace(/\.(br|gz)$/, '');

/**
 * How long a browser keeps each built file of the web console. The build names every file under
 * assets/ by a hash of its content, so a new release has new names: those are kept a year and never
 * revalidated. The pages that name them (index.html, the silent check page) are asked again every
 * time, so a release is seen at the next load. The rest (the favicon) may be a day old.
 */
export function cacheControlFor(path: string): string {
  const file = builtFileOf(path);
  if (file.endsWith('.html')) return 'no-cache';
  if (/(^|\/)assets\/[^/]+-[\w-]{8}\.\w+$/.test(file)) return 'public, max-age=31536000, immutable';
  return 'public, max-age=86400';
}

/** The console's page itself (every client-side route is answered with it), compressed or not. */
export const isIndexPage = (path: string): boolean => /(^|[\\/])index\.html(\.br|\.gz)?$/.test(path);
