import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileLines, jsonLines } from './jsonl.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'jsonl-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The lines Node's `readline` gives for a file: the splitting `fileLines` must keep. */
async function readlineLines(file: string): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) lines.push(line);
  return lines;
}

async function linesOf(file: string): Promise<string[]> {
  const lines: string[] = [];
  for await (const chunk of fileLines(file)) lines.push(...chunk);
  return lines;
}

describe('the lines of a catalog file', () => {
  const MiB = 1 << 20;
  const cases: Record<string, string | Buffer> = {
    'one line, no end': '{"a":1}',
    'LF ends': '{"a":1}\n{"b":2}\n',
    'CRLF ends': '{"a":1}\r\n{"b":2}\r\n',
    'a lone CR ends a line': 'one\rtwo\nthree\r',
    'blank lines kept': '\n\n{"a":1}\n\n',
    'names beyond ASCII': '{"name":"Beyoncé — 東京"}\n{"name":"Zoë"}',
    // A line ends exactly where the first 1 MiB read does, another's CR and LF lie on either side of it, and a
    // character of three bytes is cut by it.
    'LF at the read boundary': `${'x'.repeat(MiB - 1)}\nnext\n`,
    'CRLF across the read boundary': `${'x'.repeat(MiB - 1)}\r\nnext`,
    'a character across the read boundary': `${'x'.repeat(MiB - 1)}東\nnext`,
    'a line longer than a read': `${'y'.repeat(3 * MiB + 5)}\r\nend\n`,
    empty: '',
  };
  for (const [name, text] of Object.entries(cases)) {
    it(`splits as readline does: ${name}`, async () => {
      const file = path.join(dir, `${name.replace(/\W+/g, '-')}.jsonl`);
      await writeFile(file, text);
      expect(await linesOf(file)).toEqual(await readlineLines(file));
    });
  }

  it('gives each JSON line its number, skips blank ones and marks one that is not JSON', async () => {
    const file = path.join(dir, 'numbered.jsonl');
    await writeFile(file, '{"a":1}\r\n\r\n  \nnot json\r{"b":2}');
    const lines = [];
    for await (const line of jsonLines(file)) lines.push(line);
    expect(lines).toEqual([
      { line: 1, text: '{"a":1}', parsed: { value: { a: 1 } } },
      { line: 4, text: 'not json' },
      { line: 5, text: '{"b":2}', parsed: { value: { b: 2 } } },
    ]);
  });
});
