// /crewmanage/gconfig?token=…: remote configuration of a set's controller through its cloud module. Pick a
// menu, read its settings, change values (each checked against its range or options), and write only the
// changed ones after the warning and the account password; each setting then says whether the controller
// took it. Both calls answer raw (spec 8): offline, timeout and refusals show their own message here.
import { useState } from 'react';
import { Alert, App as AntApp, Button, Card, Col, Empty, Result, Row, Space, Tag, Tooltip, Typography } from 'antd';
import { ReloadOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ResultCode, type ConfigMenuEntry, type ConfigParamValue, type ConfigWriteResponse } from '@genset/protocol';
import { readConfig, remoteConfigKeys, useSetStatus, writeConfig, type ConfigWriteFailure } from './api.ts';
import { ConfigMenuTree } from './config-menu-tree.tsx';
import { ConfigParamTable } from './config-param-table.tsx';
import { outcomeOf, rangeText, valueProblem, type Outcome } from './outcome.ts';
import { WriteDialog, type PendingChange } from './write-dialog.tsx';
import './remote-config.css';
import { formatDateTime } from '../../components/format.ts';

interface Notice {
  type: 'success' | 'warning' | 'error';
  text: string;
}

export function RemoteConfigPage() {
  const { t } = useTranslation();
  const { modal } = AntApp.useApp();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const [menu, setMenu] = useState<string | undefined>(undefined);
  const [menus, setMenus] = useState<ConfigMenuEntry[]>([]);
  const [edits, setEdits] = useState<Record<string, number>>({});
  const [outcomes, setOutcomes] = useState<Record<string, Outcome>>({});
  /** Values read back after a write, newer than the last read. */
  const [readBack, setReadBack] = useState<Record<string, number | null>>({});
  const [pending, setPending] = useState<PendingChange[] | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const status = useSetStatus(token);

  const read = useQuery({
    queryKey: remoteConfigKeys.read(token, menu),
    queryFn: async ({ signal }) => {
      const envelope = await readConfig(token, menu, signal);
      if (envelope.code === ResultCode.ok && envelope.data) setMenus(envelope.data.menus);
      return envelope;
    },
    enabled: Boolean(token),
    // A read is a round trip to the controller: it runs when the page opens or the user asks, never by itself.
    staleTime: Infinity,
    refetchOnMount: 'always',
  });
  const write = useMutation({ mutationFn: writeConfig });

  const startOver = () => {
    setEdits({});
    setOutcomes({});
    setReadBack({});
    setNotice(null);
  };

  if (!token) {
    return (
      <Result
        status="info"
        title={t('remoteConfig.noSet.title')}
        subTitle={t('remoteConfig.noSet.text')}
        extra={
          <Link to="/genset/mylist">
            <Button type="primary">{t('remoteConfig.noSet.link')}</Button>
          </Link>
        }
      />
    );
  }

  const envelope = read.data;
  const readOk = envelope?.code === ResultCode.ok && envelope.data ? envelope.data : null;
  const params: ConfigParamValue[] = (readOk?.params ?? []).map((param) =>
    param.key in readBack ? { ...param, value: readBack[param.key] ?? null } : param,
  );
  const changes: PendingChange[] = params
    .filter((param) => edits[param.key] !== undefined)
    .map((param) => ({ param, value: edits[param.key]! }));
  const info = status.data;
  const viewOnly = info?.rights === 'view';

  const edit = (key: string, value: number | null) => {
    const param = params.find((p) => p.key === key);
    setEdits((previous) => {
      const next = { ...previous };
      if (value === null || value === param?.value) delete next[key];
      else next[key] = value;
      return next;
    });
    setOutcomes(({ [key]: _dropped, ...rest }) => rest);
  };

  /** Reading again drops the changed values: ask first when there are any. */
  const leaveChanges = (then: () => void) => {
    if (changes.length === 0) {
      then();
      return;
    }
    modal.confirm({
      title: t('remoteConfig.discardConfirm.title'),
      content: t('remoteConfig.discardConfirm.content', { count: changes.length }),
      okText: t('remoteConfig.discardConfirm.ok'),
      cancelText: t('common.actions.cancel'),
      onOk: then,
    });
  };

  const askToWrite = () => {
    setNotice(null);
    const refused = changes.filter((change) => valueProblem(change.param, change.value));
    if (refused.length > 0) {
      setOutcomes((previous) => ({
        ...previous,
        ...Object.fromEntries(
          refused.map(({ param, value }) => [
            param.key,
            {
              kind: 'refused' as const,
              reason:
                valueProblem(param, value)?.kind === 'range'
                  ? t('remoteConfig.problems.range', { range: rangeText(param) })
                  : t('remoteConfig.problems.option'),
            },
          ]),
        ),
      }));
      setNotice({
        type: 'error',
        text: t('remoteConfig.write.refusedHere', { names: refused.map((c) => c.param.name).join(', ') }),
      });
      return;
    }
    setPasswordError(null);
    setPending(changes);
  };

  const applyResults = (results: ConfigWriteResponse['results']) => {
    setOutcomes((previous) => ({ ...previous, ...Object.fromEntries(results.map((r) => [r.key, outcomeOf(r)])) }));
    setReadBack((previous) => ({
      ...previous,
      ...Object.fromEntries(results.filter((r) => r.readBack !== null).map((r) => [r.key, r.readBack])),
    }));
    const taken = new Set(results.filter((r) => r.accepted === true).map((r) => r.key));
    setEdits((previous) => Object.fromEntries(Object.entries(previous).filter(([key]) => !taken.has(key))));
  };

  const confirmWrite = async (password: string) => {
    if (!pending) return;
    const values = Object.fromEntries(pending.map((change) => [change.param.key, change.value]));
    let answer;
    try {
      answer = await write.mutateAsync({ token, password, values });
    } catch (error) {
      setPending(null);
      setNotice({ type: 'error', text: error instanceof Error ? error.message : t('errors.network') });
      return;
    }
    if (answer.code === ResultCode.ok && answer.data && 'results' in answer.data && answer.data.results) {
      applyResults(answer.data.results);
      setPending(null);
      setNotice({ type: 'success', text: t('remoteConfig.write.done', { count: answer.data.results.length }) });
      return;
    }
    const failure = (answer.data ?? {}) as ConfigWriteFailure;
    const fields = failure.fields ?? {};
    if (answer.code === ResultCode.invalid && !failure.results && Object.keys(fields).every((k) => k === 'password')) {
      // Wrong or missing password: nothing was sent; the dialog stays open.
      setPasswordError(fields.password ?? answer.msg);
      return;
    }
    setPending(null);
    if (failure.results) applyResults(failure.results);
    if (Object.keys(fields).length > 0) {
      setOutcomes((previous) => ({
        ...previous,
        ...Object.fromEntries(
          Object.entries(fields).map(([key, reason]) => [key, { kind: 'refused' as const, reason }]),
        ),
      }));
    }
    setNotice({ type: 'error', text: answer.msg || t('errors.generic') });
  };

  let failure: string | null = null;
  if (read.isError) failure = read.error instanceof Error ? read.error.message : t('errors.network');
  else if (envelope && envelope.code !== ResultCode.ok) failure = envelope.msg || t('errors.generic');

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="remote-config">
      <Card size="small">
        <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
          <Space wrap>
            <Typography.Title level={1} style={{ fontSize: 18, margin: 0 }}>
              {t('remoteConfig.title')}
            </Typography.Title>
            {info && <Typography.Text strong>{info.gsname}</Typography.Text>}
            {info && (
              <Tag color={info.online ? 'green' : 'default'}>
                {info.online ? t('remoteConfig.online') : t('remoteConfig.offline')}
              </Tag>
            )}
          </Space>
          <Space wrap>
            {readOk && (
              <Typography.Text type="secondary">
                {t('remoteConfig.readAt', { time: formatDateTime(readOk.ts, true) })}
              </Typography.Text>
            )}
            <Button
              icon={<ReloadOutlined />}
              loading={read.isFetching}
              onClick={() =>
                leaveChanges(() => {
                  startOver();
                  void read.refetch();
                })
              }
            >
              {t('remoteConfig.read')}
            </Button>
            <Button icon={<UndoOutlined />} disabled={changes.length === 0} onClick={() => setEdits({})}>
              {t('remoteConfig.discard')}
            </Button>
            <Tooltip title={viewOnly ? t('remoteConfig.viewOnly') : undefined}>
              <Button
                type="primary"
                danger
                icon={<SaveOutlined />}
                disabled={changes.length === 0 || viewOnly || read.isFetching}
                onClick={askToWrite}
              >
                {t('remoteConfig.writeButton', { count: changes.length })}
              </Button>
            </Tooltip>
          </Space>
        </Space>
      </Card>
      {viewOnly && (
        // the inputs below are disabled: say why, not only in the write button's tooltip
        <Alert
          type="info"
          showIcon
          title={t('remoteConfig.viewOnly')}
          description={t('remoteConfig.viewOnlyWhy')}
          data-testid="view-only-notice"
        />
      )}
      {notice && (
        <Alert
          type={notice.type}
          showIcon
          closable={{ onClose: () => setNotice(null) }}
          title={notice.text}
          data-testid="write-notice"
        />
      )}
      <Row gutter={[16, 16]}>
        <Col xs={24} md={7} xl={5}>
          <Card size="small" title={t('remoteConfig.menus.title')}>
            {menus.length > 0 ? (
              <ConfigMenuTree
                menus={menus}
                selected={menu}
                disabled={read.isFetching}
                onSelect={(next) =>
                  leaveChanges(() => {
                    startOver();
                    setMenu(next);
                  })
                }
              />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('remoteConfig.menus.none')} />
            )}
          </Card>
        </Col>
        <Col xs={24} md={17} xl={19}>
          <Card size="small">
            {failure ? (
              <Result
                status="warning"
                title={t('remoteConfig.readFailed')}
                subTitle={failure}
                role="alert"
                extra={
                  <Button type="primary" onClick={() => void read.refetch()} loading={read.isFetching}>
                    {t('remoteConfig.readAgain')}
                  </Button>
                }
              />
            ) : (
              <>
                {read.isFetching && (
                  <Alert type="info" showIcon title={t('remoteConfig.reading')} style={{ marginBottom: 12 }} />
                )}
                <ConfigParamTable
                  params={params}
                  edits={edits}
                  outcomes={outcomes}
                  loading={read.isFetching}
                  readOnly={viewOnly}
                  onEdit={edit}
                />
              </>
            )}
          </Card>
        </Col>
      </Row>
      <WriteDialog
        changes={pending}
        writing={write.isPending}
        passwordError={passwordError}
        onConfirm={(password) => void confirmWrite(password)}
        onCancel={() => setPending(null)}
      />
    </Space>
  );
}
