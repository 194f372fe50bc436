import { formatClock } from './formatRun.js';
import { useNow } from './useNow.js';

/** Time left before an approval request expires (and is denied), ticking every second. */
export function Countdown({ expiresAt }: { expiresAt: number }) {
  const left = expiresAt - useNow();
  return (
    <span className="approval-countdown" role="timer" data-testid="approval-countdown">
      {left > 0 ? `${formatClock(left)} left` : 'Timing out…'}
    </span>
  );
}
