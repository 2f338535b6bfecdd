// The temperature, humidity and pressure at a set's place with a sync button (spec 2, top layout; shown only with
// genset:report). The temperature is the service's Kelvin less 273.15, with two decimals (spec 9).
import { useState } from 'react';
import { Button, Space, Tooltip, Typography } from 'antd';
import { SyncOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { WeatherResponse } from '@genset/protocol';
import { formatDateTime, formatFixed, formatNumber, localUnit } from '../../components/format.ts';
import { fetchWeather, reportKeys, useWeather } from './api.ts';

/** °C with exactly two decimals, written the reader's way ("20.01", "20,01"). */
export function celsiusText(celsius: number): string {
  return `${formatFixed(celsius, 2)} °C`;
}

function plain(value: number | null, unit: string): string | null {
  if (value === null) return null;
  const n = formatNumber(value, 0);
  return unit === '%' ? `${n} %` : `${n} ${localUnit(unit)}`;
}

/**
 * The weather line of a set's top bar: the weather when there is some; nothing at all when no weather service is
 * configured (or reachable) and the set has no sensors of its own, or its place is not known, so that no page
 * carries a warning about it. A sync the user asked for that failed says why.
 */
export function WeatherLine({ token }: { token: string }) {
  const client = useQueryClient();
  const weather = useWeather(token);
  const [syncing, setSyncing] = useState(false);
  const [syncError, setSyncError] = useState<string | null>(null);

  async function sync() {
    setSyncing(true);
    setSyncError(null);
    try {
      client.setQueryData<WeatherResponse>(reportKeys.weather(token), await fetchWeather(token, true));
    } catch (e) {
      setSyncError(e instanceof Error ? e.message : String(e));
    } finally {
      setSyncing(false);
    }
  }

  return (
    <WeatherView
      data={weather.isError ? undefined : weather.data}
      syncError={syncError}
      syncing={syncing}
      onSync={token ? () => void sync() : undefined}
    />
  );
}

export function WeatherView({
  data,
  syncError,
  syncing = false,
  onSync,
}: {
  data: WeatherResponse | undefined;
  syncError?: string | null;
  syncing?: boolean;
  onSync?: (() => void) | undefined;
}) {
  const { t } = useTranslation();
  let content;
  if (syncError) content = <Typography.Text type="danger">{syncError}</Typography.Text>;
  else if (!data || data.state !== 'ok' || data.celsius === null) return null;
  else {
    const parts = [plain(data.humidity, '%'), plain(data.pressure, 'hPa')].filter(Boolean);
    content = (
      <Tooltip
        title={`${t(`reports.weather.${data.source ?? 'provider'}`)}${data.observedAt ? ` · ${t('reports.weather.observed', { time: formatDateTime(data.observedAt) })}` : ''}`}
      >
        <Space size={8} wrap>
          <Typography.Text strong data-testid="weather-temp">
            {celsiusText(data.celsius)}
          </Typography.Text>
          {parts.map((p) => (
            <Typography.Text key={p} type="secondary">
              {p}
            </Typography.Text>
          ))}
        </Space>
      </Tooltip>
    );
  }
  return (
    <Space size={4} className="weather-line" data-testid="weather-line" aria-label={t('reports.weather.label')}>
      {content}
      <Tooltip title={t('reports.weather.sync')}>
        <Button
          type="text"
          size="small"
          icon={<SyncOutlined spin={syncing} />}
          aria-label={t('reports.weather.sync')}
          onClick={onSync}
          disabled={!onSync || syncing}
          data-testid="weather-sync"
        />
      </Tooltip>
    </Space>
  );
}
