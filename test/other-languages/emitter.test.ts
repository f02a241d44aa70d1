import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { keepEmptyGoCollections, languagesFor } from '../../generator/emit/other-languages/languages.ts';
import { corpusConfig, outputNames } from '../../generator/corpus-config.ts';

/** This repository's targets, named by its settings. */
const LANGUAGES = languagesFor(outputNames(corpusConfig('.')));

describe('other-language emitter', () => {
  it('every output says it is generated and lists its information losses', () => {
    for (const l of LANGUAGES) {
      const head = readFileSync(`generated/other-languages/${l.file}`, 'utf8').slice(0, 3000);
      expect(head, l.id).toContain('Do not edit');
      expect(head, l.id).toContain('Known information losses');
      expect(head, l.id).toContain('Discriminated unions');
    }
  });
  it('Go post-processing drops omitempty on slices and maps only', () => {
    const src = '\tTags []string `json:"tags,omitempty"`\n\tMeta map[string]interface{} `json:"meta,omitempty"`\n\tNote *string `json:"note,omitempty"`\n';
    expect(keepEmptyGoCollections(src)).toBe('\tTags []string `json:"tags"`\n\tMeta map[string]interface{} `json:"meta"`\n\tNote *string `json:"note,omitempty"`\n');
  });
});
