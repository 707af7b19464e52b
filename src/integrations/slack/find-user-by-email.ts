import { z } from 'zod';
import { defineAction } from '../define';

const input = z.object({ email: z.email().describe('The email address of a workspace member') }).strict();

const output = z.object({ id: z.string(), name: z.string(), real_name: z.string().nullable(), tz: z.string().nullable(), is_bot: z.boolean() });

interface SlackUser {
  id: string;
  name: string;
  real_name?: string;
  tz?: string;
  is_bot?: boolean;
}

/** Finds a workspace member by email (users.lookupByEmail); no member is Slack's `users_not_found`. */
export default defineAction({
  key: 'find_user_by_email',
  title: 'Look up a user by email',
  input,
  output,
  idempotent: true,
  docs: 'https://api.slack.com/methods/users.lookupByEmail',
  async run(p, { http }) {
    const res = await http.request<{ user: SlackUser }>({ method: 'GET', path: '/users.lookupByEmail', query: { email: p.email } });
    const u = res.body.user;
    return { id: u.id, name: u.name, real_name: u.real_name ?? null, tz: u.tz ?? null, is_bot: u.is_bot ?? false };
  },
});
