import { useRef, useState } from 'react';
import type { UploadProgress } from './xhr-upload';

/** An upload under way: its file's name, and bytes of the form sent so far, and in all. */
export interface UploadState {
  name: string;
  loaded: number;
  total: number;
}

type Send = (o: { signal: AbortSignal; onProgress: (p: UploadProgress) => void }) => Promise<unknown>;

/**
 * One upload at a time, with its progress and a Cancel (the files page, agent bundles): `track`
 * runs `send` for the file with the signal and progress callback the console's upload takes, and
 * answers whether it succeeded; a failure is told by the alert toast, a cancel was the person's.
 * The busy state ends whichever way it goes (SPEC §8).
 */
export function useTrackedUpload() {
  const [state, setState] = useState<UploadState | null>(null);
  const controller = useRef<AbortController | null>(null);
  const track = async (file: File, send: Send): Promise<boolean> => {
    const abort = new AbortController();
    controller.current = abort;
    setState({ name: file.name, loaded: 0, total: file.size });
    try {
      await send({ signal: abort.signal, onProgress: (p) => setState({ name: file.name, loaded: p.loaded, total: p.total || file.size }) });
      return true;
    } catch {
      return false;
    } finally {
      if (controller.current === abort) controller.current = null;
      setState(null);
    }
  };
  return { state, track, cancel: () => controller.current?.abort() };
}
