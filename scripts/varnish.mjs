// `npm run varnish -- --backend HOST:PORT [--backend HOST:PORT ...] --listen HOST:PORT [--storage 256m]
// [--purge-from ADDR,...]`: Varnish in front of one storefront node or several with the project's configuration
// (deploy/varnish/storefront.vcl), in the foreground, in a throwaway work folder. SIGINT or SIGTERM stops it and
// removes the folder.
import { INSTALL_HINT, findVarnishd, hostPort, startVarnish } from './varnish-lib.mjs';

const USAGE = `Usage: npm run varnish -- --backend HOST:PORT [--backend HOST:PORT ...] --listen HOST:PORT
                           [--storage SIZE] [--purge-from ADDRESSES]

  --backend     a storefront node Varnish fetches from (default 127.0.0.1:3000); once per node: several are
                checked on /readyz every second and taken in turn, a node that is not ready left out
  --listen      where Varnish answers (default 127.0.0.1:6081)
  --storage     memory for cached objects, as varnishd's -s malloc,SIZE (default 256m)
  --purge-from  addresses or networks allowed to purge besides this machine, comma-separated
                (the storefront nodes' addresses: they purge by tag, SHARED_CACHE_PURGE_URLS)`;

function parseArgs(argv) {
  const options = { backends: [], listen: '127.0.0.1:6081', storage: '256m', purgers: [] };
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    if (name === '--backend') options.backends.push(value());
    else if (name === '--listen') options.listen = value();
    else if (name === '--storage') options.storage = value();
    else if (name === '--purge-from')
      options.purgers.push(
        ...(value() ?? '')
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      );
    else if (name === '--help' || name === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown option ${name}\n\n${USAGE}`);
  }
  if (options.backends.length === 0) options.backends.push('127.0.0.1:3000');
  for (const backend of options.backends) hostPort(backend, '--backend');
  hostPort(options.listen, '--listen');
  return options;
}

let options;
try {
  options = parseArgs(process.argv.slice(2));
} catch (err) {
  console.error(err.message);
  process.exit(2);
}
const varnishd = findVarnishd();
if (!varnishd) {
  console.error(INSTALL_HINT);
  process.exit(1);
}

let varnish;
let stopping = false;
const stop = async (signal) => {
  if (stopping) return;
  stopping = true;
  console.error(`\n${signal}: stopping Varnish…`);
  await varnish?.stop();
  process.exit(0);
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void stop(signal));

try {
  varnish = await startVarnish({ varnishd, ...options });
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
console.log(
  `Varnish listening at ${varnish.url}, in front of ${options.backends.join(', ')} (work folder ${varnish.workDir}; ` +
    `varnishstat -n ${varnish.workDir}, varnishlog -n ${varnish.workDir})`,
);
const { code, signal } = await varnish.exited;
if (!stopping) {
  console.error(`varnishd exited (${code ?? signal})`);
  await varnish.stop();
  process.exit(code || 1);
}
