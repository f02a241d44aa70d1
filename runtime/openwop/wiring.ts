/**
 * The memory pipeline as the composition root (`createOpenwopRuntime`, index.ts) wires it, written down as data:
 * which components it builds and which component each is given. The site draws its memory-pipeline diagram from this
 * table (it never reads source text), and test/runtime/openwop/wiring.test.ts holds the table to the real import
 * graph: the composition root imports every component's class from the module named here, and the module of the
 * component an edge points to imports the module it receives the other component through.
 *
 * Pure data, no imports. Change the wiring, then change this table (the test says which row no longer holds).
 */

export interface WiredComponent {
  /** Short id, used by the edges and as the diagram's node id. */
  readonly id: string;
  /** The class the composition root builds. */
  readonly className: string;
  /** Repository path of the module that exports the class. */
  readonly module: string;
  /** What it stands for, in a few words. */
  readonly role: string;
  /** `stage`: a step of the pipeline; `store`: something the steps read and write. */
  readonly kind: 'stage' | 'store';
}

export interface WiredEdge {
  /** The component handed over … */
  readonly from: string;
  /** … to the component built with it. */
  readonly to: string;
  /** What `to` does with `from`, in a few words ("reads it per tenant"): the diagram's edge label. */
  readonly label: string;
  /**
   * The module `to`'s module imports to receive `from`: `from`'s own module, or the port it is seen through
   * (one that `from`'s module imports too).
   */
  readonly through: string;
}

export interface WiringTable {
  /** The composition root: the module and the function that builds the components. */
  readonly root: { readonly module: string; readonly fn: string };
  readonly components: readonly WiredComponent[];
  readonly edges: readonly WiredEdge[];
}

export const MEMORY_PIPELINE_WIRING: WiringTable = {
  root: { module: 'runtime/openwop/index.ts', fn: 'createOpenwopRuntime' },
  components: [
    { id: 'reader', className: 'TenantReader', module: 'runtime/memory/tenant-reader.ts', role: 'tenant reader (reads the store)', kind: 'store' },
    { id: 'writer', className: 'MemoryWriter', module: 'runtime/memory/writer.ts', role: 'SR-1 write path (plans writes)', kind: 'store' },
    { id: 'workspace', className: 'Workspace', module: 'runtime/distillation/index-manifest.ts', role: 'MEMORY-INDEX workspace', kind: 'store' },
    { id: 'compactor', className: 'Compactor', module: 'runtime/compaction/compactor.ts', role: 'compaction (RFC 0012)', kind: 'stage' },
    { id: 'distiller', className: 'Distiller', module: 'runtime/distillation/distiller.ts', role: 'distillation (RFC 0062)', kind: 'stage' },
    { id: 'scheduler', className: 'DistillationScheduler', module: 'runtime/distillation/schedule.ts', role: 'scheduled distillation', kind: 'stage' },
    { id: 'consolidation', className: 'ConsolidationService', module: 'runtime/consolidation/service.ts', role: 'consolidation (RFC 0068 §D)', kind: 'stage' },
  ],
  edges: [
    { from: 'reader', to: 'compactor', label: 'reads a tenant through it', through: 'runtime/memory/tenant-reader.ts' },
    { from: 'writer', to: 'compactor', label: 'plans summaries through it', through: 'runtime/memory/writer.ts' },
    { from: 'reader', to: 'distiller', label: 'reads a tenant through it', through: 'runtime/memory/tenant-reader.ts' },
    { from: 'writer', to: 'distiller', label: 'plans archives through it', through: 'runtime/memory/writer.ts' },
    { from: 'compactor', to: 'distiller', label: 'compacts each batch with it', through: 'runtime/compaction/compactor.ts' },
    { from: 'workspace', to: 'distiller', label: 'records MEMORY-INDEX in it', through: 'runtime/distillation/index-manifest.ts' },
    { from: 'distiller', to: 'scheduler', label: 'runs it on schedule', through: 'runtime/distillation/distiller.ts' },
    { from: 'reader', to: 'consolidation', label: 'reads long-term entries through it', through: 'runtime/memory/tenant-reader.ts' },
    { from: 'writer', to: 'consolidation', label: 'plans merged entries through it', through: 'runtime/memory/writer.ts' },
  ],
};
