import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { percentDecoded } from '../../../shared/rules/percent-decoding.js';

/** How long a page whose script loads on first visit has to draw the part its address names. */
const PART_WAIT_MS = 5_000;

/**
 * Where a page opened in the app starts: at the part its address names (`/policies#optout`, the footer's link),
 * once that part is drawn (a page whose script loads on first visit draws it a moment later); any other new page at
 * its top. One place for both: a page that scrolled to its own part would be sent back up by the shell's scroll to
 * the top, which React runs after the page's.
 */
export function useScrollOnNavigate(): void {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    // A fragment whose escapes spell no text (`#%zz`, a mangled link) names no element.
    const id = hash.length > 1 ? percentDecoded(hash.slice(1)) : undefined;
    const land = () => {
      const part = id ? document.getElementById(id) : null;
      part?.scrollIntoView();
      return part !== null;
    };
    if (land()) return;
    window.scrollTo(0, 0);
    if (!id) return;
    const watch = new MutationObserver(() => {
      if (land()) stop();
    });
    const timer = setTimeout(() => stop(), PART_WAIT_MS);
    function stop() {
      watch.disconnect();
      clearTimeout(timer);
    }
    watch.observe(document.body, { childList: true, subtree: true });
    return stop;
  }, [pathname, hash]);
}
