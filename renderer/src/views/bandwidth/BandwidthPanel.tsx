import { useEffect, useState } from 'react';
import type { SettingsView } from '../../../../shared';

type Limits = { maxUploadKBps?: number; maxDownloadKBps?: number };

/** What the person typed as a limit: '' or 0 is none; else a whole number of KB/s; null when it is not one. */
function limitOf(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  return /^\d{1,8}$/.test(trimmed) && Number(trimmed) <= 10_000_000 ? Number(trimmed) : null;
}

const shown = (kbps: number) => (kbps > 0 ? String(kbps) : '');

/**
 * Settings' "Bandwidth": how fast all uploads together, and all downloads together, may go (KB/s; empty: no limit).
 * Saved and applied at once, to the transfers under way too; `design-sync --max-upload-rate` sets the same.
 */
export function BandwidthPanel({ settings, update }: { settings: SettingsView; update(changes: Limits, what: string): Promise<boolean> }) {
  const [upload, setUpload] = useState(shown(settings.maxUploadKBps));
  const [download, setDownload] = useState(shown(settings.maxDownloadKBps));
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    setUpload(shown(settings.maxUploadKBps));
    setDownload(shown(settings.maxDownloadKBps));
  }, [settings.maxUploadKBps, settings.maxDownloadKBps]);
  const save = () => {
    const maxUploadKBps = limitOf(upload);
    const maxDownloadKBps = limitOf(download);
    const wrong = maxUploadKBps === null ? 'upload' : maxDownloadKBps === null ? 'download' : null;
    if (wrong) {
      setProblem(`The ${wrong} limit must be a whole number of KB/s, up to 10,000,000; leave it empty for no limit.`);
      return;
    }
    setProblem(null);
    void update({ maxUploadKBps: maxUploadKBps!, maxDownloadKBps: maxDownloadKBps! }, 'The bandwidth limits');
  };
  return (
    <form className="panel" aria-labelledby="bandwidth-title" onSubmit={(event) => {
      event.preventDefault();
      save();
    }}>
      <h3 id="bandwidth-title">Bandwidth</h3>
      <p className="field-help" id="bandwidth-help">How fast design-sync may send and receive, all files together, so others on your network keep theirs. Empty: as fast as the connection allows. A change applies at once, to files already on their way too.</p>
      <div className="field">
        <label htmlFor="max-upload-rate">Upload limit (KB/s)</label>
        <input id="max-upload-rate" inputMode="numeric" value={upload} placeholder="No limit" aria-describedby="bandwidth-help"
          aria-invalid={problem?.includes('upload') ? true : undefined} onChange={(event) => setUpload(event.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="max-download-rate">Download limit (KB/s)</label>
        <input id="max-download-rate" inputMode="numeric" value={download} placeholder="No limit" aria-describedby="bandwidth-help"
          aria-invalid={problem?.includes('download') ? true : undefined} onChange={(event) => setDownload(event.target.value)} />
      </div>
      {problem ? <p className="field-error" role="alert">{problem}</p> : null}
      <div className="form-actions"><button type="submit">Save the limits</button></div>
    </form>
  );
}
