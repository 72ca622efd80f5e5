import { saveFile } from '../../app/api/save-file';

/** Reads a file as base64 (the trust store is kept that way, SPEC §5). */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

/** Lets the browser save the stored trust store as a file again. */
export function downloadBase64(b64: string, filename: string) {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  saveFile(new Blob([bytes], { type: 'application/octet-stream' }), filename);
}
