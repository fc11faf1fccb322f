import type { DesignCard } from '../../../../shared';

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
      {card.attribution.unavailable ? <p className="attribution-missing" data-testid="attribution">Attribution unavailable: this license requires crediting the author, who is not known yet.</p> : null}
    </section>
  );
}
