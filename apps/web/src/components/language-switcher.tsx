// Picks one of the six languages; the page reloads in the new one (spec 1).
import { Button, Dropdown } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES, LANGUAGES, storedLanguage, switchLanguage, isLanguage } from '../i18n/languages.ts';

export function LanguageSwitcher({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const current = storedLanguage();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LANGUAGES.map((lang) => ({
          key: lang,
          label: <span lang={lang}>{LANGUAGE_NAMES[lang]}</span>,
        })),
        onClick: ({ key }) => {
          if (isLanguage(key) && key !== current) switchLanguage(key);
        },
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} aria-label={t('common.language')} data-testid="language-switcher">
        {compact ? null : LANGUAGE_NAMES[current]}
      </Button>
    </Dropdown>
  );
}
