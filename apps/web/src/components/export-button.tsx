// Downloads a list or a history as XLSX (the button) or CSV (its menu).
import { useState } from 'react';
import { Button, Dropdown, Space } from 'antd';
import { DownOutlined, DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

export type ExportFormat = 'xlsx' | 'csv';

export function ExportButton({
  onExport,
  disabled,
}: {
  onExport: (format: ExportFormat) => Promise<unknown>;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const run = async (format: ExportFormat) => {
    setBusy(format);
    try {
      await onExport(format);
    } catch {
      // the download reported the failure with a toast
    } finally {
      setBusy(null);
    }
  };
  return (
    <Space.Compact>
      <Button
        icon={<DownloadOutlined />}
        loading={busy === 'xlsx'}
        disabled={disabled || busy !== null}
        onClick={() => void run('xlsx')}
        data-testid="export-button"
      >
        {t('gensets.export.button')}
      </Button>
      <Dropdown
        trigger={['click']}
        disabled={disabled || busy !== null}
        menu={{
          items: [
            { key: 'xlsx', label: t('gensets.export.xlsx') },
            { key: 'csv', label: t('gensets.export.csv') },
          ],
          onClick: ({ key }) => void run(key as ExportFormat),
        }}
      >
        <Button icon={<DownOutlined />} loading={busy === 'csv'} aria-label={t('gensets.export.formats')} />
      </Dropdown>
    </Space.Compact>
  );
}
