// The SMS providers configured for this installation, in the order they are asked (SMS_PROVIDER, then
// SMS_FALLBACK_PROVIDER); none with SMS_PROVIDER=outbox, the embedded default.
import { API_BASE } from '@genset/protocol';
import type { Config, SmsProviderName } from '../../config.ts';
import { TWILIO_STATUS_PATH } from './delivery-reports.ts';
import { createAliyunProvider } from './sms/aliyun.ts';
import { createTwilioProvider } from './sms/twilio.ts';
import type { SmsProvider } from './types.ts';

/**
 * Where Twilio reports a message's later states, and the token its reports are signed with: only when Twilio is
 * one of the providers and the console has a public https address Twilio can reach (PUBLIC_URL).
 */
export function twilioCallback(config: Pick<Config, 'sms' | 'publicUrl'>) {
  const { sms } = config;
  const used = sms.provider === 'twilio' || sms.fallback === 'twilio';
  if (!used || !config.publicUrl.startsWith('https://')) return null;
  return { authToken: sms.twilio.authToken, callbackUrl: `${config.publicUrl}${API_BASE}${TWILIO_STATUS_PATH}` };
}

export function smsProvidersFromConfig(config: Pick<Config, 'sms' | 'publicUrl'>): SmsProvider[] {
  const { sms } = config;
  const callback = twilioCallback(config);
  const make = (name: SmsProviderName): SmsProvider => {
    if (name === 'twilio') {
      return createTwilioProvider({
        accountSid: sms.twilio.accountSid,
        authToken: sms.twilio.authToken,
        ...(sms.twilio.from ? { from: sms.twilio.from } : {}),
        ...(sms.twilio.messagingServiceSid ? { messagingServiceSid: sms.twilio.messagingServiceSid } : {}),
        baseUrl: sms.twilio.url,
        ...(callback ? { statusCallback: callback.callbackUrl } : {}),
      });
    }
    return createAliyunProvider({
      accessKeyId: sms.aliyun.accessKeyId,
      accessKeySecret: sms.aliyun.accessKeySecret,
      signName: sms.aliyun.signName,
      codeTemplate: sms.aliyun.codeTemplate,
      ...(sms.aliyun.noticeTemplate ? { noticeTemplate: sms.aliyun.noticeTemplate } : {}),
      endpoint: sms.aliyun.url,
    });
  };
  if (sms.provider === 'outbox') return [];
  return [make(sms.provider), ...(sms.fallback ? [make(sms.fallback)] : [])];
}
