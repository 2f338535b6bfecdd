// /genset/subscribe?code=…: where a set's QR code (or its link) leads. Signed out, the route guard sends the
// visitor through sign-in (or registration) and back here; signed in, the code is used once, and the page says
// which set was added with which rights, or why the code was not accepted.
import { useEffect, useRef } from 'react';
import { Button, Result, Spin } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/request.ts';
import { useSubscribe } from './api.ts';

export function SubscribeLinkPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const code = (params.get('code') ?? '').trim();
  const subscribe = useSubscribe();
  const used = useRef<string | null>(null);

  useEffect(() => {
    // once per code, also when React runs the effect twice
    if (!code || used.current === code) return;
    used.current = code;
    subscribe.mutate(code);
  }, [code, subscribe]);

  const mine = (
    <Link to="/genset/mylist" key="mine">
      <Button>{t('gensets.subscribeLink.mine')}</Button>
    </Link>
  );

  if (!code)
    return (
      <Result status="warning" title={t('gensets.subscribeLink.noCode')} extra={mine} data-testid="subscribe-link" />
    );
  if (subscribe.isError) {
    const error = subscribe.error;
    const reason = error instanceof ApiError ? error.fields.code || error.message : t('errors.network');
    return (
      <Result
        status="warning"
        title={t('gensets.subscribeLink.refused')}
        subTitle={reason}
        extra={mine}
        data-testid="subscribe-link"
      />
    );
  }
  if (subscribe.isSuccess) {
    const set = subscribe.data;
    return (
      <Result
        status="success"
        title={t('gensets.subscribe.done', { name: set.name, rights: t(`gensets.rights.${set.rights}`) })}
        extra={[
          <Link to={`/crewmanage/detail/${encodeURIComponent(set.token)}`} key="open">
            <Button type="primary">{t('gensets.subscribeLink.open')}</Button>
          </Link>,
          mine,
        ]}
        data-testid="subscribe-link"
      />
    );
  }
  return (
    <Spin spinning tip={t('gensets.subscribeLink.working')}>
      <div style={{ minHeight: 200 }} />
    </Spin>
  );
}
