import { useEffect, useState } from 'react';
import { useWorkbench } from '../../store/StoreContext.js';
import { Field } from '../Field.js';

/** The open folder's check command as the form holds it: loaded when Settings opens, saved with the rest. */
export interface FolderCheckDraft {
  /** Null while no folder is open, or while it loads. */
  value: string | null;
  change(value: string): void;
  /** Saves it when it changed; the error in words, or null. */
  save(): Promise<string | null>;
}

export function useFolderCheck(): FolderCheckDraft {
  const folder = useWorkbench((state) => state.folder?.path ?? null);
  const load = useWorkbench((state) => state.folderCheck);
  const store = useWorkbench((state) => state.setFolderCheck);
  const [saved, setSaved] = useState<string | null>(null);
  const [value, setValue] = useState<string | null>(null);
  useEffect(() => {
    if (folder === null) return;
    let current = true;
    void load().then((response) => {
      if (!current || !response.ok) return;
      setSaved(response.value.command ?? '');
      setValue(response.value.command ?? '');
    });
    return () => {
      current = false;
    };
  }, [folder, load]);
  return {
    value,
    change: setValue,
    async save() {
      if (value === null || value.trim() === saved?.trim()) return null;
      const response = await store(value.trim() === '' ? null : value.trim());
      if (!response.ok) return `Check command: ${response.error}`;
      setSaved(response.value.command ?? '');
      return null;
    },
  };
}

/** Settings → the open folder's check command, run after every plan step without a check of its own. */
export function FolderCheckField({ draft }: { draft: FolderCheckDraft }) {
  if (draft.value === null) return null;
  return (
    <Field
      label="Check command for this folder"
      hint="Run after every plan step that names no check of its own, and once more after the last step; a failure goes back to the step to fix. Kept in your settings, never in the folder. Leave empty for none."
    >
      <input value={draft.value} onChange={(event) => draft.change(event.target.value)} placeholder="npm test" autoComplete="off" spellCheck={false} data-testid="folder-check" />
    </Field>
  );
}
