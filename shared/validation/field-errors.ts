/** Rails-style validation messages: field name → messages, e.g. { name: ["can't be blank"] }. */
export type FieldErrors = Record<string, string[]>;

export function addFieldError(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}

export function hasFieldErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}

/** "name can't be blank; excerpt is too long (maximum is 300 characters)" */
export function describeFieldErrors(errors: FieldErrors): string {
  return Object.entries(errors)
    .flatMap(([field, messages]) => messages.map((message) => `${field} ${message}`))
    .join('; ');
}
