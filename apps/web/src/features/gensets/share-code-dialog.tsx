// A set's code as a QR code and a link, for a sticker on the set: scanned (or opened) signed in, it subscribes
// with the code's rights; signed out, it goes through sign-in or registration and comes back. The sticker
// prints on its own (the rest of the page is hidden from the printer while it does).
import { Button, Flex, Modal, QRCode, Typography } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import './share-code.css';

export type CodeKind = 'subscription' | 'control';

/** Where the code's QR code leads, on this console's own address. */
export function subscribeLink(code: string, origin = window.location.origin): string {
  return `${origin}/genset/subscribe?code=${encodeURIComponent(code)}`;
}

function printSticker() {
  document.body.classList.add('printing-sticker');
  const done = () => {
    document.body.classList.remove('printing-sticker');
    window.removeEventListener('afterprint', done);
  };
  window.addEventListener('afterprint', done);
  window.print();
}

export function ShareCodeDialog({
  open,
  onClose,
  setName,
  kind,
  code,
}: {
  open: boolean;
  onClose: () => void;
  setName: string;
  kind: CodeKind;
  code: string;
}) {
  const { t } = useTranslation();
  const link = subscribeLink(code);
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('gensets.share.title', { name: setName })}
      footer={[
        <Button key="print" icon={<PrinterOutlined />} onClick={printSticker}>
          {t('gensets.share.print')}
        </Button>,
        <Button key="close" type="primary" onClick={onClose}>
          {t('common.actions.close')}
        </Button>,
      ]}
      destroyOnHidden
    >
      <Flex vertical align="center" gap={8} className="code-sticker" data-testid="code-sticker">
        <Typography.Text strong>{setName}</Typography.Text>
        <QRCode value={link} size={200} bordered={false} data-testid="code-qr" />
        <Typography.Text>{t(`gensets.share.${kind}`)}</Typography.Text>
        <Typography.Text code style={{ fontSize: 18 }}>
          {code}
        </Typography.Text>
      </Flex>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
        {t('gensets.share.hint')}
      </Typography.Paragraph>
      <Typography.Text copyable={{ text: link }} data-testid="code-link" style={{ wordBreak: 'break-all' }}>
        {link}
      </Typography.Text>
    </Modal>
  );
}
