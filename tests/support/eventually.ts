/**
 * Looks again, every `intervalMs`, until `check` finds something (anything but undefined); a
 * minute without is a hang, not a slow machine, unless `timeoutMs` says otherwise.
 */
export async function eventually<T>(
  check: () => T | undefined | Promise<T | undefined>,
  { timeoutMs = 60_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
