// Messages of the authority rule of administrative writes: what lies beyond the caller's reach, the operation-log
// entry of a refused attempt, and registration through an invitation code or a company's host name (an
// application waiting for review).
import type { DomainCatalog } from './index.ts';

const catalog: DomainCatalog = {
  'en-US': {
    'permissions.*:*': 'Everything (platform administrator)',
    'authority.permission': 'Not allowed: the permission “{permission}” is beyond what you hold.',
    'authority.scope': 'Not allowed: the data scope “{scope}” is beyond your reach.',
    'authority.department': 'Not allowed: the department “{name}” is beyond your reach.',
    'authority.set': 'Not allowed: the set “{name}” is beyond your reach.',
    'authority.site': 'Not allowed: the station “{name}” is beyond your reach.',
    'authority.ownRole': 'Not allowed: nobody may change their own role or what it grants.',
    'log.adminRefused': 'Refused {attempt}: {reason} is beyond the operator’s reach',
    'success.registeredPending':
      'Registration complete. Your application to join {company} is waiting for an administrator’s review.',
  },
  'zh-CN': {
    'permissions.*:*': '全部权限（平台管理员）',
    'authority.permission': '不允许：权限“{permission}”超出了您所拥有的权限。',
    'authority.scope': '不允许：数据范围“{scope}”超出了您的范围。',
    'authority.department': '不允许：部门“{name}”超出了您的范围。',
    'authority.set': '不允许：机组“{name}”超出了您的范围。',
    'authority.site': '不允许：电站“{name}”超出了您的范围。',
    'authority.ownRole': '不允许：任何人都不能修改自己的角色或其权限。',
    'log.adminRefused': '已拒绝 {attempt}：{reason} 超出操作者的范围',
    'success.registeredPending': '注册成功。您加入“{company}”的申请正在等待管理员审核。',
  },
  'zh-TW': {
    'permissions.*:*': '全部權限（平台管理員）',
    'authority.permission': '不允許：權限「{permission}」超出了您所擁有的權限。',
    'authority.scope': '不允許：資料範圍「{scope}」超出了您的範圍。',
    'authority.department': '不允許：部門「{name}」超出了您的範圍。',
    'authority.set': '不允許：機組「{name}」超出了您的範圍。',
    'authority.site': '不允許：電站「{name}」超出了您的範圍。',
    'authority.ownRole': '不允許：任何人都不能修改自己的角色或其權限。',
    'log.adminRefused': '已拒絕 {attempt}：{reason} 超出操作者的範圍',
    'success.registeredPending': '註冊成功。您加入「{company}」的申請正在等待管理員審核。',
  },
  'ru-RU': {
    'permissions.*:*': 'Все права (администратор платформы)',
    'authority.permission': 'Не разрешено: право «{permission}» выходит за пределы ваших прав.',
    'authority.scope': 'Не разрешено: область данных «{scope}» выходит за пределы вашей.',
    'authority.department': 'Не разрешено: отдел «{name}» вне вашей области.',
    'authority.set': 'Не разрешено: агрегат «{name}» вне вашей области.',
    'authority.site': 'Не разрешено: станция «{name}» вне вашей области.',
    'authority.ownRole': 'Не разрешено: никто не может менять свою роль или её права.',
    'log.adminRefused': 'Отказано {attempt}: {reason} вне области оператора',
    'success.registeredPending':
      'Регистрация завершена. Ваша заявка на вступление в «{company}» ожидает проверки администратором.',
  },
  'es-ES': {
    'permissions.*:*': 'Todo (administrador de la plataforma)',
    'authority.permission': 'No permitido: el permiso «{permission}» excede lo que usted tiene.',
    'authority.scope': 'No permitido: el ámbito de datos «{scope}» excede su alcance.',
    'authority.department': 'No permitido: el departamento «{name}» está fuera de su alcance.',
    'authority.set': 'No permitido: el grupo «{name}» está fuera de su alcance.',
    'authority.site': 'No permitido: la estación «{name}» está fuera de su alcance.',
    'authority.ownRole': 'No permitido: nadie puede cambiar su propio rol ni lo que este concede.',
    'log.adminRefused': 'Rechazado {attempt}: {reason} excede el alcance del operador',
    'success.registeredPending':
      'Registro completado. Su solicitud para unirse a {company} está pendiente de la revisión de un administrador.',
  },
  'tr-TR': {
    'permissions.*:*': 'Her şey (platform yöneticisi)',
    'authority.permission': 'İzin verilmedi: “{permission}” yetkisi sahip olduklarınızın ötesinde.',
    'authority.scope': 'İzin verilmedi: “{scope}” veri kapsamı erişiminizin ötesinde.',
    'authority.department': 'İzin verilmedi: “{name}” departmanı erişiminizin ötesinde.',
    'authority.set': 'İzin verilmedi: “{name}” jeneratör seti erişiminizin ötesinde.',
    'authority.site': 'İzin verilmedi: “{name}” istasyonu erişiminizin ötesinde.',
    'authority.ownRole': 'İzin verilmedi: kimse kendi rolünü veya rolünün verdiklerini değiştiremez.',
    'log.adminRefused': '{attempt} reddedildi: {reason} operatörün erişiminin ötesinde',
    'success.registeredPending':
      'Kayıt tamamlandı. {company} şirketine katılma başvurunuz bir yöneticinin incelemesini bekliyor.',
  },
};
export default catalog;
