// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatClock, HoldCountdown } from './hold-countdown.js';

const START = new Date('2026-12-01T15:00:00.000Z');

function renderCountdown(secondsLeft: number, onEnd = vi.fn()) {
  const expiresAt = new Date(START.getTime() + secondsLeft * 1000).toISOString();
  render(
    <MemoryRouter>
      <HoldCountdown expiresAt={expiresAt} onEnd={onEnd} backTo="/events/some-event-1?quantity=2" />
    </MemoryRouter>,
  );
  return onEnd;
}

const tick = (ms: number) => act(() => vi.advanceTimersByTime(ms));
const announcement = () => screen.getByTestId('hold-announcement');

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(START);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('hold countdown', () => {
  it('formats mm:ss', () => {
    expect(formatClock(600)).toBe('10:00');
    expect(formatClock(61)).toBe('01:01');
    expect(formatClock(9)).toBe('00:09');
    expect(formatClock(-3)).toBe('00:00');
  });

  it('counts down every second', () => {
    renderCountdown(125);
    expect(screen.getByText('02:05')).toBeTruthy();
    tick(1000);
    expect(screen.getByText('02:04')).toBeTruthy();
    tick(4000);
    expect(screen.getByText('02:00')).toBeTruthy();
  });

  it('announces only at minute marks', () => {
    renderCountdown(125);
    const live = announcement();
    expect(live.getAttribute('aria-live')).toBe('polite');
    expect(live.textContent).toBe('');
    tick(4000);
    expect(live.textContent).toBe('');
    tick(1000);
    expect(screen.getByText('02:00')).toBeTruthy();
    expect(live.textContent).toBe('2 minutes left to complete your purchase');
    tick(30_000);
    expect(live.textContent).toBe('2 minutes left to complete your purchase');
    tick(30_000);
    expect(screen.getByText('01:00')).toBeTruthy();
    expect(live.textContent).toBe('1 minute left to complete your purchase');
    // The clock itself is no live region: it does not speak every second.
    expect(screen.getByText('01:00').closest('[aria-live]')).toBeNull();
  });

  it('ends at zero with "Your hold has ended" and a link back, calling onEnd once', () => {
    const onEnd = renderCountdown(3);
    tick(2000);
    expect(screen.getByText('00:01')).toBeTruthy();
    expect(onEnd).not.toHaveBeenCalled();
    tick(1000);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Your hold has ended');
    expect(screen.getByRole('link', { name: 'Pick tickets again' }).getAttribute('href')).toBe(
      '/events/some-event-1?quantity=2',
    );
    tick(5000);
    expect(onEnd).toHaveBeenCalledTimes(1);
  });

  it('shows the ended state at once for a hold already past', () => {
    const onEnd = renderCountdown(-30);
    expect(screen.getByRole('alert').textContent).toContain('Your hold has ended');
    expect(onEnd).toHaveBeenCalledTimes(1);
  });
});
