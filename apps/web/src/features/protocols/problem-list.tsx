// The problems of a refused document, each at its exact place, as the server named and worded them (in the
// console's language, which every request carries).
import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DocumentProblem } from './api.ts';

export function ProblemList({ problems, onClose }: { problems: DocumentProblem[]; onClose?: () => void }) {
  const { t } = useTranslation();
  if (problems.length === 0) return null;
  return (
    <Alert
      type="error"
      showIcon
      closable={onClose ? { onClose } : false}
      style={{ marginBottom: 16 }}
      title={t('protocols.problems.title', { count: problems.length })}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 18 }} data-testid="document-problems">
          {problems.map((problem) => (
            <li key={`${problem.path}:${problem.message}`}>
              <Typography.Text code>{problem.path}</Typography.Text> {problem.message}
            </li>
          ))}
        </ul>
      }
    />
  );
}
