import fc from 'fast-check';
import { DefineCustomFieldsBody, TagBody } from '../../src/leads/http/lead-schemas';
import { JourneyDefinitionError, parseJourneySteps } from '../../src/journeys/schema';
import { STANDARD_FIELDS } from '../../src/leads/db/leads';
import { RESERVED_FIELD_KEYS } from '../../src/leads/rules';

const LEAD = '6f1c7a52-8a0e-4a8e-9a53-1f8f3d0c2b11';

/** Whether a journey made of these steps validates. */
function journeyAccepts(steps: unknown[]): boolean {
  try {
    parseJourneySteps(steps);
    return true;
  } catch (err) {
    if (err instanceof JourneyDefinitionError) return false;
    throw err;
  }
}

// Names near the rules' edges: lengths 64/65/100, case, digits first, spaces, empty, non-ASCII.
const edgeNames = ['a', 'x'.repeat(64), 'x'.repeat(65), 't'.repeat(100), 'High_Priority', 'Company', 'company', 'plan_2', '2plan', 'two words', '', 'né', '_x'];
const names = fc.oneof(fc.constantFrom(...edgeNames), fc.string({ unit: fc.constantFrom('a', 'B', '1', '_', ' ', '-', 'é'), maxLength: 70 }));

describe('one rule per name, shared by the REST API and journeys', () => {
  it('a journey tags, untags and tests exactly the tags PATCH and DELETE /v1/lead/tag accept', () => {
    fc.assert(
      fc.property(names, (tag) => {
        const rest = TagBody.safeParse({ lead_id: LEAD, tag }).success;
        expect(journeyAccepts([{ id: 't', kind: 'tag', tag }])).toBe(rest);
        expect(journeyAccepts([{ id: 'u', kind: 'untag', tag }])).toBe(rest);
        expect(
          journeyAccepts([
            { id: 'b', kind: 'branch', cases: [{ when: { has_tag: tag }, goto: 'e' }], else: 'e' },
            { id: 'e', kind: 'end' },
          ]),
        ).toBe(rest);
      }),
      { examples: edgeNames.map((n) => [n]) },
    );
  });

  it('update_lead and branch conditions name only fields a lead can have: keys a custom field may take, or standard and reserved names', () => {
    fc.assert(
      fc.property(names, (field) => {
        const leadField = DefineCustomFieldsBody.safeParse({ fields: [{ key: field }] }).success || RESERVED_FIELD_KEYS.has(field);
        const settable = leadField && field !== 'phone' && field !== 'tags';
        expect(journeyAccepts([{ id: 'f', kind: 'update_lead', fields: { [field]: 'v' } }])).toBe(settable);
        const condition = [
          { id: 'b', kind: 'branch', cases: [{ when: { field, exists: true }, goto: 'e' }], else: 'e' },
          { id: 'e', kind: 'end' },
        ];
        expect(journeyAccepts(condition)).toBe(leadField);
      }),
      { examples: edgeNames.map((n) => [n]) },
    );
  });

  it('the standard fields are lead fields by that rule too', () => {
    for (const field of STANDARD_FIELDS) expect(journeyAccepts([{ id: 'f', kind: 'update_lead', fields: { [field]: null } }])).toBe(true);
  });
});
