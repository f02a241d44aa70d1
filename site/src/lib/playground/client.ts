/**
 * The validator in the browser (`<wopkit-validator>`: the playground page and every schema page's "Try it" box).
 * When the box first comes into view it fetches its schema file's playground data (model.ts) and imports the one
 * generated validator module that type needs — Vite splits every module of generated/validators/by-type/ into a
 * chunk of its own, loaded on demand — then validates the editor's text on every change: valid, the failures (JSON
 * pointer, keyword, message, each marked at its line in the editor), or the parse error with its line and column.
 * The document travels in the permalink's fragment, never to a server.
 */
import { checkText, type PayloadDispatch, type ValidatorFn, type Verdict } from './check.ts';
import { backdropHtml, failureLine, lineOf } from './editor.ts';
import type { PlaygroundFile, PlaygroundType, ValidatorRef } from './model.ts';
import { decodePermalink, encodePermalink } from './permalink.ts';
import { pointerOffsets } from '../../../../generator/json-locate.ts';

const MODULES = import.meta.glob<Record<string, unknown>>('../../../../generated/validators/by-type/*.js');

async function loadValidator(ref: ValidatorRef): Promise<ValidatorFn> {
  const load = MODULES[`../../../../generated/validators/by-type/${ref.module}.js`];
  if (load === undefined) throw new Error(`no generated validator module ${ref.module}.js`);
  const fn = (await load())[ref.name];
  if (typeof fn !== 'function') throw new Error(`${ref.module}.js does not export ${ref.name}`);
  return fn as ValidatorFn;
}

const files = new Map<string, Promise<PlaygroundFile>>();
function loadFile(url: string): Promise<PlaygroundFile> {
  let f = files.get(url);
  if (f === undefined) {
    f = fetch(url).then((r) => {
      if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
      return r.json() as Promise<PlaygroundFile>;
    });
    files.set(url, f);
  }
  return f;
}

const pretty = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;
const el = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
};

class WopkitValidator extends HTMLElement {
  #type: PlaygroundType | undefined;
  #validate: ValidatorFn | undefined;
  #dispatch: PayloadDispatch | undefined;
  #timer: number | undefined;
  #started = false;

  get #input(): HTMLTextAreaElement { return this.querySelector('.pg-input')!; }
  get #backdrop(): HTMLElement { return this.querySelector('.pg-backdrop')!; }
  get #typeSelect(): HTMLSelectElement { return this.querySelector('.pg-type')!; }
  get #exampleSelect(): HTMLSelectElement { return this.querySelector('.pg-example')!; }
  get #result(): HTMLElement { return this.querySelector('.pg-result')!; }
  get #permalink(): HTMLAnchorElement { return this.querySelector('.pg-permalink')!; }
  get #isPage(): boolean { return this.dataset.mode === 'page'; }

  connectedCallback(): void {
    this.querySelector('.pg-needs-js')?.remove();
    this.querySelector<HTMLElement>('.pg-ui')!.hidden = false;
    const start = () => {
      if (this.#started) return;
      this.#started = true;
      void this.#start();
    };
    if (this.#isPage || !('IntersectionObserver' in window)) return start();
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        io.disconnect();
        start();
      }
    }, { rootMargin: '200px' });
    io.observe(this);
    this.addEventListener('focusin', start, { once: true });
  }

  async #start(): Promise<void> {
    const link = this.#isPage ? decodePermalink(location.hash) : undefined;
    if (link !== undefined && [...this.#typeSelect.options].some((o) => o.value === link.type)) this.#typeSelect.value = link.type;
    this.#typeSelect.addEventListener('change', () => void this.#selectType(undefined));
    this.#exampleSelect.addEventListener('change', () => this.#useExample());
    this.#input.addEventListener('input', () => this.#schedule());
    this.#input.addEventListener('scroll', () => {
      this.#backdrop.scrollTop = this.#input.scrollTop;
      this.#backdrop.scrollLeft = this.#input.scrollLeft;
    });
    this.#result.addEventListener('click', (e) => {
      const button = (e.target as HTMLElement).closest<HTMLButtonElement>('button[data-line]');
      if (button !== null) this.#showLine(Number(button.dataset.line));
    });
    await this.#selectType(link?.doc);
  }

  /** Load the selected type (its file's data and its validator); start from `doc` or from its first example. */
  async #selectType(doc: string | undefined): Promise<void> {
    const option = this.#typeSelect.selectedOptions[0]!;
    this.setAttribute('aria-busy', 'true');
    this.#result.replaceChildren(el('p', {}, `Loading the validator of ${option.value}…`));
    try {
      const file = await loadFile(option.dataset.src!);
      const type = file.types.find((t) => t.title === option.value);
      if (type === undefined) throw new Error(`${option.value} is not in ${option.dataset.src}`);
      const validate = await loadValidator(type.validator);
      const payloads = type.payloads === undefined ? undefined : new Map(await Promise.all(Object.entries(type.payloads).map(async ([k, ref]) => [k, await loadValidator(ref)] as const)));
      this.#type = type;
      this.#validate = validate;
      this.#dispatch = payloads === undefined ? undefined : { payloadOf: (t) => payloads.get(t) };
      this.#fillExamples(type);
      this.#fillRules(type);
      this.#input.value = doc ?? pretty(type.examples.valid[0]?.instance ?? type.examples.invalid[0]?.instance ?? {});
      this.#exampleSelect.value = doc === undefined ? '0' : '';
      this.#run();
    } catch (e) {
      this.#result.replaceChildren(el('p', { className: 'pg-error' }, `Could not load the validator: ${(e as Error).message}`));
    } finally {
      this.removeAttribute('aria-busy');
    }
  }

  #fillExamples(t: PlaygroundType): void {
    const options = [
      ...t.examples.valid.map((e) => ({ label: `valid: ${e.name}`, instance: e.instance })),
      ...t.examples.invalid.map((e) => ({ label: `invalid: ${e.name} (fails ${e.expect.keyword} at ${e.expect.instancePath || '/'})`, instance: e.instance })),
    ];
    this.#exampleSelect.replaceChildren(
      el('option', { value: '', textContent: options.length > 0 ? '(your own document)' : '(no corpus examples)' }),
      ...options.map((o, i) => el('option', { value: String(i), textContent: o.label })),
    );
    this.#exampleSelect.dataset.instances = JSON.stringify(options.map((o) => o.instance));
  }

  #fillRules(t: PlaygroundType): void {
    const box = this.querySelector<HTMLDetailsElement>('.pg-rules')!;
    box.hidden = t.rules.length === 0;
    box.querySelector('summary')!.textContent = `Not checked here: ${t.rules.length} runtime ${t.rules.length === 1 ? 'rule' : 'rules'} JSON Schema cannot express`;
    box.querySelector('ul')!.replaceChildren(...t.rules.map((r) => el('li', {}, el('strong', {}, r.id), ` (${r.of}): ${r.text} `, el('em', {}, `(${r.source})`))));
  }

  #useExample(): void {
    const i = this.#exampleSelect.value;
    if (i === '') return;
    const instances = JSON.parse(this.#exampleSelect.dataset.instances ?? '[]') as unknown[];
    this.#input.value = pretty(instances[Number(i)]);
    this.#run();
  }

  #schedule(): void {
    this.#exampleSelect.value = '';
    window.clearTimeout(this.#timer);
    this.#timer = window.setTimeout(() => this.#run(), 120);
  }

  /** Validate the editor's text now and show the verdict. */
  #run(): void {
    if (this.#validate === undefined || this.#type === undefined) return;
    const text = this.#input.value;
    const verdict = checkText(text, this.#validate, this.#dispatch);
    this.#backdrop.innerHTML = backdropHtml(text, verdict);
    this.#showVerdict(text, verdict);
    const link = encodePermalink({ type: this.#type.title, doc: text });
    this.#permalink.href = `/playground/${link}`;
    if (this.#isPage) history.replaceState(null, '', link);
    this.dataset.verdict = verdict.kind;
  }

  #showVerdict(text: string, v: Verdict): void {
    const t = this.#type!;
    if (v.kind === 'valid') {
      this.#result.replaceChildren(el('p', { className: 'pg-ok' }, el('strong', {}, 'Valid'), ` ${t.title}, checked by ${t.validator.name}.`));
      return;
    }
    if (v.kind === 'malformed') {
      const at = v.offset === undefined ? undefined : lineOf(text, v.offset);
      this.#result.replaceChildren(el('p', { className: 'pg-bad' }, el('strong', {}, 'Not JSON: '), v.message, ...(at === undefined ? [] : [' ', this.#lineButton(at)])));
      return;
    }
    const offsets = pointerOffsets(text);
    const items = v.failures.map((f) => {
      const line = failureLine(text, offsets, f);
      return el('li', { className: 'pg-failure' }, el('code', { className: 'pg-pointer' }, f.instancePath || '/'), ' ', el('span', { className: 'pg-kw' }, f.keyword), ' ', el('span', { className: 'pg-msg' }, f.message), ' ', this.#lineButton(line));
    });
    this.#result.replaceChildren(el('p', { className: 'pg-bad' }, el('strong', {}, 'Invalid'), ` ${t.title}: ${v.failures.length} ${v.failures.length === 1 ? 'failure' : 'failures'}.`), el('ol', { className: 'pg-failures' }, ...items));
  }

  #lineButton(line: number): HTMLButtonElement {
    const b = el('button', { type: 'button', className: 'pg-goto', textContent: `line ${line + 1}`, title: 'Select this line in the editor' });
    b.dataset.line = String(line);
    return b;
  }

  /** Select a line of the editor (0-based) and scroll it into view. */
  #showLine(line: number): void {
    const text = this.#input.value;
    let start = 0;
    for (let i = 0; i < line; i++) start = text.indexOf('\n', start) + 1;
    const end = text.indexOf('\n', start);
    this.#input.focus();
    this.#input.setSelectionRange(start, end < 0 ? text.length : end);
  }
}

/** Register `<wopkit-validator>` (once). */
export function defineValidatorElement(): void {
  if (customElements.get('wopkit-validator') === undefined) customElements.define('wopkit-validator', WopkitValidator);
}
