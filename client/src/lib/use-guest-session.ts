import { useEffect, useState } from 'react';
import { ensureGuestSession, getStoredToken } from './session.js';

/** The guest token, and whether getting one has settled (it may have failed: the page still loads). */
export function useGuestSession(): { token: string | null; settled: boolean } {
  const [state, setState] = useState(() => {
    const token = getStoredToken();
    return { token, settled: token !== null };
  });
  useEffect(() => {
    if (state.settled) return;
    let live = true;
    void ensureGuestSession().then((token) => {
      if (live) setState({ token, settled: true });
    });
    return () => {
      live = false;
    };
  }, [state.settled]);
  return state;
}
