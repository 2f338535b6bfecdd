// The plan card of a set's maintain tab: the items, the add button and the dialogs, for what the user may do.
import { useState } from 'react';
import { Button, Card } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { MaintItem, MaintPlanResponse } from '@genset/protocol';
import { DoneDialog, ItemDialog } from './plan-dialogs.tsx';
import { PlanItems } from './plan-view.tsx';

/** The plan card of the maintain tab with its dialogs. */
export function PlanCard({ plan }: { plan: MaintPlanResponse }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<MaintItem | null>(null);
  const [adding, setAdding] = useState(false);
  const [doing, setDoing] = useState<MaintItem | null>(null);
  return (
    <Card
      size="small"
      title={t('maintenance.plan.title')}
      data-testid="maint-plan"
      extra={
        plan.canEdit ? (
          <Button type="primary" size="small" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            {t('maintenance.actions.add')}
          </Button>
        ) : null
      }
    >
      <PlanItems token={plan.token} items={plan.items} access={plan} actions={{ edit: setEditing, done: setDoing }} />
      <ItemDialog
        token={plan.token}
        item={editing}
        open={adding || editing !== null}
        onClose={() => {
          setAdding(false);
          setEditing(null);
        }}
      />
      <DoneDialog
        token={plan.token}
        item={doing}
        today={plan.today}
        runHours={plan.runHours}
        onClose={() => setDoing(null)}
      />
    </Card>
  );
}
