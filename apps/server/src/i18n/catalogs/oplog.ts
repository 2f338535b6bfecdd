// Words of operation-log entries as they are read: how a command or a setting write ended.
import type { DomainCatalog } from './index.ts';

const catalog: DomainCatalog = {
  'en-US': {
    'log.outcome.ok': 'Done',
    'log.outcome.failed': 'Failed',
    'log.outcome.error': 'Failed',
    'log.outcome.timeout': 'No answer',
    'log.outcome.offline': 'Module offline',
    'log.outcome.refused': 'Refused',
    'log.outcome.notTaken': 'Not taken by the controller',
  },
  'zh-CN': {
    'log.outcome.ok': '已完成',
    'log.outcome.failed': '失败',
    'log.outcome.error': '失败',
    'log.outcome.timeout': '无应答',
    'log.outcome.offline': '模块离线',
    'log.outcome.refused': '被拒绝',
    'log.outcome.notTaken': '控制器未采用',
  },
  'zh-TW': {
    'log.outcome.ok': '已完成',
    'log.outcome.failed': '失敗',
    'log.outcome.error': '失敗',
    'log.outcome.timeout': '無應答',
    'log.outcome.offline': '模組離線',
    'log.outcome.refused': '被拒絕',
    'log.outcome.notTaken': '控制器未採用',
  },
  'ru-RU': {
    'log.outcome.ok': 'Выполнено',
    'log.outcome.failed': 'Ошибка',
    'log.outcome.error': 'Ошибка',
    'log.outcome.timeout': 'Нет ответа',
    'log.outcome.offline': 'Модуль не в сети',
    'log.outcome.refused': 'Отклонено',
    'log.outcome.notTaken': 'Контроллер не принял',
  },
  'es-ES': {
    'log.outcome.ok': 'Hecho',
    'log.outcome.failed': 'Fallido',
    'log.outcome.error': 'Fallido',
    'log.outcome.timeout': 'Sin respuesta',
    'log.outcome.offline': 'Módulo desconectado',
    'log.outcome.refused': 'Rechazado',
    'log.outcome.notTaken': 'El controlador no lo aceptó',
  },
  'tr-TR': {
    'log.outcome.ok': 'Tamamlandı',
    'log.outcome.failed': 'Başarısız',
    'log.outcome.error': 'Başarısız',
    'log.outcome.timeout': 'Yanıt yok',
    'log.outcome.offline': 'Modül çevrim dışı',
    'log.outcome.refused': 'Reddedildi',
    'log.outcome.notTaken': 'Denetleyici kabul etmedi',
  },
};

export default catalog;
