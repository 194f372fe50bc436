import { describe, expect, it } from 'vitest';
import { shownStateDir } from '../../../engine/store/stateDirNames.js';

describe('shownStateDir', () => {
  it('names a conversation’s folder by its place in .workbench/, whatever path the held folder is opened through', () => {
    expect(shownStateDir('/proc/self/fd/23/conversations/c-1a2b')).toBe('.workbench/conversations/c-1a2b');
    expect(shownStateDir('/home/ada/ledger/.workbench/conversations/c-1a2b')).toBe('.workbench/conversations/c-1a2b');
  });

  it('names .workbench itself for a folder still in the single-conversation layout', () => {
    expect(shownStateDir('/proc/self/fd/23')).toBe('.workbench');
    expect(shownStateDir('/home/ada/ledger/.workbench')).toBe('.workbench');
  });
});
