import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from './api-client';

/**
 * Puts field errors of a 400 (`errors: [{path, message}]`) under the matching inputs. Returns true when at
 * least one landed on a field of this form.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): boolean {
  if (!isApiError(error) || !error.errors) return false;
  let applied = false;
  for (const issue of error.errors) {
    const field = fields.find((name) => name === issue.path);
    if (field) {
      setError(field, { type: 'server', message: issue.message });
      applied = true;
    }
  }
  return applied;
}
