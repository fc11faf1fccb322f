import { useEffect, useId, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { HeldBackGroupView, NeverSentView } from '../../../../shared';
import { builtInRuleLabel, builtInRuleTool, heldBackGroupWords } from '../../../../shared/sync/held-back-words';
import { wordedOr } from '../../../../shared/i18n/engine-words';
import { contract } from '../../contract/contract';
import { problemWords } from '../problem-words';

/** The paths a group names, "…" when there are more. */
function examplesOf(group: HeldBackGroupView, intl: IntlShape): string {
  const examples = intl.formatList(group.examples, { type: 'unit', style: 'short' });
  return group.count > group.examples.length ? intl.formatMessage({ id: 'sync.neverSent.examplesMore' }, { examples }) : examples;
}

const code = (chunks: ReactNode[]) => <code>{chunks}</code>;
const strong = (chunks: ReactNode[]) => <strong>{chunks}</strong>;

/**
 * What is never sent: what the scans held back and why (kept current by the sync view's events), the person's ignore
 * file to edit, and the built-in list beside it, read-only, each entry with where its tool documents the habit.
 */
export function NeverSentPanel({ heldBack, folderChosen }: { heldBack: HeldBackGroupView[]; folderChosen: boolean }) {
  const intl = useIntl();
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
      } else setProblem(problemWords(outcome.problem, intl));
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
      setProblem(outcome.problem.kind === 'validation' && !outcome.problem.words ? outcome.problem.message : problemWords(outcome.problem, intl));
      return;
    }
    setProblem(null);
    setSaved(true);
    setView(outcome.value);
    setText(outcome.value.ignoreFile.text);
  };

  return (
    <section className="panel never-sent" aria-labelledby="never-sent-title">
      <h3 id="never-sent-title"><FormattedMessage id="sync.neverSent.title" /></h3>
      {heldBack.length === 0 ? <p className="empty-inline"><FormattedMessage id="sync.neverSent.nothingHeld" /></p> : (
        <ul className="held-list" aria-label={intl.formatMessage({ id: 'sync.neverSent.heldLabel' })}>
          {heldBack.map((group) => (
            <li key={group.key} data-testid="held-back-group">
              <span>{heldBackGroupWords(group, intl)}</span>
              <span className="held-examples">{examplesOf(group, intl)}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="never-sent-columns">
        <form className="field ignore-editor" aria-label={intl.formatMessage({ id: 'sync.neverSent.editorLabel' })} onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}>
          <label htmlFor={editorId}>
            {view?.ignoreFile.path
              ? <FormattedMessage id="sync.neverSent.yourFileAt" values={{ path: view.ignoreFile.path, code }} />
              : <FormattedMessage id="sync.neverSent.yourFile" />}
          </label>
          <p id={helpId} className="field-help"><FormattedMessage id="sync.neverSent.help" values={{ code }} /></p>
          <textarea id={editorId} rows={6} spellCheck={false} value={text} disabled={!folderChosen}
            aria-describedby={problem ? `${helpId} ${problemId}` : helpId} aria-invalid={problem ? true : undefined}
            onChange={(event) => {
              setText(event.target.value);
              setSaved(false);
            }} />
          {problem ? <p id={problemId} className="field-error" role="alert">{problem}</p> : null}
          {view?.ignoreFile.problem && !problem ? <p className="field-error">{wordedOr(intl, view.ignoreFile.problemWords, view.ignoreFile.problem)}</p> : null}
          {!folderChosen ? <p className="field-help"><FormattedMessage id="sync.neverSent.chooseFolderFirst" /></p> : null}
          <div className="form-actions">
            <button type="submit" className="primary" disabled={!folderChosen || !changed || saving} aria-busy={saving}>
              <FormattedMessage id={saving ? 'sync.neverSent.saving' : 'sync.neverSent.save'} />
            </button>
            {changed ? <button type="button" onClick={() => {
              setText(view.ignoreFile.text);
              setProblem(null);
            }}><FormattedMessage id="sync.neverSent.undo" /></button> : null}
            {saved && !changed ? <span role="status"><FormattedMessage id="sync.neverSent.saved" /></span> : null}
          </div>
        </form>
        <details className="built-in-list">
          <summary>
            {view ? <FormattedMessage id="sync.neverSent.builtInCount" values={{ count: view.builtIn.length }} /> : <FormattedMessage id="sync.neverSent.builtIn" />}
          </summary>
          {view ? (
            <ul aria-label={intl.formatMessage({ id: 'sync.neverSent.builtIn' })}>
              {view.builtIn.map((rule) => (
                <li key={rule.id}>
                  <FormattedMessage id="sync.neverSent.rule" values={{
                    tool: builtInRuleTool(rule, intl), label: builtInRuleLabel(rule, intl), strong,
                    patterns: rule.patterns.map((pattern) => <code key={pattern}>{pattern}</code>),
                  }} />
                  <span className="rule-source"><FormattedMessage id="sync.neverSent.documented" values={{ source: rule.source }} /></span>
                </li>
              ))}
            </ul>
          ) : null}
        </details>
      </div>
    </section>
  );
}
