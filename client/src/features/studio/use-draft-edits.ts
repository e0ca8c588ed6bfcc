import { useCallback, useEffect, useRef, useState } from 'react';
import { useSaveDraft } from './use-studio.js';

/** How long typing pauses before a draft is saved. */
export const AUTOSAVE_MS = 600;

export interface DraftEdits {
  /** Text typed and not yet saved, by file. */
  edits: Readonly<Record<string, string>>;
  /** True while any file has text not yet saved. */
  pending: boolean;
  error: Error | null;
  change(path: string, text: string): void;
  /** Saves every pending edit now; resolves once all are saved. */
  flush(): Promise<void>;
  /** Forgets every pending edit (the drafts are being discarded or replaced). */
  clear(): void;
}

/**
 * The drafts' edits as they are typed: each file saved on its own a moment after typing in it stops, so an edit
 * in one file never cancels the save of another; publish and discard flush or forget them first.
 */
export function useDraftEdits(): DraftEdits {
  const save = useSaveDraft();
  const [edits, setEdits] = useState<Record<string, string>>({});
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const latest = useRef<Record<string, string>>({});
  const inFlight = useRef(new Set<Promise<unknown>>());

  const saveNow = useCallback(
    (path: string) => {
      clearTimeout(timers.current.get(path));
      timers.current.delete(path);
      const text = latest.current[path];
      if (text === undefined) return Promise.resolve();
      const done = save.mutateAsync({ path, text }).then(() => {
        // Saved: forgotten unless typing went on meanwhile.
        if (latest.current[path] !== text) return;
        const { [path]: _saved, ...rest } = latest.current;
        latest.current = rest;
        setEdits(rest);
      });
      inFlight.current.add(done);
      void done.catch(() => {}).finally(() => inFlight.current.delete(done));
      return done;
    },
    [save],
  );

  const change = useCallback(
    (path: string, text: string) => {
      latest.current = { ...latest.current, [path]: text };
      setEdits(latest.current);
      clearTimeout(timers.current.get(path));
      timers.current.set(
        path,
        setTimeout(() => void saveNow(path).catch(() => {}), AUTOSAVE_MS),
      );
    },
    [saveNow],
  );

  const flush = useCallback(async () => {
    await Promise.all([...Object.keys(latest.current).map((path) => saveNow(path)), ...inFlight.current]);
  }, [saveNow]);

  const clear = useCallback(() => {
    for (const timer of timers.current.values()) clearTimeout(timer);
    timers.current.clear();
    latest.current = {};
    setEdits({});
  }, []);

  useEffect(() => () => clear(), [clear]);
  const pending = Object.keys(edits).length > 0 || save.isPending;
  // Leaving the page (a reload, a closed tab) with text not yet saved asks first.
  useEffect(() => {
    if (!pending) return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [pending]);

  return { edits, pending, error: save.error, change, flush, clear };
}
