import { vi } from 'vitest';

/**
 * Runs a command in-process and collects what it prints (console and stdout writes), so a CLI test needs no
 * child process.
 */
export async function captureOutput(
  run: () => Promise<number>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const text = (args: unknown[]) => `${args.map(String).join(' ')}\n`;
  const spies = [
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void (stdout += text(args))),
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void (stderr += text(args))),
    vi
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true)),
  ];
  try {
    return { code: await run(), stdout, stderr };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}
