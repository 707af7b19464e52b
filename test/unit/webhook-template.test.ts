import { renderTemplate } from '../../src/webhooks/webhook';

const vars = { lead_id: 'l1', lead: { first_name: 'Ada', tags: ['a', 'b'], custom_fields: { plan: 'pro' } } };

describe('journey webhook templates', () => {
  it.each([
    'constructor',
    '__proto__',
    'toString',
    'hasOwnProperty',
    'lead.constructor',
    'lead.constructor.name',
    'lead.__proto__',
    'lead.tags.map',
    'lead_id.length',
    'lead.first_name.constructor',
  ])('read own properties only: {{%s}} renders nothing', (path) => {
    expect(renderTemplate(`{{${path}}}`, vars)).toBeNull();
    expect(renderTemplate(`x{{${path}}}y`, vars)).toBe('xy');
  });
});
