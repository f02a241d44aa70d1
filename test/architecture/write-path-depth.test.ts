/**
 * The write path is short (issue 22): a memory seed's writes reach the store's commit through at most five project
 * modules, with no observer, queue or response hook between. Since issue 32 the request boundary commits the request's
 * one unit of work after the route answered: the stack captured where the writes enter the storage port runs from the
 * boundary (route-helpers.ts `serve`) through the unit of work and its plan.
 */
import { describe, expect, it } from 'vitest';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { openMemoryStore } from '../../runtime/storage/memory/index.ts';
import type { StoragePort, WritePlan } from '../../runtime/storage/port.ts';

const TOKEN = 'depth-test-token-0123456789abcdef';
const MAX_MODULES = 5;

/** The project modules (runtime/…) on a stack, in order from the port outwards, each once. */
function projectModules(stack: string): string[] {
  const modules: string[] = [];
  for (const line of stack.split('\n').slice(2)) {
    const m = /\/(runtime\/[^:)]+\.ts)/.exec(line);
    if (m !== null && !modules.includes(m[1]!)) modules.push(m[1]!);
  }
  return modules;
}

describe('the write path of a memory seed', () => {
  it(`reaches the storage port through at most ${MAX_MODULES} project modules`, async () => {
    const store = await openMemoryStore();
    const stacks: string[] = [];
    const commit = store.commit.bind(store);
    const watched: Pick<StoragePort, 'commit'> = store;
    watched.commit = (plan: WritePlan) => {
      if (plan.some((op) => op.op === 'memory.put')) stacks.push(new Error('port').stack ?? '');
      return commit(plan);
    };
    const { app } = await createHost({ token: TOKEN, storage: store, logger: false });
    const r = await app.inject({ method: 'POST', url: ROUTES.memorySeed.path, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, payload: JSON.stringify({ memoryRef: 'mem://acme/depth', entries: [{ content: 'one' }, { content: 'two' }] }) });
    expect(r.statusCode, r.body).toBe(200);
    expect(stacks, 'one commit carries both entries').toHaveLength(1);
    const modules = projectModules(stacks[0]!);
    expect(modules, `the request boundary commits: ${modules.join(' → ')}`).toContain('runtime/host/route-helpers.ts');
    expect(modules.length, modules.join(' → ')).toBeLessThanOrEqual(MAX_MODULES);
    await app.close();
  });
});
