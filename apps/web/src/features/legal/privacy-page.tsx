// /yinsi: the privacy policy.
import { LegalDocument } from './legal-document.tsx';

export function PrivacyPage() {
  return <LegalDocument doc="privacy" />;
}
