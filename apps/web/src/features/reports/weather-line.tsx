// The temperature, humidity and pressure at a set's place with a sync button (spec 2, top layout; shown only with
// genset:report). The temperature is the service's Kelvin less 273.15, with two decimals (spec 9).
import { useState } from 'react';
import { Button, Space, Tooltip, Typography } from 'antd';
import { SyncOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { WeatherResponse } from '@genset/protocol';
import { formatDateTime, localUnit } from '../../components/format.ts';
import { storedLanguage } from '../../i18n/languages.ts';
import { fetchWeather, reportKeys, useWeather } from './api.ts';

/** °C with exactly two decimals, written the reader's way ("20.01", "20,01"). */
export function celsiusText(celsius: number): string {
  return `${new Intl.NumberFormat(storedLanguage(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(celsius)} °C`;
}

function plain(value: number | null, unit: string): string | null {
  if (value === null) return null;
  const n = new Intl.NumberFormat(storedLanguage(), { maximumFractionDigits: 0 }).format(value);
  return unit === '%' ? `${n} %` : `${n} ${localUnit(unit)}`;
}

export function WeatherLine({ token }: { token: string }) {
  const { t } = useTranslation();
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

  const data = weather.data;
  const error = syncError ?? (weather.isError ? weather.error.message : null);
  let content;
  if (error) content = <Typography.Text type="danger">{error}</Typography.Text>;
  else if (!data) content = <Typography.Text type="secondary">{t('common.states.loading')}</Typography.Text>;
  else if (data.state !== 'ok' || data.celsius === null)
    content = (
      <Typography.Text type="secondary">
        {t(`reports.weather.states.${data.state === 'ok' ? 'notConfigured' : data.state}`)}
      </Typography.Text>
    );
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
          onClick={() => void sync()}
          disabled={!token || syncing}
          data-testid="weather-sync"
        />
      </Tooltip>
    </Space>
  );
}
