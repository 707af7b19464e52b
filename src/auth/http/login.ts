import { z } from 'zod';
import { verifyLogin } from '../password-login';
import { unavailable } from '../../http/api-error';
import { defineRoute } from '../../http/route';

const Login = z.object({
  email: z.email().max(254).describe("The user's email (case-insensitive)"),
  password: z.string().min(1).max(1024).describe("The user's password"),
});

const Token = z.object({
  token: z.string().describe('A JWT (HS256): send it as Authorization: Bearer <token> to the automation endpoint'),
  expires_at: z.iso.datetime().describe('When the token stops being accepted'),
});

/** POST /api/auth/login: a user JWT for the automation endpoint from an email and password. */
export const login = defineRoute({
  method: 'post',
  path: '/api/auth/login',
  tag: 'Automations',
  summary: 'Log in: a user JWT for the automation endpoint',
  description:
    "Exchanges a user's email and password for a JWT (HS256, `sub` = the user id, `iss`/`aud` as configured) to send as " +
    '`Authorization: Bearer <token>` to `POST /api/automation/execute`. Wrong credentials are a 401 that does not say ' +
    'which part was wrong. Attempts are limited per client address, and failed attempts per email from one client address and, ' +
    'with a higher ceiling, per email from all addresses (429 with Retry-After): guesses from one address do not lock the user out.',
  auth: 'none',
  body: Login,
  example: { body: { email: 'ops@example.com', password: 'correct horse battery staple' } },
  responses: {
    200: { description: 'The token', schema: Token },
    401: { description: 'Unknown email or wrong password' },
  },
  async handler({ body, ctx, deps }) {
    const user = await verifyLogin(deps, ctx.ip, body.email, body.password);
    if (!deps.auth) throw unavailable('Login is not available on this process');
    const { token, expiresAt } = await deps.auth.jwt.issue(user.id);
    return { token, expires_at: expiresAt.toISOString() };
  },
});
