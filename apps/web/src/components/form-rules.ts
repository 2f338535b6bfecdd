// Form rules of spec 5 with localised messages; the checks themselves come from the shared contract.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormRule } from 'antd';
import { isStrongPassword, isUsername, V } from '@genset/protocol';

function check(test: (value: string) => boolean, message: string): FormRule {
  return {
    validator: (_rule, value: unknown) =>
      typeof value !== 'string' || value === '' || test(value) ? Promise.resolve() : Promise.reject(new Error(message)),
  };
}

export function useFormRules() {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      required: [{ required: true, whitespace: true, message: t(V.required) }] as FormRule[],
      username: [
        { required: true, whitespace: true, message: t(V.required) },
        check((v) => isUsername(v.trim()), t(V.username)),
      ] as FormRule[],
      signInPassword: [{ required: true, message: t(V.required) }] as FormRule[],
      oldPassword: [{ required: true, message: t('validation.oldPasswordRequired') }] as FormRule[],
      newPassword: [
        { required: true, message: t('validation.newPasswordRequired') },
        check(isStrongPassword, t(V.passwordRule)),
      ] as FormRule[],
      /** Repeat of the field `newPassword`: required and equal. */
      repeatPassword: [
        { required: true, message: t('validation.repeatRequired') },
        ({ getFieldValue }) => ({
          validator: (_rule, value: unknown) =>
            !value || value === getFieldValue('newPassword')
              ? Promise.resolve()
              : Promise.reject(new Error(t(V.passwordMismatch))),
        }),
      ] as FormRule[],
      smsCode: [{ required: true, message: t(V.required) }, check((v) => /^\d{6}$/.test(v), t(V.code))] as FormRule[],
    }),
    [t],
  );
}
