import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileSegments, readSegmentDir } from './segment-set.js';

describe("the README's override example", () => {
  it('is a whole file that, added to the shipped set, gives no problem and puts its row where it says', async () => {
    const readme = readFileSync(path.resolve('README.md'), 'utf8');
    const block = /<!-- override-example -->\n```json\n([\s\S]*?)\n```/.exec(readme);
    expect(block, 'the README marks its override example with <!-- override-example -->').not.toBeNull();
    const files = await readSegmentDir(path.resolve('segments'));
    files.set('encore/sports.json', block![1]!);
    const { problems, pages } = compileSegments(files);
    expect(problems).toEqual([]);
    expect(
      pages
        .get('encore/sports')!
        .rows.map((r) => r.id)
        .slice(0, 2),
    ).toEqual(['popular-local-sports', 'comedy-near-you']);
  });
});
