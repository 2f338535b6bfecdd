// /com/configSelect/configSelectData/{id}: dropdown management — named option lists (value → label in six
// languages) that configuration parameters share. Saving a list also refreshes the copy each parameter using
// it keeps, so what remote configuration offers is always the list as edited here.
import type { ConfigParam, EnumOption, OptionList, ProtocolText } from '@genset/protocol';
import { KeyNameFields, useEditor } from './editor-fields.tsx';
import { OptionsEditor } from './options-editor.tsx';
import { sectionScreen, useSection } from './section-page.tsx';
import { ListTable } from './section-table.tsx';

interface ListForm {
  key: string;
  name: ProtocolText;
  options: EnumOption[];
}

/** Parameters that name a list take its current options. */
export function withListOptions(params: readonly ConfigParam[], lists: readonly OptionList[]): ConfigParam[] {
  return params.map((param) => {
    const list = param.optionList ? lists.find((l) => l.key === param.optionList) : undefined;
    return list ? { ...param, options: list.options } : param;
  });
}

function OptionListsTable() {
  const { t, lang } = useEditor();
  const { detail, save } = useSection();
  const usersOf = (key: string) => detail.configParams.filter((p) => p.optionList === key).map((p) => p.key);
  return (
    <ListTable<'optionLists', ListForm>
      list="optionLists"
      text="name"
      matches={(row, q) => row.options.some((o) => o.label[lang].toLowerCase().includes(q))}
      columns={[
        {
          key: 'options',
          title: t('protocols.fields.options'),
          render: (_v, row) => row.options.map((o) => `${o.value} = ${o.label[lang]}`).join(' · '),
        },
        {
          key: 'usedBy',
          title: t('protocols.fields.usedBy'),
          render: (_v, row) => usersOf(row.key).join(', ') || t('common.none'),
        },
      ]}
      deleteBlocker={(row) => {
        const users = usersOf(row.key);
        return users.length > 0 ? t('protocols.blockers.listUsed', { names: users.join(', ') }) : null;
      }}
      fields={(editing, taken) => (
        <>
          <KeyNameFields taken={taken} fixed={editing !== null} />
          <OptionsEditor name="options" label={t('protocols.fields.options')} required />
        </>
      )}
      toValues={(row) => ({ ...row })}
      newValues={() => ({ options: [] })}
      fromValues={(values) => ({ key: values.key.trim(), name: values.name, options: values.options })}
      onSave={(optionLists) => save({ optionLists, configParams: withListOptions(detail.configParams, optionLists) })}
      modalWidth={860}
    />
  );
}

export const OptionListsPage = sectionScreen('optionLists', OptionListsTable);
