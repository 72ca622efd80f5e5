import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The text of a PDF as `pdftotext -layout` (Debian poppler-utils, which CI installs) reads it: a
 * reader nobody here wrote, so the test sees what a person's PDF viewer shows.
 */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fleetlink-pdf-'));
  try {
    const file = path.join(dir, 'invoice.pdf');
    await writeFile(file, pdf);
    const { stdout } = await promisify(execFile)('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-']);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
