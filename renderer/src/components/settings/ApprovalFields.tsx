import { Field } from '../Field.js';
import type { SettingsDraft } from './settingsDraft.js';

interface ApprovalFieldsProps {
  draft: SettingsDraft;
  onChange: (patch: Partial<SettingsDraft>) => void;
}

/** How changes to the folder are approved: files, commands, the plan review gate and the timeout. */
export function ApprovalFields({ draft, onChange }: ApprovalFieldsProps) {
  return (
    <fieldset className="settings-group">
      <legend>Approvals</legend>
      <p className="hint">Changes to .git, .workbench, editor and CI settings and secret files always ask, whatever these say.</p>
      <Field label="File changes" hint="Writing, editing, deleting and moving files.">
        <select value={draft.files} onChange={(event) => onChange({ files: event.target.value as SettingsDraft['files'] })}>
          <option value="ask">Ask every time</option>
          <option value="auto">Make them without asking</option>
        </select>
      </Field>
      <Field label="Commands">
        <select value={draft.commands} onChange={(event) => onChange({ commands: event.target.value as SettingsDraft['commands'] })}>
          <option value="ask">Ask every time</option>
          <option value="allow-list">Run allow-listed commands, ask for others</option>
          <option value="auto">Run all without asking</option>
        </select>
      </Field>
      <Field label="Approval timeout (seconds)" hint="A request left unanswered this long is denied.">
        <input type="number" min={10} max={86_400} step={1} required value={draft.timeoutSeconds} onChange={(event) => onChange({ timeoutSeconds: event.target.value })} />
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={draft.reviewPlan} onChange={(event) => onChange({ reviewPlan: event.target.checked })} />
        Review the plan before it is implemented
      </label>
    </fieldset>
  );
}
