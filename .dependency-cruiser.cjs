// The layers, enforced (`npm run lint`). A module may import its own layer and the layers below it, never one
// above; nothing imports in a circle; the client and the server meet only in `shared/`. docs/ARCHITECTURE.md
// draws the same layers. Tests are left out of the layer rules (a test may reach for any helper), not of circles.

/** Top to bottom. Each entry: a name and the paths (regular expressions) in that layer. */
const SERVER_LAYERS = [
  ['entry points', '^server/(main|start-up)\\.ts$|^server/cli/'],
  ['the app', '^server/app\\.ts$'],
  ['pages', '^server/(pages|studio|seo|media)/'],
  ['live catalog', '^server/live-catalog/'],
  ['features', '^server/(layout|entities|commerce|flags|experiments)/'],
  ['engine, catalog, segments and guests', '^server/(search|segments|catalog|sessions|activity|analytics|mail)/'],
  ['infrastructure', '^server/(http|store|cache|background|config|health)/'],
];
const CLIENT_LAYERS = [
  ['client entries', '^client/src/[^/]+\\.tsx?$'],
  ['client app', '^client/src/app/'],
  ['client features', '^client/src/features/'],
  ['client components', '^client/src/components/'],
  ['client lib', '^client/src/lib/'],
];
const TESTS = '\\.(test|spec)\\.tsx?$|^server/test/|test-utils|\\.cases\\.ts$';

function layerRules(layers, prefix) {
  return layers.slice(1).map(([name, path], i) => ({
    name: `${prefix}: ${name} imports upwards`,
    comment: `${name} sits below ${layers
      .slice(0, i + 1)
      .map(([n]) => n)
      .join(', ')}: it may not import them.`,
    severity: 'error',
    from: { path, pathNot: TESTS },
    to: {
      path: layers
        .slice(0, i + 1)
        .map(([, p]) => `(${p})`)
        .join('|'),
    },
  }));
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules import in one direction only.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'client-to-server',
      severity: 'error',
      comment: 'The client reaches the server only through its API; code both use lives in shared/.',
      from: { path: '^client/' },
      to: { path: '^server/' },
    },
    {
      name: 'server-to-client',
      severity: 'error',
      comment: 'The server loads the built renderer (dist/ssr) at run time; it never imports client sources.',
      from: { path: '^server/', pathNot: TESTS },
      to: { path: '^client/' },
    },
    {
      name: 'shared-is-the-bottom',
      severity: 'error',
      comment: 'shared/ is used by both sides and so imports neither.',
      from: { path: '^shared/', pathNot: TESTS },
      to: { path: '^(server|client|bench|e2e|scripts)/' },
    },
    {
      name: 'nothing-imports-an-entry',
      severity: 'error',
      comment: 'bench/, e2e/ and scripts/ run things; nothing in the product imports them.',
      from: { path: '^(server|client|shared)/', pathNot: TESTS },
      to: { path: '^(bench|e2e|scripts)/' },
    },
    {
      name: 'caches-bounded-by-bytes',
      severity: 'error',
      comment: 'Every server cache is made by server/cache/byte-bounded.ts, with a byte budget (RULES 13.12).',
      from: { path: '^server/', pathNot: ['^server/cache/byte-bounded\\.ts$', TESTS] },
      to: { path: 'node_modules/lru-cache/' },
    },
    {
      name: 'client: feature to feature',
      severity: 'error',
      comment: 'A client feature stands alone: what two features share goes down to components/ or lib/.',
      from: { path: '^client/src/features/([^/]+)/', pathNot: TESTS },
      to: { path: '^client/src/features/', pathNot: '^client/src/features/$1/' },
    },
    ...layerRules(SERVER_LAYERS, 'server'),
    ...layerRules(CLIENT_LAYERS, 'client'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|data|bench/out|test-results)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
