import { Input } from '@mantine/core';
import type { AltchaWidgetElement } from 'altcha/types/generic';
import 'altcha/types/react';
import { useEffect, useRef, useState } from 'react';
import { useApi } from '../../app/api/useApi';

interface CaptchaFieldProps {
  /** The widget's payload once solved, '' while it is not (or no longer) solved. */
  onChange: (payload: string) => void;
  error?: string;
  /** A new value mounts a new challenge (after a send, or when the server refused the answer). */
  round: number;
}

/**
 * SPEC §2 CAPTCHA of /contact: the self-hosted ALTCHA proof of work. The widget fetches its
 * challenge from the console with the session's token, solves it in a worker, and hands back the
 * payload the API checks.
 */
export function CaptchaField({ onChange, error, round }: CaptchaFieldProps) {
  const api = useApi();
  const ref = useRef<AltchaWidgetElement>(null);
  const [loaded, setLoaded] = useState<'loading' | 'loaded' | 'failed'>('loading');
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    let live = true;
    // Loaded with the page that needs it, not with every page of the console.
    import('./altcha-setup').then(
      () => live && setLoaded('loaded'),
      (err: unknown) => {
        console.error('The CAPTCHA widget could not be loaded:', err);
        if (live) setLoaded('failed');
      },
    );
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    const widget = ref.current;
    if (loaded !== 'loaded' || !widget) return;
    const onState = (e: Event) => {
      const { state, payload } = (e as CustomEvent<{ state: string; payload?: string }>).detail;
      onChangeRef.current(state === 'verified' && payload ? payload : '');
    };
    widget.addEventListener('statechange', onState);
    void customElements.whenDefined('altcha-widget').then(() =>
      widget.configure({ challenge: '/api/contact/challenge', fetch: (url, init) => api.fetch(String(url), init), hideFooter: true, name: 'captcha' }),
    );
    return () => widget.removeEventListener('statechange', onState);
  }, [api, loaded, round]);

  return (
    <Input.Wrapper
      key={round}
      label="CAPTCHA"
      // The widget has its own labelled checkbox; a <label for> would point at no field of the page.
      labelElement="div"
      required
      error={loaded === 'failed' ? 'The CAPTCHA could not be loaded: reload the page to try again.' : error}
      data-testid="captcha"
    >
      <altcha-widget ref={ref} />
    </Input.Wrapper>
  );
}
