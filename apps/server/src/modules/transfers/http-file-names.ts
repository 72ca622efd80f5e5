/** File names over HTTP: from a browser's multipart form, and out in a download's header. */

/**
 * `Content-Disposition: attachment` for a name that came from a device (RFC 6266): an ASCII
 * fallback for old clients, and the name itself in `filename*` (RFC 8187, UTF-8 percent-encoded).
 * Nothing of the name can end the header or add another: control characters never pass, and
 * quotes and backslashes are replaced in the fallback.
 */
export function attachment(name: string): string {
  const clean = [...name].filter((c) => c >= ' ' && c !== '\x7f').join('') || 'download';
  const fallback = clean.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_').replace(/%/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${rfc8187(clean)}`;
}

/** Percent-encodes all but RFC 8187's attr-chars. */
function rfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The last segment of a device path, which may use either separator (Windows or not). */
export function baseName(devicePath: string): string {
  return devicePath.split(/[\\/]/).filter(Boolean).pop() ?? devicePath;
}

/**
 * The name a browser put in a multipart form: browsers write `"` as `%22` and line breaks as `%0D`
 * and `%0A` there (WHATWG HTML, multipart/form-data encoding), and leave `%` itself as it is.
 */
export function multipartFileName(sent: string): string {
  return sent.replace(/%22/g, '"').replace(/%0D/g, '\r').replace(/%0A/g, '\n');
}
