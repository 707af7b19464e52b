import Ajv2020 from 'ajv/dist/2020';
import fc from 'fast-check';
import { documentedInput, IDEMPOTENCY_KEY_PATTERN, PHONE_PATTERN, TIME_ZONES } from '../../src/core/documented';
import { buildOpenApi } from '../../src/http/openapi';
import { automationRoutes } from '../../src/automation/http/automation';
import { routes } from '../../src/api/routes';
import { CreateLeadBody } from '../../src/leads/http/lead-schemas';
import { webchatPageRoutes } from '../../src/chat/http/webchat-pages';
import { webchatRoutes } from '../../src/chat/http/webchat';
import { CUSTOM_VALUE_JSON, splitRecord } from '../../src/leads/record';
import { normalizePhone } from '../../src/core/phone';

// The document's patterns promise that every matching value is accepted; these hold the api to that promise.
describe('documented request forms are accepted', () => {
  it('every phone matching the documented pattern is that valid number: with + in any region, without + in +1 regions', () => {
    fc.assert(
      fc.property(fc.stringMatching(new RegExp(PHONE_PATTERN)), fc.constantFrom('US', 'CA', 'GB', 'DE', 'IN'), (phone, region) => {
        const digits = phone.replace(/^\+/, '');
        expect([phone, region, normalizePhone(`+${digits}`, region)]).toEqual([phone, region, digits]);
        if (region === 'US' || region === 'CA') expect([phone, region, normalizePhone(digits, region)]).toEqual([phone, region, digits]);
      }),
      { numRuns: 2000 },
    );
  });

  // The fuzzer's negative phase appends '*' to a valid phone; libphonenumber used to drop such trailing junk.
  it('a documented phone with junk or an extension around it is rejected, not silently cut', () => {
    expect(['17145551234abc', '19832000000*', '+1 714 555 1234 ext. 5', '#17145551234', '1714555123\u00004'].map((p) => normalizePhone(p, 'US'))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const junk = fc.string({ minLength: 1, maxLength: 3 }).filter((j) => /[^\d\s()./+-]/.test(j));
    fc.assert(
      fc.property(fc.stringMatching(new RegExp(PHONE_PATTERN)), junk, (phone, extra) => {
        expect([phone + extra, normalizePhone(phone + extra, 'US')]).toEqual([phone + extra, undefined]);
      }),
      { numRuns: 500 },
    );
  });

  it('every documented time zone is accepted by the lead schema', () => {
    for (const timezone of TIME_ZONES) expect([timezone, CreateLeadBody.safeParse({ phone: '17145551234', timezone }).success]).toEqual([timezone, true]);
  });

  it('every documented Idempotency-Key survives HTTP (no edge spaces) and is 1–255 printable ASCII', () => {
    const pattern = new RegExp(IDEMPOTENCY_KEY_PATTERN);
    fc.assert(
      fc.property(fc.stringMatching(pattern), (key) => {
        expect([key, key.trim() === key && /^[\x20-\x7e]{1,255}$/.test(key)]).toEqual([key, true]);
      }),
    );
    expect([' a', 'a ', '', 'ä', 'x'.repeat(256)].filter((k) => pattern.test(k))).toEqual([]);
  });

  it('the lead bodies document the phone with that pattern', () => {
    const json = documentedInput(CreateLeadBody) as { properties: { phone: { pattern: string } } };
    expect(json.properties.phone.pattern).toBe(PHONE_PATTERN);
  });
});

describe('custom field values: the document states exactly what the api stores', () => {
  // Values with NUL characters in strings and keys, and nesting past the limit, both ways round.
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 6, stringUnit: 'binary' }),
    fc.jsonValue({ maxDepth: 6 }).map((v) => [[[[[v]]]]]),
    fc.constantFrom('a\u0000b', { 'k\u0000': 1 }, [[[[{}]]]], [[[[[]]]]], [[[[[1]]]]]),
  );
  const ajv = new Ajv2020({ strict: false });
  const documented = ajv.compile(CUSTOM_VALUE_JSON);

  it('a value passes the documented schema exactly when the api accepts it (defined or ignored field)', () => {
    fc.assert(
      fc.property(value, fc.boolean(), (v, defined) => {
        let accepted = true;
        try {
          splitRecord({ plan: v }, new Set(defined ? ['plan'] : []));
        } catch {
          accepted = false;
        }
        expect([v, documented(v)]).toEqual([v, accepted]);
      }),
      { numRuns: 500 },
    );
  });
});

describe('every documented phone field carries the accepted-number pattern', () => {
  // A phone documented as a bare string lets the fuzzer send "0" as schema-valid, which the api rightly refuses (400):
  // documentAs is keyed by schema instance, and describe() clones, so a field described after documentAs lost it once.
  it('phone and from fields of every request body and query', () => {
    const doc = buildOpenApi([...routes, ...automationRoutes, ...webchatRoutes, ...webchatPageRoutes], {
      base_url: 'http://127.0.0.1',
      integrations_url: 'http://127.0.0.1',
      hooks_url: 'http://127.0.0.1',
      wss_url: 'ws://127.0.0.1',
    }) as {
      paths: Record<
        string,
        Record<string, { parameters?: { name: string; schema: Record<string, unknown> }[]; requestBody?: { content: Record<string, { schema: unknown }> } }>
      >;
    };
    const found: [string, unknown][] = [];
    const walk = (where: string, node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      const props = (node as { properties?: Record<string, Record<string, unknown>> }).properties;
      for (const [name, schema] of Object.entries(props ?? {})) {
        if (['phone', 'number', 'transfer_number'].includes(name) || (name === 'from' && where.startsWith('POST /v1/agent')))
          found.push([`${where} ${name}`, schema.pattern ?? (schema.anyOf as Record<string, unknown>[] | undefined)?.find((s) => s.pattern)?.pattern]);
      }
      for (const value of Object.values(node)) walk(where, value);
    };
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const where = `${method.toUpperCase()} ${path}`;
        for (const p of op.parameters ?? [])
          if (p.name === 'phone') found.push([`${where} ?phone`, p.schema.pattern ?? (p.schema.items as Record<string, unknown> | undefined)?.pattern]);
        walk(where, op.requestBody);
      }
    }
    expect(found.map(([where]) => where)).toEqual(expect.arrayContaining(['POST /v1/agent phone', 'POST /v1/agent from', 'GET /v1/leads ?phone']));
    expect(found.filter(([, pattern]) => pattern !== PHONE_PATTERN)).toEqual([]);
  });
});
