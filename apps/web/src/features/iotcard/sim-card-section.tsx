// A set's SIM card on its page: the card (ICCID, IMSI), the signal and the latest report, this billing month's
// use against the plan with what is left, the month's days and the last twelve months as bars, and (for those
// who manage the set) the plan's dialog. Earlier months can be looked at one by one.
import { useState } from 'react';
import { Button, Card, Col, Descriptions, Progress, Row, Skeleton, Space, Statistic, Typography } from 'antd';
import { LeftOutlined, RightOutlined, SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { IotcardInfoResponse } from '@genset/protocol';
import { ErrorState } from '../../components/error-state.tsx';
import { formatDateTime, formatNumber, NONE } from '../../components/format.ts';
import { shiftMonth, useSimInfo } from './api.ts';
import { PlanDialog } from './plan-dialog.tsx';
import { DailyUsageChart, MonthlyUsageChart } from './usage-charts.tsx';

function Usage({ info }: { info: IotcardInfoResponse }) {
  const { t } = useTranslation();
  // under 1 MB in KB, so a card that has just started shows that it is counting
  const mb = (v: number | null) =>
    v === null
      ? NONE
      : v > 0 && v < 1
        ? `${formatNumber(v * 1024, 0)} ${t('iotcard.kb')}`
        : `${formatNumber(v, v < 10 ? 2 : 1)} ${t('iotcard.mb')}`;
  const percent = info.share === null ? null : Math.round(info.share * 1000) / 10;
  const over = info.plan !== null && percent !== null && percent >= info.plan.alarmShare;
  return (
    <>
      <Row gutter={[16, 12]}>
        <Col xs={12} sm={8}>
          <Statistic title={t('iotcard.used')} value={mb(info.usedMb)} data-testid="sim-used" />
        </Col>
        <Col xs={12} sm={8}>
          <Statistic title={t('iotcard.left')} value={mb(info.leftMb)} data-testid="sim-left" />
        </Col>
        <Col xs={24} sm={8}>
          <Statistic title={t('iotcard.planSize')} value={mb(info.plan?.sizeMb ?? null)} data-testid="sim-plan" />
        </Col>
      </Row>
      {percent === null ? (
        <Typography.Text type="secondary" data-testid="sim-no-plan">
          {t('iotcard.noPlan')}
        </Typography.Text>
      ) : (
        <Progress
          percent={Math.min(100, percent)}
          status={over ? 'exception' : 'normal'}
          format={() => `${formatNumber(percent, 1)} %`}
          aria-label={t('iotcard.shareUsed')}
          data-testid="sim-progress"
        />
      )}
    </>
  );
}

export function SimCardSection({ token }: { token: string }) {
  const { t } = useTranslation();
  const [month, setMonth] = useState<string | undefined>();
  const [current, setCurrent] = useState<string | undefined>();
  const [editing, setEditing] = useState(false);
  const query = useSimInfo(token, month);
  const info = query.data;
  if (info && !month && current !== info.month) setCurrent(info.month);

  const title = <h2 style={{ fontSize: 15, margin: 0 }}>{t('iotcard.title')}</h2>;
  if (query.isPending)
    return (
      <Card size="small" title={title} style={{ marginBottom: 16 }}>
        <Skeleton active paragraph={{ rows: 3 }} />
      </Card>
    );
  if (query.isError || !info)
    return (
      <Card size="small" title={title} style={{ marginBottom: 16 }}>
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </Card>
    );

  const signal = !info.signal
    ? NONE
    : info.signal.csq === null
      ? t('iotcard.rssi', { rssi: info.signal.rssi })
      : t('iotcard.rssiCsq', { rssi: info.signal.rssi, csq: info.signal.csq });
  return (
    <Card
      size="small"
      title={title}
      style={{ marginBottom: 16 }}
      data-testid="sim-card"
      extra={
        info.canEdit && info.iccid ? (
          <Button size="small" icon={<SettingOutlined />} onClick={() => setEditing(true)} data-testid="sim-set-plan">
            {t('iotcard.plan.set')}
          </Button>
        ) : null
      }
    >
      {!info.iccid ? (
        <Typography.Text type="secondary" data-testid="sim-no-card">
          {t('iotcard.noCard')}
        </Typography.Text>
      ) : (
        <Space direction="vertical" size={12} style={{ width: '100%' }}>
          <Row gutter={[16, 12]}>
            <Col xs={24} lg={10}>
              <Descriptions
                size="small"
                column={1}
                items={[
                  {
                    key: 'iccid',
                    label: t('iotcard.iccid'),
                    children: <span className="genset-mono">{info.iccid}</span>,
                  },
                  { key: 'imsi', label: t('iotcard.imsi'), children: info.imsi ?? NONE },
                  { key: 'signal', label: t('iotcard.signal'), children: signal },
                  { key: 'report', label: t('iotcard.lastReport'), children: formatDateTime(info.lastReportAt) },
                  {
                    key: 'plan',
                    label: t('iotcard.planTerms'),
                    children: info.plan
                      ? t('iotcard.planTermsText', { day: info.plan.startDay, share: info.plan.alarmShare })
                      : NONE,
                  },
                ]}
              />
            </Col>
            <Col xs={24} lg={14}>
              <Space size={4} wrap style={{ marginBottom: 8 }}>
                <Button
                  size="small"
                  type="text"
                  icon={<LeftOutlined />}
                  aria-label={t('iotcard.previousMonth')}
                  onClick={() => setMonth(shiftMonth(info.month, -1))}
                  data-testid="sim-prev-month"
                />
                <Typography.Text strong data-testid="sim-period">
                  {t('iotcard.period', { from: info.from, to: info.to })}
                </Typography.Text>
                <Button
                  size="small"
                  type="text"
                  icon={<RightOutlined />}
                  aria-label={t('iotcard.nextMonth')}
                  disabled={!current || info.month >= current}
                  onClick={() =>
                    setMonth(shiftMonth(info.month, 1) === current ? undefined : shiftMonth(info.month, 1))
                  }
                  data-testid="sim-next-month"
                />
              </Space>
              <Usage info={info} />
            </Col>
          </Row>
          <Row gutter={[16, 12]}>
            <Col xs={24} xl={14}>
              <Typography.Title level={3} style={{ fontSize: 14 }}>
                {t('iotcard.daily')}
              </Typography.Title>
              <DailyUsageChart days={info.days} />
            </Col>
            <Col xs={24} xl={10}>
              <Typography.Title level={3} style={{ fontSize: 14 }}>
                {t('iotcard.monthly')}
              </Typography.Title>
              <MonthlyUsageChart months={info.months} />
            </Col>
          </Row>
          {info.source === 'module' ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('iotcard.sourceModule')}
            </Typography.Text>
          ) : null}
        </Space>
      )}
      <PlanDialog token={token} plan={info.plan} open={editing} onClose={() => setEditing(false)} />
    </Card>
  );
}
