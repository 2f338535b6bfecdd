// Field rules of the protocol forms, with the document's own limits (keys in lower_snake_case, unique in
// their list; registers 0–65535) and localised messages.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormRule } from 'antd';
import type { NamePath } from 'antd/es/form/interface';
import { PROTOCOL_KEY_MAX, V } from '@genset/protocol';

export const KEY_PATTERN = /^[a-z][a-z0-9_]*$/;
export const PROTOCOL_KEY_PATTERN = /^[a-z0-9][a-z0-9_.-]*$/;
export const TEXT_MAX = 200;

/** Parses "1, 2, 3" into numbers; null when any part is not a number. */
export function parseNumberList(text: string | undefined): number[] | null {
  const parts = (text ?? '')
    .split(/[,;\s]+/)
    .map((part) => part.trim())
    .filter(Boolean);
  const numbers = parts.map(Number);
  return numbers.every((n) => Number.isFinite(n)) ? numbers : null;
}

/** A rule that holds when `ok` says so of the value (other fields' values through `get`), else says `message`. */
export function check(ok: (value: unknown, get: (name: NamePath) => unknown) => boolean, message: string): FormRule {
  return ({ getFieldValue }) => ({
    validator: (_rule, value: unknown) =>
      ok(value, getFieldValue) ? Promise.resolve() : Promise.reject(new Error(message)),
  });
}

export function useDocumentRules() {
  const { t } = useTranslation();
  return useMemo(() => {
    const required: FormRule = { required: true, message: t(V.required) };
    return {
      required: [required] as FormRule[],
      text: [
        { required: true, whitespace: true, message: t(V.required) },
        { max: TEXT_MAX, message: t(V.tooLong) },
      ] as FormRule[],
      /** A key in lower_snake_case that no other entry of the list (`taken`) uses. */
      key: (taken: readonly string[]): FormRule[] => [
        { required: true, whitespace: true, message: t(V.required) },
        { max: 60, message: t(V.tooLong) },
        { pattern: KEY_PATTERN, message: t('protocols.rules.key') },
        {
          validator: (_rule, value: unknown) =>
            typeof value === 'string' && taken.includes(value.trim())
              ? Promise.reject(new Error(t('protocols.rules.keyTaken')))
              : Promise.resolve(),
        },
      ],
      protocolKey: [
        { required: true, whitespace: true, message: t(V.required) },
        { max: PROTOCOL_KEY_MAX, message: t(V.tooLong) },
        { pattern: PROTOCOL_KEY_PATTERN, message: t('protocols.rules.protocolKey') },
      ] as FormRule[],
      address: [required, { type: 'integer', min: 0, max: 65535, message: t('protocols.rules.address') }] as FormRule[],
      numberList: [
        { required: true, whitespace: true, message: t(V.required) },
        {
          validator: (_rule, value: unknown) =>
            typeof value !== 'string' || value.trim() === '' || parseNumberList(value)
              ? Promise.resolve()
              : Promise.reject(new Error(t('protocols.rules.numberList'))),
        },
      ] as FormRule[],
    };
  }, [t]);
}
