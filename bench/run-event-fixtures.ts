/** Valid run events for the dispatch benchmarks: every valid payload example of each x-type-index type in an envelope. */
import type { LoadedCorpus, SchemaFile } from '../generator/model.ts';
import { RUN_EVENT_STEMS } from '../generator/naming.ts';

export interface RunEventFixtures {
  readonly payloadsFile: SchemaFile;
  readonly envelopeFile: SchemaFile;
  /** Event type → `#/$defs/…` of its payload. */
  readonly typeIndex: Record<string, string>;
  readonly events: unknown[];
}

export function runEventFixtures(corpus: LoadedCorpus): RunEventFixtures {
  const payloadsFile = corpus.schemas.find((s) => s.stem === RUN_EVENT_STEMS.payloads && s.family === 'openwop')!;
  const envelopeFile = corpus.schemas.find((s) => s.stem === RUN_EVENT_STEMS.envelope && s.family === 'openwop')!;
  const typeIndex = payloadsFile.schema['x-type-index'] as Record<string, string>;
  const events: unknown[] = [];
  let seq = 0;
  for (const [type, ref] of Object.entries(typeIndex)) {
    const def = ref.split('/').pop();
    for (const ex of corpus.examples.filter((e) => e.kind === 'valid' && e.major === payloadsFile.major && e.target === `${RUN_EVENT_STEMS.payloads}--${def}`))
      events.push({ eventId: `e-${seq}`, runId: 'run-1', type, payload: ex.instance, timestamp: '2026-01-01T00:00:00Z', sequence: seq++ });
  }
  return { payloadsFile, envelopeFile, typeIndex, events };
}
