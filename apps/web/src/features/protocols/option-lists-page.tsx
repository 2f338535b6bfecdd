// /com/configSelect/configSelectData/{id}: dropdown management — named option lists (value → label in six
// languages) that configuration parameters share. Saving a list also refreshes the copy each parameter using
// it keeps, so what remote configuration offers is always the list as edited here.
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ConfigParam, EnumOption, OptionList, ProtocolText } from '@genset/protocol';
import { storedLanguage } from '../../i18n/languages.ts';
import { useDocumentRules } from './document-rules.ts';
import { OptionsEditor } from './options-editor.tsx';
import { SectionPage } from './section-page.tsx';
import { SectionTable } from './section-table.tsx';
import { TextFields } from './text-fields.tsx';

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

export function OptionListsPage() {
  const { t } = useTranslation();
  const rules = useDocumentRules();
  const lang = storedLanguage();
  return (
    <SectionPage section="optionLists">
      {({ detail, save, canEdit }) => {
        const usersOf = (key: string) => detail.configParams.filter((p) => p.optionList === key).map((p) => p.key);
        return (
          <SectionTable<OptionList, ListForm>
            name="optionLists"
            rows={detail.optionLists}
            rowKey={(row) => row.key}
            describe={(row) => row.key}
            canEdit={canEdit}
            matches={(row, q) =>
              row.key.includes(q) ||
              row.name[lang].toLowerCase().includes(q) ||
              row.options.some((o) => o.label[lang].toLowerCase().includes(q))
            }
            columns={[
              { key: 'key', title: t('protocols.fields.key'), dataIndex: 'key' },
              { key: 'name', title: t('protocols.fields.name'), render: (_v, row) => row.name[lang] },
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
            fields={(editing) => (
              <>
                <Form.Item
                  name="key"
                  label={t('protocols.fields.key')}
                  rules={rules.key(detail.optionLists.filter((l) => l !== editing).map((l) => l.key))}
                  tooltip={t('protocols.hints.key')}
                >
                  <Input maxLength={60} spellCheck={false} disabled={editing !== null} />
                </Form.Item>
                <TextFields name="name" label={t('protocols.fields.name')} />
                <OptionsEditor name="options" label={t('protocols.fields.options')} required />
              </>
            )}
            toValues={(row) => ({ ...row })}
            newValues={() => ({ options: [] })}
            fromValues={(values) => ({ key: values.key.trim(), name: values.name, options: values.options })}
            onSave={(optionLists) =>
              save({ optionLists, configParams: withListOptions(detail.configParams, optionLists) })
            }
            addText={t('protocols.optionLists.add')}
            createTitle={t('protocols.optionLists.create')}
            editTitle={t('protocols.optionLists.edit')}
            modalWidth={860}
          />
        );
      }}
    </SectionPage>
  );
}
