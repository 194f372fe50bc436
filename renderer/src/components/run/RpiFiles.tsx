import { useState } from 'react';
import { useWorkbench } from '../../store/StoreContext.js';
import { RpiFileDialog, type RpiFile } from './RpiFileDialog.js';

/** Buttons that open the request's research.md and plan.md in the app. */
export function RpiFiles() {
  const readRpiFile = useWorkbench((state) => state.readRpiFile);
  const [open, setOpen] = useState<{ file: RpiFile; text?: string | null } | null>(null);

  const show = async (file: RpiFile) => {
    setOpen({ file });
    const text = await readRpiFile(file);
    setOpen((current) => (current?.file === file ? { file, text } : current));
  };

  return (
    <div className="run-files">
      <button type="button" onClick={() => void show('research')}>
        View research
      </button>
      <button type="button" onClick={() => void show('plan')}>
        View plan
      </button>
      {open && <RpiFileDialog file={open.file} text={open.text} onClose={() => setOpen(null)} />}
    </div>
  );
}
