// /xieyis: the user agreement.
import { LegalDocument } from './legal-document.tsx';

export function AgreementPage() {
  return <LegalDocument doc="agreement" />;
}
