/** Small helpers every scenario file uses. */
/** A fresh suffix for memoryRefs and ids, so scenarios never collide on a shared host. */
export const unique = (): string => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** A fresh tenant and a memoryRef in it. */
export const freshScope = (): { tenant: string; memoryRef: string } => {
  const tenant = `tenant-${unique()}`;
  return { tenant, memoryRef: `mem://${tenant}/agent-1` };
};
