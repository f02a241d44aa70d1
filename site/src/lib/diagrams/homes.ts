/**
 * Where each diagram is explained: the spec or RFC page whose text it illustrates, and the section of that page (the
 * id of its heading; `''`: the page's introduction, before the first heading). The diagram appears there, with its
 * text alternative, as well as on /diagrams/. Spec pages place it with `<DiagramById id="…" />` in their MDX; RFC
 * pages (Markdown from RFCs/, rendered by site/src/pages/rfcs/[slug].astro) get it appended to the section named here.
 * A test checks every diagram is in the section its row names, and that every lifecycle and pipeline has a row.
 */

export interface DiagramHome {
  /** The page's title, for the "Explained in" link on /diagrams/. */
  readonly page: string;
  /** The page's path. */
  readonly path: string;
  /** The id of the section's heading, or `''` for the introduction. */
  readonly section: string;
}

const INQUIRIUM = { page: 'Inquirium assistant channel', path: '/spec/inquirium/' } as const;
const BACKGROUND = { page: 'Compaction, distillation and consolidation', path: '/spec/compaction-distillation-consolidation/' } as const;
const AGENT_MEMORY = { page: 'AM-1.1: the agent-memory spec (Reviewable learning)', path: '/rfcs/am-1.1/' } as const;

export const DIAGRAM_HOMES: Readonly<Record<string, DiagramHome>> = {
  'question-lifecycle': { ...INQUIRIUM, section: 'operator-questions' },
  'commitment-lifecycle': { page: 'Inferred commitments', path: '/spec/commitments/', section: 'rules' },
  'distillation-schedule': { ...BACKGROUND, section: 'distillation' },
  'proposal-lifecycle': { ...AGENT_MEMORY, section: 'am-prop' },
  'proposal-approval-gate': { ...AGENT_MEMORY, section: 'am-prop' },
  'classification-lattice': { ...INQUIRIUM, section: 'classification' },
  'mode-order': { ...INQUIRIUM, section: 'classkeyed-and-modekeyed' },
  'rigor-order': { ...INQUIRIUM, section: 'classkeyed-and-modekeyed' },
  'egress-order': { ...INQUIRIUM, section: 'classkeyed-and-modekeyed' },
  'trace-level-order': { ...INQUIRIUM, section: 'classkeyed-and-modekeyed' },
  'memory-pipeline': { ...BACKGROUND, section: '' },
};

/** The id of a diagram's block on its home page. */
export const homeAnchor = (id: string): string => `diagram-${id}`;

/** The diagrams a page is home to, in table order. */
export const diagramsHomedAt = (path: string): { id: string; section: string }[] =>
  Object.entries(DIAGRAM_HOMES).filter(([, h]) => h.path === path).map(([id, h]) => ({ id, section: h.section }));
