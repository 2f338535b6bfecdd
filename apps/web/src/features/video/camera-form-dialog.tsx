// Adding or editing a camera: its name, its address (checked by the contract's own rule before it is sent)
// and, when the camera asks for one, its sign-in. A stored sign-in is never shown: left empty it is kept, and
// it can be removed.
import { useEffect, useMemo } from 'react';
import { App as AntApp, Checkbox, Form, Input, Modal, type FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  CAMERA_LOGIN_MAX,
  CAMERA_NAME_MAX,
  CAMERA_URL_MAX,
  cameraUrlProblem,
  V,
  type CameraItem,
} from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { applyServerErrors } from '../../components/server-errors.ts';
import { useAddCamera, useUpdateCamera } from './api.ts';

interface FormValues {
  name: string;
  url: string;
  username?: string;
  password?: string;
  clearLogin?: boolean;
}

/** The console's words for the contract's message keys about camera addresses. */
const URL_MESSAGES: Record<string, string> = {
  [V.required]: 'validation.required',
  [V.tooLong]: 'validation.tooLong',
  [V.invalid]: 'video.validation.invalid',
  'validation.cameraScheme': 'video.validation.cameraScheme',
  'validation.cameraChars': 'video.validation.cameraChars',
  'validation.cameraUserInfo': 'video.validation.cameraUserInfo',
};

export function CameraFormDialog({
  token,
  camera,
  open,
  onClose,
}: {
  token: string;
  /** The camera to edit; none to add one. */
  camera: CameraItem | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<FormValues>();
  const add = useAddCamera();
  const update = useUpdateCamera();
  const clearLogin = Form.useWatch('clearLogin', form);

  useEffect(() => {
    if (open) form.setFieldsValue({ name: camera?.name ?? '', url: camera?.url ?? '', clearLogin: false });
  }, [open, camera, form]);

  const rules = useMemo(
    () => ({
      name: [
        { required: true, whitespace: true, message: t('validation.required') },
        { max: CAMERA_NAME_MAX, message: t('validation.tooLong') },
      ] as FormRule[],
      url: [
        {
          validator: async (_rule, value: unknown) => {
            const problem = cameraUrlProblem(typeof value === 'string' ? value.trim() : '');
            if (problem) throw new Error(t(URL_MESSAGES[problem] ?? 'video.validation.invalid'));
          },
        },
      ] as FormRule[],
      username: [
        { max: CAMERA_LOGIN_MAX, message: t('validation.tooLong') },
        ({ getFieldValue }) => ({
          validator: async (_rule, value: unknown) => {
            if (!value && getFieldValue('password')) throw new Error(t('video.validation.passwordNeedsUser'));
          },
        }),
      ] as FormRule[],
      password: [{ max: CAMERA_LOGIN_MAX, message: t('validation.tooLong') }] as FormRule[],
    }),
    [t],
  );

  const close = () => {
    form.resetFields();
    add.reset();
    update.reset();
    onClose();
  };

  const submit = async (values: FormValues) => {
    const name = values.name.trim();
    const url = values.url.trim();
    const username = values.username ?? '';
    const password = values.password ?? '';
    try {
      if (camera) {
        await update.mutateAsync({
          token,
          id: camera.id,
          name,
          url,
          // empty fields keep a stored sign-in; the box removes it
          ...(values.clearLogin ? { username: null } : username ? { username, password } : {}),
        });
      } else {
        await add.mutateAsync({ token, name, url, ...(username ? { username, password } : {}) });
      }
      void message.success(t('video.saved'));
      close();
    } catch (error) {
      applyServerErrors(form, error);
      if (!(error instanceof ApiError) || Object.keys(error.fields).length === 0) {
        void message.error(error instanceof Error && error.message ? error.message : t('errors.network'));
      }
    }
  };

  return (
    <Modal
      open={open}
      title={camera ? t('video.form.editTitle', { name: camera.name }) : t('video.form.addTitle')}
      okText={t('video.form.save')}
      cancelText={t('common.actions.cancel')}
      onOk={() => form.submit()}
      onCancel={close}
      confirmLoading={add.isPending || update.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="camera" onFinish={(v) => void submit(v)} requiredMark>
        <Form.Item name="name" label={t('video.form.name')} rules={rules.name} required>
          <Input autoFocus maxLength={CAMERA_NAME_MAX} autoComplete="off" />
        </Form.Item>
        <Form.Item name="url" label={t('video.form.url')} rules={rules.url} extra={t('video.form.urlHelp')} required>
          <Input
            maxLength={CAMERA_URL_MAX}
            autoComplete="off"
            spellCheck={false}
            inputMode="url"
            placeholder={t('video.form.urlPlaceholder')}
            style={{ fontFamily: 'monospace' }}
          />
        </Form.Item>
        <Form.Item
          name="username"
          label={t('video.form.username')}
          rules={rules.username}
          dependencies={['password']}
          extra={camera?.hasLogin ? t('video.form.keepLogin') : t('video.form.loginHelp')}
        >
          <Input maxLength={CAMERA_LOGIN_MAX} autoComplete="off" spellCheck={false} disabled={clearLogin === true} />
        </Form.Item>
        <Form.Item name="password" label={t('video.form.password')} rules={rules.password}>
          <Input.Password maxLength={CAMERA_LOGIN_MAX} autoComplete="new-password" disabled={clearLogin === true} />
        </Form.Item>
        {camera?.hasLogin ? (
          <Form.Item name="clearLogin" valuePropName="checked" style={{ marginBottom: 0 }}>
            <Checkbox>{t('video.form.clearLogin')}</Checkbox>
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}
