// /showvideo?token=…&camera=…: one camera of a set on a page of its own (a wall screen, another window, an
// embedding page with iframe=1&code=…, a one-time code). The route is public, but the picture is only for users who may see
// the set: a visitor is asked to sign in first and comes back here.
import { Button, Result, Select } from 'antd';
import { LoginOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ResultCode } from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { useSession } from '../../stores/session.ts';
import { loginPathFor } from '../../app/public-routes.ts';
import { PlaceholderPage } from '../misc/placeholder-page.tsx';
import { FullPageLoading } from '../../components/full-page-loading.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { useCameras } from './api.ts';
import { CameraPlayer } from './camera-player.tsx';
import './video.css';

export function ShowVideoPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const signedIn = useSession((s) => s.user !== null);

  if (!token) {
    return (
      <PlaceholderPage
        icon={<VideoCameraOutlined />}
        title={t('pages.showVideo.title')}
        text={t('pages.showVideo.text')}
      />
    );
  }
  if (!signedIn) {
    return (
      <main className="show-video-message">
        <Result
          icon={<VideoCameraOutlined />}
          title={<h1 style={{ margin: 0, fontSize: 24 }}>{t('pages.showVideo.signInTitle')}</h1>}
          subTitle={t('pages.showVideo.signInText')}
          extra={
            <Button
              type="primary"
              icon={<LoginOutlined />}
              onClick={() => navigate(loginPathFor(location.pathname + location.search))}
            >
              {t('pages.showVideo.signIn')}
            </Button>
          }
        />
      </main>
    );
  }
  return <SignedInVideo token={token} />;
}

function SignedInVideo({ token }: { token: string }) {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const cameras = useCameras(token);

  if (cameras.isPending) return <FullPageLoading />;
  if (cameras.isError) {
    const error = cameras.error;
    const denied =
      error instanceof ApiError && (error.code === ResultCode.notFound || error.code === ResultCode.forbidden);
    return (
      <main className="show-video-message">
        {denied ? (
          <Result status="403" title={t('video.denied.title')} subTitle={t('video.denied.text')} role="alert" />
        ) : (
          <ErrorState error={error} onRetry={() => void cameras.refetch()} />
        )}
      </main>
    );
  }
  const { setName, cameras: list, available } = cameras.data;
  const wanted = Number(search.get('camera'));
  const camera = list.find((c) => c.id === wanted) ?? list[0];

  return (
    <main className="show-video" data-testid="show-video">
      <header className="show-video-head">
        <h1 className="show-video-title">
          {camera ? `${camera.name} · ${setName}` : t('video.titleOf', { name: setName })}
        </h1>
        {list.length > 1 && camera ? (
          <Select
            size="small"
            value={camera.id}
            aria-label={t('video.cameras')}
            options={list.map((c) => ({ value: c.id, label: c.name }))}
            onChange={(id: number) => {
              const next = new URLSearchParams(search);
              next.set('camera', String(id));
              setSearch(next, { replace: true });
            }}
            style={{ minWidth: 160 }}
          />
        ) : null}
      </header>
      <div className="show-video-body">
        {!available ? (
          <Result
            status="warning"
            title={t('video.problem.unavailable.title')}
            subTitle={t('video.problem.unavailable.text')}
            className="show-video-result"
          />
        ) : camera ? (
          <CameraPlayer key={camera.id} token={token} cameraId={camera.id} name={camera.name} fill />
        ) : (
          <Result icon={<VideoCameraOutlined />} title={t('video.empty')} className="show-video-result" />
        )}
      </div>
    </main>
  );
}
