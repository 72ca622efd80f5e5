import { ErrorTimeout } from './oidc-errors';

/**
 * Opens `url` (the provider's authorization endpoint with prompt=none) in a hidden frame and resolves
 * with the URL the provider sent the frame back to: the silent check page posts it to this window
 * (apps/web/assets/silent-check-sso.html). Only that frame's message, from this origin, is taken.
 */
export function navigateHiddenFrame(url: string, timeoutSeconds: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const frame = document.createElement('iframe');
    frame.setAttribute('aria-hidden', 'true');
    frame.title = 'Sign-in check';
    Object.assign(frame.style, { visibility: 'hidden', position: 'fixed', left: '-1000px', top: '0', width: '0', height: '0' });
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('message', onMessage);
      frame.remove();
    };
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { source?: unknown; url?: unknown } | null;
      if (event.origin !== window.location.origin || event.source !== frame.contentWindow) return;
      if (!data || data.source !== 'oidc-client' || typeof data.url !== 'string') return;
      done();
      resolve(data.url);
    };
    const timer = setTimeout(() => {
      done();
      reject(new ErrorTimeout('IFrame timed out without a response'));
    }, timeoutSeconds * 1000);
    window.addEventListener('message', onMessage);
    document.body.appendChild(frame);
    frame.src = url;
  });
}
