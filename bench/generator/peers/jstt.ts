/**
 * Peer: json-schema-to-typescript alone, as a project would run it on this corpus: compileFromFile on every schema
 * file (relative `$ref`s resolved by path, offline), its default options with prettier formatting. A file its `$ref`
 * parser cannot follow (one today: an in-file pointer inside a definition reached from another file) is counted and
 * skipped, which only makes the peer's time smaller. Prints the ms spent.
 * Run by bench/generator/run.ts: node jstt.ts <job.json>
 */
import { readFileSync } from 'node:fs';
import type { PeerJob } from './job.ts';

const t0 = performance.now();
const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as PeerJob;
const { compileFromFile } = await import('json-schema-to-typescript');
let chars = 0;
const failed: string[] = [];
for (const file of job.schemaFiles) {
  try {
    chars += (await compileFromFile(file, { bannerComment: '' })).length;
  } catch {
    failed.push(file);
  }
}
process.stdout.write(JSON.stringify({ ms: performance.now() - t0, files: job.schemaFiles.length - failed.length, failed, chars }));
