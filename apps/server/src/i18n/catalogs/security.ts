// Messages of embedded consoles' one-time codes, of sign-in bound to a company's address and of sign-in locks (with
// the notice that tells an owner their account is locked).
import type { DomainCatalog } from './index.ts';

const catalog: DomainCatalog = {
  'en-US': {
    'sms.accountLockedSubject': 'Your account is locked for new addresses',
    'sms.accountLocked':
      'Your account was locked for {minutes} minutes after many failed sign-ins from other addresses. Where you have signed in before, you still can. If it was not you, change your password.',
    'log.lockedAddress': 'Sign-in locked at this address after repeated failed sign-ins, until {until}',
    'errors.embedCodeInvalid':
      'This link has expired or was already used. Open the page again from where it is embedded.',
    'errors.hostRefused': 'This account cannot sign in at this address. Use your company’s console address.',
  },
  'zh-CN': {
    'sms.accountLockedSubject': '您的账号已对新地址锁定',
    'sms.accountLocked':
      '由于来自其他地址的多次登录失败，您的账号已被锁定 {minutes} 分钟。在您以前登录过的地址仍可登录。如果不是您本人操作，请修改密码。',
    'log.lockedAddress': '此地址多次登录失败，在此地址的登录锁定至 {until}',
    'errors.embedCodeInvalid': '此链接已过期或已被使用。请从嵌入它的页面重新打开。',
    'errors.hostRefused': '此账号不能在此地址登录。请使用贵公司的控制台地址。',
  },
  'zh-TW': {
    'sms.accountLockedSubject': '您的帳號已對新位址鎖定',
    'sms.accountLocked':
      '由於來自其他位址的多次登入失敗，您的帳號已被鎖定 {minutes} 分鐘。在您以前登入過的位址仍可登入。若非您本人操作，請變更密碼。',
    'log.lockedAddress': '此位址多次登入失敗，在此位址的登入鎖定至 {until}',
    'errors.embedCodeInvalid': '此連結已過期或已被使用。請從嵌入它的頁面重新開啟。',
    'errors.hostRefused': '此帳號不能在此位址登入。請使用貴公司的控制台位址。',
  },
  'ru-RU': {
    'sms.accountLockedSubject': 'Ваша учётная запись заблокирована для новых адресов',
    'sms.accountLocked':
      'Ваша учётная запись заблокирована на {minutes} мин. после множества неудачных попыток входа с других адресов. Там, где вы уже входили, вход по-прежнему возможен. Если это были не вы, смените пароль.',
    'log.lockedAddress': 'Вход с этого адреса заблокирован после повторных неудачных попыток до {until}',
    'errors.embedCodeInvalid':
      'Срок действия ссылки истёк, или она уже использована. Откройте страницу заново там, куда она встроена.',
    'errors.hostRefused':
      'С этой учётной записью нельзя войти по этому адресу. Используйте адрес консоли вашей компании.',
  },
  'es-ES': {
    'sms.accountLockedSubject': 'Su cuenta está bloqueada para direcciones nuevas',
    'sms.accountLocked':
      'Su cuenta se ha bloqueado durante {minutes} minutos tras muchos intentos de inicio de sesión fallidos desde otras direcciones. Donde ya inició sesión antes, todavía puede hacerlo. Si no fue usted, cambie su contraseña.',
    'log.lockedAddress': 'Inicio de sesión bloqueado en esta dirección tras varios intentos fallidos, hasta {until}',
    'errors.embedCodeInvalid':
      'Este enlace ha caducado o ya se ha usado. Vuelva a abrir la página desde donde está integrada.',
    'errors.hostRefused':
      'Esta cuenta no puede iniciar sesión en esta dirección. Use la dirección de la consola de su empresa.',
  },
  'tr-TR': {
    'sms.accountLockedSubject': 'Hesabınız yeni adreslere kilitlendi',
    'sms.accountLocked':
      'Başka adreslerden yapılan çok sayıda başarısız giriş nedeniyle hesabınız {minutes} dakika kilitlendi. Daha önce giriş yaptığınız yerlerden hâlâ giriş yapabilirsiniz. Bu siz değilseniz parolanızı değiştirin.',
    'log.lockedAddress': 'Tekrarlanan başarısız girişler nedeniyle bu adresten giriş {until} tarihine kadar kilitlendi',
    'errors.embedCodeInvalid':
      'Bu bağlantının süresi dolmuş veya bağlantı zaten kullanılmış. Sayfayı gömülü olduğu yerden yeniden açın.',
    'errors.hostRefused': 'Bu hesapla bu adreste oturum açılamaz. Şirketinizin konsol adresini kullanın.',
  },
};
export default catalog;
