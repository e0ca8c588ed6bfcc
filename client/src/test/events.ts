import type { Mock } from 'vitest';
import { EventBatchSchema, type BrowserEvent } from '../../../shared/schemas/analytics-events.js';
import { EVENTS_PATH, flushEvents } from '../lib/analytics.js';
import type { FetchArgs } from './fetch-stub.js';

/** Sends what the page queued and returns every event posted so far, each batch checked with the server's schema. */
export function sentEvents(fetchMock: Mock<(...args: FetchArgs) => Promise<Response>>): BrowserEvent[] {
  flushEvents();
  return fetchMock.mock.calls
    .filter(([input]) => String(input) === EVENTS_PATH)
    .flatMap(([, init]) => EventBatchSchema.parse(JSON.parse(String(init?.body))).events);
}
