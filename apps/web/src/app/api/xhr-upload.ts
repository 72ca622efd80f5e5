/** What an upload reports while it goes: bytes sent of the whole body. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * POSTs a form with XMLHttpRequest: fetch cannot report how much of a request body has been sent,
 * and a file of gigabytes needs a progress bar. Resolves with the status and the raw answer; an
 * abort rejects with an AbortError, a network failure with a TypeError (as fetch would).
 */
export function xhrUpload(
  url: string,
  body: FormData,
  o: { token?: string | null; signal?: AbortSignal; onProgress?: (p: UploadProgress) => void },
): Promise<{ status: number; text: string; contentType: string | null }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    if (o.token) xhr.setRequestHeader('Authorization', `Bearer ${o.token}`);
    xhr.upload.onprogress = (e) => o.onProgress?.({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText, contentType: xhr.getResponseHeader('content-type') });
    xhr.onerror = () => reject(new TypeError('The upload could not reach the console.'));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    if (o.signal?.aborted) return reject(new DOMException('The upload was cancelled.', 'AbortError'));
    o.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}
