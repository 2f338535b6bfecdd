// /crewmanage/monitorVideo?token=…: the video of one set. The chosen camera plays live (one at a time, so a
// set with many cameras does not start an encoder for each); the camera list beside it (below it on phones)
// chooses another, opens one in its own window, and lets managers add, edit and remove cameras. The page is not
// kept when its tab is left: leaving it gives the viewing lease back, which stops the camera's stream when
// nobody else watches.
import { useState } from 'react';
import { Alert, App as AntApp, Button, Card, Col, List, Result, Row, Space, Tag, Tooltip, Typography } from 'antd';
import {
  DeleteOutlined,
  EditOutlined,
  ExportOutlined,
  LockOutlined,
  PlusOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ResultCode, type CameraItem } from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { useSession } from '../../stores/session.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { FullPageLoading } from '../../components/full-page-loading.tsx';
import { useCameras, useDeleteCamera } from './api.ts';
import { CameraFormDialog } from './camera-form-dialog.tsx';
import { CameraPlayer } from './camera-player.tsx';
import { showVideoLink } from './links.ts';
import { embedCode } from '../../api/session.ts';

/**
 * An embedded console opens the player in a window of its own with a fresh one-time code (its session lives in
 * this page's memory only); the window opens at once and is sent on when the code is there.
 */
function openEmbedded(e: { preventDefault(): void }, link: (code: string) => string) {
  e.preventDefault();
  const opened = window.open('about:blank', '_blank');
  if (!opened) return;
  opened.opener = null;
  embedCode().then(
    (code) => opened.location.replace(link(code)),
    () => opened.close(),
  );
}
import './video.css';

export function VideoPage() {
  const { t } = useTranslation();
  const { modal, message } = AntApp.useApp();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const cameras = useCameras(token);
  const embedded = useSession((s) => s.embedded);
  const remove = useDeleteCamera();
  const [chosen, setChosen] = useState<number | null>(null);
  const [editing, setEditing] = useState<CameraItem | null>(null);
  const [formOpen, setFormOpen] = useState(false);

  if (!token) {
    return (
      <Result
        status="info"
        icon={<VideoCameraOutlined />}
        title={t('video.noSet.title')}
        subTitle={t('video.noSet.text')}
        extra={
          <Link to="/genset/mylist">
            <Button type="primary">{t('video.noSet.link')}</Button>
          </Link>
        }
      />
    );
  }
  if (cameras.isPending) return <FullPageLoading />;
  if (cameras.isError) {
    const error = cameras.error;
    if (error instanceof ApiError && (error.code === ResultCode.notFound || error.code === ResultCode.forbidden)) {
      return <Result status="403" title={t('video.denied.title')} subTitle={t('video.denied.text')} role="alert" />;
    }
    return <ErrorState error={error} onRetry={() => void cameras.refetch()} />;
  }

  const { setName, manage, available } = cameras.data;
  const list = cameras.data.cameras;
  const current = list.find((c) => c.id === chosen) ?? list[0] ?? null;

  const openForm = (camera: CameraItem | null) => {
    setEditing(camera);
    setFormOpen(true);
  };

  const confirmRemove = (camera: CameraItem) => {
    modal.confirm({
      title: t('video.remove.title', { name: camera.name }),
      content: t('video.remove.text'),
      okText: t('video.remove.ok'),
      okButtonProps: { danger: true },
      cancelText: t('common.actions.cancel'),
      onOk: async () => {
        await remove.mutateAsync({ token, id: camera.id });
        void message.success(t('video.remove.done'));
        if (chosen === camera.id) setChosen(null);
      },
    });
  };

  return (
    <div data-testid="video-page">
      <Card size="small" style={{ marginBottom: 16 }}>
        <div className="video-head">
          <Typography.Title level={1} className="video-title">
            {t('video.titleOf', { name: setName })}
          </Typography.Title>
          {manage ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => openForm(null)}>
              {t('video.add')}
            </Button>
          ) : null}
        </div>
      </Card>

      {available ? null : (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('video.problem.unavailable.title')}
          description={t(manage ? 'video.problem.unavailable.manage' : 'video.problem.unavailable.text')}
          data-testid="video-unavailable"
        />
      )}

      {list.length === 0 ? (
        <Card>
          <EmptyState description={manage ? t('video.emptyManage') : t('video.empty')}>
            {manage ? (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => openForm(null)}>
                {t('video.add')}
              </Button>
            ) : null}
          </EmptyState>
        </Card>
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={16}>
            {current ? (
              <Card
                size="small"
                title={<h2 className="video-camera-name">{current.name}</h2>}
                extra={
                  <Tooltip title={t('video.standalone')}>
                    <Link
                      to={showVideoLink(token, current.id)}
                      target="_blank"
                      rel="noopener"
                      aria-label={t('video.standaloneOf', { name: current.name })}
                      onClick={
                        embedded ? (e) => openEmbedded(e, showVideoLink.bind(null, token, current.id)) : undefined
                      }
                    >
                      <ExportOutlined />
                    </Link>
                  </Tooltip>
                }
                styles={{ body: { padding: 0 } }}
              >
                {available ? (
                  <CameraPlayer key={current.id} token={token} cameraId={current.id} name={current.name} />
                ) : (
                  <div className="camera-player camera-player-off">
                    <div className="camera-overlay">
                      <VideoCameraOutlined className="camera-overlay-icon" />
                      <span className="camera-overlay-text">{t('video.problem.unavailable.title')}</span>
                    </div>
                  </div>
                )}
              </Card>
            ) : null}
          </Col>
          <Col xs={24} lg={8}>
            <Card size="small" title={<h2 className="video-camera-name">{t('video.cameras')}</h2>}>
              <List
                dataSource={list}
                data-testid="camera-list"
                renderItem={(camera) => {
                  const selected = camera.id === current?.id;
                  return (
                    <List.Item
                      className={selected ? 'camera-item camera-item-selected' : 'camera-item'}
                      actions={
                        manage
                          ? [
                              <Button
                                key="edit"
                                type="text"
                                size="small"
                                icon={<EditOutlined />}
                                aria-label={t('video.editOf', { name: camera.name })}
                                onClick={() => openForm(camera)}
                              />,
                              <Button
                                key="delete"
                                type="text"
                                size="small"
                                danger
                                icon={<DeleteOutlined />}
                                aria-label={t('video.removeOf', { name: camera.name })}
                                onClick={() => confirmRemove(camera)}
                              />,
                            ]
                          : []
                      }
                    >
                      <button
                        type="button"
                        className="camera-choose"
                        aria-pressed={selected}
                        onClick={() => setChosen(camera.id)}
                      >
                        <Space size={6} align="center">
                          <VideoCameraOutlined />
                          <span className="camera-choose-name">{camera.name}</span>
                          {selected ? <Tag color="blue">{t('video.showing')}</Tag> : null}
                        </Space>
                        {camera.url ? (
                          <span className="camera-url">
                            {camera.url}
                            {camera.hasLogin ? (
                              <Tooltip title={t('video.hasLogin')}>
                                <LockOutlined aria-label={t('video.hasLogin')} style={{ marginLeft: 6 }} />
                              </Tooltip>
                            ) : null}
                          </span>
                        ) : null}
                      </button>
                    </List.Item>
                  );
                }}
              />
            </Card>
          </Col>
        </Row>
      )}

      {manage ? (
        <CameraFormDialog token={token} camera={editing} open={formOpen} onClose={() => setFormOpen(false)} />
      ) : null}
    </div>
  );
}
