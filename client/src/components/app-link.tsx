import {
  createContext,
  useContext,
  useEffect,
  useRef,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
} from 'react';
import { useNavigate } from 'react-router';

/** Navigates within the app to a path of this site; none outside a router (a link then loads the page). */
const AppNavigate = createContext<((to: string) => void) | null>(null);

/**
 * The router's navigation for the `AppLink`s below it, read once for them all: a page draws dozens of card and
 * footer links, and the router's own `Link` costs each of them several hooks on every render, the server's too.
 */
export function AppLinkNavigation({ children }: { children: React.ReactNode }) {
  const navigate = useNavigate();
  const latest = useRef(navigate);
  useEffect(() => {
    latest.current = navigate;
  }, [navigate]);
  // Stable, so that a navigation re-renders no link.
  const [go] = useState(() => (to: string) => void latest.current(to));
  return <AppNavigate value={go}>{children}</AppNavigate>;
}

/** A click the browser would follow in this tab (the router's `Link` takes the same ones). */
function followsHere(event: MouseEvent<HTMLAnchorElement>, target: string | undefined): boolean {
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    (!target || target === '_self') &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey)
  );
}

export type AppLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  /** A path of this site (`/events/…`), as the server's answers give it. */
  to: string;
};

/**
 * A link to a path of this site that the app follows without loading the page, as the router's `Link` does, for
 * a plain anchor's cost; its markup is the same on the server and in the browser.
 */
export function AppLink({ to, onClick, target, ...rest }: AppLinkProps) {
  const navigate = useContext(AppNavigate);
  return (
    <a
      {...rest}
      href={to}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (!navigate || !followsHere(event, target)) return;
        event.preventDefault();
        navigate(to);
      }}
    />
  );
}
