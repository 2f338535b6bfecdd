// One camera's live picture: hls.js (loaded only when a camera plays) feeds the <video> from the server's HLS
// playlist; Safari's own HLS player takes it where MSE is missing. While the lease is being taken the player
// says it is connecting; when the camera cannot be reached, sends nothing, or the server has no ffmpeg, it
// says so and offers to try again.
import { useEffect, useRef, useState } from 'react';
import { Button, Spin, Typography } from 'antd';
import { ReloadOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type Hls from 'hls.js';
import { useCameraStream, type StreamProblem } from './use-camera-stream.ts';

/** A live stream kept close to its edge: two segments behind, little buffer kept behind the playhead. */
const HLS_CONFIG = {
  liveSyncDurationCount: 2,
  liveMaxLatencyDurationCount: 6,
  maxBufferLength: 10,
  backBufferLength: 10,
  manifestLoadingMaxRetry: 2,
  levelLoadingMaxRetry: 3,
  fragLoadingMaxRetry: 3,
};

export function CameraPlayer({
  token,
  cameraId,
  name,
  fill = false,
}: {
  token: string;
  cameraId: number;
  name: string;
  /** Fill the parent (the stand-alone page) instead of keeping 16:9. */
  fill?: boolean;
}) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const { view, retry, check } = useCameraStream(token, cameraId);
  const playlist = view.kind === 'playing' ? view.playlist : null;
  /** The playlist this browser could not play (neither MSE nor native HLS). */
  const [unplayable, setUnplayable] = useState<string | null>(null);
  const unsupported = playlist !== null && unplayable === playlist;

  useEffect(() => {
    const element = video.current;
    if (!playlist || !element) return;
    let hls: Hls | null = null;
    let cancelled = false;
    void (async () => {
      const { default: HlsPlayer } = await import('hls.js/light');
      if (cancelled) return;
      if (HlsPlayer.isSupported()) {
        hls = new HlsPlayer(HLS_CONFIG);
        hls.on(HlsPlayer.Events.ERROR, (_event, data) => {
          if (!data.fatal) return;
          if (data.type === HlsPlayer.ErrorTypes.MEDIA_ERROR) hls?.recoverMediaError();
          // the playlist or a segment is refused: the server knows why (lease ended, camera lost)
          else check();
        });
        hls.loadSource(playlist);
        hls.attachMedia(element);
      } else if (element.canPlayType('application/vnd.apple.mpegurl')) {
        element.src = playlist;
      } else {
        setUnplayable(playlist);
        return;
      }
      void element.play().catch(() => undefined);
    })();
    return () => {
      cancelled = true;
      hls?.destroy();
      element.removeAttribute('src');
      element.load();
    };
  }, [playlist, check]);

  const problem: StreamProblem | 'unsupported' | null = unsupported
    ? 'unsupported'
    : view.kind === 'failed'
      ? view.problem
      : null;

  return (
    <div className={`camera-player${fill ? ' camera-player-fill' : ''}`} data-testid="camera-player">
      <video
        ref={video}
        className="camera-video"
        muted
        autoPlay
        playsInline
        controls={view.kind === 'playing' && !unsupported}
        aria-label={t('video.player', { name })}
        data-testid="camera-video"
      />
      {view.kind === 'starting' ? (
        <div className="camera-overlay" role="status">
          <Spin />
          <span>{t('video.state.starting')}</span>
        </div>
      ) : null}
      {problem ? (
        <div className="camera-overlay" role="alert" data-testid="camera-problem">
          <VideoCameraOutlined className="camera-overlay-icon" />
          <Typography.Text strong className="camera-overlay-title">
            {t(`video.problem.${problem}.title`)}
          </Typography.Text>
          <span className="camera-overlay-text">{t(`video.problem.${problem}.text`)}</span>
          {problem !== 'unavailable' && problem !== 'unsupported' && problem !== 'denied' && problem !== 'gone' ? (
            <Button icon={<ReloadOutlined />} onClick={retry}>
              {t('video.retry')}
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
