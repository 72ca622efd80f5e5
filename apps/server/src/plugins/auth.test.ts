import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { InvalidTokenError, type TokenVerifier } from '../auth/token-verifier.js';
import { registerAuth } from './auth.js';
import { registerErrorHandling } from './errors.js';

// The verifier is replaced by a table of tokens: this file tests the route-level rules, while
// app.test.ts covers real signatures from the built-in provider.
const verifier: TokenVerifier = {
  async verify(token) {
    const roles = { user: ['USER'], admin: ['USER', 'ADMIN'], guest: [] }[token];
    if (!roles) throw new InvalidTokenError('The access token is not valid.');
    return { subject: token, sessionId: null, username: `${token}@x`, name: null, email: null, realmRoles: roles, clientRoles: {}, roles };
  },
};

async function app() {
  const a = Fastify();
  registerErrorHandling(a);
  registerAuth(a, { verifier });
  a.get('/open', { config: { public: true } }, async () => 'ok');
  a.get('/any', { config: { roles: [] } }, async (req) => req.principal.username);
  a.get('/admin', { config: { roles: ['ADMIN'] } }, async () => 'admin');
  return a;
}

describe('auth hook', () => {
  it('lets public routes through without a token', async () => {
    expect((await (await app()).inject('/open')).statusCode).toBe(200);
  });

  it('needs a token everywhere else', async () => {
    const res = await (await app()).inject('/any');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHENTICATED');
    const wrongScheme = await (await app()).inject({ url: '/any', headers: { authorization: 'Basic user' } });
    expect(wrongScheme.statusCode).toBe(401);
  });

  it('answers 403 when a declared realm role is missing', async () => {
    const a = await app();
    for (const token of ['guest', 'user']) {
      const res = await a.inject({ url: '/admin', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'FORBIDDEN', message: 'You do not have the necessary authorization: role ADMIN is required.' });
    }
    const ok = await a.inject({ url: '/admin', headers: { authorization: 'Bearer admin' } });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses to register a route that says neither its roles nor that it is public', async () => {
    const a = Fastify();
    registerAuth(a, { verifier });
    expect(() => a.get('/forgotten', async () => 'open to anyone signed in')).toThrow(
      'GET /forgotten declares neither the realm roles it needs (config.roles) nor config.public.',
    );
  });
});
