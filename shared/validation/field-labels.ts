import type { FieldErrors } from './field-errors';

/**
 * The words the window uses for each field the service (or the contract) names: a field error is said with the label
 * the person sees beside the field ("Summary can't be blank", never "excerpt can't be blank").
 */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  name: 'Name',
  excerpt: 'Summary',
  license: 'License',
  description: 'Description',
  primary_image_id: 'Cover image',
  primaryImageId: 'Cover image',
  state: 'Publishing state',
  tags: 'Tags',
  file: 'File',
  fileName: 'File name',
  serviceUrl: 'Service address',
  webUrl: 'Web address',
  cacheLimitMb: 'Image cache limit',
  catalogueRefreshMinutes: 'Catalogue refresh interval',
  reviewBeforePublishing: 'Review files before they are published',
  path: 'Sync folder',
};

/** The window's label of a field; a field without one is said in words made of its name ("screen_name" → "Screen name"). */
export function fieldLabel(field: string): string {
  const known = FIELD_LABELS[field];
  if (known) return known;
  const words = field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_.-]+/g, ' ').trim().toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'This field';
}

/** One field error as a sentence with the field's label; `base` (the design as a whole) is said as it is. */
export function labelledFieldError(field: string, message: string): string {
  if (field === 'base') return message ? message[0]!.toUpperCase() + message.slice(1) : message;
  return `${fieldLabel(field)} ${message}`;
}

/** Every field error as a sentence with its label: ["Summary can't be blank", "Name is too long (maximum is 255 characters)"]. */
export function labelledFieldErrors(errors: FieldErrors): string[] {
  return Object.entries(errors).flatMap(([field, messages]) => messages.map((message) => labelledFieldError(field, message)));
}

/** "Summary can't be blank; Name is too long (maximum is 255 characters)": the field errors in the window's words. */
export function describeLabelledFieldErrors(errors: FieldErrors): string {
  return labelledFieldErrors(errors).join('; ');
}
