import { describe, expect, it } from 'vitest';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { clientFor, complete } from './llmClientHarness.js';

const answer = 'The port comes from the environment.';

describe('LLM client: the end of a stream', () => {
  const fake = useFakeLlm();

  it('reads the body to its end after [DONE], so its connection stays open for the next request', async () => {
    // The body's end comes apart from [DONE], as from a server that flushes each event as it goes.
    const lateEnd = { text: answer, fault: { type: 'late-end', endAfterMs: 10 } } as const;
    fake().enqueue(lateEnd, lateEnd, lateEnd, { text: answer });
    const client = clientFor(fake());

    for (let request = 0; request < 4; request += 1) expect((await complete(client)).reply.text).toBe(answer);
    expect(fake().chatRequests()).toHaveLength(4);
    // Cancelled at [DONE] with its end still on the way, a body takes its connection down with it.
    const { opened, open } = fake().connections();
    expect(open).toBe(opened);
  });

  it('keeps the reply of a server that leaves the body open after [DONE], and gives up on that connection soon', async () => {
    fake().enqueue({ text: answer, fault: 'open-after-done' }, { text: 'second' });
    // A minute of silence would be a stalled reply; the open body after [DONE] is not waited for that long.
    const client = clientFor(fake(), { idleTimeoutMs: 60_000 });

    expect((await complete(client)).reply).toMatchObject({ text: answer, finishReason: 'stop' });
    expect((await complete(client)).reply.text).toBe('second');
    const { opened, open } = fake().connections();
    expect(opened - open).toBe(1);
  });
});
