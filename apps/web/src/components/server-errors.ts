// Puts the server's per-field messages (400 data.fields) on the form's fields.
import type { FormInstance } from 'antd';
import { ApiError } from '../api/request.ts';

export function applyServerErrors(form: FormInstance, error: unknown): void {
  if (!(error instanceof ApiError)) return;
  const known = new Set(Object.keys(form.getFieldsValue(true) as object));
  const fields = Object.entries(error.fields)
    .filter(([name]) => known.has(name))
    .map(([name, message]) => ({ name, errors: [message] }));
  if (fields.length) form.setFields(fields);
}
