// `npm start`: install what is missing, build, then serve. The server generates the catalog when the data
// directory has none. This script exits with the server: SIGINT, SIGTERM or SIGHUP here is passed on to it
// (SIGHUP as SIGTERM) and it closes gracefully; should this script be killed outright (SIGKILL), the server
// sees its channel to us close and stops as well, so nothing is left holding the port.
import path from 'node:path';
import { build, ensureDependencies, root, runAttached, stopOnSignals } from './lib.mjs';

stopOnSignals();
await ensureDependencies();
await build();
runAttached(process.execPath, [path.join(root, 'dist/server/main.js')], { env: process.env });
