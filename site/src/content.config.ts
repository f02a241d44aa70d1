import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { docsLoader, i18nLoader } from '@astrojs/starlight/loaders';
import { docsSchema, i18nSchema } from '@astrojs/starlight/schema';
import { RFC_STATUSES } from './lib/rfc-status';

const date = z.coerce.date();

/** The machine-readable RFC front matter (docs/rfc-format.md). */
const rfcSchema = z.object({
  number: z.coerce.string(),
  title: z.string(),
  status: z.enum(RFC_STATUSES),
  created: date,
  updated: date,
  statusHistory: z.array(z.object({ status: z.enum(RFC_STATUSES), date, evidence: z.string().optional() })).default([]),
  affects: z.array(z.string()).default([]),
  compatibility: z.string().optional(),
  supersedes: z.array(z.coerce.string()).default([]),
  supersededBy: z.array(z.coerce.string()).default([]),
  authors: z.array(z.string()).default([]),
  source: z.string().optional(),
  summary: z.string().optional(),
  tracker: z
    .array(
      z.object({
        id: z.string(),
        title: z.string(),
        upstream: z.string().optional(),
        project: z
          .object({ status: z.string(), evidence: z.string().optional().nullable(), test: z.string().optional().nullable() })
          .passthrough()
          .optional(),
      }).passthrough(),
    )
    .optional(),
}).passthrough();

export const collections = {
  docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }),
  i18n: defineCollection({ loader: i18nLoader(), schema: i18nSchema() }),
  rfcs: defineCollection({ loader: glob({ pattern: '*.md', base: '../RFCs' }), schema: rfcSchema }),
};
