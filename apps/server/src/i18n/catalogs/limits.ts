// Messages of the server's own limits: too many calls in a short time, a request too large.
import type { DomainCatalog } from './index.ts';

const catalog: DomainCatalog = {
  'en-US': {
    'errors.bodyTooLarge': 'The request is too large (at most {kb} KB).',
    'errors.rateLimited': 'Too many requests. Please wait {seconds} s and try again.',
  },
  'zh-CN': {
    'errors.bodyTooLarge': '请求内容过大（最多 {kb} KB）。',
    'errors.rateLimited': '请求过于频繁，请等待 {seconds} 秒后再试。',
  },
  'zh-TW': {
    'errors.bodyTooLarge': '請求內容過大（最多 {kb} KB）。',
    'errors.rateLimited': '請求過於頻繁，請等待 {seconds} 秒後再試。',
  },
  'ru-RU': {
    'errors.bodyTooLarge': 'Запрос слишком велик (не более {kb} КБ).',
    'errors.rateLimited': 'Слишком много запросов. Подождите {seconds} с и повторите попытку.',
  },
  'es-ES': {
    'errors.bodyTooLarge': 'La solicitud es demasiado grande (como máximo {kb} KB).',
    'errors.rateLimited': 'Demasiadas solicitudes. Espere {seconds} s y vuelva a intentarlo.',
  },
  'tr-TR': {
    'errors.bodyTooLarge': 'İstek çok büyük (en fazla {kb} KB).',
    'errors.rateLimited': 'Çok fazla istek gönderildi. Lütfen {seconds} saniye bekleyip yeniden deneyin.',
  },
};

export default catalog;
