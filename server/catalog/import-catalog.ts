import { copyFile, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  COLLECTION_NAMES,
  COLLECTION_SCHEMAS,
  EventDocumentSchema,
  type CollectionName,
} from '../../shared/schemas/documents.js';
import { z } from 'zod';
import { ListingDocumentSchema } from '../../shared/schemas/commerce.js';
import { describeIssue, prepareWrite, type Doc } from './document-writes.js';
import { jsonLines, JsonlWriter, readJsonl } from './jsonl.js';
import {
  CATALOG_FORMAT_VERSION,
  collectionFile,
  LISTINGS_FILE,
  MANIFEST_FILE,
  readManifest,
  type CatalogManifest,
} from './manifest.js';

/** A line that cannot be imported: where it is and what is wrong with it (field path and value included). */
export interface ImportProblem {
  file: string;
  line: number;
  message: string;
}

export interface ImportReport {
  /** Documents read and valid, by collection imported (and `Listing`, the operator's own listings). */
  counts: Partial<Record<CollectionName | 'Listing', number>>;
  /** Every bad line, in file and line order. */
  problems: ImportProblem[];
  /** Whether the catalog in the output folder was replaced (only when no line was bad). */
  applied: boolean;
}

/** The import's input files could not be used at all (a name that is no collection, a missing file). */
export class ImportInputError extends Error {}

/**
 * Imports an operator's catalog from JSON Lines files into the catalog folder `outDir`, where the server reads
 * it at its next start. Each file holds one collection, named by the start of its file name (`Event.jsonl`,
 * `Event.part-2.jsonl`); a folder stands for every `.jsonl` file in it. Every line is checked as the documents
 * API checks a document (`prepareWrite`: schema, known fields, the id rule), and an id given twice is a
 * problem too. The collections named replace the folder's; the others stay as they were.
 *
 * All or nothing: when any line is bad the folder is left untouched and every bad line is reported. Replacing
 * a catalog with part of a feed would silently take the missing events off sale; a report of every bad line
 * lets the operator fix the feed and run again. (Changes while serving go through the documents API, which
 * applies each good line, as Typesense does.)
 */
export async function importCatalog(
  inputs: readonly string[],
  outDir: string,
  now = new Date(),
): Promise<ImportReport> {
  const files = await inputFiles(inputs);
  const workDir = `${outDir}.importing-${process.pid}`;
  await rm(workDir, { recursive: true, force: true });
  await mkdir(workDir, { recursive: true });
  try {
    const counts: ImportReport['counts'] = {};
    const problems: ImportProblem[] = [];
    const before = await readManifest(outDir);
    // Each event's venue country: a listing must name an event, and one in the United Kingdom its face value.
    const eventIds = new Map<number, string>();
    for (const collection of COLLECTION_NAMES) {
      const own = files.filter((f) => f.collection === collection);
      if (own.length === 0) continue;
      counts[collection] = await importCollection(
        collection,
        own.map((f) => f.file),
        path.join(workDir, `${collection}.jsonl`),
        problems,
        collection === 'Event' ? eventIds : undefined,
      );
    }
    // Listings belong to events: those of this import, or the catalog's when its events stay.
    const listingFiles = files.filter((f) => f.collection === 'Listing').map((f) => f.file);
    let listings: number | undefined;
    const cheapest = new Map<number, number>();
    if (listingFiles.length > 0) {
      if (counts.Event === undefined && before)
        for await (const e of readJsonl(collectionFile(outDir, 'Event'), EventIdSchema))
          eventIds.set(e.event_id, e.venue_country_short);
      listings = counts.Listing = await importListings(
        listingFiles,
        path.join(workDir, LISTINGS_FILE),
        eventIds,
        problems,
        cheapest,
      );
    } else if (counts.Event === undefined && before?.listings !== undefined) {
      await copyFile(path.join(outDir, LISTINGS_FILE), path.join(workDir, LISTINGS_FILE));
      listings = before.listings;
    }
    if (problems.length > 0) return { counts, problems, applied: false };
    const finalCounts = {} as Record<CollectionName, number>;
    for (const collection of COLLECTION_NAMES) {
      if (counts[collection] !== undefined) finalCounts[collection] = counts[collection];
      else if (before) {
        await copyFile(collectionFile(outDir, collection), collectionFile(workDir, collection));
        finalCounts[collection] = before.counts[collection] ?? 0;
      } else {
        await writeFile(collectionFile(workDir, collection), '');
        finalCounts[collection] = 0;
      }
    }
    if (cheapest.size > 0) await priceEventsFromListings(collectionFile(workDir, 'Event'), cheapest);
    const manifest: CatalogManifest = {
      version: CATALOG_FORMAT_VERSION,
      seed: before?.seed ?? 0,
      events: Math.max(1, finalCounts.Event),
      start: now.toISOString().slice(0, 10),
      // A new name for new files: the change log's changes to the catalog before no longer apply.
      generatedAt: now.toISOString(),
      source: 'import',
      ...(listings !== undefined ? { listings } : {}),
      counts: finalCounts,
    };
    await writeFile(path.join(workDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
    // The old folder goes aside before the new one takes its name, so a reader never sees half of either.
    const old = `${outDir}.replaced-${process.pid}`;
    const hadOld = await stat(outDir).then(
      () => true,
      () => false,
    );
    await mkdir(path.dirname(outDir), { recursive: true });
    if (hadOld) await rename(outDir, old);
    await rename(workDir, outDir);
    if (hadOld) await rm(old, { recursive: true, force: true });
    return { counts, problems, applied: true };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

async function inputFiles(
  inputs: readonly string[],
): Promise<{ file: string; collection: CollectionName | 'Listing' }[]> {
  if (inputs.length === 0) throw new ImportInputError('name at least one file or folder to import');
  const files: string[] = [];
  for (const input of inputs) {
    const found = await stat(input).catch(() => null);
    if (!found) throw new ImportInputError(`${input}: no such file or folder`);
    if (found.isDirectory()) {
      const inside = (await readdir(input)).filter((name) => name.endsWith('.jsonl')).sort();
      if (inside.length === 0) throw new ImportInputError(`${input}: no .jsonl files in this folder`);
      files.push(...inside.map((name) => path.join(input, name)));
    } else files.push(input);
  }
  return files.map((file) => {
    const name = path.basename(file).split('.')[0]!;
    const collection = name === 'Listing' ? name : COLLECTION_NAMES.find((c) => c === name);
    if (!collection || !file.endsWith('.jsonl')) {
      throw new ImportInputError(
        `${file}: a file's name must be a collection's, ending in .jsonl ` +
          `(${[...COLLECTION_NAMES, 'Listing'].map((c) => `${c}.jsonl`).join(', ')})`,
      );
    }
    return { file, collection };
  });
}

const EventIdSchema = z.object({ event_id: z.number(), venue_country_short: z.string() });

/** RULES 20.2: the countries where a resold ticket's face value must be given (UK Consumer Rights Act 2015 s.90). */
const FACE_VALUE_REQUIRED_IN = new Set(['GB']);

/**
 * Reads every line of `files` in order: a line that is not JSON is a problem, and every other goes to `take`,
 * which answers the problem with it, or nothing when the line is good. `take` is told the line's place, as
 * the file's number and the line (for naming where an id was first given) and as text.
 */
async function eachLine(
  files: readonly string[],
  problems: ImportProblem[],
  take: (
    value: unknown,
    at: { file: string; line: number; place: number },
  ) => string | undefined | Promise<string | undefined>,
): Promise<void> {
  for (const [fileNumber, file] of files.entries()) {
    for await (const { line, text, parsed } of jsonLines(file)) {
      const problem = parsed
        ? await take(parsed.value, { file, line, place: fileNumber * 2 ** 32 + line })
        : `not valid JSON: ${text.length > 80 ? `${text.slice(0, 80)}…` : text}`;
      if (problem !== undefined) problems.push({ file, line, message: problem });
    }
  }
}

/** Names a place `eachLine` gave, as file:line. */
const placeName = (files: readonly string[], place: number) =>
  `${files[Math.floor(place / 2 ** 32)]}:${place % 2 ** 32}`;

/**
 * Checks every listing line (its schema, a new id, an event that exists), writing the good ones to `out` and
 * each event's cheapest price to `cheapest`.
 */
async function importListings(
  files: readonly string[],
  out: string,
  eventIds: ReadonlyMap<number, string>,
  problems: ImportProblem[],
  cheapest: Map<number, number>,
): Promise<number> {
  const writer = new JsonlWriter(out, ListingDocumentSchema, 'Listing');
  const seen = new Map<number, number>();
  await eachLine(files, problems, async (value, { place }) => {
    const parsed = ListingDocumentSchema.safeParse(value);
    if (!parsed.success) return describeIssue(parsed.error.issues[0]!, value);
    const listing = parsed.data;
    const first = seen.get(listing.listing_id);
    if (first !== undefined) return `listing_id ${listing.listing_id} was already given at ${placeName(files, first)}`;
    const country = eventIds.get(listing.event_id);
    if (country === undefined) return `Field \`event_id\`: no event ${listing.event_id} in the catalog.`;
    if (listing.face_value === undefined && FACE_VALUE_REQUIRED_IN.has(country))
      return `Field \`face_value\`: required for an event in ${country} (a resold ticket's face value must be given).`;
    seen.set(listing.listing_id, place);
    cheapest.set(listing.event_id, Math.min(cheapest.get(listing.event_id) ?? Infinity, listing.price_per_ticket));
    writer.write(listing);
    await writer.settle();
    return undefined;
  });
  await writer.close();
  return writer.count;
}

/**
 * Sets each event's `min_ticket_price` to its cheapest listing's price, when the operator sells their own
 * listings: the cards' "From" (the lowest all-in price, `shared/rules/pricing.ts`) must be a ticket a shopper can
 * buy, whatever the event feed said.
 */
async function priceEventsFromListings(eventFile: string, cheapest: ReadonlyMap<number, number>): Promise<void> {
  const priced = `${eventFile}.priced`;
  const writer = new JsonlWriter(priced, EventDocumentSchema, 'Event');
  for await (const event of readJsonl(eventFile, EventDocumentSchema)) {
    const min = cheapest.get(event.event_id);
    writer.write(min === undefined ? event : { ...event, min_ticket_price: min });
    await writer.settle();
  }
  await writer.close();
  await rename(priced, eventFile);
}

/**
 * Checks every line of a collection's files, writing the good ones to `out` (and events' ids to `eventIds`); how many
 * were good.
 */
async function importCollection(
  collection: CollectionName,
  files: readonly string[],
  out: string,
  problems: ImportProblem[],
  eventIds?: Map<number, string>,
): Promise<number> {
  const writer = new JsonlWriter(out, COLLECTION_SCHEMAS[collection], collection);
  // Where each id was first given, to name it when the id comes again.
  const seen = new Map<string, number>();
  await eachLine(files, problems, async (value, { place }) => {
    const prepared = prepareWrite(collection, 'upsert', value, () => undefined, 'reject');
    if (!prepared.ok) return prepared.error;
    const first = seen.get(prepared.id);
    if (first !== undefined) return `id ${JSON.stringify(prepared.id)} was already given at ${placeName(files, first)}`;
    seen.set(prepared.id, place);
    eventIds?.set(prepared.document.event_id as number, prepared.document.venue_country_short as string);
    writer.write(prepared.document as Doc as never);
    await writer.settle();
    return undefined;
  });
  await writer.close();
  return writer.count;
}
