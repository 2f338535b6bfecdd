// The frame of the eight screens of one protocol version: which protocol and version this is (with a switch
// to its other versions), the bar of sections, and saving a section as /protocol/save does it: a published
// version gets a new draft version (the page moves to it and says so), a draft is edited in place.
import { createContext, useCallback, useContext, type ComponentType, type ReactNode } from 'react';
import { Alert, App as AntApp, Button, Card, Result, Select, Skeleton, Space, Tabs, Typography } from 'antd';
import { UnorderedListOutlined } from '@ant-design/icons';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Permission, type ProtocolDetail, type ProtocolSaveRequest } from '@genset/protocol';
import { ErrorState } from '../../components/error-state.tsx';
import { useAuthorized } from '../../components/use-authorized.ts';
import { storedLanguage } from '../../i18n/languages.ts';
import { useProtocolInfo, useSaveProtocol } from './api.ts';
import { PROTOCOL_LIST_PATH, SECTIONS, sectionPath, type SectionKey } from './sections.ts';
import { StatusTag } from './status-tag.tsx';

export type SectionPart = Omit<ProtocolSaveRequest, 'id'>;

export interface SectionContext {
  detail: ProtocolDetail;
  /** Saves parts of the document; rejects with the server's error (problems included). */
  save: (part: SectionPart) => Promise<void>;
  canEdit: boolean;
}

export const MANAGE = [Permission.protocolManage];

export function useVersionId(): number {
  const { id } = useParams();
  return Number(id);
}

const CurrentSection = createContext<SectionContext | null>(null);

/** The version a section screen shows, its saving and whether the reader may edit it. */
export function useSection(): SectionContext {
  const ctx = useContext(CurrentSection);
  if (!ctx) throw new Error('useSection is for the body of a section screen');
  return ctx;
}

/** The screen of a section: the frame of `SectionPage`, and `Body` once the version is loaded. */
export function sectionScreen(section: SectionKey, Body: ComponentType<SectionContext>) {
  return function SectionScreen() {
    return (
      <SectionPage section={section}>
        {(ctx) => (
          <CurrentSection.Provider value={ctx}>
            <Body {...ctx} />
          </CurrentSection.Provider>
        )}
      </SectionPage>
    );
  };
}

export function SectionPage({
  section,
  children,
}: {
  section: SectionKey;
  children: (ctx: SectionContext) => ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const navigate = useNavigate();
  const allowed = useAuthorized();
  const id = useVersionId();
  const info = useProtocolInfo(id);
  const saveMutation = useSaveProtocol();
  const canEdit = allowed(MANAGE);

  const save = useCallback(
    async (part: SectionPart) => {
      const ref = await saveMutation.mutateAsync({ id, ...part });
      if (ref.created) {
        void message.success(t('protocols.save.newVersion', { version: ref.version }));
        navigate(sectionPath(section, ref.id));
      } else {
        void message.success(t('protocols.save.inPlace', { version: ref.version }));
      }
    },
    [id, message, navigate, saveMutation, section, t],
  );

  if (!Number.isInteger(id) || id <= 0) {
    return <Result status="404" title={t('protocols.notFound')} />;
  }
  if (!canEdit) return <Result status="403" title={t('protocols.forbidden')} />;

  let body: ReactNode;
  if (info.isPending) body = <Skeleton active paragraph={{ rows: 8 }} />;
  else if (info.isError) body = <ErrorState error={info.error} onRetry={() => void info.refetch()} />;
  else body = children({ detail: info.data, save, canEdit });

  const detail = info.data;
  const lang = storedLanguage();
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid={`protocol-section-${section}`}>
      <Card size="small">
        <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
          <Space wrap>
            <Typography.Title level={1} style={{ fontSize: 18, margin: 0 }}>
              {detail ? detail.name[lang] : t('protocols.title')}
            </Typography.Title>
            {detail && (
              <>
                <Typography.Text code>{detail.key}</Typography.Text>
                <StatusTag status={detail.status} current={detail.current} />
              </>
            )}
          </Space>
          <Space wrap>
            {detail && (
              <Select
                aria-label={t('protocols.fields.version')}
                value={detail.id}
                style={{ minWidth: 200 }}
                onChange={(value: number) => navigate(sectionPath(section, value))}
                options={detail.versions.map((v) => ({
                  value: v.id,
                  label: `${t('protocols.versionN', { version: v.version })} · ${t(`protocols.status.${v.status}`)}`,
                }))}
              />
            )}
            <Link to={PROTOCOL_LIST_PATH}>
              <Button icon={<UnorderedListOutlined />}>{t('protocols.backToList')}</Button>
            </Link>
          </Space>
        </Space>
        <Tabs
          activeKey={section}
          onChange={(key) => navigate(sectionPath(key as SectionKey, id))}
          items={SECTIONS.map((s) => ({ key: s.key, label: t(`protocols.sections.${s.key}`) }))}
          style={{ marginTop: 8, marginBottom: -16 }}
        />
      </Card>
      {detail && (
        <Alert
          type={detail.status === 'published' ? 'info' : 'warning'}
          showIcon
          title={
            detail.status === 'published'
              ? t('protocols.editHint.published', { version: detail.version })
              : t('protocols.editHint.draft', { version: detail.version })
          }
        />
      )}
      <Card size="small">{body}</Card>
    </Space>
  );
}
