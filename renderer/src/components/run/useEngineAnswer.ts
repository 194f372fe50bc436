import { useState } from 'react';
import type { Result } from '../../../../engine/contract/index.js';

/**
 * Sends the user's answer to a card's question. While it is on its way the card's buttons are off; when the
 * engine refuses it (an edit that does not fit, an answer too late), its reason is shown on the card,
 * which stays open.
 */
export function useEngineAnswer() {
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const send = async (answer: () => Promise<Result<unknown>>): Promise<boolean> => {
    setSending(true);
    const response = await answer();
    setSending(false);
    setRefusal(response.ok ? null : response.error);
    return response.ok;
  };

  return { sending, refusal, send };
}
