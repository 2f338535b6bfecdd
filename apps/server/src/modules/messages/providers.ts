// The SMS providers configured for this installation, in the order they are asked (SMS_PROVIDER, then
// SMS_FALLBACK_PROVIDER); none with SMS_PROVIDER=outbox, the embedded default.
import type { Config, SmsProviderName } from '../../config.ts';
import { createAliyunProvider } from './sms/aliyun.ts';
import { createTwilioProvider } from './sms/twilio.ts';
import type { SmsProvider } from './types.ts';

export function smsProvidersFromConfig(config: Pick<Config, 'sms' | 'publicUrl'>): SmsProvider[] {
  const { sms } = config;
  const make = (name: SmsProviderName): SmsProvider => {
    if (name === 'twilio') {
      return createTwilioProvider({
        accountSid: sms.twilio.accountSid,
        authToken: sms.twilio.authToken,
        ...(sms.twilio.from ? { from: sms.twilio.from } : {}),
        ...(sms.twilio.messagingServiceSid ? { messagingServiceSid: sms.twilio.messagingServiceSid } : {}),
        baseUrl: sms.twilio.url,
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
