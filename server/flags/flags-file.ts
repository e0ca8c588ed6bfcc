import { watch, type FSWatcher } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FeatureDefinitions, SavedGroupsPayload } from '@growthbook/growthbook';
import { FlagPayloadSchema } from '../../shared/schemas/flags.js';
import type { Logger } from '../../shared/logger.js';
import { jsonPath } from '../../shared/schemas/zod.js';

/** What `GET /api/features/{clientKey}` answers: the GrowthBook SDK payload, unencrypted. */
export interface FlagPayload {
  features: FeatureDefinitions;
  /** The SDK ignores a payload whose `dateUpdated` equals the one it has cached, so every change gets a new one. */
  dateUpdated: string;
  savedGroups?: SavedGroupsPayload;
}

/** Where flags come from: the watched file or a remote GrowthBook. */
export interface FlagSource {
  payload(): FlagPayload;
  /** Called with the new payload after every change; returns the unsubscribe function. */
  subscribe(fn: (payload: FlagPayload) => void): () => void;
  readonly subscriberCount: number;
  status(): FlagSourceStatus;
  close(): void;
}

export interface FlagSourceStatus {
  source: 'file' | 'remote' | 'static';
  ok: boolean;
  dateUpdated: string;
  problems: FlagProblem[];
}

export interface FlagProblem {
  file: string;
  /** JSON path inside the payload, e.g. `features.home_layout.rules[0].weights`. */
  path: string;
  message: string;
}

export const RELOAD_DEBOUNCE_MS = 100;

export type ValidationResult =
  { ok: true; payload: FlagPayload } | { ok: false; problems: Omit<FlagProblem, 'file'>[] };

/** Validates a parsed payload; only the fields the SDK evaluates are kept. */
export function validatePayload(raw: unknown): ValidationResult {
  const result = FlagPayloadSchema.safeParse(raw);
  if (!result.success) {
    return {
      ok: false,
      problems: result.error.issues.map((issue) => ({ path: jsonPath(issue.path), message: issue.message })),
    };
  }
  const { features, dateUpdated, savedGroups } = result.data;
  return {
    ok: true,
    payload: {
      features: features as FeatureDefinitions,
      dateUpdated: new Date(dateUpdated).toISOString(),
      ...(savedGroups ? { savedGroups: savedGroups as SavedGroupsPayload } : {}),
    },
  };
}

/** The payload minus its version, to tell a real change from a save that changed nothing. */
export const contentKey = (payload: FlagPayload) =>
  JSON.stringify({ features: payload.features, savedGroups: payload.savedGroups ?? null });

/** A `dateUpdated` later than `previous`, even when two changes land within one millisecond. */
export function nextDateUpdated(previous: string, now: number): string {
  return new Date(Math.max(now, Date.parse(previous) + 1)).toISOString();
}

/** A set of listeners where one that throws cannot keep the others from hearing about a change. */
export class Subscribers<T> {
  private readonly fns = new Set<(value: T) => void>();

  constructor(private readonly logger?: Logger) {}

  add(fn: (value: T) => void): () => void {
    const entry = (value: T) => fn(value);
    this.fns.add(entry);
    return () => {
      this.fns.delete(entry);
    };
  }

  notify(value: T): void {
    for (const fn of [...this.fns]) {
      try {
        fn(value);
      } catch (err) {
        this.logger?.error({ err }, 'flag subscriber failed');
      }
    }
  }

  get size(): number {
    return this.fns.size;
  }
}

export class FlagFileError extends Error {
  constructor(readonly problems: FlagProblem[]) {
    super(`flags: ${problems.map((p) => `${p.file}: ${p.path || '(root)'}: ${p.message}`).join('; ')}`);
    this.name = 'FlagFileError';
  }
}

export interface FlagStoreOptions {
  debounceMs?: number;
  now?: () => number;
}

/**
 * The flags file in memory. An invalid edit is reported (file, JSON path, reason) and the last good version
 * keeps serving; a valid one that changes something gets `dateUpdated` = now and is pushed to subscribers.
 */
export class FlagStore implements FlagSource {
  private current: FlagPayload | null = null;
  private currentKey = '';
  private problems: FlagProblem[] = [];
  private readonly subscribers: Subscribers<FlagPayload>;
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private reloading: Promise<unknown> = Promise.resolve();
  private readonly debounceMs: number;
  private readonly now: () => number;

  constructor(
    readonly file: string,
    private readonly logger?: Logger,
    options: FlagStoreOptions = {},
  ) {
    this.subscribers = new Subscribers(logger);
    this.debounceMs = options.debounceMs ?? RELOAD_DEBOUNCE_MS;
    this.now = options.now ?? Date.now;
  }

  /** Reads the file again; throws only when there is no good version at all. */
  async load(): Promise<FlagPayload> {
    const read = await this.read();
    if (!read.ok) {
      this.problems = read.problems;
      for (const p of read.problems) this.logger?.warn({ file: p.file, path: p.path }, `flags rejected: ${p.message}`);
      if (!this.current) throw new FlagFileError(read.problems);
      return this.current;
    }
    this.problems = [];
    const key = contentKey(read.payload);
    if (this.current && key === this.currentKey) return this.current;

    const previous = this.current;
    // On first load the file's mtime counts too: browsers cache by `dateUpdated`, and an edit made while the
    // server was down must still reach them.
    const dateUpdated = previous
      ? nextDateUpdated(previous.dateUpdated, this.now())
      : new Date(Math.max(Date.parse(read.payload.dateUpdated), read.mtimeMs)).toISOString();
    this.current = { ...read.payload, dateUpdated };
    this.currentKey = key;
    if (previous) {
      this.logger?.info({ file: this.file, dateUpdated }, 'flags reloaded');
      this.subscribers.notify(this.current);
    }
    return this.current;
  }

  payload(): FlagPayload {
    if (!this.current) throw new Error('flags are not loaded');
    return this.current;
  }

  subscribe(fn: (payload: FlagPayload) => void): () => void {
    return this.subscribers.add(fn);
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  status(): FlagSourceStatus {
    return {
      source: 'file',
      ok: this.problems.length === 0,
      dateUpdated: this.current?.dateUpdated ?? '',
      problems: this.problems,
    };
  }

  /**
   * Reloads shortly after the file changes. The folder is watched rather than the file, because editors
   * that save by renaming a new file into place would leave a file watch on the old one.
   */
  watch(): () => void {
    const name = path.basename(this.file);
    this.watcher = watch(path.dirname(this.file), (_event, changed) => {
      if (changed !== null && changed !== name) return;
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.timer = null;
        this.reloading = this.reloading.then(() =>
          this.load().catch((err: unknown) =>
            this.logger?.error({ err, file: this.file }, 'flags reload failed; the last good version keeps serving'),
          ),
        );
      }, this.debounceMs);
    });
    return () => this.close();
  }

  /** Resolves once a reload triggered by a change already on disk has finished (tests wait on it). */
  async settled(): Promise<void> {
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    await pause(this.debounceMs + 20);
    while (this.timer) await pause(this.debounceMs);
    await this.reloading;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.watcher?.close();
    this.watcher = null;
  }

  private async read(): Promise<
    { ok: true; payload: FlagPayload; mtimeMs: number } | { ok: false; problems: FlagProblem[] }
  > {
    const file = this.file;
    let text: string;
    let mtimeMs: number;
    try {
      [text, mtimeMs] = await Promise.all([readFile(file, 'utf8'), stat(file).then((s) => s.mtimeMs)]);
    } catch (err) {
      return { ok: false, problems: [{ file, path: '', message: `unreadable: ${(err as Error).message}` }] };
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      return { ok: false, problems: [{ file, path: '', message: `not valid JSON: ${(err as Error).message}` }] };
    }
    const result = validatePayload(raw);
    return result.ok
      ? { ok: true, payload: result.payload, mtimeMs }
      : { ok: false, problems: result.problems.map((p) => ({ file, ...p })) };
  }
}

/** Flags held in memory: for tests, and for callers that build a payload themselves. */
export class StaticFlagSource implements FlagSource {
  private current: FlagPayload;
  private readonly subscribers: Subscribers<FlagPayload>;

  constructor(payload: FlagPayload, logger?: Logger) {
    this.current = payload;
    this.subscribers = new Subscribers(logger);
  }

  payload(): FlagPayload {
    return this.current;
  }

  /** Replaces the payload; `dateUpdated` moves on when the given one is not newer. */
  set(payload: FlagPayload): FlagPayload {
    const dateUpdated =
      Date.parse(payload.dateUpdated) > Date.parse(this.current.dateUpdated)
        ? payload.dateUpdated
        : nextDateUpdated(this.current.dateUpdated, Date.now());
    this.current = { ...payload, dateUpdated };
    this.subscribers.notify(this.current);
    return this.current;
  }

  subscribe(fn: (payload: FlagPayload) => void): () => void {
    return this.subscribers.add(fn);
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  status(): FlagSourceStatus {
    return { source: 'static', ok: true, dateUpdated: this.current.dateUpdated, problems: [] };
  }

  close(): void {}
}
