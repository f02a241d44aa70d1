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

const P066 = { page: 'P066: Inquirium assistant channel', path: '/rfcs/p066/' } as const;

/**
 * Where else a diagram appears: the RFC sections whose rules it draws (a rule of the RFC moves through the lifecycle or
 * orders along the axis the drawing shows). The same block as on the home page is appended to each of these sections,
 * so an RFC page shows the drawings of its rules; a test of the built site checks each is there.
 */
export const DIAGRAM_RULE_SECTIONS: Readonly<Record<string, readonly DiagramHome[]>> = {
  'question-lifecycle': [{ ...P066, section: 'p066-d11' }],
  'classification-lattice': [{ ...P066, section: 'p066-d5' }],
  'mode-order': [{ ...P066, section: 'p066-d6' }],
  'rigor-order': [{ ...P066, section: 'p066-d6' }],
  'egress-order': [{ ...P066, section: 'p066-d6' }],
  'trace-level-order': [{ ...P066, section: 'p066-d6' }],
  'commitment-lifecycle': [{ page: '0068: Background memory consolidation and inferred standing commitments', path: '/rfcs/0068/', section: 'r0068-d6' }],
  'distillation-schedule': [{ ...AGENT_MEMORY, section: 'am-dist' }],
};

/** Every place a diagram is shown: its home first, then the RFC sections whose rules it draws. */
export const diagramPlacements = (id: string): DiagramHome[] => [...(DIAGRAM_HOMES[id] ? [DIAGRAM_HOMES[id]] : []), ...(DIAGRAM_RULE_SECTIONS[id] ?? [])];

/** The id of a diagram's block on its home page. */
export const homeAnchor = (id: string): string => `diagram-${id}`;

/** The diagrams a page shows (those it is home to, then those of its rules), in table order. */
export const diagramsShownAt = (path: string): { id: string; section: string }[] => [
  ...Object.entries(DIAGRAM_HOMES).filter(([, h]) => h.path === path).map(([id, h]) => ({ id, section: h.section })),
  ...Object.entries(DIAGRAM_RULE_SECTIONS).flatMap(([id, hs]) => hs.filter((h) => h.path === path).map((h) => ({ id, section: h.section }))),
];
