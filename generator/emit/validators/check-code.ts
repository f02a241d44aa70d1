/**
 * The fast path: one specialised JavaScript function per referenced schema node, answering only valid/invalid and
 * stopping at the first failure. Since it reports nothing, it checks in whatever order is cheapest (each property read
 * once, required folded into it, loops last); the diagnostic path (report-runtime.ts) keeps Ajv's order. Composite
 * keywords (anyOf, oneOf, not, if, contains) evaluate their branches inline in labelled blocks, so a branch's failure
 * is a `break`, never an exception or an allocation.
 */
import type { Json } from '../../model.ts';
import type { Ir, IrNode } from './ir.ts';
import { FORMATS, type Group } from './keywords.ts';
import { checkExportName } from '../../naming.ts';

/** Above this many known keys a closed object tests keys against a Set instead of a chain of comparisons. */
const KEY_CHAIN_MAX = 12;
/** Above this many primitive values an enum tests against a Set. */
const ENUM_CHAIN_MAX = 8;

const lit = (v: Json): string => JSON.stringify(v);
const prop = (v: string, key: string): string => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${v}.${key}` : `${v}[${lit(key)}]`);
const isPrimitive = (v: Json): boolean => v === null || typeof v !== 'object';

/** The JavaScript test that `v` is of JSON type `t` (numbers must be finite, as Ajv's strictNumbers). */
export function typeTest(t: string, v: string): string {
  switch (t) {
    case 'object': return `typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v})`;
    case 'array': return `Array.isArray(${v})`;
    case 'number': return `Number.isFinite(${v})`;
    case 'integer': return `Number.isInteger(${v})`;
    case 'null': return `${v} === null`;
    default: return `typeof ${v} === "${t}"`;
  }
}

const covers = (t: string, g: Group): boolean => t === g || (t === 'integer' && g === 'number');

/** Generates the check functions; `helpers` collects the runtime helpers and constants the code uses. */
export class CheckCode {
  private readonly names = new Map<number, string>();
  private readonly pending: number[] = [];
  private readonly functions: string[] = [];
  /** Module-level constants (regular expressions, key and enum sets, object constants). */
  readonly constants: string[] = [];
  /** Regular expression constant of each pattern (shared with the diagnostic path). */
  readonly patterns = new Map<string, string>();
  /** Runtime helpers referenced (`__eq`, `__len`, `__dup`) and format names used. */
  readonly helpers = new Set<string>();
  readonly formats = new Set<string>();
  private seq = 0;

  private readonly ir: Ir;

  constructor(ir: Ir) {
    this.ir = ir;
  }

  /**
   * Name of the check function of a node (following `$ref`-only nodes), generating it on first use; for a type of
   * another file, the name its module's check is imported as.
   */
  fnOf(id: number): string {
    const t = this.ir.target(id);
    if (t.external) return checkExportName(t.external.title);
    let name = this.names.get(t.id);
    if (name === undefined) {
      name = `__c${t.id}`;
      this.names.set(t.id, name);
      this.pending.push(t.id);
    }
    return name;
  }

  /** Name of the check function of a node, if one was requested (following `$ref`-only nodes). */
  nameOf(id: number): string | undefined {
    const t = this.ir.target(id);
    return t.external ? checkExportName(t.external.title) : this.names.get(t.id);
  }

  /** Every check function requested so far (and the ones they call), as source. */
  drain(): string[] {
    while (this.pending.length) {
      const id = this.pending.shift() as number;
      const body: string[] = [];
      this.node(id, 'd', 'return false;', body, '  ');
      this.functions.push(`function ${this.names.get(id)}(d) {\n${body.join('\n')}${body.length ? '\n' : ''}  return true;\n}`);
    }
    return this.functions;
  }

  /** The regular expression constant for a pattern (compiled once, with the `u` flag as Ajv does). */
  pattern(source: string): string {
    let name = this.patterns.get(source);
    if (name === undefined) {
      name = `__RE${this.patterns.size}`;
      this.patterns.set(source, name);
      this.constants.push(`const ${name} = /* @__PURE__ */ new RegExp(${lit(source)}, "u");`);
    }
    return name;
  }

  private v(prefix: string): string {
    return `${prefix}${this.seq++}`;
  }

  private constant(prefix: string, code: string): string {
    const name = this.v(`__${prefix}`);
    this.constants.push(`const ${name} = ${code};`);
    return name;
  }

  private ref(id: number, v: string, fail: string, out: string[], ind: string): void {
    const t = this.ir.target(id);
    if (this.ir.alwaysValid(t.id)) return;
    if (t.bool === false) out.push(`${ind}${fail}`);
    else out.push(`${ind}if (!${this.fnOf(t.id)}(${v})) ${fail}`);
  }

  /** Code that runs `fail` unless `v` is valid against node `id`. */
  node(id: number, v: string, fail: string, out: string[], ind: string): void {
    const n = this.ir.nodes[id] as IrNode;
    if (n.external) {
      out.push(`${ind}if (!${this.fnOf(id)}(${v})) ${fail}`);
      return;
    }
    if (n.bool === true) return;
    if (n.bool === false) {
      out.push(`${ind}${fail}`);
      return;
    }
    if (n.refOnly) {
      this.ref(n.ref as number, v, fail, out, ind);
      return;
    }
    if (n.types.length) out.push(`${ind}if (!(${n.types.map((t) => typeTest(t, v)).join(' || ')})) ${fail}`);
    for (const [g, kws] of n.groups) {
      if (g === 'any') {
        for (const kw of kws) this.anyKeyword(n, kw, v, fail, out, ind);
        continue;
      }
      if (n.types.length && !n.types.some((t) => covers(t, g))) continue; // the type already excludes this group
      const known = n.types.length === 1 && covers(n.types[0] as string, g);
      const inner = known ? ind : `${ind}  `;
      if (!known) out.push(`${ind}if (${typeTest(g, v)}) {`);
      if (g === 'number') this.numberKeywords(n, kws, v, fail, out, inner);
      else if (g === 'string') this.stringKeywords(n, kws, v, fail, out, inner);
      else if (g === 'array') this.arrayKeywords(n, kws, v, fail, out, inner);
      else this.objectKeywords(n, kws, v, fail, out, inner);
      if (!known) out.push(`${ind}}`);
    }
  }

  private anyKeyword(n: IrNode, kw: string, v: string, fail: string, out: string[], ind: string): void {
    const s = n.schema as Record<string, Json>;
    switch (kw) {
      case '$ref':
        this.ref(n.ref as number, v, fail, out, ind);
        return;
      case 'const': {
        const c = s['const'] as Json;
        if (isPrimitive(c)) out.push(`${ind}if (${v} !== ${lit(c)}) ${fail}`);
        else {
          this.helpers.add('__eq');
          out.push(`${ind}if (!__eq(${v}, ${this.constant('K', lit(c))})) ${fail}`);
        }
        return;
      }
      case 'enum': {
        const values = s['enum'] as Json[];
        if (values.every(isPrimitive)) {
          if (values.length <= ENUM_CHAIN_MAX) out.push(`${ind}if (!(${values.map((x) => `${v} === ${lit(x)}`).join(' || ')})) ${fail}`);
          else out.push(`${ind}if (!${this.constant('E', `/* @__PURE__ */ new Set(${lit(values)})`)}.has(${v})) ${fail}`);
        } else {
          this.helpers.add('__eq');
          const arr = this.constant('E', lit(values));
          out.push(`${ind}if (!${arr}.some((x) => __eq(${v}, x))) ${fail}`);
        }
        return;
      }
      case 'not': {
        const sub = n.not as number;
        if (this.ir.alwaysValid(sub)) {
          out.push(`${ind}${fail}`);
          return;
        }
        const L = this.v('L');
        out.push(`${ind}${L}: {`);
        this.node(sub, v, `break ${L};`, out, `${ind}  `);
        out.push(`${ind}  ${fail}`, `${ind}}`);
        return;
      }
      case 'anyOf': {
        const branches = n.anyOf as number[];
        if (branches.some((b) => this.ir.alwaysValid(b))) return;
        const L = this.v('L');
        out.push(`${ind}${L}: {`);
        for (const b of branches) {
          const B = this.v('B');
          out.push(`${ind}  ${B}: {`);
          this.node(b, v, `break ${B};`, out, `${ind}    `);
          out.push(`${ind}    break ${L};`, `${ind}  }`);
        }
        out.push(`${ind}  ${fail}`, `${ind}}`);
        return;
      }
      case 'oneOf': {
        if (n.discriminator) return; // the discriminator keyword (object group) takes its place, as in Ajv
        const count = this.v('n');
        out.push(`${ind}let ${count} = 0;`);
        for (const b of n.oneOf as number[]) {
          if (this.ir.alwaysValid(b)) {
            out.push(`${ind}${count}++;`);
            continue;
          }
          const B = this.v('B');
          out.push(`${ind}${B}: {`);
          this.node(b, v, `break ${B};`, out, `${ind}  `);
          out.push(`${ind}  ${count}++;`, `${ind}}`);
        }
        out.push(`${ind}if (${count} !== 1) ${fail}`);
        return;
      }
      case 'allOf':
        for (const b of n.allOf as number[]) this.node(b, v, fail, out, ind);
        return;
      case 'if': {
        const thenId = n.then !== undefined && !this.ir.alwaysValid(n.then) ? n.then : undefined;
        const elseId = n.else !== undefined && !this.ir.alwaysValid(n.else) ? n.else : undefined;
        if (thenId === undefined && elseId === undefined) return;
        const ok = this.v('ok');
        const L = this.v('L');
        out.push(`${ind}let ${ok} = false;`, `${ind}${L}: {`);
        this.node(n.if as number, v, `break ${L};`, out, `${ind}  `);
        out.push(`${ind}  ${ok} = true;`, `${ind}}`);
        if (thenId !== undefined) {
          out.push(`${ind}if (${ok}) {`);
          this.node(thenId, v, fail, out, `${ind}  `);
          if (elseId !== undefined) {
            out.push(`${ind}} else {`);
            this.node(elseId, v, fail, out, `${ind}  `);
          }
          out.push(`${ind}}`);
        } else {
          out.push(`${ind}if (!${ok}) {`);
          this.node(elseId as number, v, fail, out, `${ind}  `);
          out.push(`${ind}}`);
        }
        return;
      }
      default:
        throw new Error(`validators: no check for keyword ${kw}`);
    }
  }

  private numberKeywords(n: IrNode, kws: string[], v: string, fail: string, out: string[], ind: string): void {
    const s = n.schema as Record<string, number>;
    const op: Record<string, string> = { maximum: '>', minimum: '<', exclusiveMaximum: '>=', exclusiveMinimum: '<=' };
    for (const kw of kws) out.push(`${ind}if (${v} ${op[kw]} ${s[kw]}) ${fail}`);
  }

  private stringKeywords(n: IrNode, kws: string[], v: string, fail: string, out: string[], ind: string): void {
    const s = n.schema as Record<string, Json>;
    for (const kw of kws) {
      if (kw === 'maxLength') {
        // code points ≤ UTF-16 length: count them only when the length alone cannot decide
        this.helpers.add('__len');
        const m = s[kw] as number;
        out.push(`${ind}if (${v}.length > ${m} && __len(${v}) > ${m}) ${fail}`);
      } else if (kw === 'minLength') {
        const m = s[kw] as number;
        if (m === 0) continue;
        // code points ≥ ceil(length / 2): a length of 2m - 1 or more always has m code points
        if (m === 1) out.push(`${ind}if (${v}.length === 0) ${fail}`);
        else {
          this.helpers.add('__len');
          out.push(`${ind}if (${v}.length < ${m} || (${v}.length < ${2 * m - 1} && __len(${v}) < ${m})) ${fail}`);
        }
      } else if (kw === 'pattern') out.push(`${ind}if (!${this.pattern(s[kw] as string)}.test(${v})) ${fail}`);
      else if (kw === 'format') {
        const f = s[kw] as string;
        this.formats.add(f);
        out.push(`${ind}if (!${(FORMATS[f] as { fn: string }).fn}(${v})) ${fail}`);
      }
    }
  }

  private arrayKeywords(n: IrNode, kws: string[], v: string, fail: string, out: string[], ind: string): void {
    const s = n.schema as Record<string, Json>;
    for (const kw of kws) {
      if (kw === 'maxItems') out.push(`${ind}if (${v}.length > ${s[kw]}) ${fail}`);
      else if (kw === 'minItems') out.push(`${ind}if (${v}.length < ${s[kw]}) ${fail}`);
      else if (kw === 'uniqueItems') {
        if (s[kw] !== true) continue;
        this.helpers.add('__dup');
        out.push(`${ind}if (${v}.length > 1 && __dup(${v}, ${n.uniqueTypes ? lit(n.uniqueTypes as Json) : 'null'}) !== null) ${fail}`);
      }
    }
    // loops after the cheap checks
    if (kws.includes('items') && !this.ir.alwaysValid(n.items as number)) {
      const i = this.v('i');
      const x = this.v('x');
      out.push(`${ind}for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {`, `${ind}  const ${x} = ${v}[${i}];`);
      this.node(n.items as number, x, fail, out, `${ind}  `);
      out.push(`${ind}}`);
    }
    if (kws.includes('contains')) {
      const sub = n.contains as number;
      if (this.ir.alwaysValid(sub)) out.push(`${ind}if (${v}.length === 0) ${fail}`);
      else {
        const found = this.v('found');
        const i = this.v('i');
        const x = this.v('x');
        const L = this.v('L');
        out.push(`${ind}let ${found} = false;`, `${ind}for (let ${i} = 0; ${i} < ${v}.length && !${found}; ${i}++) {`, `${ind}  const ${x} = ${v}[${i}];`, `${ind}  ${L}: {`);
        this.node(sub, x, `break ${L};`, out, `${ind}    `);
        out.push(`${ind}    ${found} = true;`, `${ind}  }`, `${ind}}`, `${ind}if (!${found}) ${fail}`);
      }
    }
  }

  private objectKeywords(n: IrNode, kws: string[], v: string, fail: string, out: string[], ind: string): void {
    const s = n.schema as Record<string, Json>;
    const required = new Set(kws.includes('required') ? (s['required'] as string[]) : []);
    for (const kw of ['maxProperties', 'minProperties'])
      if (kws.includes(kw)) out.push(`${ind}if (Object.keys(${v}).length ${kw === 'maxProperties' ? '>' : '<'} ${s[kw]}) ${fail}`);
    // each property read once; `required` folded in (presence means "not undefined", as in Ajv)
    const props = kws.includes('properties') ? n.properties : [];
    for (const [name, sub] of props) {
      const trivial = this.ir.alwaysValid(sub);
      if (trivial && !required.has(name)) continue;
      const x = this.v('x');
      out.push(`${ind}const ${x} = ${prop(v, name)};`);
      if (required.has(name)) out.push(`${ind}if (${x} === undefined) ${fail}`);
      if (trivial) continue;
      const body: string[] = [];
      this.node(sub, x, fail, body, required.has(name) ? ind : `${ind}  `);
      if (!body.length) continue;
      if (required.has(name)) out.push(...body);
      else out.push(`${ind}if (${x} !== undefined) {`, ...body, `${ind}}`);
    }
    for (const name of required) if (!props.some(([p]) => p === name)) out.push(`${ind}if (${prop(v, name)} === undefined) ${fail}`);
    if (kws.includes('patternProperties'))
      for (const [source, sub] of n.patternProperties ?? []) {
        if (this.ir.alwaysValid(sub)) continue;
        const k = this.v('k');
        const x = this.v('x');
        out.push(`${ind}for (const ${k} in ${v}) {`, `${ind}  if (!${this.pattern(source)}.test(${k})) continue;`, `${ind}  const ${x} = ${v}[${k}];`);
        this.node(sub, x, fail, out, `${ind}  `);
        out.push(`${ind}}`);
      }
    if (kws.includes('discriminator')) this.discriminator(n, v, fail, out, ind);
    if (kws.includes('propertyNames') && !this.ir.alwaysValid(n.propertyNames as number)) {
      const k = this.v('k');
      out.push(`${ind}for (const ${k} in ${v}) {`);
      this.node(n.propertyNames as number, k, fail, out, `${ind}  `);
      out.push(`${ind}}`);
    }
    if (kws.includes('additionalProperties')) this.additional(n, v, fail, out, ind);
  }

  private discriminator(n: IrNode, v: string, fail: string, out: string[], ind: string): void {
    const { tag, mapping } = n.discriminator as NonNullable<IrNode['discriminator']>;
    const t = this.v('t');
    out.push(`${ind}const ${t} = ${prop(v, tag)};`, `${ind}if (typeof ${t} !== "string") ${fail}`);
    mapping.forEach(([value, i], k) => {
      out.push(`${ind}${k ? '} else ' : ''}if (${t} === ${lit(value)}) {`);
      this.node((n.oneOf as number[])[i] as number, v, fail, out, `${ind}  `);
    });
    out.push(`${ind}} else ${fail}`);
  }

  private additional(n: IrNode, v: string, fail: string, out: string[], ind: string): void {
    const ap = n.additionalProperties as number;
    if (this.ir.alwaysValid(ap)) return;
    const names = n.properties.map(([p]) => p);
    const k = this.v('k');
    const named =
      names.length === 0 ? []
      : names.length <= KEY_CHAIN_MAX ? names.map((p) => `${k} === ${lit(p)}`)
      : [`${this.constant('P', `/* @__PURE__ */ new Set(${lit(names)})`)}.has(${k})`];
    // A key matching a patternProperties pattern is not additional either.
    const matched = (n.patternProperties ?? []).map(([source]) => `${this.pattern(source)}.test(${k})`);
    const known = [...named, ...matched].join(' || ') || 'false';
    const isFalse = (this.ir.nodes[ap] as IrNode).bool === false;
    if (isFalse) {
      out.push(`${ind}for (const ${k} in ${v}) if (!(${known})) ${fail}`);
      return;
    }
    const x = this.v('x');
    out.push(`${ind}for (const ${k} in ${v}) {`, `${ind}  if (${known}) continue;`, `${ind}  const ${x} = ${v}[${k}];`);
    this.node(ap, x, fail, out, `${ind}  `);
    out.push(`${ind}}`);
  }
}
