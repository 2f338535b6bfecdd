// Messages: why an SMS or e-mail did not go out (as the person asking for a code and the administrator reading the
// delivery log read it), the test message, and the page of a one-click unsubscribe.
import type { DomainCatalog } from './index.ts';

const catalog: DomainCatalog = {
  'en-US': {
    'messages.failure.invalid-recipient': 'This number or address cannot receive messages. Check it and try again.',
    'messages.failure.quota':
      'Too many messages have gone to this number or the message account’s limit is reached. Try again later.',
    'messages.failure.blocked-content':
      'The message provider refused the text or its template. Tell your administrator.',
    'messages.failure.unauthorized': 'The message provider refused this server’s account. Tell your administrator.',
    'messages.failure.unavailable': 'The message could not be sent just now. Try again in a few minutes.',
    'messages.failure.rejected': 'The message provider refused the message. Tell your administrator.',
    'messages.test.subject': 'Test message from {company}',
    'messages.test.text': 'This is a test message from {company}. If you can read it, messages reach you.',
    'messages.unsubscribe.title': 'Notice e-mail',
    'messages.unsubscribe.ask': 'Stop notice e-mail to this address? Notices stay in your message centre.',
    'messages.unsubscribe.confirm': 'Stop notice e-mail',
    'messages.unsubscribe.done':
      'Notice e-mail is off. You can turn it on again in your message settings in the console.',
    'messages.unsubscribe.invalid': 'This link is not valid. Change your message settings in the console instead.',
  },
  'zh-CN': {
    'messages.failure.invalid-recipient': '该号码或地址无法接收消息，请检查后重试。',
    'messages.failure.quota': '发往该号码的消息过多，或短信账户已达上限，请稍后再试。',
    'messages.failure.blocked-content': '短信服务商拒绝了该内容或模板，请联系管理员。',
    'messages.failure.unauthorized': '短信服务商拒绝了本服务器的账户，请联系管理员。',
    'messages.failure.unavailable': '消息暂时无法发送，请几分钟后再试。',
    'messages.failure.rejected': '服务商拒绝了该消息，请联系管理员。',
    'messages.test.subject': '来自{company}的测试消息',
    'messages.test.text': '这是来自{company}的测试消息。能看到它，说明消息可以送达您。',
    'messages.unsubscribe.title': '通知邮件',
    'messages.unsubscribe.ask': '停止向此地址发送通知邮件吗？通知仍会保留在消息中心。',
    'messages.unsubscribe.confirm': '停止通知邮件',
    'messages.unsubscribe.done': '通知邮件已关闭。您可以在控制台的消息设置中重新开启。',
    'messages.unsubscribe.invalid': '此链接无效，请在控制台的消息设置中修改。',
  },
  'zh-TW': {
    'messages.failure.invalid-recipient': '此號碼或地址無法接收訊息，請檢查後再試。',
    'messages.failure.quota': '傳送到此號碼的訊息過多，或簡訊帳戶已達上限，請稍後再試。',
    'messages.failure.blocked-content': '簡訊服務商拒絕了此內容或範本，請聯絡管理員。',
    'messages.failure.unauthorized': '簡訊服務商拒絕了本伺服器的帳戶，請聯絡管理員。',
    'messages.failure.unavailable': '訊息暫時無法傳送，請幾分鐘後再試。',
    'messages.failure.rejected': '服務商拒絕了此訊息，請聯絡管理員。',
    'messages.test.subject': '來自{company}的測試訊息',
    'messages.test.text': '這是來自{company}的測試訊息。能看到它，表示訊息可以送達您。',
    'messages.unsubscribe.title': '通知郵件',
    'messages.unsubscribe.ask': '停止寄送通知郵件到此地址嗎？通知仍會保留在訊息中心。',
    'messages.unsubscribe.confirm': '停止通知郵件',
    'messages.unsubscribe.done': '通知郵件已關閉。您可以在主控台的訊息設定中重新開啟。',
    'messages.unsubscribe.invalid': '此連結無效，請改在主控台的訊息設定中修改。',
  },
  'ru-RU': {
    'messages.failure.invalid-recipient':
      'На этот номер или адрес нельзя отправить сообщение. Проверьте его и повторите.',
    'messages.failure.quota':
      'На этот номер отправлено слишком много сообщений или исчерпан лимит учётной записи. Повторите позже.',
    'messages.failure.blocked-content': 'Провайдер отклонил текст или шаблон сообщения. Сообщите администратору.',
    'messages.failure.unauthorized': 'Провайдер отклонил учётную запись этого сервера. Сообщите администратору.',
    'messages.failure.unavailable': 'Сейчас сообщение отправить не удалось. Повторите через несколько минут.',
    'messages.failure.rejected': 'Провайдер отклонил сообщение. Сообщите администратору.',
    'messages.test.subject': 'Тестовое сообщение от {company}',
    'messages.test.text': 'Это тестовое сообщение от {company}. Если вы его видите, сообщения до вас доходят.',
    'messages.unsubscribe.title': 'Письма с уведомлениями',
    'messages.unsubscribe.ask': 'Больше не присылать уведомления на этот адрес? Они останутся в центре сообщений.',
    'messages.unsubscribe.confirm': 'Отключить письма',
    'messages.unsubscribe.done':
      'Письма с уведомлениями отключены. Включить их снова можно в настройках сообщений консоли.',
    'messages.unsubscribe.invalid': 'Ссылка недействительна. Измените настройки сообщений в консоли.',
  },
  'es-ES': {
    'messages.failure.invalid-recipient':
      'Este número o dirección no puede recibir mensajes. Compruébelo y vuelva a intentarlo.',
    'messages.failure.quota':
      'Se han enviado demasiados mensajes a este número o se ha alcanzado el límite de la cuenta. Inténtelo más tarde.',
    'messages.failure.blocked-content':
      'El proveedor de mensajes ha rechazado el texto o su plantilla. Avise a su administrador.',
    'messages.failure.unauthorized':
      'El proveedor de mensajes ha rechazado la cuenta de este servidor. Avise a su administrador.',
    'messages.failure.unavailable': 'No se ha podido enviar el mensaje ahora. Inténtelo de nuevo en unos minutos.',
    'messages.failure.rejected': 'El proveedor ha rechazado el mensaje. Avise a su administrador.',
    'messages.test.subject': 'Mensaje de prueba de {company}',
    'messages.test.text': 'Este es un mensaje de prueba de {company}. Si puede leerlo, los mensajes le llegan.',
    'messages.unsubscribe.title': 'Correo de avisos',
    'messages.unsubscribe.ask': '¿Dejar de enviar avisos a esta dirección? Seguirán en su centro de mensajes.',
    'messages.unsubscribe.confirm': 'Dejar de recibir avisos',
    'messages.unsubscribe.done':
      'El correo de avisos está desactivado. Puede volver a activarlo en los ajustes de mensajes de la consola.',
    'messages.unsubscribe.invalid': 'Este enlace no es válido. Cambie los ajustes de mensajes en la consola.',
  },
  'tr-TR': {
    'messages.failure.invalid-recipient': 'Bu numara veya adres mesaj alamıyor. Kontrol edip yeniden deneyin.',
    'messages.failure.quota':
      'Bu numaraya çok fazla mesaj gönderildi ya da mesaj hesabının sınırına ulaşıldı. Daha sonra yeniden deneyin.',
    'messages.failure.blocked-content': 'Mesaj sağlayıcısı metni veya şablonunu reddetti. Yöneticinize bildirin.',
    'messages.failure.unauthorized': 'Mesaj sağlayıcısı bu sunucunun hesabını reddetti. Yöneticinize bildirin.',
    'messages.failure.unavailable': 'Mesaj şu anda gönderilemedi. Birkaç dakika sonra yeniden deneyin.',
    'messages.failure.rejected': 'Sağlayıcı mesajı reddetti. Yöneticinize bildirin.',
    'messages.test.subject': '{company} test mesajı',
    'messages.test.text':
      'Bu, {company} tarafından gönderilen bir test mesajıdır. Okuyabiliyorsanız mesajlar size ulaşıyor.',
    'messages.unsubscribe.title': 'Bildirim e-postaları',
    'messages.unsubscribe.ask':
      'Bu adrese bildirim e-postası gönderilmesi durdurulsun mu? Bildirimler mesaj merkezinizde kalır.',
    'messages.unsubscribe.confirm': 'Bildirim e-postalarını durdur',
    'messages.unsubscribe.done':
      'Bildirim e-postaları kapatıldı. Konsoldaki mesaj ayarlarınızdan yeniden açabilirsiniz.',
    'messages.unsubscribe.invalid': 'Bu bağlantı geçerli değil. Mesaj ayarlarınızı konsoldan değiştirin.',
  },
};

export default catalog;
