import type { Logger } from '../../shared/logger.js';
import type { FlagsConfig } from '../config/flags.js';
import { FlagStore, type FlagSource } from './flags-file.js';
import { RemoteFlagSource } from './remote.js';

/**
 * Loads the flag source the configuration names: the watched file, or a remote GrowthBook that falls back
 * on the file's flags. Throws (FlagFileError) only when the file has no valid version.
 */
export async function createFlagSource(config: FlagsConfig, logger?: Logger): Promise<FlagSource> {
  const store = new FlagStore(config.file, logger);
  await store.load();
  if (!config.remote) {
    if (config.watch) store.watch();
    return store;
  }
  const remote = new RemoteFlagSource({ ...config.remote, fallback: store.payload(), ...(logger ? { logger } : {}) });
  await remote.load();
  remote.start();
  return remote;
}
