// The eight screens of one protocol version, in the order the section bar shows them; `{id}` in each route
// is the version's id.
export const SECTIONS = [
  { key: 'items', path: '/com/module/xieyi' },
  { key: 'commands', path: '/com/module/zhiling' },
  { key: 'moduleStatus', path: '/com/module/mukuai' },
  { key: 'configMenus', path: '/com/module/configNav' },
  { key: 'configParams', path: '/com/module/configProtocol' },
  { key: 'configRead', path: '/com/module/configRead' },
  { key: 'optionLists', path: '/com/configSelect/configSelectData' },
  { key: 'coordinates', path: '/com/configSelect/configCoord' },
] as const;

export type SectionKey = (typeof SECTIONS)[number]['key'];

export function sectionPath(key: SectionKey, id: number): string {
  return `${SECTIONS.find((section) => section.key === key)!.path}/${id}`;
}

export const PROTOCOL_LIST_PATH = '/com/module/list';
