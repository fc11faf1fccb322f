import { useState } from 'react';
import type { DesignCard } from '../../../../shared';
import { copyText } from './copy-text';

/** What a remixer pastes: the attribution line, and what the design is based on on a line of its own. */
export function attributionToCopy(attribution: string, basedOn: string | null): string {
  return basedOn ? `${attribution}\nBased on ${basedOn}` : attribution;
}

function CopyAttribution({ text }: { text: string }) {
  const [status, setStatus] = useState<string | null>(null);
  const copy = async () => {
    setStatus(await copyText(text) ? 'Copied.' : 'Could not copy: the system refused the clipboard. Select the attribution and copy it by hand.');
  };
  return (
    <p className="copy-attribution">
      <button type="button" onClick={() => void copy()}>Copy attribution</button>
      <span role="status" data-testid="copy-attribution-status">{status}</span>
    </p>
  );
}

/**
 * The license and what it means; rule 2: the attribution whenever it is required, or plainly why it is unavailable;
 * and what the design is based on, as the service's attribution text says (plain text: no link leaves the window).
 */
export function DesignLicense({ card, basedOn = null }: { card: DesignCard; basedOn?: string | null }) {
  return (
    <section className="design-license" aria-label="License">
      {card.license ? <p><strong>{card.license.title}</strong>: {card.license.meaning}</p> : <p>License not stated.</p>}
      {card.attribution.text ? <p className="attribution" data-testid="attribution">{card.attribution.text}</p> : null}
      {basedOn ? <p className="based-on" data-testid="based-on">Based on {basedOn}</p> : null}
      {card.attribution.text ? <CopyAttribution text={attributionToCopy(card.attribution.text, basedOn)} /> : null}
      {card.attribution.unavailable ? <p className="attribution-missing" data-testid="attribution">Attribution unavailable: this license requires crediting the author, who is not known yet.</p> : null}
    </section>
  );
}
