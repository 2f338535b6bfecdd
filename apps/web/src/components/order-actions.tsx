// A list the user puts in order (a group's sets, the live items chosen): each entry's buttons to move it up or
// down a place and to remove it, labelled with the entry's name by the caller.
import type { Dispatch, ReactNode, SetStateAction } from 'react';
import { Button } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from '@ant-design/icons';

/** The list with the entry at `index` moved one place up (-1) or down (1). */
function moved<T>(list: T[], index: number, by: -1 | 1): T[] {
  const next = [...list];
  const [item] = next.splice(index, 1);
  next.splice(index + by, 0, item!);
  return next;
}

/** The actions of the entry at `index` of the list held in `setList`'s state: up, down, remove. */
export function orderActions<T>({
  index,
  count,
  setList,
  labels,
}: {
  index: number;
  count: number;
  setList: Dispatch<SetStateAction<T[]>>;
  labels: { up: string; down: string; remove: string };
}): ReactNode[] {
  return [
    <Button
      key="up"
      type="text"
      size="small"
      icon={<ArrowUpOutlined />}
      disabled={index === 0}
      aria-label={labels.up}
      onClick={() => setList((list) => moved(list, index, -1))}
    />,
    <Button
      key="down"
      type="text"
      size="small"
      icon={<ArrowDownOutlined />}
      disabled={index === count - 1}
      aria-label={labels.down}
      onClick={() => setList((list) => moved(list, index, 1))}
    />,
    <Button
      key="remove"
      type="text"
      size="small"
      danger
      icon={<DeleteOutlined />}
      aria-label={labels.remove}
      onClick={() => setList((list) => list.filter((_, i) => i !== index))}
    />,
  ];
}
