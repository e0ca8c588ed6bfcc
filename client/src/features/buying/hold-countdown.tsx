import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';

const TICK_MS = 500;

function secondsLeft(endMs: number): number {
  if (Number.isNaN(endMs)) return 0;
  return Math.max(0, Math.ceil((endMs - Date.now()) / 1000));
}

/** `mm:ss`. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** Whole seconds until `expiresAt`, ticking down to 0; `onEnd` runs once when it gets there. */
export function useSecondsLeft(expiresAt: string, onEnd?: () => void): number {
  const endMs = Date.parse(expiresAt);
  const [seconds, setSeconds] = useState(() => secondsLeft(endMs));
  const onEndRef = useRef(onEnd);
  useEffect(() => {
    onEndRef.current = onEnd;
  });
  useEffect(() => {
    if (Number.isNaN(endMs)) return;
    let ended = false;
    const tick = () => {
      const next = secondsLeft(endMs);
      setSeconds(next);
      if (next === 0 && !ended) {
        ended = true;
        onEndRef.current?.();
      }
      return next;
    };
    if (tick() === 0) return;
    const id = setInterval(() => {
      if (tick() === 0) clearInterval(id);
    }, TICK_MS);
    return () => clearInterval(id);
  }, [endMs]);
  return seconds;
}

function minutesPhrase(minutes: number): string {
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'} left to complete your purchase`;
}

/**
 * The hold on the tickets, as mm:ss. Screen readers hear it only at minute marks (a per-second live region
 * would talk over the form); the end is announced as an alert.
 */
export function HoldCountdown({ expiresAt, onEnd, backTo }: { expiresAt: string; onEnd?: () => void; backTo: string }) {
  const seconds = useSecondsLeft(expiresAt, onEnd);
  const lastMark = useRef(Math.ceil(seconds / 60));
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    const mark = Math.ceil(seconds / 60);
    if (seconds > 0 && mark < lastMark.current) setAnnouncement(minutesPhrase(mark));
    lastMark.current = mark;
  }, [seconds]);

  if (Number.isNaN(Date.parse(expiresAt))) return null;
  if (seconds === 0) return <HoldEnded backTo={backTo} />;
  return (
    <div className="hold">
      <p className="hold__text">
        We’re holding these tickets for you for <strong className="hold__clock">{formatClock(seconds)}</strong>
      </p>
      <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="hold-announcement">
        {announcement}
      </p>
    </div>
  );
}

export function HoldEnded({ backTo }: { backTo: string }) {
  return (
    <div className="hold hold--ended" role="alert">
      <p>
        <strong>Your hold has ended</strong>. The tickets went back on sale.
      </p>
      <Link className="button" to={backTo}>
        Pick tickets again
      </Link>
    </div>
  );
}
