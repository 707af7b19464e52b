import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './env';
import type { RecordedRequest } from './vendor-fake';

/** Where ../shared/vendor-apis/<file> is (beside the checkout or a folder of worktrees, or under SWITCHBOARD_SHARED_DIR). */
export function vendorSpecPath(file: string): string {
  const rel = path.join('shared', 'vendor-apis', file);
  if (process.env.SWITCHBOARD_SHARED_DIR) return path.join(process.env.SWITCHBOARD_SHARED_DIR, 'vendor-apis', file);
  for (let dir = path.dirname(repoRoot); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, rel))) return path.join(dir, rel);
    if (dir === path.dirname(dir)) return path.resolve(repoRoot, '..', rel);
  }
}

/** lenient: for descriptions INDEX.md calls flawed (Slack, Notion): unknown body fields pass, and a string-typed field may hold JSON. */
export interface VendorSpecOptions {
  lenient?: boolean;
}

interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  validate?: ValidateFunction;
}

interface Operation {
  method: string;
  template: string;
  regex: RegExp;
  pathNames: string[];
  params: Param[];
  bodyRequired: boolean;
  /** By media type (without parameters). */
  bodies: Map<string, ValidateFunction>;
}

const PERMISSIVE_FORMATS = [
  'int32',
  'int64',
  'uint32',
  'uint64',
  'double',
  'float',
  'byte',
  'binary',
  'password',
  'json',
  'google-datetime',
  'google-duration',
  'google-fieldmask',
  'html',
  'unix-time',
  'decimal',
];

/** coerce: for query, path, header and form values, which arrive as text. */
function newAjv(draft2020: boolean, coerce: boolean): Ajv {
  const opts = { allErrors: true, strict: false, validateSchema: false, coerceTypes: coerce, logger: false as const };
  const ajv = draft2020 ? new Ajv2020(opts) : new Ajv(opts);
  addFormats(ajv);
  for (const f of PERMISSIVE_FORMATS) ajv.addFormat(f, true);
  return ajv;
}

function templateRegex(template: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const body = template
    .split(/(\{\+?[^}]+\})/)
    .map((part) => {
      const m = /^\{(\+?)([^}]+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(m[2]!);
      return m[1] ? '(.+)' : '([^/]+)';
    })
    .join('');
  // Any base path may precede the template (servers, basePath or a fake's prefix).
  return { regex: new RegExp(`^(?:/.*)?${body}$`), names };
}

/** Adds additionalProperties:false to plain object schemas (strict mode), leaving composed ones alone. */
function tighten(node: any, composed = false): void {
  if (Array.isArray(node)) return node.forEach((n) => tighten(n, composed));
  if (!node || typeof node !== 'object') return;
  const isComposition = ['allOf', 'anyOf', 'oneOf'].some((k) => k in node);
  if (!composed && !isComposition && node.properties && node.additionalProperties === undefined && !node.$ref) node.additionalProperties = false;
  for (const [k, v] of Object.entries(node)) tighten(v, k === 'allOf' || k === 'anyOf' || k === 'oneOf');
}

/** Names of components reached from allOf/anyOf/oneOf members: they must stay open. */
function composedRefs(node: any, inside = false, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => composedRefs(n, inside, out));
  else if (node && typeof node === 'object') {
    if (inside && typeof node.$ref === 'string') out.add(node.$ref);
    for (const [k, v] of Object.entries(node)) composedRefs(v, k === 'allOf' || k === 'anyOf' || k === 'oneOf', out);
  }
  return out;
}

/** OpenAPI 3.0's `nullable: true` as JSON Schema (ajv refuses it without a sibling type). */
function nullableToTypes(node: any): any {
  if (Array.isArray(node)) return node.map(nullableToTypes);
  if (!node || typeof node !== 'object') return node;
  const out: any = {};
  for (const [k, v] of Object.entries(node)) out[k] = nullableToTypes(v);
  if (!('nullable' in out)) return out;
  const { nullable, ...rest } = out;
  if (nullable !== true) return rest;
  if (typeof rest.type === 'string') return { ...rest, type: [rest.type, 'null'], ...(rest.enum ? { enum: [...rest.enum, null] } : {}) };
  return { anyOf: [rest, { type: 'null' }] };
}

function pointer(...parts: string[]): string {
  return parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

function openapiOperations(spec: any, strict: boolean): Operation[] {
  const swagger = typeof spec.swagger === 'string';
  const draft2020 = !swagger && String(spec.openapi).startsWith('3.1');
  const ajv = newAjv(draft2020, true);
  const ajvJson = newAjv(draft2020, false);
  const doc = swagger ? structuredClone(spec) : nullableToTypes(structuredClone(spec));
  if (strict) {
    const open = composedRefs(doc);
    const pools = swagger ? { '#/definitions/': doc.definitions ?? {} } : { '#/components/schemas/': doc.components?.schemas ?? {} };
    for (const [prefix, pool] of Object.entries(pools)) {
      for (const [name, schema] of Object.entries(pool as Record<string, any>)) if (!open.has(prefix + name)) tighten(schema);
    }
    tighten(doc.paths);
  }
  ajv.addSchema(doc, 'spec');
  ajvJson.addSchema(doc, 'spec');
  const compileAt = (ptr: string, coerce = true) => (coerce ? ajv : ajvJson).compile({ $ref: `spec#/${ptr}` });
  const isForm = (type: string) => type.includes('form');
  const ops: Operation[] = [];
  const base = swagger ? (doc.basePath ?? '') : new URL(doc.servers?.[0]?.url ?? 'http://x/', 'http://x').pathname.replace(/\/$/, '');
  for (const [p, item] of Object.entries(doc.paths as Record<string, any>)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method];
      if (!op) continue;
      const { regex, names } = templateRegex(`${base}${p}`.replace(/\/\//g, '/'));
      // Each parameter with the JSON pointer of its definition (so its schema's $refs resolve inside the spec).
      const located = [
        ...(item.parameters ?? []).map((prm: any, i: number) => [prm, pointer('paths', p, 'parameters', String(i))] as const),
        ...(op.parameters ?? []).map((prm: any, i: number) => [prm, pointer('paths', p, method, 'parameters', String(i))] as const),
      ].map(([prm, where]) => (prm.$ref ? [resolveRef(doc, prm.$ref), prm.$ref.replace(/^#\//, '')] : [prm, where]) as [any, string]);
      const params: Param[] = [];
      const bodies = new Map<string, ValidateFunction>();
      let bodyRequired = false;
      const form: any = { type: 'object', properties: {}, required: [] as string[], ...(strict ? { additionalProperties: false } : {}) };
      for (const [prm, where] of located) {
        if (prm.in === 'body') {
          bodyRequired = !!prm.required;
          for (const type of op.consumes ?? doc.consumes ?? ['application/json']) bodies.set(type, compileAt(`${where}/schema`, isForm(type)));
        } else if (prm.in === 'formData') {
          const { name, in: _in, required, description: _d, ...schema } = prm;
          form.properties[name] = schema;
          if (required) form.required.push(name);
        } else if (prm.in === 'path' || prm.in === 'query' || prm.in === 'header') {
          // Swagger 2 keeps the schema keywords on the parameter itself.
          const { name: _n, in: _i, required: _r, description: _d, ...inline } = prm;
          params.push({
            name: prm.name,
            in: prm.in,
            required: !!prm.required || prm.in === 'path',
            validate: prm.schema ? compileAt(`${where}/schema`) : ajv.compile(inline),
          });
        }
      }
      if (Object.keys(form.properties).length) {
        bodyRequired = form.required.length > 0;
        for (const type of op.consumes ?? doc.consumes ?? ['application/x-www-form-urlencoded']) bodies.set(type, (isForm(type) ? ajv : ajvJson).compile(form));
      }
      if (op.requestBody) {
        const rb = op.requestBody.$ref ? resolveRef(doc, op.requestBody.$ref) : op.requestBody;
        const at = op.requestBody.$ref ? op.requestBody.$ref.replace(/^#\//, '') : pointer('paths', p, method, 'requestBody');
        bodyRequired = !!rb.required;
        for (const type of Object.keys(rb.content ?? {})) {
          if (rb.content[type].schema) bodies.set(type, compileAt(`${at}/${pointer('content', type, 'schema')}`, isForm(type)));
        }
      }
      ops.push({ method: method.toUpperCase(), template: `${base}${p}`, regex, pathNames: names, params, bodyRequired, bodies });
    }
  }
  return ops;
}

function resolveRef(doc: any, ref: string): any {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((at, part) => at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

/** Discovery schemas as JSON Schema: `$ref: "Name"` → definitions, `any` untyped, numeric strings as numbers. */
function fromDiscovery(node: any): any {
  if (Array.isArray(node)) return node.map(fromDiscovery);
  if (!node || typeof node !== 'object') return node;
  const out: any = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'id' || k === 'description' || k === 'annotations' || k === 'location') continue;
    if (k === '$ref') out.$ref = `#/definitions/${v as string}`;
    else if (k === 'type' && v === 'any') continue;
    else if (k === 'required' && !Array.isArray(v)) continue;
    else if ((k === 'minimum' || k === 'maximum') && typeof v === 'string') out[k] = Number(v);
    else if (k === 'properties' || k === 'parameters') out[k] = Object.fromEntries(Object.entries(v as object).map(([n, s]) => [n, fromDiscovery(s)]));
    else out[k] = fromDiscovery(v);
  }
  return out;
}

function discoveryOperations(spec: any, strict: boolean): Operation[] {
  const ajv = newAjv(false, true);
  const ajvJson = newAjv(false, false);
  const definitions = Object.fromEntries(Object.entries(spec.schemas ?? {}).map(([n, s]) => [n, fromDiscovery(s)]));
  if (strict) for (const s of Object.values(definitions)) tighten(s);
  ajv.addSchema({ definitions }, 'spec');
  ajvJson.addSchema({ definitions }, 'spec');
  const globals = Object.entries(spec.parameters ?? {}).map(([name, p]: [string, any]) => ({
    name,
    in: 'query' as const,
    required: false,
    validate: ajv.compile(fromDiscovery({ ...p, location: undefined })),
  }));
  const ops: Operation[] = [];
  const walk = (resources: any) => {
    for (const res of Object.values(resources ?? {}) as any[]) {
      for (const m of Object.values(res.methods ?? {}) as any[]) {
        const template = `/${spec.servicePath ?? ''}${m.path}`.replace(/\/\//g, '/');
        const { regex, names } = templateRegex(template);
        const params: Param[] = Object.entries(m.parameters ?? {}).map(([name, p]: [string, any]) => ({
          name,
          in: p.location === 'path' ? 'path' : 'query',
          required: !!p.required,
          validate: ajv.compile(fromDiscovery(p)),
        }));
        const bodies = new Map<string, ValidateFunction>();
        if (m.request?.$ref) bodies.set('application/json', ajvJson.compile({ $ref: `spec#/definitions/${m.request.$ref}` }));
        ops.push({ method: m.httpMethod, template, regex, pathNames: names, params: [...params, ...globals], bodyRequired: !!m.request, bodies });
      }
      walk(res.resources);
    }
  };
  walk(spec.resources);
  return ops;
}

function describe(errors: ErrorObject[] | null | undefined, lenient: boolean, data: unknown): string[] {
  return (errors ?? [])
    .filter((e) => {
      if (!lenient) return true;
      if (e.keyword === 'additionalProperties') return false;
      // Flawed descriptions type JSON-carrying fields as strings (Slack blocks, Notion children).
      if (e.keyword === 'type' && (e.params as { type?: string }).type === 'string') {
        const value = e.instancePath
          .split('/')
          .slice(1)
          .reduce<any>((at, k) => at?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], data);
        return !(value && typeof value === 'object');
      }
      return true;
    })
    .map((e) => `${e.instancePath || 'body'} ${e.message} ${JSON.stringify(e.params)}`);
}

/** A validator of recorded requests against one vendor description (OpenAPI 3.0/3.1, Swagger 2.0, Google Discovery). */
export function vendorSpec(file: string, opts: VendorSpecOptions = {}): (req: RecordedRequest) => string[] {
  const specPath = vendorSpecPath(file);
  if (!existsSync(specPath))
    throw new Error(`the vendor description is missing at ${specPath}: request checks need ../shared/vendor-apis/${file} (or SWITCHBOARD_SHARED_DIR)`);
  const spec = JSON.parse(readFileSync(specPath, 'utf8'));
  const lenient = !!opts.lenient;
  const ops = spec.discoveryVersion ? discoveryOperations(spec, !lenient) : openapiOperations(spec, !lenient);

  return (req) => {
    const op = ops.find((o) => o.method === req.method && o.regex.test(req.path));
    if (!op) return [`${req.method} ${req.path}: no such operation in ${file} (has ${ops.map((o) => `${o.method} ${o.template}`).join(', ')})`];
    const problems: string[] = [];
    const match = op.regex.exec(req.path)!;
    const values = new Map(op.pathNames.map((n, i) => [n, decodeURIComponent(match[i + 1]!)]));
    const known = new Set(op.params.filter((p) => p.in === 'query').map((p) => p.name));
    for (const p of op.params) {
      let value: unknown;
      if (p.in === 'path') value = values.get(p.name);
      else if (p.in === 'query') value = req.query[p.name];
      else value = req.headers[p.name.toLowerCase()] ?? (lenient && p.name === 'token' ? req.headers.authorization : undefined);
      if (value === undefined) {
        if (p.required) problems.push(`${p.in} parameter ${p.name} is required`);
        continue;
      }
      const holder = { v: value };
      if (p.validate && !p.validate(holder.v)) problems.push(`${p.in} parameter ${p.name}: ${describe(p.validate.errors, lenient, value).join(', ')}`);
    }
    if (!lenient) for (const name of Object.keys(req.query)) if (!known.has(name)) problems.push(`query parameter ${name} is not defined`);
    const type = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    if (req.rawBody === '') {
      if (op.bodyRequired) problems.push('a request body is required');
      return problems;
    }
    const validate = type ? op.bodies.get(type) : undefined;
    if (!validate) return [...problems, `content-type ${type ?? '(none)'} is not accepted (${[...op.bodies.keys()].join(', ')})`];
    const data = structuredClone(req.body);
    if (!validate(data)) problems.push(...describe(validate.errors, lenient, req.body));
    return problems;
  };
}
