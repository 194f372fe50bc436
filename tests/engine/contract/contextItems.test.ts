import { describe, expect, it } from 'vitest';
import { contextItemSchema, messageSchema, validateRequest } from '../../../engine/contract/index.js';
import { contextItemLabel } from '../../../engine/contract/contextItemLabel.js';

describe('context items in the contract', () => {
  it('accepts files, folders and notes with folder-relative paths', () => {
    for (const item of [{ kind: 'file', path: 'src/app.ts' }, { kind: 'folder', path: '.' }, { kind: 'folder', path: 'docs/api' }, { kind: 'note', text: 'a log' }]) {
      expect(contextItemSchema.parse(item)).toEqual(item);
    }
  });

  it.each([
    [{ prompt: 'x', context: [{ kind: 'file', path: '/etc/passwd' }] }, 'context.0.path must be relative to the folder, not absolute'],
    [{ prompt: 'x', context: [{ kind: 'file', path: 'C:/x' }] }, 'context.0.path must be relative to the folder, not absolute'],
    [{ prompt: 'x', context: [{ kind: 'folder', path: 'a/../../b' }] }, 'context.0.path must stay inside the folder (no "..")'],
    [{ prompt: 'x', context: [{ kind: 'file', path: 'a\\b' }] }, 'context.0.path must use "/" between folders and hold no NUL character'],
    [{ prompt: 'x', context: [{ kind: 'file', path: '' }] }, 'context.0.path must be a path in the folder, not empty'],
    [{ prompt: 'x', context: [{ kind: 'file', path: 'a'.repeat(1001) }] }, 'context.0.path must be a path of at most 1,000 characters'],
    [{ prompt: 'x', context: [{ kind: 'note', text: '  ' }] }, 'context.0.text must not be empty'],
    [{ prompt: 'x', context: [{ kind: 'note', text: 'n'.repeat(50_001) }] }, 'context.0.text must be at most 50,000 characters'],
    [{ prompt: 'x', context: [{ kind: 'link', path: 'x' }] }, 'context.0.kind must be "file", "folder" or "note"'],
    [{ prompt: 'x', context: [{ kind: 'file', path: 'x', extra: 1 }] }, 'unexpected field "extra"'],
    [{ prompt: 'x', context: Array.from({ length: 21 }, () => ({ kind: 'file', path: 'x' })) }, 'context must be at most 20 items'],
    [{ prompt: 'x', context: 'src/app.ts' }, 'context must be a list of context items'],
  ])('session:send refuses %j', (payload, error) => {
    expect(validateRequest('session:send', payload)).toEqual({ ok: false, error: `session:send: ${error}` });
  });

  it('session:send carries the items; context:paths takes what was typed after @', () => {
    const context = [{ kind: 'file', path: 'src/app.ts' }];
    expect(validateRequest('session:send', { prompt: 'fix it', context })).toEqual({ ok: true, value: { channel: 'session:send', payload: { prompt: 'fix it', context } } });
    expect(validateRequest('context:paths', { query: 'src/ap' })).toEqual({ ok: true, value: { channel: 'context:paths', payload: { query: 'src/ap' } } });
    expect(validateRequest('context:paths', { query: 5 })).toEqual({ ok: false, error: 'context:paths: query must be the text typed after @' });
  });

  it('a stored message without items (an older conversation.jsonl) still loads', () => {
    expect(messageSchema.parse({ id: 'm-1', role: 'user', text: 'hi', ts: 1 })).toEqual({ id: 'm-1', role: 'user', text: 'hi', ts: 1 });
  });

  it('labels items as every surface lists them', () => {
    expect(contextItemLabel({ kind: 'file', path: 'src/app.ts' })).toBe('src/app.ts');
    expect(contextItemLabel({ kind: 'folder', path: 'docs' })).toBe('docs/');
    expect(contextItemLabel({ kind: 'folder', path: '.' })).toBe('./');
    expect(contextItemLabel({ kind: 'note', text: '  Stack\n  trace:   boom ' })).toBe('note: Stack trace: boom');
    expect(contextItemLabel({ kind: 'note', text: 'x'.repeat(100) }, { noteChars: 10 })).toBe(`note: ${'x'.repeat(9)}…`);
  });
});
