// /invite/<code>: where an invitation link leads, signed in or not. It shows the company, the role and department
// proposed and whether the link can still be used (and why not). Signed out, it offers sign-in and registration,
// both of which come back here; signed in, the person applies to join and an administrator reviews it.
import { Button, Descriptions, Result, Space, Spin } from 'antd';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import type { InvitePublicResponse } from '@genset/protocol';
import { ApiError, get, post } from '../../api/request.ts';
import { loadLocaleResources } from '../../i18n/index.ts';
import type { Language } from '../../i18n/languages.ts';
import { PublicCard } from '../../components/public-card.tsx';
import { PublicFrame } from '../../components/public-frame.tsx';
import { formatDateTime } from '../../components/format.ts';
import { withRedirect } from '../../app/public-routes.ts';
import { useSession } from '../../stores/session.ts';

/** The page's texts: the signed-out console loads only the sign-in pages' own. */
function useInviteTexts(): boolean {
  const { i18n } = useTranslation();
  const lang = i18n.language as Language;
  const texts = useQuery({
    queryKey: ['invite', 'texts', lang],
    queryFn: async () => {
      if (!i18next.exists('invite.title')) {
        const resources = await loadLocaleResources(lang, (d) => d === 'invite');
        i18next.addResourceBundle(lang, 'translation', resources, true, true);
      }
      return true;
    },
    staleTime: Infinity,
  });
  return texts.data === true;
}

export function InvitePage() {
  const { t } = useTranslation();
  const ready = useInviteTexts();
  const code = (useParams().code ?? '').trim();
  const signedIn = useSession((s) => Boolean(s.token));
  const info = useQuery({
    queryKey: ['invite', code],
    queryFn: ({ signal }) =>
      get<InvitePublicResponse>(`/invite/info/${encodeURIComponent(code)}`, undefined, { signal, silent: true }),
    retry: false,
  });
  const apply = useMutation({
    mutationFn: () => post<{ id: number; status: string }>('/invite/apply', { code }, { silent: true }),
  });
  const here = `/invite/${encodeURIComponent(code)}`;

  let body;
  if (!ready || info.isPending) body = <Spin spinning style={{ display: 'block', minHeight: 160 }} />;
  else if (info.isError)
    body = (
      <Result
        status="warning"
        title={t('invite.refused')}
        subTitle={info.error instanceof ApiError ? info.error.message : t('errors.network')}
        data-testid="invite-result"
      />
    );
  else if (apply.isSuccess)
    body = (
      <Result
        status="success"
        title={t('invite.applied')}
        subTitle={t('invite.appliedHint', { company: info.data.companyName })}
        extra={
          <Link to="/index">
            <Button type="primary">{t('invite.home')}</Button>
          </Link>
        }
        data-testid="invite-result"
      />
    );
  else {
    const d = info.data;
    const refusal = apply.isError
      ? apply.error instanceof ApiError
        ? apply.error.message
        : t('errors.network')
      : d.reason;
    body = (
      <Space direction="vertical" size="large" style={{ width: '100%' }} data-testid="invite-page">
        <Result
          status={refusal ? 'warning' : 'info'}
          title={t('invite.title', { company: d.companyName })}
          subTitle={refusal ?? t('invite.intro')}
          style={{ padding: 0 }}
        />
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={t('invite.company')}>{d.companyName}</Descriptions.Item>
          {d.roleName && <Descriptions.Item label={t('invite.role')}>{d.roleName}</Descriptions.Item>}
          {d.departmentName && <Descriptions.Item label={t('invite.department')}>{d.departmentName}</Descriptions.Item>}
          <Descriptions.Item label={t('invite.expires')}>{formatDateTime(d.expiresAt)}</Descriptions.Item>
        </Descriptions>
        {d.state === 'active' &&
          (signedIn ? (
            <Button
              type="primary"
              block
              loading={apply.isPending}
              onClick={() => apply.mutate()}
              data-testid="invite-apply"
            >
              {t('invite.apply')}
            </Button>
          ) : (
            <Space direction="vertical" style={{ width: '100%' }}>
              <Link to={withRedirect('/login', here)}>
                <Button type="primary" block data-testid="invite-login">
                  {t('invite.signIn')}
                </Button>
              </Link>
              <Link to={withRedirect('/register', here)}>
                <Button block data-testid="invite-register">
                  {t('invite.register')}
                </Button>
              </Link>
            </Space>
          ))}
      </Space>
    );
  }

  return (
    <PublicFrame width={480}>
      <PublicCard>{body}</PublicCard>
    </PublicFrame>
  );
}
