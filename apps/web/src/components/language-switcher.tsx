// Picks one of the six languages; the page reloads in the new one (spec 1). A small menu button of its own
// rather than antd's Dropdown, so the sign-in page does not load a whole menu component for six choices.
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from 'antd';
import { CheckOutlined, GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES, LANGUAGES, storedLanguage, switchLanguage } from '../i18n/languages.ts';
import './language-switcher.css';

export function LanguageSwitcher({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const current = storedLanguage();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root.current?.contains(event.target as Node)) {
        setOpen(false);
      }
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    root.current?.querySelector<HTMLElement>('[aria-checked="true"]')?.focus();
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  return (
    <div className="language-switcher" ref={root}>
      <Button
        type="text"
        icon={<GlobalOutlined />}
        aria-label={t('common.language')}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
        data-testid="language-switcher"
      >
        {compact ? null : LANGUAGE_NAMES[current]}
      </Button>
      {open ? (
        <div className="language-switcher-menu" role="menu" id={menuId} aria-label={t('common.language')}>
          {LANGUAGES.map((lang) => (
            <button
              key={lang}
              type="button"
              role="menuitemradio"
              aria-checked={lang === current}
              lang={lang}
              className="language-switcher-item"
              onClick={() => {
                setOpen(false);
                if (lang !== current) switchLanguage(lang);
              }}
            >
              <span>{LANGUAGE_NAMES[lang]}</span>
              {lang === current ? <CheckOutlined aria-hidden /> : null}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
