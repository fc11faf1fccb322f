import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { SettingsView } from '../../../../shared';
import type { MessageId } from '../../../../shared/i18n/messages';

type Limits = { maxUploadKBps?: number; maxDownloadKBps?: number };

/** The highest limit one can set, in KB/s (the engine's MAX_RATE_KBPS). */
const MAX_KBPS = 10_000_000;

/** What the person typed as a limit: '' or 0 is none; else a whole number of KB/s; null when it is not one. */
function limitOf(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  return /^\d{1,8}$/.test(trimmed) && Number(trimmed) <= MAX_KBPS ? Number(trimmed) : null;
}

const shown = (kbps: number) => (kbps > 0 ? String(kbps) : '');

/**
 * Settings' "Bandwidth": how fast all uploads together, and all downloads together, may go (KB/s; empty: no limit).
 * Saved and applied at once, to the transfers under way too; `design-sync --max-upload-rate` sets the same.
 */
export function BandwidthPanel({ settings, update }: { settings: SettingsView; update(changes: Limits, saved: MessageId): Promise<boolean> }) {
  const intl = useIntl();
  const [upload, setUpload] = useState(shown(settings.maxUploadKBps));
  const [download, setDownload] = useState(shown(settings.maxDownloadKBps));
  const [wrong, setWrong] = useState<'upload' | 'download' | null>(null);
  useEffect(() => {
    setUpload(shown(settings.maxUploadKBps));
    setDownload(shown(settings.maxDownloadKBps));
  }, [settings.maxUploadKBps, settings.maxDownloadKBps]);
  const save = () => {
    const maxUploadKBps = limitOf(upload);
    const maxDownloadKBps = limitOf(download);
    const refused = maxUploadKBps === null ? 'upload' : maxDownloadKBps === null ? 'download' : null;
    setWrong(refused);
    if (refused) return;
    void update({ maxUploadKBps: maxUploadKBps!, maxDownloadKBps: maxDownloadKBps! }, 'bandwidth.saved');
  };
  const noLimit = intl.formatMessage({ id: 'bandwidth.noLimit' });
  return (
    <form className="panel" aria-labelledby="bandwidth-title" onSubmit={(event) => {
      event.preventDefault();
      save();
    }}>
      <h3 id="bandwidth-title"><FormattedMessage id="bandwidth.title" /></h3>
      <p className="field-help" id="bandwidth-help"><FormattedMessage id="bandwidth.help" /></p>
      <div className="field">
        <label htmlFor="max-upload-rate"><FormattedMessage id="bandwidth.upload" /></label>
        <input id="max-upload-rate" inputMode="numeric" value={upload} placeholder={noLimit} aria-describedby="bandwidth-help"
          aria-invalid={wrong === 'upload' ? true : undefined} onChange={(event) => setUpload(event.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="max-download-rate"><FormattedMessage id="bandwidth.download" /></label>
        <input id="max-download-rate" inputMode="numeric" value={download} placeholder={noLimit} aria-describedby="bandwidth-help"
          aria-invalid={wrong === 'download' ? true : undefined} onChange={(event) => setDownload(event.target.value)} />
      </div>
      {wrong ? <p className="field-error" role="alert"><FormattedMessage id={wrong === 'upload' ? 'bandwidth.uploadInvalid' : 'bandwidth.downloadInvalid'} values={{ max: MAX_KBPS }} /></p> : null}
      <div className="form-actions"><button type="submit"><FormattedMessage id="bandwidth.save" /></button></div>
    </form>
  );
}
