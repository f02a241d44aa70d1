/**
 * The validator emitter's intermediate form: every schema node reachable from the corpus types, numbered, with its
 * `$ref`s resolved to node numbers, its keywords sorted into Ajv's evaluation order and everything a check needs
 * precomputed (discriminator mapping, uniqueItems item types, upfront type check). A keyword the emitter does not
 * implement is refused here with a CorpusError naming the file and the JSON pointer of the keyword: the emitter never
 * skips a keyword silently.
 */
import type { Json, JsonObject, SchemaFile } from '../../model.ts';
import { CorpusError, escapePointer } from '../../errors.ts';
import { isObject, type RefTarget, type Resolved, type TypeInfo } from '../../resolve.ts';
import { FORMATS, JSON_TYPES, KEYWORD_ORDER, NO_OP_VALUES, isSupportedKeyword, type Group } from './keywords.ts';

/** One schema node (object or boolean schema). Subschemas are node numbers. */
export interface IrNode {
  readonly id: number;
  readonly file: SchemaFile;
  readonly pointer: string;
  /** Set for a boolean schema. */
  bool?: boolean;
  /** The schema object (undefined for a boolean schema); keyword values are read from it. */
  schema?: JsonObject;
  /** `$ref` target, when the node has a `$ref`. */
  ref?: number;
  /** `$ref` and no other validating keyword: the node is its target (Ajv ignores nothing else here either). */
  refOnly: boolean;
  /** `type` as a list (empty when absent). */
  types: readonly string[];
  /** The type is checked before any keyword (else inside its own group, after the `any` group), as Ajv does. */
  upfrontType: boolean;
  /** The groups that have keywords here, each with its present keywords, in evaluation order. */
  groups: [Group, string[]][];
  properties: [string, number][];
  /** patternProperties: each pattern (its source) and its subschema, in schema order. */
  patternProperties?: [string, number][];
  additionalProperties?: number;
  items?: number;
  contains?: number;
  not?: number;
  if?: number;
  then?: number;
  else?: number;
  propertyNames?: number;
  anyOf?: number[];
  oneOf?: number[];
  allOf?: number[];
  /** Tag property and tag value → index into `oneOf`. */
  discriminator?: { tag: string; mapping: [string, number][] };
  /** uniqueItems: the item types Ajv's fast path compares by (from `items.type`), or null for deep equality. */
  uniqueTypes?: readonly string[] | null;
  /**
   * Set for another type, which that type's module validates: this module imports its check and its node instead of
   * compiling it again. `schema` is kept only for reading (a discriminator's tag values).
   */
  external?: TypeInfo;
}

const fail = (file: SchemaFile, pointer: string, message: string): never => {
  throw new CorpusError(`validators: ${message}`, file.path, pointer);
};

/** Keywords whose value is a subschema, an array of subschemas, or a map of subschemas. */
const ONE = ['additionalProperties', 'items', 'contains', 'not', 'if', 'then', 'else', 'propertyNames'] as const;
const MANY = ['anyOf', 'oneOf', 'allOf'] as const;

export class Ir {
  readonly nodes: IrNode[] = [];
  private readonly byKey = new Map<string, number>();
  /** Node of each type, by title. */
  readonly typeNodes = new Map<string, number>();
  /** Files in first-seen order (error schema paths name a file). */
  readonly files: SchemaFile[] = [];
  private readonly r: Resolved;
  /** The one type this module validates: a `$ref` to any other type is external (imported from its module). */
  private readonly own: TypeInfo;

  /**
   * The nodes of type `own` (its module). A `$ref` to another type becomes an external node, validated by that type's
   * module; a `$ref` to any other place (a property of a type, an untitled `$defs` entry) is compiled here, as a copy.
   */
  constructor(r: Resolved, own: TypeInfo) {
    this.r = r;
    this.own = own;
    this.typeNodes.set(own.title, this.node(own.file, own.pointer, own.schema));
    for (const n of this.nodes) if (!this.files.includes(n.file)) this.files.push(n.file);
  }

  /** True when a node accepts every instance (true, or no validating keyword at all; never an external node). */
  alwaysValid(id: number): boolean {
    const n = this.nodes[id] as IrNode;
    return n.bool === true || (n.bool === undefined && n.external === undefined && n.ref === undefined && n.types.length === 0 && n.groups.length === 0);
  }

  /** Every external node (types of other files this module uses). */
  get externals(): IrNode[] {
    return this.nodes.filter((n) => n.external !== undefined);
  }

  /** The node a `$ref` to `t` points at: an external node for another type, else the node itself. */
  private refTarget(t: RefTarget): number {
    const entry = this.r.entryAt(t.file, t.pointer);
    if (entry === undefined || !entry.title || !entry.isType || entry.title === this.own.title) return this.node(t.file, t.pointer, t.node);
    const key = `external:${entry.title}`;
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const id = this.nodes.length;
    this.nodes.push({ id, file: t.file, pointer: t.pointer, refOnly: false, types: [], upfrontType: false, groups: [], properties: [], external: entry, ...(isObject(t.node) ? { schema: t.node } : {}) });
    this.byKey.set(key, id);
    return id;
  }

  /** The node a `$ref`-only node stands for (following chains). */
  target(id: number): IrNode {
    let n = this.nodes[id] as IrNode;
    const seen = new Set<number>();
    while (n.refOnly && n.ref !== undefined && !seen.has(n.id)) {
      seen.add(n.id);
      n = this.nodes[n.ref] as IrNode;
    }
    return n;
  }

  private node(file: SchemaFile, pointer: string, schema: Json): number {
    const key = `${file.path}#${pointer}`;
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const id = this.nodes.length;
    const n: IrNode = { id, file, pointer, refOnly: false, types: [], upfrontType: false, groups: [], properties: [] };
    this.nodes.push(n);
    this.byKey.set(key, id);
    if (typeof schema === 'boolean') {
      n.bool = schema;
      return id;
    }
    if (!isObject(schema)) fail(file, pointer, 'a schema must be an object or a boolean');
    const s = schema as JsonObject;
    n.schema = s;
    for (const k of Object.keys(s)) {
      if (!isSupportedKeyword(k)) fail(file, `${pointer}/${escapePointer(k)}`, `keyword "${k}" is not supported by the validator emitter (docs/validators.md lists the supported keywords)`);
    }
    for (const [k, value] of Object.entries(NO_OP_VALUES))
      if (k in s && s[k] !== value) fail(file, `${pointer}/${escapePointer(k)}`, `"${k}" is supported only as ${JSON.stringify(value)} (docs/validators.md), not ${JSON.stringify(s[k])}`);
    if ('$id' in s && pointer !== '') fail(file, `${pointer}/$id`, '"$id" inside a schema (a new base URI) is not supported');
    this.checkValues(n, s);
    const sub = (kw: string, v: Json, at = `${pointer}/${kw}`) => this.node(file, at, v);
    if (typeof s['$ref'] === 'string') {
      n.ref = this.refTarget(this.r.resolve(file, s['$ref'], pointer));
    }
    const type = s['type'];
    if (type !== undefined) {
      const list = Array.isArray(type) ? type : [type];
      for (const t of list) if (typeof t !== 'string' || !JSON_TYPES.has(t)) fail(file, `${pointer}/type`, `"type" must name JSON types, got ${JSON.stringify(type)}`);
      n.types = list as string[];
    }
    if (isObject(s['properties'])) {
      for (const [name, v] of Object.entries(s['properties'])) n.properties.push([name, sub('properties', v, `${pointer}/properties/${escapePointer(name)}`)]);
    } else if (s['properties'] !== undefined) fail(file, `${pointer}/properties`, '"properties" must be an object');
    if (isObject(s['patternProperties'])) {
      n.patternProperties = Object.entries(s['patternProperties']).map(([source, v]) => {
        const at = `${pointer}/patternProperties/${escapePointer(source)}`;
        try {
          new RegExp(source, 'u');
        } catch (e) {
          fail(file, at, `the patternProperties key is not a valid unicode regular expression: ${(e as Error).message}`);
        }
        return [source, sub('patternProperties', v, at)];
      });
    } else if (s['patternProperties'] !== undefined) fail(file, `${pointer}/patternProperties`, '"patternProperties" must be an object');
    for (const kw of ONE) if (s[kw] !== undefined) {
      if (kw === 'items' && Array.isArray(s[kw])) fail(file, `${pointer}/items`, 'array-form "items" (tuples) is not supported');
      n[kw] = sub(kw, s[kw] as Json);
    }
    for (const kw of MANY) if (s[kw] !== undefined) {
      const arr = s[kw];
      if (!Array.isArray(arr) || arr.length === 0) fail(file, `${pointer}/${kw}`, `"${kw}" must be a non-empty array`);
      n[kw] = (arr as Json[]).map((v, i) => sub(kw, v, `${pointer}/${kw}/${i}`));
    }
    // Groups and keywords in evaluation order; the type is checked upfront unless it has keywords of its own group.
    for (const [g, kws] of KEYWORD_ORDER) {
      const present = kws.filter((k) => s[k] !== undefined && !(k === 'if' && s['then'] === undefined && s['else'] === undefined));
      if (present.length) n.groups.push([g, present]);
    }
    n.refOnly = n.ref !== undefined && n.types.length === 0 && n.groups.every(([, kws]) => kws.length === 1 && kws[0] === '$ref');
    const single = n.types.length === 1 ? (n.types[0] as string) : undefined;
    n.upfrontType = n.types.length > 0 && !(single !== undefined && n.groups.some(([g]) => g === single));
    if (s['discriminator'] !== undefined) n.discriminator = this.discriminator(n, s);
    if (s['uniqueItems'] === true) {
      const items = isObject(s['items']) ? s['items'] : undefined;
      const t = items?.['type'];
      const types = t === undefined ? [] : Array.isArray(t) ? (t as string[]) : [t as string];
      n.uniqueTypes = types.length > 0 && !types.some((x) => x === 'object' || x === 'array') ? types : null;
    }
    return id;
  }

  private checkValues(n: IrNode, s: JsonObject): void {
    const at = (k: string) => `${n.pointer}/${k}`;
    const { file } = n;
    for (const k of ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum']) if (s[k] !== undefined && typeof s[k] !== 'number') fail(file, at(k), `"${k}" must be a number`);
    for (const k of ['maxLength', 'minLength', 'maxItems', 'minItems', 'maxProperties', 'minProperties'])
      if (s[k] !== undefined && !(typeof s[k] === 'number' && Number.isInteger(s[k]) && (s[k] as number) >= 0)) fail(file, at(k), `"${k}" must be a non-negative integer`);
    if (s['pattern'] !== undefined) {
      if (typeof s['pattern'] !== 'string') fail(file, at('pattern'), '"pattern" must be a string');
      try {
        new RegExp(s['pattern'] as string, 'u');
      } catch (e) {
        fail(file, at('pattern'), `"pattern" is not a valid unicode regular expression: ${(e as Error).message}`);
      }
    }
    if (s['format'] !== undefined && !(typeof s['format'] === 'string' && Object.hasOwn(FORMATS, s['format'])))
      fail(file, at('format'), `format ${JSON.stringify(s['format'])} is not supported by the validator emitter (supported: ${Object.keys(FORMATS).join(', ')})`);
    if (s['required'] !== undefined && !(Array.isArray(s['required']) && s['required'].every((x) => typeof x === 'string')))
      fail(file, at('required'), '"required" must be an array of strings');
    if (s['enum'] !== undefined && !(Array.isArray(s['enum']) && s['enum'].length > 0)) fail(file, at('enum'), '"enum" must be a non-empty array');
    if (s['uniqueItems'] !== undefined && typeof s['uniqueItems'] !== 'boolean') fail(file, at('uniqueItems'), '"uniqueItems" must be a boolean');
  }

  /** Ajv's discriminator: a string tag property whose const/enum values in each oneOf branch pick the branch. */
  private discriminator(n: IrNode, s: JsonObject): { tag: string; mapping: [string, number][] } {
    const d = s['discriminator'];
    const at = `${n.pointer}/discriminator`;
    if (!isObject(d) || typeof d['propertyName'] !== 'string') return fail(n.file, at, '"discriminator" needs a string "propertyName"');
    if (d['mapping'] !== undefined) fail(n.file, `${at}/mapping`, 'discriminator "mapping" is not supported');
    for (const k of Object.keys(d)) if (k !== 'propertyName' && k !== 'mapping') fail(n.file, `${at}/${escapePointer(k)}`, `discriminator key "${k}" is not supported`);
    if (!n.oneOf) return fail(n.file, at, '"discriminator" needs "oneOf"');
    const tag = d['propertyName'];
    const hasTag = (x: JsonObject | undefined) => Array.isArray(x?.['required']) && (x['required'] as Json[]).includes(tag);
    const mapping: [string, number][] = [];
    n.oneOf.forEach((branch, i) => {
      const b = this.target(branch);
      const prop = b.schema && isObject(b.schema['properties']) ? b.schema['properties'][tag] : undefined;
      if (!isObject(prop)) fail(n.file, `${n.pointer}/oneOf/${i}`, `discriminator: the branch must have "properties/${tag}"`);
      if (!hasTag(s) && !hasTag(b.schema)) fail(n.file, `${n.pointer}/oneOf/${i}`, `discriminator: "${tag}" must be required`);
      const p = prop as JsonObject;
      const values = p['const'] !== undefined ? [p['const']] : Array.isArray(p['enum']) ? p['enum'] : fail(n.file, `${n.pointer}/oneOf/${i}`, `discriminator: "properties/${tag}" must have "const" or "enum"`);
      for (const v of values) {
        if (typeof v !== 'string' || mapping.some(([x]) => x === v)) fail(n.file, `${n.pointer}/oneOf/${i}`, `discriminator: "${tag}" values must be unique strings`);
        mapping.push([v as string, i]);
      }
    });
    return { tag, mapping };
  }
}
