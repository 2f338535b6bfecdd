// Words of Web Push subscriptions (a browser notified of alarms) and their refusals, in six languages.
import type { DomainCatalog } from './index.ts';

const catalog: DomainCatalog = {
  'en-US': {
    'push.endpoint': 'This browser’s push address is not an https:// address of a push service.',
    'push.refused': 'This browser’s push service is at an address the server may not contact.',
    'push.notFound': 'No such device among yours.',
  },
  'zh-CN': {
    'push.endpoint': '此浏览器的推送地址不是推送服务的 https:// 地址。',
    'push.refused': '此浏览器的推送服务位于服务器不允许访问的地址。',
    'push.notFound': '您的设备中没有这台设备。',
  },
  'zh-TW': {
    'push.endpoint': '此瀏覽器的推播位址不是推播服務的 https:// 位址。',
    'push.refused': '此瀏覽器的推播服務位於伺服器不允許連線的位址。',
    'push.notFound': '您的裝置中沒有這台裝置。',
  },
  'ru-RU': {
    'push.endpoint': 'Адрес push-уведомлений этого браузера не является адресом https:// службы уведомлений.',
    'push.refused': 'Служба уведомлений этого браузера находится по адресу, к которому серверу нельзя обращаться.',
    'push.notFound': 'Среди ваших устройств такого нет.',
  },
  'es-ES': {
    'push.endpoint': 'La dirección push de este navegador no es una dirección https:// de un servicio push.',
    'push.refused':
      'El servicio push de este navegador está en una dirección a la que el servidor no puede conectarse.',
    'push.notFound': 'Ese dispositivo no está entre los suyos.',
  },
  'tr-TR': {
    'push.endpoint': 'Bu tarayıcının anlık bildirim adresi, bir bildirim hizmetinin https:// adresi değil.',
    'push.refused': 'Bu tarayıcının bildirim hizmeti, sunucunun bağlanamayacağı bir adreste.',
    'push.notFound': 'Cihazlarınız arasında böyle bir cihaz yok.',
  },
};

export default catalog;
