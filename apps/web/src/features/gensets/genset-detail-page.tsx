// /crewmanage/detail/{token}: everything about one set: state, all fields by group, its place on a map,
// its codes (managers), and the ways to its live pages, history, edit and delete.
import { useMemo } from 'react';
import { Button, Card, Col, Descriptions, Result, Row, Space, Statistic, Typography } from 'antd';
import {
  AlertOutlined,
  DashboardOutlined,
  DeleteOutlined,
  EditOutlined,
  FileTextOutlined,
  LineChartOutlined,
  SettingOutlined,
  SwapOutlined,
  TeamOutlined,
  ToolOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { isAllowedUrl, Permission, type GensetInfo } from '@genset/protocol';
import { Authorized } from '../../components/authorized.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { FullPageLoading } from '../../components/full-page-loading.tsx';
import { FleetMap } from '../../components/map/fleet-map.tsx';
import { SetStatusTag } from '../../components/set-status-tag.tsx';
import { statusKey } from '../../components/set-status.ts';
import { formatDateTime, formatValue, localUnit, localUnitsInText, NONE } from '../../components/format.ts';
import { useGensetInfo } from './api.ts';
import { FIELD_GROUPS, PART_FIELDS, type FieldDef } from './form-fields.ts';
import { setLinks } from './links.ts';
import { repairLinks } from '../repairs/links.ts';
import { RightsTag } from './rights-tag.tsx';
import { OperationLog } from './operation-log.tsx';
import { SetCodes } from './set-codes.tsx';
import { SubscribersDrawer } from './subscribers-drawer.tsx';
import { HandOverDialog } from '../transfers/hand-over-dialog.tsx';
import { SimCardSection } from '../iotcard/sim-card-section.tsx';
import { UpgradeHistory } from '../ota/upgrade-history.tsx';
import { useConfirmDelete } from './use-delete-sets.ts';
import './gensets.css';

function FieldValue({ field, set }: { field: FieldDef; set: GensetInfo }) {
  const { t } = useTranslation();
  const value = set[field.name];
  if (value === null || value === undefined || value === '') return <>{NONE}</>;
  switch (field.kind) {
    case 'number':
    case 'int':
      return <span className="genset-num">{formatValue(value as number, field.unit ?? '', field.precision ?? 2)}</span>;
    case 'switch':
      return <>{value ? t('gensets.detail.yes') : t('gensets.detail.no')}</>;
    case 'select':
      return (
        <>
          {field.name === 'phases'
            ? t('gensets.form.phases', { count: value as number })
            : `${String(value)} ${localUnit(field.unit ?? '')}`}
        </>
      );
    case 'protocol':
      return <>{set.protocolName ? `${set.protocolName} (${String(value)})` : String(value)}</>;
    default:
      if (field.name === 'serviceLink' && typeof value === 'string' && isAllowedUrl(value)) {
        return (
          <a href={value} target="_blank" rel="noopener noreferrer">
            {value}
          </a>
        );
      }
      // a value of one token (a date, a time zone, a serial number) is not broken at its hyphens or slashes
      return (
        <span
          className={
            [field.code ? 'genset-mono' : '', /\s/.test(String(value)) ? '' : 'genset-token'].join(' ').trim() ||
            undefined
          }
        >
          {field.measures ? localUnitsInText(String(value)) : String(value)}
        </span>
      );
  }
}

function Fields({ set }: { set: GensetInfo }) {
  const { t } = useTranslation();
  return (
    <>
      {FIELD_GROUPS.map((group) => {
        const partOf = group.key === 'engine' || group.key === 'alternator' ? set[group.key] : null;
        const items = partOf
          ? PART_FIELDS.map((part) => ({
              key: part,
              label: t(`gensets.fields.part.${part}`),
              children: partOf[part] ?? NONE,
            }))
          : group.fields.map((field) => ({
              key: field.name,
              label: t(`gensets.fields.${field.name}`),
              children: <FieldValue field={field} set={set} />,
            }));
        return (
          <Card
            key={group.key}
            size="small"
            title={<h2 style={{ fontSize: 15, margin: 0 }}>{t(`gensets.groups.${group.key}`)}</h2>}
            style={{ marginBottom: 16 }}
          >
            <Descriptions size="small" column={{ xs: 1, sm: 2, xl: 3 }} items={items} />
          </Card>
        );
      })}
    </>
  );
}

export function GensetDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const info = useGensetInfo(token);
  const confirmDelete = useConfirmDelete();
  const [showSubscribers, setShowSubscribers] = useState(false);
  const [handingOver, setHandingOver] = useState(false);
  const set = info.data;
  const points = useMemo(
    () =>
      set && set.latitude !== null && set.longitude !== null
        ? [
            {
              key: set.token,
              name: set.name,
              status: statusKey(set.status),
              alarms: set.alarmCount,
              lat: set.latitude,
              lon: set.longitude,
            },
          ]
        : [],
    [set],
  );

  if (info.isPending) return <FullPageLoading />;
  if (info.isError) return <ErrorState error={info.error} onRetry={() => void info.refetch()} />;
  if (!set) return <Result status="404" />;
  const manage = set.rights === 'manage';
  const control = manage || set.rights === 'control';

  return (
    <div data-testid="genset-detail">
      <Card style={{ marginBottom: 16 }} styles={{ body: { padding: 16 } }}>
        <div className="genset-detail-head">
          <div style={{ minWidth: 0 }}>
            <Space size={8} wrap align="center">
              <h1 className="genset-page-title">{set.name}</h1>
              <SetStatusTag status={set.status} alarmCount={set.alarmCount} />
              <RightsTag rights={set.rights} owned={set.owner} />
            </Space>
            <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
              {[
                set.number,
                set.protocolName,
                set.companyName,
                set.ownerName ? t('gensets.detail.ownedBy', { name: set.ownerName }) : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </Typography.Paragraph>
          </div>
          <Space wrap size={8}>
            <Button type="primary" icon={<DashboardOutlined />} onClick={() => void navigate(setLinks.live(token))}>
              {t('gensets.actions.live')}
            </Button>
            <Button icon={<LineChartOutlined />} onClick={() => void navigate(setLinks.history(token))}>
              {t('gensets.actions.history')}
            </Button>
            <Button icon={<AlertOutlined />} onClick={() => void navigate(setLinks.alarms(token))}>
              {t('gensets.actions.alarms')}
            </Button>
            <Authorized require={[Permission.gensetReport]}>
              <Button icon={<FileTextOutlined />} onClick={() => void navigate(setLinks.report(token))}>
                {t('reports.title')}
              </Button>
            </Authorized>
            <Button
              icon={<ToolOutlined />}
              onClick={() => void navigate(repairLinks.add(token))}
              data-testid="set-request-repair"
            >
              {t('repairs.request')}
            </Button>
            <Button icon={<VideoCameraOutlined />} onClick={() => void navigate(setLinks.video(token))}>
              {t('video.open')}
            </Button>
            {control ? (
              <Button icon={<SettingOutlined />} onClick={() => void navigate(setLinks.config(token))}>
                {t('gensets.actions.config')}
              </Button>
            ) : null}
            {manage ? (
              <>
                <Button icon={<EditOutlined />} onClick={() => void navigate(setLinks.edit(token))}>
                  {t('gensets.actions.edit')}
                </Button>
                <Button icon={<TeamOutlined />} onClick={() => setShowSubscribers(true)}>
                  {t('gensets.actions.subscribers')}
                </Button>
                <Button icon={<SwapOutlined />} onClick={() => setHandingOver(true)}>
                  {t('transfers.actions.handOver')}
                </Button>
                <Button
                  danger
                  className="danger-readable"
                  icon={<DeleteOutlined />}
                  onClick={() => confirmDelete([set], () => void navigate('/genset/mylist'))}
                >
                  {t('gensets.actions.delete')}
                </Button>
              </>
            ) : null}
          </Space>
        </div>
        <Row gutter={[16, 12]} className="genset-kpis" style={{ marginTop: 12 }}>
          <Col xs={12} sm={6}>
            <Statistic title={t('gensets.detail.ratedPower')} value={formatValue(set.ratedPowerKw, 'kW', 1)} />
          </Col>
          <Col xs={12} sm={6}>
            <Statistic title={t('gensets.detail.activeAlarms')} value={set.alarmCount} />
          </Col>
          {/* a date and time needs a row of its own on a phone and half of one on a tablet, to stay on one line */}
          <Col xs={24} sm={12} lg={6}>
            <Statistic title={t('gensets.detail.lastData')} value={formatDateTime(set.lastSeen)} />
          </Col>
          <Col xs={12} sm={6}>
            <Statistic title={t('gensets.detail.subscribers')} value={set.subscribers} />
          </Col>
        </Row>
      </Card>

      <Row gutter={16}>
        <Col xs={24} xl={16}>
          <Fields set={set} />
        </Col>
        <Col xs={24} xl={8}>
          <Card
            size="small"
            title={<h2 style={{ fontSize: 15, margin: 0 }}>{t('gensets.detail.module')}</h2>}
            style={{ marginBottom: 16 }}
          >
            <Descriptions
              size="small"
              column={1}
              items={[
                {
                  key: 'online',
                  label: t('gensets.detail.connection'),
                  children: set.online ? t('gensets.detail.online') : t('gensets.detail.offline'),
                },
                { key: 'id', label: t('gensets.fields.modemId'), children: set.modemId ?? NONE },
                {
                  key: 'model',
                  label: t('gensets.fields.modemModel'),
                  children: set.modem?.model || set.modemModel || NONE,
                },
                { key: 'firmware', label: t('gensets.detail.firmware'), children: set.modem?.firmware || NONE },
                {
                  key: 'controllerFirmware',
                  label: t('gensets.detail.controllerFirmware'),
                  children: set.controllerFirmware || NONE,
                },
                { key: 'imei', label: t('gensets.detail.imei'), children: set.modem?.imei || NONE },
                { key: 'iccid', label: t('gensets.detail.iccid'), children: set.modem?.iccid || NONE },
                {
                  key: 'seen',
                  label: t('gensets.detail.moduleSeen'),
                  children: formatDateTime(set.modem?.lastSeenAt ?? null),
                },
                { key: 'created', label: t('gensets.detail.created'), children: formatDateTime(set.createdAt) },
              ]}
            />
          </Card>
          <Card
            size="small"
            title={<h2 style={{ fontSize: 15, margin: 0 }}>{t('gensets.detail.location')}</h2>}
            style={{ marginBottom: 16 }}
          >
            {points.length ? (
              <FleetMap points={points} height={240} testId="set-map" />
            ) : (
              <Typography.Text type="secondary">{t('gensets.detail.noPosition')}</Typography.Text>
            )}
          </Card>
          {manage ? (
            <Card size="small" style={{ marginBottom: 16 }}>
              <SetCodes
                token={token}
                setName={set.name}
                subscriptionCode={set.subscriptionCode}
                controlCode={set.controlCode}
              />
            </Card>
          ) : null}
          {manage && set.operations ? (
            <Card
              size="small"
              title={<h2 style={{ fontSize: 15, margin: 0 }}>{t('gensets.detail.operations')}</h2>}
              style={{ marginBottom: 16 }}
            >
              <OperationLog operations={set.operations} />
            </Card>
          ) : null}
        </Col>
      </Row>
      <SimCardSection token={token} />
      <UpgradeHistory token={token} />
      <SubscribersDrawer set={showSubscribers ? set : null} onClose={() => setShowSubscribers(false)} />
      <HandOverDialog set={handingOver ? set : null} onClose={() => setHandingOver(false)} />
    </div>
  );
}
