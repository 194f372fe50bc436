import { describe, expect, it } from 'vitest';
import type { Message } from '../../../engine/contract/index.js';
import { describeRequest, historyText, latestRequest, recalledRequests, requestOf } from '../../../cli/chat/chatHistory.js';

const message = (id: string, role: Message['role'], text: string): Message => ({ id, role, text, ts: Date.UTC(2025, 2, 14, 9, 26, 53) });

const conversation = [
  message('m-1', 'user', 'Add a greeting'),
  message('m-2', 'assistant', 'Added it.'),
  message('m-3', 'user', 'Write notes\nwith a second line'),
  message('m-4', 'assistant', 'Wrote them.'),
  message('m-5', 'user', 'Clear the \x1b[2J screen'),
];

describe('the requests the chat commands are about', () => {
  it('a summary stands for the request it answers; the latest request is the last user message', () => {
    expect(requestOf(conversation, 'm-2')?.id).toBe('m-1');
    expect(requestOf(conversation, 'm-3')?.id).toBe('m-3');
    expect(requestOf(conversation, 'm-9')).toBeNull();
    expect(latestRequest(conversation)?.id).toBe('m-5');
    expect(latestRequest([])).toBeNull();
  });

  it('names a request by its id and first line, its control characters shown', () => {
    expect(describeRequest(conversation[2]!)).toBe('m-3 "Write notes"');
    expect(describeRequest(conversation[4]!)).toBe('m-5 "Clear the ␛[2J screen"');
  });

  it('/history is the table `history` prints, or says the conversation is empty', () => {
    expect(historyText(conversation, '/tmp/demo').split('\n')[0]).toMatch(/^ID +ROLE +TIME +MESSAGE$/);
    expect(historyText([], '/tmp/demo')).toBe('No messages yet in /tmp/demo.');
  });

  it('brings back earlier requests on ↑, newest first, only those readline can show as they are (one line, no control character)', () => {
    expect(recalledRequests(conversation)).toEqual(['Add a greeting']);
    expect(recalledRequests([message('a', 'user', 'one'), message('b', 'user', 'two'), message('c', 'user', 'three')], 2)).toEqual(['three', 'two']);
  });
});
