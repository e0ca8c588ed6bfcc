import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A built client as Vite writes it: the template, its stylesheet and script, and the manifest. */
export async function writeBuiltClient(dir: string): Promise<void> {
  await mkdir(path.join(dir, 'assets'), { recursive: true });
  await mkdir(path.join(dir, '.vite'), { recursive: true });
  await writeFile(
    path.join(dir, 'index.html'),
    `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="Shell description" />
    <title>Shell title</title>
    <script type="module" crossorigin src="/assets/index-t.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-t.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`,
  );
  await writeFile(
    path.join(dir, 'assets', 'index-t.css'),
    'body{margin:0}.row{display:block}.nav-footer{display:block}',
  );
  await writeFile(path.join(dir, 'assets', 'index-t.js'), '');
  // Each with a rule the pages' markup uses (`.card`, `.event-hero`) and one it does not (`.boot-t`, `.buying-t`).
  await writeFile(path.join(dir, 'assets', 'buying-t.css'), '.event-hero h1{margin:0}.buying-t{color:red}');
  await writeFile(
    path.join(dir, 'assets', 'boot-t.css'),
    '.card:hover{color:red}.card{display:block}.boot-t{color:blue}',
  );
  await writeFile(
    path.join(dir, '.vite', 'manifest.json'),
    JSON.stringify({
      'index.html': {
        file: 'assets/index-t.js',
        isEntry: true,
        css: ['assets/index-t.css'],
        dynamicImports: ['src/boot.tsx'],
      },
      'src/boot.tsx': { file: 'assets/boot-t.js', css: ['assets/boot-t.css'], imports: ['_react.js'] },
      '_react.js': { file: 'assets/react-t.js' },
      'src/app/pages/event-page.tsx': {
        file: 'assets/event-page-t.js',
        css: ['assets/buying-t.css'],
        imports: ['_listings.js', 'src/boot.tsx', '_react.js'],
      },
      '_listings.js': { file: 'assets/listings-t.js' },
    }),
  );
}
