import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { watchInterrupts } from '../../../cli/commands/interrupts.js';
import { runRequest, type RequestRunOptions } from '../../../cli/commands/requestRun.js';
import { LiveLine } from '../../../cli/terminal/liveLine.js';
import { ShownStream } from '../../../cli/terminal/shownStream.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, planText, say } from '../../support/rpiScript.js';
import { useTempFolders } from '../../support/tempFolder.js';

const writes = (file: string) => [say('Looked.'), say(planText(`Write ${file}`)), call('write_file', { path: file, content: `${file}\n` }), say('Written.'), say(`Wrote ${file}.`)];

/** Progress lines written to memory, as stderr shows them when it is not a terminal. */
function progressLog() {
  let written = '';
  const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => ((written += chunk.toString()), done()) });
  return { live: new LiveLine(new ShownStream(sink), false), text: () => written };
}

describe('runRequest: one run on an open workbench', () => {
  const tempFolder = useTempFolders('rpi-request-run-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  it('stops showing and answering the run even when printing its summary throws: the next run on the workbench is shown once', async () => {
    const root = await tempFolder();
    const workbench = await open(root, fakeModelOptions(llm()));
    llm().enqueue(...writes('a.txt'), ...writes('b.txt'));
    const interrupts = watchInterrupts({ first: () => undefined, again: () => undefined });
    const options = (text: string, live: LiveLine, printSummary: (summary: string) => void): RequestRunOptions => ({
      workbench,
      start: (opened) => opened.request('session:send', { prompt: text }),
      answerer: { kind: 'yes' },
      interrupts,
      live,
      json: false,
      startedAt: Date.now(),
      resumeCommand: 'rpi-workbench resume .',
      resumeHint: '/resume',
      printSummary,
    });
    try {
      const first = progressLog();
      const overflow = () => {
        throw new RangeError('Maximum call stack size exceeded');
      };
      await expect(runRequest(options('Write a', first.live, overflow))).rejects.toThrow('Maximum call stack size exceeded');
      const firstShown = first.text();
      expect(firstShown.match(/▸ Research/g)).toHaveLength(1);

      const second = progressLog();
      const summaries: string[] = [];
      const result = await runRequest(options('Write b', second.live, (summary) => summaries.push(summary)));

      expect(result.status).toBe('done');
      expect(summaries).toEqual(['Wrote b.txt.']);
      // The first run's output heard nothing of the second; the second shows each phase once.
      expect(first.text()).toBe(firstShown);
      expect(second.text().match(/▸ Research/g)).toHaveLength(1);
      expect(second.text().match(/^Done in /gm)).toHaveLength(1);
    } finally {
      interrupts.dispose();
    }
  });
});
