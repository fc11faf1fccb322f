import { useEffect, useId, useState } from 'react';
import type { HeldBackGroupView, NeverSentView } from '../../../../shared';
import { heldBackGroupWords } from '../../../../shared/sync/held-back-words';
import { contract } from '../../contract/contract';
import { problemWords } from '../problem-words';

/** The paths a group names, "…" when there are more. */
const examplesOf = (group: HeldBackGroupView) => `${group.examples.join(', ')}${group.count > group.examples.length ? ', …' : ''}`;

/**
 * What is never sent: what the scans held back and why (kept current by the sync view's events), the person's ignore
 * file to edit, and the built-in list beside it, read-only, each entry with where its tool documents the habit.
 */
export function NeverSentPanel({ heldBack, folderChosen }: { heldBack: HeldBackGroupView[]; folderChosen: boolean }) {
  const [view, setView] = useState<NeverSentView | null>(null);
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const editorId = useId();
  const helpId = useId();
  const problemId = useId();

  useEffect(() => {
    let current = true;
    void contract.request('sync.neverSent', {}).then((outcome) => {
      if (!current) return;
      if (outcome.ok) {
        setView(outcome.value);
        setText(outcome.value.ignoreFile.text);
      } else setProblem(problemWords(outcome.problem));
    });
    return () => {
      current = false;
    };
  }, [folderChosen]);

  const changed = view !== null && text !== view.ignoreFile.text;
  const save = async () => {
    setSaving(true);
    setSaved(false);
    const outcome = await contract.request('sync.saveIgnoreFile', { text });
    setSaving(false);
    if (!outcome.ok) {
      setProblem(outcome.problem.kind === 'validation' ? outcome.problem.message : problemWords(outcome.problem));
      return;
    }
    setProblem(null);
    setSaved(true);
    setView(outcome.value);
    setText(outcome.value.ignoreFile.text);
  };

  return (
    <section className="panel never-sent" aria-labelledby="never-sent-title">
      <h3 id="never-sent-title">Never sent</h3>
      {heldBack.length === 0 ? <p className="empty-inline">Nothing was held back in the last scan.</p> : (
        <ul className="held-list" aria-label="Held back in the last scan">
          {heldBack.map((group) => (
            <li key={group.key} data-testid="held-back-group">
              <span>{heldBackGroupWords(group)}</span>
              <span className="held-examples">{examplesOf(group)}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="never-sent-columns">
        <form className="field ignore-editor" aria-label="Ignore file" onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}>
          <label htmlFor={editorId}>Your ignore file{view?.ignoreFile.path ? <> (<code>{view.ignoreFile.path}</code>)</> : null}</label>
          <p id={helpId} className="field-help">One pattern a line, as in .gitignore: <code>*.bak</code>, <code>renders/</code>, <code>draft-*</code>; <code>#</code> starts a note. A file sent before it matched stays on the service.</p>
          <textarea id={editorId} rows={6} spellCheck={false} value={text} disabled={!folderChosen}
            aria-describedby={problem ? `${helpId} ${problemId}` : helpId} aria-invalid={problem ? true : undefined}
            onChange={(event) => {
              setText(event.target.value);
              setSaved(false);
            }} />
          {problem ? <p id={problemId} className="field-error" role="alert">{problem}</p> : null}
          {view?.ignoreFile.problem && !problem ? <p className="field-error">{view.ignoreFile.problem}</p> : null}
          {!folderChosen ? <p className="field-help">Choose a sync folder first: the ignore file is kept in it.</p> : null}
          <div className="form-actions">
            <button type="submit" className="primary" disabled={!folderChosen || !changed || saving} aria-busy={saving}>{saving ? 'Saving…' : 'Save ignore file'}</button>
            {changed ? <button type="button" onClick={() => {
              setText(view.ignoreFile.text);
              setProblem(null);
            }}>Undo changes</button> : null}
            {saved && !changed ? <span role="status">Saved: the folder was looked at again.</span> : null}
          </div>
        </form>
        <details className="built-in-list">
          <summary>Built-in list{view ? ` (${view.builtIn.length} entries, always applied)` : ''}</summary>
          {view ? (
            <ul aria-label="Built-in list">
              {view.builtIn.map((rule) => (
                <li key={rule.id}>
                  <strong>{rule.tool}</strong> — {rule.label}: {rule.patterns.map((pattern) => <code key={pattern}>{pattern}</code>)}
                  <span className="rule-source">Documented at {rule.source}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </details>
      </div>
    </section>
  );
}
