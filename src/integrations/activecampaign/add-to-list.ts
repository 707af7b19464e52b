import { z } from 'zod';
import { defineAction } from '../define';
import { acId } from './ids';

const input = z
  .object({
    contact: acId.describe('Contact id'),
    list: acId.describe('List id'),
    status: z.enum(['subscribed', 'unsubscribed']).default('subscribed'),
  })
  .strict();

const output = z.object({ id: z.string() });

/** Subscribes (or unsubscribes) a contact to a list. */
export default defineAction({
  key: 'add_to_list',
  title: 'Subscribe a contact to a list',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.activecampaign.com/reference/update-list-status-for-contact',
  async run(p, { http }) {
    const contactList = { list: p.list, contact: p.contact, status: p.status === 'subscribed' ? 1 : 2 };
    const res = await http.request<{ contactList: { id: string } }>({ method: 'POST', path: '/api/3/contactLists', json: { contactList } });
    return { id: String(res.body.contactList.id) };
  },
});
