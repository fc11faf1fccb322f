import { DESIGN_STATES } from '../resources/design';
import { LICENSE_CODES, isLicenseCode, type LicenseCode } from '../licenses/licenses';
import { addFieldError, type FieldErrors } from './field-errors';
import { LIMITS } from './limits';

/** The `design` hash of POST /v1/designs and PATCH/PUT /v1/designs/:id (spec §4.1). */
export interface DesignInput {
  name?: string;
  excerpt?: string;
  license?: LicenseCode;
  description?: string;
  primary_image_id?: number | null;
  state?: (typeof DESIGN_STATES)[number];
}

export type DesignInputResult = { ok: true; value: DesignInput } | { ok: false; errors: FieldErrors };

const KNOWN_FIELDS = new Set(['name', 'excerpt', 'license', 'description', 'primary_image_id', 'state']);

function optionalInteger(raw: unknown): number | null | undefined | typeof NaN {
  if (raw === undefined) return undefined;
  if (raw === null || raw === '') return null;
  const value = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : raw;
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : NaN;
}

/**
 * Checks a design hash as the service receives it (JSON or form-encoded, so numbers may be strings).
 * On create, name and excerpt must be there; on update, a field left out keeps its value (the design
 * as a whole must still have them, as a Rails model validation would), so `{ state: 'published' }` alone is valid.
 * primary_image_id and state are accepted only on update.
 */
export function validateDesignInput(raw: unknown, mode: 'create' | 'update'): DesignInputResult {
  const errors: FieldErrors = {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, errors: { design: ['is missing: send the fields inside a "design" hash'] } };
  }
  const input = raw as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!KNOWN_FIELDS.has(key)) addFieldError(errors, key, 'is not a known field');
  }

  const value: Partial<DesignInput> = {};
  for (const [field, max] of [['name', LIMITS.designNameMax], ['excerpt', LIMITS.designExcerptMax]] as const) {
    const text = input[field];
    if (text === undefined && mode === 'update') continue;
    if (text === undefined || text === null || (typeof text === 'string' && text.trim() === '')) {
      addFieldError(errors, field, "can't be blank");
    } else if (typeof text !== 'string') {
      addFieldError(errors, field, 'must be text');
    } else if ([...text].length > max) {
      addFieldError(errors, field, `is too long (maximum is ${max} characters)`);
    } else {
      value[field] = text;
    }
  }

  if (input.license !== undefined && input.license !== null && input.license !== '') {
    if (isLicenseCode(input.license)) value.license = input.license;
    else addFieldError(errors, 'license', `is not included in the list (${LICENSE_CODES.join(', ')})`);
  }

  if (input.description !== undefined && input.description !== null) {
    if (typeof input.description === 'string') value.description = input.description;
    else addFieldError(errors, 'description', 'must be text');
  }

  if (mode === 'create') {
    if (input.primary_image_id !== undefined) addFieldError(errors, 'primary_image_id', 'can only be set on an existing design');
    if (input.state !== undefined) addFieldError(errors, 'state', 'can only be changed on an existing design');
  } else {
    const primary = optionalInteger(input.primary_image_id);
    if (Number.isNaN(primary)) addFieldError(errors, 'primary_image_id', 'must be the id of one of the design\'s images');
    else if (primary !== undefined) value.primary_image_id = primary;

    if (input.state !== undefined) {
      if ((DESIGN_STATES as readonly unknown[]).includes(input.state)) value.state = input.state as DesignInput['state'];
      else addFieldError(errors, 'state', `is not included in the list (${DESIGN_STATES.join(', ')})`);
    }
  }

  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value: value as DesignInput };
}
