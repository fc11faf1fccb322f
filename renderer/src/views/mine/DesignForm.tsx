import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { FieldErrors, ImageView } from '../../../../shared';
import { DEFAULT_LICENSE, LICENSE_CODES, LICENSES } from '../../../../shared/licenses/licenses';
import { LIMITS } from '../../../../shared/validation/limits';
import type { DesignFormFields, SaveResult } from '../../stores/my-designs-store';
import type { Availability } from '../availability';
import { licenseMeaning, licenseTitle } from '../design/license-words';
import { fieldLabelWords, fieldMessageWords, labelledFieldErrorWords } from '../problem-words';
import { ProblemBanner } from '../shell/ProblemBanner';
import { InlineConfirm } from './InlineConfirm';

/** The fields this form shows beside their own message; an error of any other is said in the form's banner. */
const SHOWN_FIELDS = new Set(['name', 'excerpt', 'license', 'primaryImageId']);

interface DesignFormProps {
  title: string;
  initial?: Partial<DesignFormFields>;
  submitLabel: string;
  onSubmit(fields: DesignFormFields): Promise<SaveResult>;
  /** Closes the form (Cancel, or Escape: asked first when something was typed). */
  onCancel(): void;
  /** Editing: the design's images, one of which may be its cover. */
  images?: ImageView[];
  /** Whether saving can run now (why not, or that it will wait for the service). */
  availability: Availability;
}

/**
 * A design's fields, with the service's limits and its own messages; the license picker says what each license means.
 * The focus starts in its first field; Escape closes it, asking first whether to drop what was typed.
 */
export function DesignForm({ title, initial = {}, submitLabel, onSubmit, onCancel, images, availability: canSave }: DesignFormProps) {
  const id = useId();
  const intl = useIntl();
  const [started] = useState<DesignFormFields>(() => ({
    name: initial.name ?? '', excerpt: initial.excerpt ?? '', license: initial.license ?? DEFAULT_LICENSE, description: initial.description ?? '',
    primaryImageId: initial.primaryImageId ?? null,
  }));
  const [fields, setFields] = useState<DesignFormFields>(started);
  const firstField = useRef<HTMLInputElement>(null);
  useEffect(() => firstField.current?.focus(), []);
  const [askingToDiscard, setAskingToDiscard] = useState(false);
  const focusBeforeAsking = useRef<HTMLElement | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const change = (field: keyof DesignFormFields) => (event: { target: { value: string } }) => setFields({ ...fields, [field]: event.target.value });
  const errorOf = (field: string) => errors[field]?.map((text) => labelledFieldErrorWords(field, fieldMessageWords(text, intl), intl)).join('. ');
  // Only an edit of the fields waits for the service: a new cover needs it at once.
  const coverNeedsService = canSave.enabled && canSave.waits;
  const saveNote = canSave.enabled ? canSave.note : canSave.reason;

  async function submit(event: { preventDefault(): void }) {
    event.preventDefault();
    setSaving(true);
    // The cover is sent only when the person changed it (an unchanged one must not make an offline edit wait on it).
    const { primaryImageId, ...rest } = fields;
    const result = await onSubmit(images && primaryImageId !== (initial.primaryImageId ?? null) ? fields : rest);
    setSaving(false);
    if (result.ok) return;
    setErrors(result.fieldErrors);
    const elsewhere = Object.entries(result.fieldErrors).filter(([name]) => !SHOWN_FIELDS.has(name) || (name === 'primaryImageId' && !images));
    setMessage(Object.keys(result.fieldErrors).length === 0 ? result.message
      : [intl.formatMessage({ id: 'problems.fieldsNeedChange' }), ...elsewhere.flatMap(([name, texts]) => texts.map((text) => `${labelledFieldErrorWords(name, fieldMessageWords(text, intl), intl)}.`))].join(' '));
  }

  function onKey(event: KeyboardEvent) {
    if (event.key !== 'Escape' || event.defaultPrevented || askingToDiscard) return;
    event.preventDefault();
    const typed = (Object.keys(started) as (keyof DesignFormFields)[]).some((name) => fields[name] !== started[name]);
    if (!typed) return onCancel();
    focusBeforeAsking.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setAskingToDiscard(true);
  }
  function keepEditing() {
    setAskingToDiscard(false);
    (focusBeforeAsking.current ?? firstField.current)?.focus();
  }

  const field = (name: 'name' | 'excerpt', label: string, max: number) => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input id={`${id}-${name}`} ref={name === 'name' ? firstField : undefined} value={fields[name]} onChange={change(name)} aria-invalid={errors[name] ? true : undefined}
        aria-describedby={`${id}-${name}-help`} />
      <p id={`${id}-${name}-help`} className={errors[name] ? 'field-error' : 'field-help'}>
        {errorOf(name) ?? intl.formatMessage({ id: 'mine.form.characters' }, { count: [...fields[name]].length, max })}
      </p>
    </div>
  );

  return (
    <form className="design-form" aria-label={title} onSubmit={(event) => void submit(event)} onKeyDown={onKey} noValidate>
      <h3>{title}</h3>
      <ProblemBanner problem={message} />
      {field('name', fieldLabelWords('name', intl), LIMITS.designNameMax)}
      {field('excerpt', fieldLabelWords('excerpt', intl), LIMITS.designExcerptMax)}
      <div className="field">
        <label htmlFor={`${id}-license`}>{fieldLabelWords('license', intl)}</label>
        <select id={`${id}-license`} value={fields.license} onChange={change('license')} aria-describedby={`${id}-license-help`}>
          {LICENSE_CODES.map((code) => <option key={code} value={code}>{licenseTitle(intl, LICENSES[code])}</option>)}
        </select>
        <p id={`${id}-license-help`} className={errors.license ? 'field-error' : 'field-help'}>
          {errorOf('license') ?? (LICENSES[fields.license].attributionRequired
            ? intl.formatMessage({ id: 'mine.form.licenseCredit' }, { meaning: licenseMeaning(intl, LICENSES[fields.license]) })
            : licenseMeaning(intl, LICENSES[fields.license]))}
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${id}-description`}>{fieldLabelWords('description', intl)}</label>
        <textarea id={`${id}-description`} rows={5} value={fields.description} onChange={change('description')} />
      </div>
      {images ? (
        <fieldset className="field cover-picker">
          <legend>{fieldLabelWords('primaryImageId', intl)}</legend>
          {coverNeedsService && images.length > 0 ? <p id={`${id}-cover-help`} className="field-help"><FormattedMessage id="mine.form.coverNeedsService" /></p> : null}
          {images.length === 0 ? <p className="field-help"><FormattedMessage id="mine.form.noImages" /></p> : (
            <div className="cover-options">
              {images.map((image) => (
                <label key={image.id} className="cover-option">
                  <input type="radio" name={`${id}-cover`} checked={fields.primaryImageId === image.id}
                    disabled={coverNeedsService} aria-describedby={coverNeedsService ? `${id}-cover-help` : undefined}
                    onChange={() => setFields({ ...fields, primaryImageId: image.id })} />
                  <img src={image.thumbnailUrl} alt="" loading="lazy" width={96} height={72} />
                  <span>{image.name}</span>
                </label>
              ))}
            </div>
          )}
          {errors.primaryImageId ? <p className="field-error">{errorOf('primaryImageId')}</p> : null}
        </fieldset>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saving || !canSave.enabled} aria-describedby={saveNote ? `${id}-save-note` : undefined}>
          {saving ? <FormattedMessage id="mine.form.saving" /> : submitLabel}
        </button>
        <button type="button" onClick={onCancel}><FormattedMessage id="mine.form.cancel" /></button>
        {saveNote ? <span id={`${id}-save-note`} className="action-reason" data-testid="action-reason">{saveNote}</span> : null}
      </div>
      {askingToDiscard ? (
        <InlineConfirm label={intl.formatMessage({ id: 'mine.form.discard.label' })} confirmText={intl.formatMessage({ id: 'mine.form.discard.confirm' })}
          confirmClass="danger" confirmDisabled={false} describedBy={undefined}
          onConfirm={onCancel} cancelText={intl.formatMessage({ id: 'mine.form.discard.keep' })} onCancel={keepEditing}>
          <FormattedMessage id="mine.form.discard.question" />
        </InlineConfirm>
      ) : null}
    </form>
  );
}
