import type { ContextNote } from '../../store/runView.js';

const counted = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "12 older results set aside; the model can recall them", for a request fitted to the context budget. */
export function contextNoteText(note: ContextNote): string {
  const parts = [
    note.setAside > 0 && counted(note.setAside, 'older result set aside', 'older results set aside'),
    note.condensed > 0 && counted(note.condensed, 'earlier turn condensed', 'earlier turns condensed'),
    note.cut > 0 && counted(note.cut, 'new result cut to fit', 'new results cut to fit'),
  ].filter((part): part is string => part !== false);
  const what = parts.length === 0 ? '' : `${parts.slice(0, -1).join(', ')}${parts.length > 1 ? ' and ' : ''}${parts.at(-1)}; the model can recall them`;
  if (!note.afterRefusal) return what;
  const shrunk = 'The model server found the request too long: the context budget shrank and the turn is asked again';
  return what === '' ? `${shrunk}.` : `${shrunk} (${what}).`;
}
