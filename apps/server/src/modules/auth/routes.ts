// HTTP of sign-in and the account's own calls (spec 7, "User and role").
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changePasswordRequest,
  codeLoginRequest,
  deleteAccountRequest,
  embedCodeResponse,
  embedLoginRequest,
  forgetPasswordRequest,
  loginRequest,
  loginResponse,
  messageSettings,
  registerRequest,
  routeEntry,
  sendMessageRequest,
  sendMessageResponse,
  setMessageRequest,
  updateProfileRequest,
  userInfoResponse,
} from '@genset/protocol';
import { emptyEnvelope, envelope } from '../../lib/envelope.ts';
import { clientInfo } from '../../plugins/auth.ts';
import type { AuthService } from './service.ts';
import type { AccountService } from '../account/service.ts';

export async function authRoutes(app: FastifyInstance, opts: { auth: AuthService; accounts: AccountService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, accounts } = opts;
  const tags = ['account'];

  r.post('/user/login', {
    schema: {
      tags,
      summary: 'Sign in with account and password',
      body: loginRequest,
      response: { 200: envelope(loginResponse) },
    },
    config: { access: { public: true } },
    // the company an address is bound to is read from the request's host (X-Forwarded-Host behind a trusted
    // proxy), never from what the body says
    handler: async (req, reply) =>
      reply.ok(await auth.login({ ...req.body, hostname: req.hostname }, clientInfo(req)), 'success.loggedIn'),
  });

  r.post('/user/codelogin', {
    schema: {
      tags,
      summary: 'Sign in with a one-time code',
      body: codeLoginRequest,
      response: { 200: envelope(loginResponse) },
    },
    config: { access: { public: true } },
    handler: async (req, reply) =>
      reply.ok(await auth.codeLogin({ ...req.body, hostname: req.hostname }, clientInfo(req)), 'success.loggedIn'),
  });

  r.post('/user/embedCode', {
    schema: {
      tags,
      summary:
        'A one-time code that opens an embedded console (iframe=1&code=…) for this account: valid 60 s, ' +
        'exchanged once by /user/embedLogin; the address never carries a session token',
      response: { 200: envelope(embedCodeResponse) },
    },
    config: { access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) => reply.ok(await auth.embedCode(req.session!)),
  });

  r.post('/user/embedLogin', {
    schema: {
      tags,
      summary:
        'Exchanges an embedding code for a session of its own (as /user/login answers); a used, expired or ' +
        'unknown code answers 400 and opens nothing',
      body: embedLoginRequest,
      response: { 200: envelope(loginResponse) },
    },
    config: { access: { public: true } },
    handler: async (req, reply) => reply.ok(await auth.embedLogin(req.body.code, clientInfo(req))),
  });

  r.post('/sendMessage', {
    schema: {
      tags,
      summary: 'Send a one-time code by SMS or e-mail (one per 60 s per number)',
      body: sendMessageRequest,
      response: { 200: envelope(sendMessageResponse) },
    },
    config: { access: { public: true } },
    handler: async (req, reply) => reply.ok(await auth.sendCode(req.body, clientInfo(req)), 'success.codeSent'),
  });

  r.post('/logout', {
    schema: { tags, summary: 'Sign out: revokes this session', response: { 200: emptyEnvelope } },
    config: { access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) => {
      await auth.logout(req.session!, clientInfo(req).ip);
      return reply.ok(null, 'success.loggedOut');
    },
  });

  r.get('/user/info', {
    schema: {
      tags,
      summary: 'The signed-in user, permissions and company',
      response: { 200: envelope(userInfoResponse) },
    },
    config: { access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) => reply.ok(await accounts.info(req.session!.user, req.lang)),
  });

  r.get('/getRoute', {
    schema: { tags, summary: 'Menu tree the user may see', response: { 200: envelope(z.array(routeEntry)) } },
    config: { access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) => reply.ok(await accounts.routes(req.session!.user, req.lang)),
  });

  r.post('/user/password', {
    schema: {
      tags,
      summary: 'Change the password; other sessions are signed out',
      body: changePasswordRequest,
      response: { 200: emptyEnvelope },
    },
    config: { fieldLabels: { password: 'oldPassword' }, access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) => {
      await auth.changePassword(req.session!, req.body, clientInfo(req));
      return reply.ok(null, 'success.passwordChanged');
    },
  });

  r.post('/user/register', {
    schema: {
      tags,
      summary:
        'Register an account with a one-time code; with an invitation code, or on a host name bound to a company, ' +
        'the account applies to join that company and waits for an administrator’s approval',
      body: registerRequest,
      response: { 200: envelope(loginResponse) },
    },
    config: { fieldLabels: { newPassword: 'password', newPasswords: 'newPasswords' }, access: { public: true } },
    handler: async (req, reply) => {
      // with an invitation code or on a company's host name: registered, and the application waits for review
      const { session, pending } = await auth.register(req.body, clientInfo(req));
      return pending
        ? reply.ok(session, 'success.registeredPending', { company: pending.company })
        : reply.ok(session, 'success.registered');
    },
  });

  r.post('/user/forgetPassword', {
    schema: {
      tags,
      summary: 'Set a new password with a one-time code',
      body: forgetPasswordRequest,
      response: { 200: emptyEnvelope },
    },
    config: { access: { public: true } },
    handler: async (req, reply) => {
      await auth.forgetPassword(req.body, clientInfo(req));
      return reply.ok(null, 'success.passwordReset');
    },
  });

  r.post('/user/delUser', {
    schema: {
      tags,
      summary: 'Delete one’s own account for good (personal data erased, audit rows kept without it)',
      body: deleteAccountRequest,
      response: { 200: emptyEnvelope },
    },
    config: { access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) => {
      await auth.deleteAccount(req.session!, req.body.password, clientInfo(req));
      return reply.ok(null, 'success.accountDeleted');
    },
  });

  r.post('/user/setMessage', {
    schema: {
      tags,
      summary: 'Message settings of the signed-in user',
      body: setMessageRequest,
      response: { 200: envelope(messageSettings) },
    },
    config: { access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) =>
      reply.ok(await auth.setMessageSettings(req.session!, req.body, clientInfo(req).ip), 'success.saved'),
  });

  r.post('/user/updateProfile', {
    schema: { tags, summary: 'Change the nickname', body: updateProfileRequest, response: { 200: emptyEnvelope } },
    config: { access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) => {
      await auth.updateProfile(req.session!, req.body.nickname, clientInfo(req).ip);
      return reply.ok(null, 'success.saved');
    },
  });
}
