// /baoxiu/add[?token=…]: the repair request form. Opened from a set, the set is chosen already; otherwise the
// user picks one of the sets they see. Contact and phone start as the user's own. Pictures (up to six JPEG,
// PNG or WebP of at most 10 MB each; a phone offers its camera) are previewed before sending and checked here
// first; the server checks them again by their content. The upload shows its progress; a request sent opens
// its page, where its handling can be followed.
import { useMemo, useState } from 'react';
import { App as AntApp, Button, Card, Form, Input, Progress, Typography, Upload, type UploadFile } from 'antd';
import { CameraOutlined, SendOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  REPAIR_ADDRESS_MAX,
  REPAIR_CONTACT_MAX,
  REPAIR_DESCRIPTION_MAX,
  REPAIR_PHONE_MAX,
  REPAIR_PICTURE_BYTES_MAX,
  REPAIR_PICTURE_TYPES,
  REPAIR_PICTURES_MAX,
  isPhoneNumber,
} from '@genset/protocol';
import { useFormRules } from '../../components/form-rules.ts';
import { applyServerErrors } from '../../components/server-errors.ts';
import { useSession } from '../../stores/session.ts';
import { SetPicker } from '../history/set-picker.tsx';
import { useSubmitRepair, type RepairFormValues } from './api.ts';
import { repairLinks } from './links.ts';
import './repairs.css';

const MB = Math.round(REPAIR_PICTURE_BYTES_MAX / (1024 * 1024));

interface FormFields {
  token: string;
  contact: string;
  phone: string;
  address: string;
  description: string;
}

/** The set picker as a form control (the form gives it its value and change handler). */
function SetField(props: { value?: string; onChange?: (token: string | undefined) => void; placeholder: string }) {
  return (
    <SetPicker
      value={props.value}
      onChange={(token) => props.onChange?.(token)}
      placeholder={props.placeholder}
      style={{ width: '100%' }}
    />
  );
}

export function RepairAddPage() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const preset = search.get('token') ?? '';
  const user = useSession((s) => s.user);
  const rules = useFormRules();
  const [form] = Form.useForm<FormFields>();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const submit = useSubmitRepair((share) => setProgress(Math.round(share * 100)));

  const initial = useMemo<Partial<FormFields>>(
    () => ({
      token: preset || undefined,
      contact: user?.nickname ?? '',
      phone: user && isPhoneNumber(user.account) ? user.account : '',
    }),
    [preset, user],
  );

  /** Keeps a picture in the list only when it is a taken type and size; says why otherwise. */
  const beforeUpload = (file: File) => {
    if (!(REPAIR_PICTURE_TYPES as readonly string[]).includes(file.type)) {
      void message.error(t('repairs.form.notPicture', { name: file.name }));
      return Upload.LIST_IGNORE;
    }
    if (file.size > REPAIR_PICTURE_BYTES_MAX) {
      void message.error(t('repairs.form.tooLarge', { name: file.name, mb: MB }));
      return Upload.LIST_IGNORE;
    }
    return false; // kept here and sent with the form
  };

  const onFinish = async (values: FormFields) => {
    const pictures = files.map((f) => f.originFileObj).filter((f): f is NonNullable<typeof f> => Boolean(f));
    const request: RepairFormValues = { ...values, pictures };
    setProgress(0);
    try {
      const { token } = await submit.mutateAsync(request);
      void message.success(t('repairs.form.sent'));
      void navigate(repairLinks.detail(token), { replace: true });
    } catch (error) {
      applyServerErrors(form, error);
    } finally {
      setProgress(null);
    }
  };

  const sending = submit.isPending;

  return (
    <Card title={<h2 className="repair-title">{t('repairs.form.title')}</h2>} className="repair-page repair-form-card">
      <Form
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={(v) => void onFinish(v)}
        disabled={sending}
        data-testid="repair-form"
        className="repair-form"
      >
        <Form.Item name="token" label={t('repairs.fields.set')} rules={rules.required}>
          <SetField placeholder={t('repairs.form.setPlaceholder')} />
        </Form.Item>
        <Form.Item name="contact" label={t('repairs.fields.contact')} rules={rules.required}>
          <Input maxLength={REPAIR_CONTACT_MAX} autoComplete="name" />
        </Form.Item>
        <Form.Item
          name="phone"
          label={t('repairs.fields.phone')}
          rules={[
            ...rules.required,
            {
              validator: (_r, value: unknown) =>
                typeof value !== 'string' || value.trim() === '' || isPhoneNumber(value.trim())
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('repairs.validation.phone'))),
            },
          ]}
        >
          <Input maxLength={REPAIR_PHONE_MAX} type="tel" inputMode="tel" autoComplete="tel" />
        </Form.Item>
        <Form.Item name="address" label={t('repairs.fields.address')} rules={rules.required}>
          <Input.TextArea
            maxLength={REPAIR_ADDRESS_MAX}
            autoSize={{ minRows: 1, maxRows: 3 }}
            autoComplete="street-address"
          />
        </Form.Item>
        <Form.Item name="description" label={t('repairs.fields.description')} rules={rules.required}>
          <Input.TextArea maxLength={REPAIR_DESCRIPTION_MAX} showCount autoSize={{ minRows: 3, maxRows: 8 }} />
        </Form.Item>
        <Form.Item
          label={t('repairs.fields.pictures')}
          extra={t('repairs.form.picturesHelp', { max: REPAIR_PICTURES_MAX, mb: MB })}
        >
          <Upload
            listType="picture-card"
            accept={REPAIR_PICTURE_TYPES.join(',')}
            multiple
            maxCount={REPAIR_PICTURES_MAX}
            fileList={files}
            beforeUpload={beforeUpload}
            onChange={({ fileList }) => setFiles(fileList.slice(0, REPAIR_PICTURES_MAX))}
            showUploadList={{ showPreviewIcon: false }}
            data-testid="repair-pictures-input"
          >
            {files.length < REPAIR_PICTURES_MAX ? (
              <button type="button" className="repair-upload-button">
                <CameraOutlined />
                <span>{t('repairs.form.addPicture')}</span>
              </button>
            ) : null}
          </Upload>
        </Form.Item>
        {progress !== null ? (
          <div className="repair-progress" role="status" aria-live="polite">
            <Typography.Text type="secondary">{t('repairs.form.sending')}</Typography.Text>
            <Progress
              percent={progress}
              size="small"
              aria-label={t('repairs.form.sending')}
              data-testid="repair-progress"
            />
          </div>
        ) : null}
        <Form.Item className="repair-form-actions">
          <Button
            type="primary"
            htmlType="submit"
            icon={<SendOutlined />}
            loading={sending}
            block
            data-testid="repair-submit"
          >
            {t('repairs.form.submit')}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
