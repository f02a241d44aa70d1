/**
 * The other-language outputs compile and round-trip every valid example of their top-level types: Python
 * (dataclasses, Debian python3 + python3-dateutil) and Go (Debian golang-go). Comparison rule, documented on the
 * outputs: after normalising date-times to instants, the written-back JSON must be contained in the input (no value
 * changed or invented) and must keep every field the top-level definition declares; only undeclared extension
 * fields may be dropped (a documented loss of these targets).
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Top { name: string; uri: string; target: string }
const tops = JSON.parse(readFileSync('generated/other-languages/top-level-types.json', 'utf8')) as Top[];
const exampleDir = (target: string) => {
  const fam = existsSync(`schemas/openwop/v1/examples/${target}`) ? 'openwop' : 'inquirium';
  return `schemas/${fam}/v1/examples/${target}/valid`;
};
const cases = tops.flatMap((t) => readdirSync(exampleDir(t.target)).filter((f) => f.endsWith('.json')).map((f) => ({ type: t.name, target: t.target, path: join(exampleDir(t.target), f) })));

/** Declared top-level field names, from the generated site data. */
const index = JSON.parse(readFileSync('generated/site-data/index.json', 'utf8')) as { types: Record<string, { data: string; anchor: string }> };
const declared = (title: string): Set<string> => {
  const t = index.types[title];
  if (t === undefined) return new Set();
  const doc = JSON.parse(readFileSync(`generated/site-data/${t.data}`, 'utf8')) as { definitions: { anchor: string; fields: { name: string }[] }[] };
  return new Set(doc.definitions.find((d) => d.anchor === t.anchor)?.fields.map((f) => f.name) ?? []);
};

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;
const norm = (v: unknown): unknown => (typeof v === 'string' && ISO.test(v) ? Date.parse(v) : v);

/** Problems with `out` as a round trip of `input`: changed or invented values, lost declared fields. */
function compare(input: unknown, out: unknown, path = ''): string[] {
  if (Array.isArray(input)) {
    if (!Array.isArray(out) || out.length !== input.length) return [`${path}: array changed`];
    return input.flatMap((x, i) => compare(x, out[i], `${path}/${i}`));
  }
  if (typeof input === 'object' && input !== null) {
    if (typeof out !== 'object' || out === null || Array.isArray(out)) return [`${path}: object became ${JSON.stringify(out)}`];
    const o = out as Record<string, unknown>;
    const i = input as Record<string, unknown>;
    const problems: string[] = [];
    for (const k of Object.keys(o)) {
      if (!(k in i)) { if (o[k] !== null) problems.push(`${path}/${k}: invented`); continue; }
      problems.push(...compare(i[k], o[k], `${path}/${k}`));
    }
    return problems;
  }
  return norm(input) === norm(out) || (typeof input === 'number' && typeof out === 'number' && Math.abs(input - out) < 1e-9) ? [] : [`${path}: ${JSON.stringify(input)} became ${JSON.stringify(out)}`];
}

function check(results: { type: string; path: string; out?: unknown; error?: string }[]): string[] {
  const problems: string[] = [];
  for (const r of results) {
    if (r.error !== undefined) { problems.push(`${r.path} (${r.type}): ${r.error}`); continue; }
    const input = JSON.parse(readFileSync(r.path, 'utf8')) as Record<string, unknown>;
    problems.push(...compare(input, r.out).map((p) => `${r.path} (${r.type}) ${p}`));
    if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
      for (const k of declared(r.type)) if (k in input && input[k] !== null && !(k in (r.out as Record<string, unknown>))) problems.push(`${r.path} (${r.type}) /${k}: declared field lost`);
    }
  }
  return problems;
}

const have = (cmd: string) => { try { execFileSync('sh', ['-c', `command -v ${cmd}`]); return true; } catch { return false; } };

describe('other-language round trips', () => {
  it(`has top-level types and valid examples to round-trip (${tops.length} types, ${cases.length} examples)`, () => {
    expect(tops.length).toBeGreaterThan(50);
    expect(cases.length).toBeGreaterThan(100);
  });

  it('Python dataclasses: every valid example survives from_dict → to_dict', () => {
    const py = '/usr/bin/python3';
    if (!existsSync(py)) throw new Error('python3 missing: CI installs it (apt-get install -y python3 python3-dateutil)');
    const dir = mkdtempSync(join(tmpdir(), 'wopkit-py-'));
    copyFileSync('generated/other-languages/python/wopkit_types.py', join(dir, 'wopkit_types.py'));
    writeFileSync(join(dir, 'cases.json'), JSON.stringify(cases.map((x) => ({ ...x, path: join(process.cwd(), x.path) }))));
    writeFileSync(join(dir, 'harness.py'), `
import json, sys, wopkit_types as m
fns = {n[:-len('_from_dict')].replace('_', ''): n[:-len('_from_dict')] for n in dir(m) if n.endswith('_from_dict')}
out = []
for c in json.load(open('cases.json')):
    base = fns.get(c['type'].lower())
    try:
        if base is None: raise Exception('no generated function for ' + c['type'])
        v = getattr(m, base + '_from_dict')(json.load(open(c['path'])))
        out.append({'type': c['type'], 'path': c['path'], 'out': getattr(m, base + '_to_dict')(v)})
    except Exception as e:
        out.append({'type': c['type'], 'path': c['path'], 'error': type(e).__name__ + ': ' + str(e)[:200]})
print(json.dumps(out, default=str))
`);
    const stdout = execFileSync(py, ['harness.py'], { cwd: dir, env: { ...process.env, PYTHONPATH: dir }, maxBuffer: 64 * 1024 * 1024, input: '' }).toString();
    const results = (JSON.parse(stdout) as { type: string; path: string; out?: unknown; error?: string }[]).map((x) => ({ ...x, path: x.path.replace(`${process.cwd()}/`, '') }));
    expect(check(results)).toEqual([]);
  }, 120_000);

  it('Go: gofmt, compile, and every valid example survives Unmarshal → Marshal', () => {
    if (!have('go')) throw new Error('go missing: CI installs it (apt-get install -y golang-go)');
    const dir = mkdtempSync(join(tmpdir(), 'wopkit-go-'));
    mkdirSync(join(dir, 'wopkit'));
    copyFileSync('generated/other-languages/go/wopkit/types.go', join(dir, 'wopkit', 'types.go'));
    writeFileSync(join(dir, 'go.mod'), 'module roundtrip\n\ngo 1.19\n');
    // Go spells acronyms its own way (UiPreferences → UIPreferences): map our titles to the generated names.
    const goNames = new Map([...readFileSync('generated/other-languages/go/wopkit/types.go', 'utf8').matchAll(/^func Unmarshal(\w+)\(/gm)].map((m) => [m[1]!.toLowerCase(), m[1]!]));
    const names = [...new Set(cases.map((c) => c.type))];
    const missing = names.filter((n) => !goNames.has(n.toLowerCase()));
    expect(missing, 'types without a generated Unmarshal function').toEqual([]);
    writeFileSync(join(dir, 'main.go'), `package main

import (
	"encoding/json"
	"fmt"
	"os"
	"roundtrip/wopkit"
)

type c struct {
	Type string \`json:"type"\`
	Path string \`json:"path"\`
}
type r struct {
	Type  string          \`json:"type"\`
	Path  string          \`json:"path"\`
	Out   json.RawMessage \`json:"out,omitempty"\`
	Error string          \`json:"error,omitempty"\`
}

func roundTrip(t string, b []byte) ([]byte, error) {
	switch t {
${names.map((n) => `	case "${n}":\n		v, err := wopkit.Unmarshal${goNames.get(n.toLowerCase())}(b)\n		if err != nil {\n			return nil, err\n		}\n		return v.Marshal()`).join('\n')}
	}
	return nil, fmt.Errorf("unknown type %s", t)
}

func main() {
	var cs []c
	raw, _ := os.ReadFile(os.Args[1])
	_ = json.Unmarshal(raw, &cs)
	var out []r
	for _, x := range cs {
		b, _ := os.ReadFile(x.Path)
		o, err := roundTrip(x.Type, b)
		if err != nil {
			out = append(out, r{Type: x.Type, Path: x.Path, Error: err.Error()})
		} else {
			out = append(out, r{Type: x.Type, Path: x.Path, Out: o})
		}
	}
	enc, _ := json.Marshal(out)
	os.Stdout.Write(enc)
}
`);
    writeFileSync(join(dir, 'cases.json'), JSON.stringify(cases.map((x) => ({ ...x, path: join(process.cwd(), x.path) }))));
    execFileSync('gofmt', ['-w', '.'], { cwd: dir });
    const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOCACHE: join(dir, '.cache'), GOPATH: join(dir, '.gopath'), CGO_ENABLED: '0' };
    const stdout = execFileSync('go', ['run', '.', join(dir, 'cases.json')], { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 }).toString();
    const results = (JSON.parse(stdout) as { type: string; path: string; out?: unknown; error?: string }[]).map((x) => ({ ...x, path: x.path.replace(`${process.cwd()}/`, '') }));
    expect(check(results)).toEqual([]);
  }, 240_000);
});
