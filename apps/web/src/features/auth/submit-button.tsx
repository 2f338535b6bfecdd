// The submit button of a sign-in form (sign in, register, reset): it counts down instead while a "too many
// attempts" wait lasts, and cannot be used until it has passed.
import { Button } from 'antd';
import type { useRetryWait } from './retry-wait.ts';

export function SubmitButton({
  label,
  pending,
  wait,
  testId,
}: {
  label: string;
  pending: boolean;
  wait: ReturnType<typeof useRetryWait>;
  testId?: string;
}) {
  return (
    <Button
      type="primary"
      htmlType="submit"
      block
      size="large"
      loading={pending}
      disabled={wait.waiting}
      data-testid={testId}
    >
      {wait.label ?? label}
    </Button>
  );
}
