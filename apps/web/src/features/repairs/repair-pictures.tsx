// The pictures of a repair request: thumbnails in a row (fetched with the session's headers), each opening the
// full picture in a dialog.
import { useState } from 'react';
import { Modal, Skeleton, Spin } from 'antd';
import { PictureOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { RepairPicture } from '@genset/protocol';
import { useRepairPicture } from './api.ts';

function Thumb({
  token,
  picture,
  label,
  onOpen,
}: {
  token: string;
  picture: RepairPicture;
  label: string;
  onOpen: () => void;
}) {
  const { t } = useTranslation();
  const thumb = useRepairPicture(token, picture.name, true);
  const url = thumb.data;
  return (
    <button
      type="button"
      className="repair-thumb"
      onClick={onOpen}
      aria-label={t('repairs.detail.openPicture', { label })}
    >
      {url ? (
        <img src={url} alt={label} data-testid="repair-thumb" />
      ) : thumb.isError ? (
        <PictureOutlined className="repair-thumb-missing" />
      ) : (
        <Skeleton.Image active />
      )}
    </button>
  );
}

function FullPicture({ token, picture, label }: { token: string; picture: RepairPicture; label: string }) {
  const full = useRepairPicture(token, picture.name, false);
  const url = full.data;
  return url ? (
    <img src={url} alt={label} className="repair-full" data-testid="repair-full-picture" />
  ) : (
    <div className="repair-full-loading">
      <Spin />
    </div>
  );
}

export function RepairPictures({ token, pictures }: { token: string; pictures: RepairPicture[] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<number | null>(null);
  const label = (i: number) => t('repairs.detail.pictureOf', { n: i + 1, total: pictures.length });
  const current = open === null ? null : pictures[open];
  return (
    <>
      <div className="repair-thumbs" data-testid="repair-pictures">
        {pictures.map((p, i) => (
          <Thumb key={p.name} token={token} picture={p} label={label(i)} onOpen={() => setOpen(i)} />
        ))}
      </div>
      <Modal
        open={current !== null && current !== undefined}
        onCancel={() => setOpen(null)}
        footer={null}
        title={open === null ? null : label(open)}
        width={960}
        centered
        destroyOnHidden
      >
        {current && open !== null ? <FullPicture token={token} picture={current} label={label(open)} /> : null}
      </Modal>
    </>
  );
}
