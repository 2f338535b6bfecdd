// /baoxiu/detail/:token: one repair request as its requester and the service side see it: the set, contact,
// address and fault, the pictures (thumbnails; a tap shows the whole picture), and every step so far with its
// note, who and when. The service side moves it on from here: accept, start, finish, or reject with a note.
import { useState } from 'react';
import {
  App as AntApp,
  Button,
  Card,
  Descriptions,
  Flex,
  Form,
  Grid,
  Input,
  Radio,
  Result,
  Skeleton,
  Timeline,
  Typography,
} from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { REPAIR_NOTE_MAX, ResultCode, type RepairDetailResponse, type RepairState } from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { formatDateTime } from '../../components/format.ts';
import { applyServerErrors } from '../../components/server-errors.ts';
import { setLinks } from '../gensets/links.ts';
import { useRepairDetail, useUpdateRepair } from './api.ts';
import { repairLinks } from './links.ts';
import { RepairPictures } from './repair-pictures.tsx';
import { RepairStateTag, STATE_TONES } from './repair-state-tag.tsx';
import './repairs.css';

const TIMELINE_COLORS: Record<string, string> = {
  orange: 'orange',
  blue: 'blue',
  purple: 'purple',
  green: 'green',
  red: 'red',
};

function ServiceForm({ request }: { request: RepairDetailResponse }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const update = useUpdateRepair();
  const [form] = Form.useForm<{ state: RepairState; note: string }>();
  const [state, setState] = useState<RepairState | undefined>(undefined);

  const onFinish = async (values: { state: RepairState; note?: string }) => {
    try {
      await update.mutateAsync({ token: request.token, state: values.state, note: values.note ?? '' });
      void message.success(t('repairs.detail.updated'));
      form.resetFields();
      setState(undefined);
    } catch (error) {
      applyServerErrors(form, error);
    }
  };

  return (
    <Card
      size="small"
      title={<h3 className="repair-subtitle">{t('repairs.detail.handle')}</h3>}
      data-testid="repair-service"
    >
      <Form form={form} layout="vertical" onFinish={(v) => void onFinish(v)} disabled={update.isPending}>
        <Form.Item
          name="state"
          label={t('repairs.detail.nextState')}
          rules={[{ required: true, message: t('validation.required') }]}
        >
          <Radio.Group onChange={(e) => setState(e.target.value as RepairState)} className="repair-next">
            {request.next.map((s) => (
              <Radio.Button key={s} value={s}>
                <span data-testid={`repair-next-${s}`}>{t(`repairs.action.${s}`)}</span>
              </Radio.Button>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="note"
          label={t('repairs.fields.note')}
          rules={
            state === 'rejected'
              ? [{ required: true, whitespace: true, message: t('repairs.validation.rejectNote') }]
              : []
          }
        >
          <Input.TextArea
            maxLength={REPAIR_NOTE_MAX}
            showCount
            autoSize={{ minRows: 2, maxRows: 6 }}
            data-testid="repair-note"
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={update.isPending} block data-testid="repair-update">
          {t('repairs.detail.save')}
        </Button>
      </Form>
    </Card>
  );
}

export function RepairDetailPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const detail = useRepairDetail(token);
  // phones: labels above their values, the whole width for each
  const narrow = Grid.useBreakpoint().sm === false;

  if (detail.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (detail.isError) {
    const error = detail.error;
    if (error instanceof ApiError && (error.code === ResultCode.notFound || error.code === ResultCode.forbidden)) {
      return (
        <Result
          status="404"
          title={t('repairs.detail.missing.title')}
          subTitle={t('repairs.detail.missing.text')}
          extra={
            <Link to={repairLinks.list()}>
              <Button type="primary">{t('repairs.detail.back')}</Button>
            </Link>
          }
        />
      );
    }
    return <ErrorState error={error} onRetry={() => void detail.refetch()} />;
  }
  const r = detail.data;

  return (
    <Flex vertical gap={16} className="repair-page" data-testid="repair-detail">
      <Card
        title={
          <Flex align="center" gap={8} wrap>
            <h2 className="repair-title">{t('repairs.detail.title', { name: r.setName })}</h2>
            <RepairStateTag state={r.state} />
          </Flex>
        }
        extra={
          <Link to={repairLinks.list(r.service ? 'queue' : 'mine')} aria-label={t('repairs.detail.back')}>
            <ArrowLeftOutlined />
          </Link>
        }
      >
        <Descriptions
          column={{ xs: 1, sm: 1, md: 2 }}
          size="small"
          bordered
          layout={narrow ? 'vertical' : 'horizontal'}
        >
          <Descriptions.Item label={t('repairs.fields.set')}>
            <Link to={setLinks.detail(r.setToken)}>{r.setName}</Link>
          </Descriptions.Item>
          <Descriptions.Item label={t('repairs.fields.requester')}>{r.requester}</Descriptions.Item>
          <Descriptions.Item label={t('repairs.fields.contact')}>{r.contact}</Descriptions.Item>
          <Descriptions.Item label={t('repairs.fields.phone')}>
            <a href={`tel:${r.phone.replace(/[^\d+]/g, '')}`}>{r.phone}</a>
          </Descriptions.Item>
          <Descriptions.Item label={t('repairs.fields.address')} span={{ xs: 1, md: 2 }}>
            {r.address}
          </Descriptions.Item>
          <Descriptions.Item label={t('repairs.fields.description')} span={{ xs: 1, md: 2 }}>
            <Typography.Paragraph className="repair-description">{r.description}</Typography.Paragraph>
          </Descriptions.Item>
          <Descriptions.Item label={t('repairs.fields.created')}>{formatDateTime(r.createdAt)}</Descriptions.Item>
          <Descriptions.Item label={t('repairs.fields.updated')}>{formatDateTime(r.updatedAt)}</Descriptions.Item>
        </Descriptions>
        {r.pictureList.length > 0 ? (
          <div className="repair-pictures-block">
            <h3 className="repair-subtitle">{t('repairs.fields.pictures')}</h3>
            <RepairPictures token={r.token} pictures={r.pictureList} />
          </div>
        ) : null}
      </Card>

      <Card size="small" title={<h3 className="repair-subtitle">{t('repairs.detail.history')}</h3>}>
        <Timeline
          data-testid="repair-history"
          items={r.history.map((h, i) => ({
            key: i,
            color: TIMELINE_COLORS[STATE_TONES[h.state]] ?? 'gray',
            children: (
              <div className="repair-step" data-testid="repair-step" data-state={h.state}>
                <Typography.Text strong>{t(`repairs.state.${h.state}`)}</Typography.Text>
                <div className="repair-step-meta">
                  {t('repairs.detail.stepBy', { name: h.by, time: formatDateTime(h.at) })}
                </div>
                {h.note ? <div className="repair-step-note">{h.note}</div> : null}
              </div>
            ),
          }))}
        />
      </Card>

      {r.service && r.next.length > 0 ? <ServiceForm request={r} /> : null}
    </Flex>
  );
}
