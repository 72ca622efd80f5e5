/** Lets the browser save bytes the page holds as a file (a blob URL of this page, revoked right after). */
export function saveFile(data: Blob, filename: string) {
  const url = URL.createObjectURL(data);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
