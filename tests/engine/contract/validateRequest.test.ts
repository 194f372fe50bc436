import { describe, expect, it } from 'vitest';
import {
  createDispatch,
  requestChannels,
  validateRequest,
  type ParsedPayload,
  type RequestChannel,
  type RequestHandlers,
  type RequestPayload,
} from '../../../engine/contract/index.js';

/** The smallest payload each channel accepts. Typed per channel, so a new channel without one fails to compile. */
const minimalPayloads: { [C in RequestChannel]: RequestPayload<C> } = {
  'workbench:snapshot': {},
  'session:send': { prompt: 'Categorise my bank statement' },
  'session:cancel': {},
  'session:resume': {},
  'session:retry-failed': {},
  'session:approve': { requestId: 'req-1', decision: 'approve' },
  'session:answer-question': { requestId: 'question-1', answer: 'XLSX' },
  'session:undo': { messageId: 'msg-1' },
  'session:regenerate': { messageId: 'msg-1' },
  'session:undo-preview': { messageId: 'msg-1' },
  'session:review-plan': { decision: 'approve' },
  'session:discard': {},
  'session:approval-preview': { requestId: 'req-1' },
  'changes:list': { messageId: 'msg-1' },
  'changes:diffs': { messageId: 'msg-1' },
  'changes:file': { messageId: 'msg-1', path: 'src/app.ts' },
  'changes:revert': { messageId: 'msg-1', paths: ['src/app.ts'] },
  'changes:undo-revert': { revertId: '00000001', paths: ['src/app.ts'] },
  'rpi:read': { file: 'research' },
  'context:paths': { query: '' },
  'session:run-file': { messageId: 'm-1', file: 'plan' },
  'folder:check': {},
  'folder:set-check': { command: 'npm test' },
  'settings:get': {},
  'settings:test-connection': {},
  'settings:set': {},
  'mcp:list': {},
  'mcp:save': { server: { name: 'github', transport: 'stdio', command: 'npx', args: [], env: [], headers: [], enabled: true, researchReadOnly: false, timeoutSeconds: 120 } },
  'mcp:remove': { name: 'github' },
  'mcp:set-enabled': { name: 'github', enabled: false },
  'mcp:restart': { name: 'github' },
  'mcp:allow-tool': { server: 'github', tool: 'get_issue', allowed: true },
  'folders:recent': {},
  'folders:pick': {},
  'folders:open': { folder: '/home/me/project' },
  'host:info': {},
};

const expectError = (channel: unknown, payload: unknown, error: string) =>
  expect(validateRequest(channel, payload)).toEqual({ ok: false, error });

describe('validateRequest', () => {
  describe('accepts the minimal payload of every channel', () => {
    it('has a minimal payload for exactly the channels there are', () => {
      expect(Object.keys(minimalPayloads).sort()).toEqual([...requestChannels].sort());
    });

    it.each(requestChannels)('%s', (channel) => {
      const payload = minimalPayloads[channel];
      expect(payload, `no minimal payload for ${channel}`).toBeDefined();
      expect(validateRequest(channel, payload)).toEqual({ ok: true, value: { channel, payload } });
    });
  });

  it('treats a missing payload as an empty one', () => {
    expect(validateRequest('settings:get', undefined)).toEqual({ ok: true, value: { channel: 'settings:get', payload: {} } });
    expect(validateRequest('host:info', null)).toEqual({ ok: true, value: { channel: 'host:info', payload: {} } });
    expectError('session:send', undefined, 'session:send: prompt must be a non-empty string');
  });

  it.each([{ prompt: '' }, { prompt: '   ' }, { prompt: '\n\t' }, {}, { prompt: 5 }, { prompt: null }, { prompt: ['hi'] }])(
    'session:send refuses %j',
    (payload) => {
      expectError('session:send', payload, 'session:send: prompt must be a non-empty string');
    },
  );

  it('trims the prompt', () => {
    expect(validateRequest('session:send', { prompt: '  hello \n' })).toEqual({
      ok: true,
      value: { channel: 'session:send', payload: { prompt: 'hello' } },
    });
  });

  it.each([['nope'], ['session:Send'], [''], ['__proto__'], ['constructor'], ['toString']])('refuses the unknown channel %j', (channel) => {
    expectError(channel, {}, `unknown request channel ${JSON.stringify(channel)}`);
  });

  it.each([
    [42, 'number'],
    [undefined, 'undefined'],
    [null, 'object'],
    [{ channel: 'session:send' }, 'object'],
  ])('refuses a channel that is not a string (%j)', (channel, shown) => {
    expectError(channel, {}, `unknown request channel ${shown}`);
  });

  it('refuses extra fields, naming them', () => {
    expectError('session:send', { prompt: 'hi', x: 1 }, 'session:send: unexpected field "x"');
    expectError('session:cancel', { force: true }, 'session:cancel: unexpected field "force"');
    expectError('session:send', { prompt: 'hi', x: 1, y: 2 }, 'session:send: unexpected fields "x", "y"');
  });

  it.each(['hello', 42, true, [], [{ prompt: 'hi' }]])('refuses the payload %j, which is not an object', (payload) => {
    expectError('session:send', payload, 'session:send: payload must be an object');
  });

  describe('settings:set', () => {
    it.each(['ftp://x', 'not a url', 'file:///etc/passwd', 'javascript:alert(1)', ''])('refuses the baseUrl %j', (baseUrl) => {
      expectError('settings:set', { baseUrl }, 'settings:set: baseUrl must be an http:// or https:// URL');
    });

    it('refuses a baseUrl that is not a string', () => {
      expectError('settings:set', { baseUrl: 5 }, 'settings:set: baseUrl must be a URL string');
    });

    it('accepts http and https base URLs, trimmed', () => {
      expect(validateRequest('settings:set', { baseUrl: ' http://127.0.0.1:1234/v1 ' })).toEqual({
        ok: true,
        value: { channel: 'settings:set', payload: { baseUrl: 'http://127.0.0.1:1234/v1' } },
      });
      expect(validateRequest('settings:set', { baseUrl: 'https://api.openai.com/v1' }).ok).toBe(true);
    });

    it.each([
      [12.5, 'must be a whole number of tokens'],
      [100, 'must be at least 1024 tokens'],
      [0, 'must be at least 1024 tokens'],
      [-4096, 'must be at least 1024 tokens'],
      [20_000_000, 'must be at most 10,000,000 tokens'],
      ['128000', 'must be a number of tokens'],
    ])('refuses the contextWindow %j', (contextWindow, rule) => {
      expectError('settings:set', { contextWindow }, `settings:set: contextWindow ${rule}`);
    });

    it('accepts a full, valid patch, and null to forget the key', () => {
      const patch = { baseUrl: 'https://x.example/v1', model: 'gpt-x', apiKey: null, contextWindow: 1024, toolMode: 'text' };
      expect(validateRequest('settings:set', patch)).toEqual({ ok: true, value: { channel: 'settings:set', payload: patch } });
    });

    it('accepts prompt caching auto or off, and a price per million tokens, or null to forget it', () => {
      const patch = { promptCaching: 'off', price: { input: 0.4, cachedInput: null, output: 1.6 } };
      expect(validateRequest('settings:set', patch)).toEqual({ ok: true, value: { channel: 'settings:set', payload: patch } });
      expect(validateRequest('settings:set', { price: null }).ok).toBe(true);
    });

    it('refuses another prompt caching mode', () => {
      expectError('settings:set', { promptCaching: 'on' }, 'settings:set: promptCaching must be "auto" or "off"');
    });

    it.each([
      [{ input: -1, cachedInput: null, output: 1 }, 'price.input must be 0 or more'],
      [{ input: null, cachedInput: null, output: 1 }, 'price.input must be a price in dollars per million tokens'],
      [{ input: 1, cachedInput: 0.1, output: 200_000 }, 'price.output must be at most 100,000 dollars per million tokens'],
      [{ input: 1, output: 2 }, 'price.cachedInput must be a price in dollars per million tokens'],
      [{ input: 1, cachedInput: null, output: 2, cacheWrite: 1.25 }, 'unexpected field "cacheWrite"'],
    ])('refuses the price %j', (price, rule) => {
      expectError('settings:set', { price }, `settings:set: ${rule}`);
    });

    it('refuses an empty model or key', () => {
      expectError('settings:set', { model: '  ' }, 'settings:set: model must be a non-empty string');
      expectError('settings:set', { apiKey: '' }, 'settings:set: apiKey must be a non-empty string');
    });

    it('accepts each phase on the default, another model of the server, or a connection of its own', () => {
      const models = {
        research: { use: 'connection', baseUrl: 'https://reasoning.example/v1', model: 'o3', apiKey: 'sk-r', contextWindow: 200_000 },
        plan: { use: 'model', model: 'o3', contextWindow: null },
        implement: { use: 'default' },
      };
      expect(validateRequest('settings:set', { models })).toEqual({ ok: true, value: { channel: 'settings:set', payload: { models } } });
      expect(validateRequest('settings:set', { models: { summary: { use: 'connection', baseUrl: 'http://127.0.0.1:1/v1', model: 'm', apiKey: null } } }).ok).toBe(true);
    });

    it.each([
      [{ research: { use: 'other' } }, 'models.research.use must be "default", "model" or "connection"'],
      [{ plan: { use: 'model', model: ' ' } }, 'models.plan.model must name a model'],
      [{ plan: { use: 'model' } }, 'models.plan.model must name a model'],
      [{ implement: { use: 'connection', baseUrl: 'ftp://x', model: 'm' } }, 'models.implement.baseUrl must be an http:// or https:// URL'],
      [{ summary: { use: 'connection', baseUrl: 'http://x/v1', model: 'm', apiKey: '' } }, 'models.summary.apiKey must be a non-empty string'],
      [{ summary: { use: 'model', model: 'm', contextWindow: 100 } }, 'models.summary.contextWindow must be at least 1024 tokens'],
      [{ review: { use: 'default' } }, 'unexpected field "review"'],
      [{ plan: { use: 'model', model: 'm', baseUrl: 'http://x/v1' } }, 'unexpected field "baseUrl"'],
    ])('refuses the phase models %j', (models, rule) => {
      expectError('settings:set', { models }, `settings:set: ${rule}`);
    });

    it('tests a phase\'s connection only for a known phase', () => {
      expect(validateRequest('settings:test-connection', { phase: 'plan', baseUrl: 'http://127.0.0.1:1/v1' }).ok).toBe(true);
      expect(validateRequest('settings:test-connection', { phase: 'review' }).ok).toBe(false);
    });
  });

  describe('session:approve', () => {
    it.each(['maybe', 'approved', 'APPROVE', 1, undefined])('refuses the decision %j', (decision) => {
      expectError('session:approve', { requestId: 'req-1', decision }, 'session:approve: decision must be "approve" or "deny"');
    });

    it('refuses a missing request id and arguments that are not an object', () => {
      expectError('session:approve', { decision: 'deny' }, 'session:approve: requestId must be a non-empty string');
      expectError('session:approve', { requestId: 'r', decision: 'approve', args: ['x'] }, 'session:approve: args must be an object of tool arguments');
      expectError('session:approve', { requestId: 'r', decision: 'approve', alwaysAllow: 'yes' }, 'session:approve: alwaysAllow must be true or false');
    });

    it('passes edited arguments through', () => {
      const payload = { requestId: 'r', decision: 'approve', args: { path: 'a.txt', content: 'x' }, alwaysAllow: false };
      expect(validateRequest('session:approve', payload)).toEqual({ ok: true, value: { channel: 'session:approve', payload } });
    });
  });

  describe('session:answer-question', () => {
    it('takes an answer, trimmed, or none (no answer: the model goes on with its best assumption)', () => {
      expect(validateRequest('session:answer-question', { requestId: 'q', answer: '  XLSX \n' })).toEqual({ ok: true, value: { channel: 'session:answer-question', payload: { requestId: 'q', answer: 'XLSX' } } });
      expect(validateRequest('session:answer-question', { requestId: 'q' })).toEqual({ ok: true, value: { channel: 'session:answer-question', payload: { requestId: 'q' } } });
    });

    it('refuses an empty, overlong or non-text answer and a missing request id', () => {
      expectError('session:answer-question', { requestId: 'q', answer: '  ' }, 'session:answer-question: answer must not be empty: send no answer to let the model go on with its best assumption');
      expectError('session:answer-question', { requestId: 'q', answer: 'x'.repeat(4_001) }, 'session:answer-question: answer must be at most 4000 characters');
      expectError('session:answer-question', { requestId: 'q', answer: 42 }, 'session:answer-question: answer must be the answer text');
      expectError('session:answer-question', { answer: 'XLSX' }, 'session:answer-question: requestId must be a non-empty string');
    });
  });

  describe('session:discard', () => {
    it('takes no fields', () => {
      expectError('session:discard', { force: true }, 'session:discard: unexpected field "force"');
    });
  });

  describe('rpi:read', () => {
    it.each(['research', 'plan'])('accepts the file %j', (file) => {
      expect(validateRequest('rpi:read', { file })).toEqual({ ok: true, value: { channel: 'rpi:read', payload: { file } } });
    });

    it.each([undefined, 'notes', 'Plan', 'research.md', '../conversation', 1, null])('refuses the file %j', (file) => {
      expectError('rpi:read', { file }, 'rpi:read: file must be "research" or "plan"');
    });

    it('refuses a path instead of a file name', () => {
      expectError('rpi:read', { file: 'plan', path: '/etc/passwd' }, 'rpi:read: unexpected field "path"');
    });
  });

  describe('settings:test-connection', () => {
    it('accepts the unsaved form values, trimmed', () => {
      expect(validateRequest('settings:test-connection', { baseUrl: ' http://127.0.0.1:1234/v1 ', model: ' qwen ', apiKey: 'sk-test' })).toEqual({
        ok: true,
        value: { channel: 'settings:test-connection', payload: { baseUrl: 'http://127.0.0.1:1234/v1', model: 'qwen', apiKey: 'sk-test' } },
      });
    });

    it.each([
      [{ baseUrl: 'file:///etc/passwd' }, 'baseUrl must be an http:// or https:// URL'],
      [{ baseUrl: 5 }, 'baseUrl must be a URL string'],
      [{ model: '  ' }, 'model must be a non-empty string'],
      [{ apiKey: '' }, 'apiKey must be a non-empty string'],
      [{ apiKey: null }, 'apiKey must be a non-empty string'],
      [{ contextWindow: 4096 }, 'unexpected field "contextWindow"'],
    ])('refuses %j', (payload, error) => {
      expectError('settings:test-connection', payload, `settings:test-connection: ${error}`);
    });
  });

  describe('changes', () => {
    it('take a range of "request" or "since", and refuse anything else', () => {
      expect(validateRequest('changes:list', { messageId: 'm', range: 'since' })).toMatchObject({ ok: true });
      expectError('changes:list', { messageId: 'm', range: 'all' }, 'changes:list: range must be "request" or "since"');
      expectError('changes:file', { messageId: 'm' }, 'changes:file: path must be a file path');
    });

    it('revert needs at least one path, each a non-empty string', () => {
      expectError('changes:revert', { messageId: 'm', paths: [] }, 'changes:revert: paths must name at least one file');
      expectError('changes:revert', { messageId: 'm', paths: [''] }, 'changes:revert: paths.0 must be a file path');
      expectError('changes:undo-revert', { revertId: 'c', paths: 'a.txt' }, 'changes:undo-revert: paths must be a list of file paths');
    });

    it('an approval preview takes edited arguments as an object', () => {
      expect(validateRequest('session:approval-preview', { requestId: 'r', args: { path: 'a' } })).toMatchObject({ ok: true });
      expectError('session:approval-preview', { requestId: 'r', args: 'x' }, 'session:approval-preview: args must be an object of tool arguments');
      expectError('session:approve', { requestId: 'r', decision: 'approve', allowForRequest: 'yes' }, 'session:approve: allowForRequest must be true or false');
    });
  });

  it('folders:open refuses an empty folder path', () => {
    expectError('folders:open', { folder: ' ' }, 'folders:open: folder must be a folder path');
  });
});

describe('createDispatch', () => {
  function handlersWith(overrides: Partial<RequestHandlers>): RequestHandlers {
    const unexpected = async (): Promise<never> => {
      throw new Error('this handler should not have been called');
    };
    const all = Object.fromEntries(requestChannels.map((channel) => [channel, unexpected])) as unknown as RequestHandlers;
    return { ...all, ...overrides };
  }

  it('hands the parsed, trimmed payload to the channel’s handler and returns its value', async () => {
    const received: ParsedPayload<'session:send'>[] = [];
    const dispatch = createDispatch(
      handlersWith({
        'session:send': async (payload) => {
          received.push(payload);
          return { messageId: 'msg-7', runId: 'run-7' };
        },
      }),
    );

    expect(await dispatch('session:send', { prompt: '  Categorise it  ' })).toEqual({ ok: true, value: { messageId: 'msg-7', runId: 'run-7' } });
    expect(received).toEqual([{ prompt: 'Categorise it' }]);
  });

  it('does not call any handler for an invalid request', async () => {
    const dispatch = createDispatch(handlersWith({}));
    expect(await dispatch('session:send', { prompt: '' })).toEqual({ ok: false, error: 'session:send: prompt must be a non-empty string' });
    expect(await dispatch('shell:exec', { command: 'rm -rf /' })).toEqual({ ok: false, error: 'unknown request channel "shell:exec"' });
  });

  it.each([
    ['an Error', () => Promise.reject(new Error('disk full')), 'settings:set: disk full'],
    ['a string', () => Promise.reject('no keychain'), 'settings:set: no keychain'],
    [
      'synchronously',
      () => {
        throw new TypeError('bad state');
      },
      'settings:set: bad state',
    ],
  ])('turns a handler failing with %s into { ok: false } and never throws', async (_how, handler, error) => {
    const dispatch = createDispatch(handlersWith({ 'settings:set': handler as RequestHandlers['settings:set'] }));
    const result = dispatch('settings:set', { model: 'm' });
    await expect(result).resolves.toEqual({ ok: false, error });
  });
});
