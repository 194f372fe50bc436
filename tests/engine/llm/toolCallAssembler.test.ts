import { describe, expect, it } from 'vitest';
import { ToolCallAssembler, type ToolCallFragment } from '../../../engine/llm/toolCallAssembler.js';

function assemble(...fragments: ToolCallFragment[]) {
  const assembler = new ToolCallAssembler();
  for (const fragment of fragments) assembler.add(fragment);
  return assembler.calls();
}

describe('ToolCallAssembler', () => {
  it('joins OpenAI-style fragments by index', () => {
    const calls = assemble(
      { index: 0, id: 'call_a', function: { name: 'read_file', arguments: '' } },
      { index: 1, id: 'call_b', function: { name: 'list_files', arguments: '' } },
      { index: 0, function: { arguments: '{"path":' } },
      { index: 1, function: { arguments: '{}' } },
      { index: 0, function: { arguments: '"a.ts"}' } },
    );

    expect(calls).toEqual([
      { id: 'call_a', name: 'read_file', arguments: '{"path":"a.ts"}' },
      { id: 'call_b', name: 'list_files', arguments: '{}' },
    ]);
  });

  it('without index, groups by id and continues the last call when a fragment has neither', () => {
    const calls = assemble(
      { id: 'call_a', function: { name: 'read_file', arguments: '' } },
      { function: { arguments: '{"path":"a.ts"}' } },
      { id: 'call_b', function: { name: 'list_files', arguments: '{"path":' } },
      { function: { arguments: '"."}' } },
      { id: 'call_a', function: { arguments: '' } },
    );

    expect(calls).toEqual([
      { id: 'call_a', name: 'read_file', arguments: '{"path":"a.ts"}' },
      { id: 'call_b', name: 'list_files', arguments: '{"path":"."}' },
    ]);
  });

  it('without index or id, starts the first call, continues it, and starts the next one at a new name', () => {
    const calls = assemble(
      { function: { arguments: '{"pa' } },
      { function: { name: 'read_file', arguments: 'th":"a.ts"}' } },
      { function: { name: 'list_files', arguments: '' } },
      { function: { name: '', arguments: '{}' } },
    );

    expect(calls).toEqual([
      { id: 'call_1', name: 'read_file', arguments: '{"path":"a.ts"}' },
      { id: 'call_2', name: 'list_files', arguments: '{}' },
    ]);
  });

  it('invents call_<n> ids, counting calls in order, and keeps an id that comes late', () => {
    const calls = assemble(
      { index: 0, function: { name: 'read_file', arguments: '{}' } },
      { index: 1, function: { name: 'list_files', arguments: '' } },
      { index: 1, id: 'call_late', function: { arguments: '{}' } },
    );

    expect(calls.map((call) => call.id)).toEqual(['call_1', 'call_late']);
  });

  it('never overwrites a name with an empty one', () => {
    const calls = assemble(
      { index: 0, id: 'call_a', function: { name: 'read_file', arguments: '' } },
      { index: 0, function: { name: '', arguments: '{"path":"a.ts"}' } },
    );

    expect(calls).toEqual([{ id: 'call_a', name: 'read_file', arguments: '{"path":"a.ts"}' }]);
  });

  it('tells calls apart by id when a server sends every call with index 0', () => {
    const calls = assemble(
      { index: 0, id: 'call_a', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
      { index: 0, id: 'call_b', function: { name: 'read_file', arguments: '{"path":"b.ts"}' } },
    );

    expect(calls.map((call) => [call.id, call.arguments])).toEqual([
      ['call_a', '{"path":"a.ts"}'],
      ['call_b', '{"path":"b.ts"}'],
    ]);
  });

  it('keeps arguments sent as an object', () => {
    const calls = assemble({ index: 0, id: 'call_a', function: { name: 'read_file', arguments: { path: 'a.ts' } } });

    expect(calls).toEqual([{ id: 'call_a', name: 'read_file', arguments: { path: 'a.ts' } }]);
  });

  it('prefers streamed text over an object when a call gets both, and the object over empty text', () => {
    const calls = assemble(
      { index: 0, id: 'call_a', function: { name: 'read_file', arguments: {} } },
      { index: 0, function: { arguments: '{"path":"a.ts"}' } },
      { index: 1, id: 'call_b', function: { name: 'list_files', arguments: '' } },
      { index: 1, function: { arguments: { path: '.' } } },
    );

    expect(calls.map((call) => call.arguments)).toEqual(['{"path":"a.ts"}', { path: '.' }]);
  });

  it('leaves broken argument text as it came, for the tool runner to refuse', () => {
    const calls = assemble({ index: 0, id: 'call_a', function: { name: 'read_file', arguments: '{"path":"a.t' } });

    expect(calls[0]?.arguments).toBe('{"path":"a.t');
  });

  it('gives empty arguments when none came, and nothing when no fragment came', () => {
    expect(assemble({ index: 0, id: 'call_a', function: { name: 'list_files' } })).toEqual([
      { id: 'call_a', name: 'list_files', arguments: '' },
    ]);
    expect(assemble()).toEqual([]);
  });

  it('skips what is not a fragment list', () => {
    const assembler = new ToolCallAssembler();
    assembler.addAll(null);
    assembler.addAll([null, 'x', { index: 0, id: 'call_a', function: { name: 'list_files', arguments: '{}' } }]);

    expect(assembler.calls()).toEqual([{ id: 'call_a', name: 'list_files', arguments: '{}' }]);
  });

  it('gives a signature sent in a fragment of its own to the call whose head follows, and makes no call of it', () => {
    const signature = { google: { thought_signature: 'sig-1' } };
    const calls = assemble({ index: 0, extra_content: signature }, { index: 0, id: 'call_a', function: { name: 'read_file', arguments: '{"path":"a"}' } });
    expect(calls).toEqual([{ id: 'call_a', name: 'read_file', arguments: '{"path":"a"}', extraContent: signature }]);
  });

  it('keeps one call for one id, even when its head comes again after the arguments are complete', () => {
    const calls = assemble(
      { id: 'call_a', function: { name: 'read_file', arguments: '{"path":"a"}' } },
      { id: 'call_a', function: { name: 'read_file' } },
    );
    expect(calls).toEqual([{ id: 'call_a', name: 'read_file', arguments: '{"path":"a"}' }]);
  });

  it('reads a name repeated with no arguments of its own as the same call, without index or id', () => {
    const calls = assemble(
      { function: { name: 'read_file', arguments: '{"path":"a"}' } },
      { function: { name: 'read_file', arguments: '' } },
    );
    expect(calls).toEqual([{ id: 'call_1', name: 'read_file', arguments: '{"path":"a"}' }]);
  });
});
