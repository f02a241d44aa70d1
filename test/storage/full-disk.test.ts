/**
 * A full disk (issue 22 item 6): the host on a SQLite store in a small tmpfs. Once the filesystem is full, a write
 * is answered 503 `runner_unavailable` with `Retry-After`, stores nothing of itself, and `/readyz` answers 503 while
 * `/livez` stays 200; when space returns the host turns ready again on its own (a probe write from /readyz, no
 * client write and no restart needed) and the next write succeeds. And (issue 33) the first refused write turns
 * `/readyz` 503 for as long as the disk stays nearly full: a small write that fits in the little space freed meanwhile
 * does not make the host ready. Mounting needs root (CI runs as root).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { openStore } from '../../runtime/storage/open-store.ts';
import { toolchain } from '../support/toolchains.ts';

const tmpfs = toolchain('tmpfs');
const TOKEN = 'full-disk-test-token-0123456789abcdef';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const mountPoint = mkdtempSync(join(tmpdir(), 'wopkit-full-disk-'));
let mounted = false;
afterAll(() => {
  if (mounted) execFileSync('umount', ['-l', mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Fill the filesystem at `dir` to the last byte with one file (`name`); its path. */
function fill(dir: string, name = 'filler'): string {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
  }
  try {
    for (;;) writeSync(fd, chunk, 0, 1); // the last bytes of a partly used block
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
  } finally {
    closeSync(fd);
  }
  return path;
}

describe('a full disk', () => {
  it.skipIf(tmpfs.skip)('answers 503 with Retry-After and stores nothing; /readyz is 503 until space returns, then the host is ready again without a restart', async () => {
    tmpfs.assert();
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', mountPoint]);
    mounted = true;
    const dataDir = join(mountPoint, 'data');
    const { app } = await createHost({ token: TOKEN, storage: await openStore({ kind: 'sqlite', dataDir }), logger: false });
    const ref = 'mem://acme/disk';
    const seed = (n: number, size: number) => app.inject({
      method: 'POST', url: ROUTES.memorySeed.path, headers: H,
      payload: JSON.stringify({ memoryRef: ref, entries: Array.from({ length: n }, (_, i) => ({ content: `${i}:`.padEnd(size, 'x') })) }),
    });
    const get = (url: string) => app.inject({ method: 'GET', url, headers: H });
    const listed = async () => (await get(`/v1/memory/${encodeURIComponent(ref)}?limit=200`)).json<{ entries: unknown[] }>().entries.length;

    const first = await seed(1, 100);
    expect(first.statusCode, first.body).toBe(200);
    expect((await get('/readyz')).statusCode).toBe(200);
    const filler = fill(mountPoint);

    // Writes until the store has to grow: each is all-or-nothing, and the first that cannot is a 503.
    let refused;
    for (let i = 0; i < 50 && refused === undefined; i++) {
      const before = await listed();
      const r = await seed(20, 4000);
      if (r.statusCode === 503) {
        refused = r;
        expect(await listed(), 'nothing of a refused seed is stored').toBe(before);
      } else expect(r.statusCode, r.body).toBe(200);
    }
    expect(refused, 'a write on a full disk was refused').toBeDefined();
    expect(refused!.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused!.json()).toMatchObject({ error: 'runner_unavailable' });
    expect(refused!.body).not.toMatch(/SQLITE|at \w+ \(|\.ts:/); // no internals, no stack
    const notReady = await get('/readyz');
    expect(notReady.statusCode).toBe(503);
    expect(notReady.headers['retry-after']).toMatch(/^\d+$/);
    expect(notReady.json()).toEqual({ status: 'unavailable', reason: 'store-unwritable' });
    expect((await get('/livez')).statusCode).toBe(200);
    expect((await get('/readyz')).statusCode, 'still full: still not ready').toBe(503);

    rmSync(filler);
    expect((await get('/readyz')).json()).toEqual({ status: 'ok' });
    const count = await listed();
    expect((await seed(3, 100)).statusCode).toBe(200);
    expect(await listed()).toBe(count + 3);
    await app.close();
  }, 60_000);

  it.skipIf(tmpfs.skip)('the first refused write turns /readyz 503, and a small write that fits in space freed meanwhile does not make the host ready; room again does', async () => {
    tmpfs.assert();
    const mount = mkdtempSync(join(tmpdir(), 'wopkit-nearly-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', mount]);
    try {
      const { app } = await createHost({ token: TOKEN, storage: await openStore({ kind: 'sqlite', dataDir: join(mount, 'data') }), logger: false });
      const seed = (n: number, size: number) => app.inject({
        method: 'POST', url: ROUTES.memorySeed.path, headers: H,
        payload: JSON.stringify({ memoryRef: 'mem://acme/nearly', entries: Array.from({ length: n }, (_, i) => ({ content: `${i}:`.padEnd(size, 'x') })) }),
      });
      const ready = async () => (await app.inject({ method: 'GET', url: '/readyz' })).statusCode;
      expect((await seed(1, 100)).statusCode).toBe(200);
      // 256 KiB to give back later, then the rest of the filesystem.
      const slack = join(mount, 'slack');
      writeFileSync(slack, Buffer.alloc(256 * 1024, 1));
      const filler = fill(mount);
      let refused = false;
      for (let i = 0; i < 50 && !refused; i++) refused = (await seed(20, 4000)).statusCode === 503;
      expect(refused, 'a write on the full disk was refused').toBe(true);
      expect(await ready(), 'the first refusal turns /readyz 503').toBe(503);

      rmSync(slack); // a little room: small writes fit again, the disk is still all but full
      expect((await seed(1, 100)).statusCode, 'a small write fits in the space freed').toBe(200);
      expect(await ready(), 'one small success on a nearly full disk does not make the host ready').toBe(503);

      rmSync(filler);
      expect(await ready(), 'room again: ready').toBe(200);
      expect((await seed(3, 100)).statusCode).toBe(200);
      await app.close();
    } finally {
      execFileSync('umount', ['-l', mount]);
      rmSync(mount, { recursive: true, force: true });
    }
  }, 60_000);
});
