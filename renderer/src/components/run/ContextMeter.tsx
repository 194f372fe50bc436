import { useWorkbench } from '../../store/StoreContext.js';
import { phaseNames } from '../../store/runStatus.js';
import { formatCount } from './formatRun.js';

/**
 * How full the model's context was on the last call (with a bar), the budget requests are kept within once
 * one had to be fitted to it, and the tokens the run has used in all.
 */
export function ContextMeter() {
  const lastCall = useWorkbench((state) => state.run?.lastCall ?? null);
  const budget = useWorkbench((state) => state.run?.contextBudget ?? null);
  const window = useWorkbench((state) => state.run?.contextWindow ?? null);
  const totals = useWorkbench((state) => state.run?.totals);
  if (!totals) return null;
  const share = lastCall ? Math.min(1, lastCall.promptTokens / lastCall.contextWindow) : 0;
  const percent = Math.round(share * 100);
  const level = share >= 0.9 ? 'full' : share >= 0.75 ? 'high' : 'ok';
  const about = totals.estimated ? '≈ ' : '';
  return (
    <section className="run-section run-tokens-section" aria-label="Tokens">
      {lastCall ? (
        <div className="context-meter" data-testid="context-meter" data-level={level}>
          <div className="context-meter-label">
            <span>Context ({phaseNames[lastCall.phase]}, last call)</span>
            <span>
              {lastCall.estimated ? '≈ ' : ''}
              {formatCount(lastCall.promptTokens)} / {formatCount(lastCall.contextWindow)} ({percent}%)
            </span>
          </div>
          <div
            className="context-meter-bar"
            role="meter"
            aria-label="Context used by the last call"
            aria-valuemin={0}
            aria-valuemax={lastCall.contextWindow}
            aria-valuenow={lastCall.promptTokens}
            aria-valuetext={`${percent}% of the context window`}
          >
            <span className="context-meter-fill" style={{ width: `${percent}%` }} />
            {budget && <span className="context-meter-budget" style={{ left: `${budgetPercent(budget)}%` }} aria-hidden="true" />}
          </div>
          {window && (
            <p className="context-meter-window" data-testid="context-window">
              Window: {formatCount(window.tokens)} tokens, from {window.detail}
            </p>
          )}
          {budget && (
            <p className="context-meter-budget-line" data-testid="context-budget">
              Budget per request: {formatCount(budget.budget)} tokens ({budgetPercent(budget)}% of {formatCount(budget.contextWindow)}); older results
              are set aside beyond it and the model can recall them.
            </p>
          )}
        </div>
      ) : (
        <p className="muted run-note" data-testid="context-meter">
          No model call yet.
        </p>
      )}
      <p className="run-tokens" data-testid="run-tokens" title={totals.estimated ? 'Some counts were estimated: the server sent no usage.' : undefined}>
        Run total: {about}
        {formatCount(totals.promptTokens + totals.completionTokens)} tokens ({formatCount(totals.promptTokens)} in, {formatCount(totals.completionTokens)} out) over{' '}
        {totals.calls === 1 ? '1 call' : `${totals.calls} calls`}
        {totals.estimated && ', estimated'}
      </p>
    </section>
  );
}

function budgetPercent({ budget, contextWindow }: { budget: number; contextWindow: number }): number {
  return Math.round(Math.min(1, budget / contextWindow) * 100);
}
