/** The versions the host advertises and the suite records are the package's version (they drifted once). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOST_VERSION } from '../../runtime/host/server.ts';
import { WOPKIT_VERSION } from '../../runtime/shared/version.ts';
import { SUITE_VERSION } from '../../conformance/run.ts';

const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };

describe('versions', () => {
  it.each([['runtime', WOPKIT_VERSION], ['reference host', HOST_VERSION], ['conformance suite', SUITE_VERSION]])('the %s reports the package version', (_what, version) => {
    expect(version).toBe(pkg.version);
  });
});
