// Messages of data scopes: the department of sets and stations.
import type { DomainCatalog } from './index.ts';

const catalog: DomainCatalog = {
  'en-US': {
    'fields.departmentId': 'Department',
    'log.gensetDepartment': 'Set “{name}” moved to the department “{department}”',
    'log.gensetDepartmentCleared': 'Set “{name}” belongs to its owner’s department again',
    'log.siteDepartment': 'Station “{name}” moved to the department “{department}”',
    'log.siteDepartmentCleared': 'Station “{name}” belongs to its owner’s department again',
  },
  'zh-CN': {
    'fields.departmentId': '部门',
    'log.gensetDepartment': '机组“{name}”划入部门“{department}”',
    'log.gensetDepartmentCleared': '机组“{name}”重新归属其所有者的部门',
    'log.siteDepartment': '电站“{name}”划入部门“{department}”',
    'log.siteDepartmentCleared': '电站“{name}”重新归属其所有者的部门',
  },
  'zh-TW': {
    'fields.departmentId': '部門',
    'log.gensetDepartment': '機組「{name}」劃入部門「{department}」',
    'log.gensetDepartmentCleared': '機組「{name}」重新歸屬其擁有者的部門',
    'log.siteDepartment': '電站「{name}」劃入部門「{department}」',
    'log.siteDepartmentCleared': '電站「{name}」重新歸屬其擁有者的部門',
  },
  'ru-RU': {
    'fields.departmentId': 'Отдел',
    'log.gensetDepartment': 'Агрегат «{name}» переведён в отдел «{department}»',
    'log.gensetDepartmentCleared': 'Агрегат «{name}» снова относится к отделу владельца',
    'log.siteDepartment': 'Станция «{name}» переведена в отдел «{department}»',
    'log.siteDepartmentCleared': 'Станция «{name}» снова относится к отделу владельца',
  },
  'es-ES': {
    'fields.departmentId': 'Departamento',
    'log.gensetDepartment': 'Grupo «{name}» trasladado al departamento «{department}»',
    'log.gensetDepartmentCleared': 'El grupo «{name}» vuelve a pertenecer al departamento de su propietario',
    'log.siteDepartment': 'Estación «{name}» trasladada al departamento «{department}»',
    'log.siteDepartmentCleared': 'La estación «{name}» vuelve a pertenecer al departamento de su propietario',
  },
  'tr-TR': {
    'fields.departmentId': 'Departman',
    'log.gensetDepartment': '“{name}” jeneratör seti “{department}” departmanına taşındı',
    'log.gensetDepartmentCleared': '“{name}” jeneratör seti yeniden sahibinin departmanına bağlı',
    'log.siteDepartment': '“{name}” istasyonu “{department}” departmanına taşındı',
    'log.siteDepartmentCleared': '“{name}” istasyonu yeniden sahibinin departmanına bağlı',
  },
};
export default catalog;
