import { useState } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { DesignCard } from '../../../../shared';
import type { MessageId } from '../../../../shared/i18n/messages';
import { attributionWords } from '../../../../shared/licenses/attribution-words';
import { copyText } from './copy-text';
import { licenseMeaning, licenseTitle } from './license-words';

/**
 * What a remixer pastes: the attribution line (its facts the engine's, its words the window's language), and what the
 * design is based on on a line of its own.
 */
export function attributionToCopy(intl: IntlShape, attribution: string, basedOn: string | null): string {
  return basedOn ? intl.formatMessage({ id: 'design.license.attributionToCopy' }, { attribution, basedOn }) : attribution;
}

function CopyAttribution({ text }: { text: string }) {
  const [status, setStatus] = useState<MessageId | null>(null);
  const copy = async () => {
    setStatus(await copyText(text) ? 'design.license.copied' : 'design.license.copyRefused');
  };
  return (
    <p className="copy-attribution">
      <button type="button" onClick={() => void copy()}><FormattedMessage id="design.license.copy" /></button>
      <span role="status" data-testid="copy-attribution-status">{status ? <FormattedMessage id={status} /> : null}</span>
    </p>
  );
}

/**
 * The license and what it means; rule 2: the attribution whenever it is required, or plainly why it is unavailable;
 * and what the design is based on, as the service's attribution text says (plain text: no link leaves the window).
 */
export function DesignLicense({ card, basedOn = null }: { card: DesignCard; basedOn?: string | null }) {
  const intl = useIntl();
  const attribution = attributionWords(card, intl);
  return (
    <section className="design-license" aria-label={intl.formatMessage({ id: 'design.license.label' })}>
      {card.license ? (
        <p>
          <FormattedMessage id="design.license.line"
            values={{ title: licenseTitle(intl, card.license), meaning: licenseMeaning(intl, card.license), strong: (chunks) => <strong>{chunks}</strong> }} />
        </p>
      ) : <p><FormattedMessage id="design.license.notStated" /></p>}
      {attribution ? <p className="attribution" data-testid="attribution">{attribution}</p> : null}
      {basedOn ? <p className="based-on" data-testid="based-on"><FormattedMessage id="design.license.basedOn" values={{ basedOn }} /></p> : null}
      {attribution ? <CopyAttribution text={attributionToCopy(intl, attribution, basedOn)} /> : null}
      {card.attribution.unavailable ? <p className="attribution-missing" data-testid="attribution"><FormattedMessage id="design.license.attributionUnavailable" /></p> : null}
    </section>
  );
}
